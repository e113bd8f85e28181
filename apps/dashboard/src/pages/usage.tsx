/** @jsxRuntime automatic */
/** @jsxImportSource hono/jsx */
import type { UsageRow } from "@svc/db";
import type { UsageDay, UsageKey, UsageLimits, UsageSummary } from "../usage.js";
import { Page, type Viewer } from "./layout.js";

/** Key colours, in order of traffic; later keys share the last ("other keys"). */
const KEY_COLOURS = ["#1f5f99", "#2a7f62", "#8a5a00", "#6a4c93", "#3d6b21", "#5c5c5c"] as const;
const RATE_LIMITED_COLOUR = "#b00020";
export const USAGE_WINDOWS = [7, 30, 90] as const;

const CHART = { width: 960, height: 260, left: 56, right: 12, top: 14, bottom: 34 } as const;

function colourOf(keys: UsageKey[], keyId: string): string {
  const index = keys.findIndex((k) => k.keyId === keyId);
  return KEY_COLOURS[Math.min(index, KEY_COLOURS.length - 1)] as string;
}

/**
 * The value axis for a peak: a round step (1, 2 or 5 times a power of ten, never below 1, as
 * requests are whole) and at most five steps up to the first multiple at or above the peak, so
 * five requests give 0, 1, 2, 3, 4, 5 and 1,234 give 0, 500, 1,000, 1,500.
 */
export function valueAxis(peak: number): { top: number; ticks: number[] } {
  const wanted = Math.max(1, peak);
  let step = 1;
  for (let power = 1; Math.ceil(wanted / step) > 5; ) {
    const next = [1, 2, 5].map((m) => m * power).find((candidate) => candidate > step);
    if (next === undefined) power *= 10;
    else step = next;
  }
  const top = step * Math.ceil(wanted / step);
  return { top, ticks: Array.from({ length: top / step + 1 }, (_, i) => i * step) };
}

/** Where the chart draws: the value axis, each day's slot and bar width, and the y of a value. */
interface ChartScale {
  top: number;
  ticks: number[];
  slot: number;
  barWidth: number;
  y: (value: number) => number;
  /** Every how many days a date is written under the bars (at most about ten labels). */
  labelEvery: number;
  busiest: number;
  quota: number | null;
  /** Whether the quota is near enough to the busiest day to join the scale. */
  quotaOnScale: boolean;
}

function chartScale(summary: UsageSummary, limits: UsageLimits): ChartScale {
  const { days } = summary;
  const quota = limits.dailyAccountQuota;
  const busiest = Math.max(0, ...days.map((d) => d.requests));
  const quotaOnScale = quota !== null && quota <= Math.max(1, busiest) * 1.25;
  const { top, ticks } = valueAxis(Math.max(busiest, quotaOnScale ? (quota ?? 0) : 0));
  const plotWidth = CHART.width - CHART.left - CHART.right;
  const plotHeight = CHART.height - CHART.top - CHART.bottom;
  const slot = plotWidth / days.length;
  return {
    top,
    ticks,
    slot,
    barWidth: Math.max(2, slot * 0.7),
    y: (value: number) => CHART.top + plotHeight - (value / top) * plotHeight,
    labelEvery: Math.ceil(days.length / 10),
    busiest,
    quota,
    quotaOnScale,
  };
}

/** One day's stacked bar: each key's accepted requests in its colour, then the day's 429s in red. */
function dayBar(day: UsageDay, index: number, keys: UsageKey[], scale: ChartScale) {
  const { slot, barWidth, y } = scale;
  const x = CHART.left + index * slot + (slot - barWidth) / 2;
  let base = 0;
  const parts = day.byKey
    .map((k) => ({ colour: colourOf(keys, k.keyId), value: k.requests - k.rateLimited }))
    .concat([{ colour: RATE_LIMITED_COLOUR, value: day.rateLimited }])
    .filter((p) => p.value > 0);
  return parts.map((p) => {
    const rect = (
      <rect
        x={x.toFixed(1)}
        y={y(base + p.value).toFixed(1)}
        width={barWidth.toFixed(1)}
        height={(y(base) - y(base + p.value)).toFixed(1)}
        fill={p.colour}
      />
    );
    base += p.value;
    return rect;
  });
}

/** The value axis: a grid line and its label at each tick. */
function axisTicks(scale: ChartScale) {
  const { ticks, y } = scale;
  return ticks.map((t) => (
    <g>
      <line x1={CHART.left} x2={CHART.width - CHART.right} y1={y(t)} y2={y(t)} stroke="#d0d0d0" />
      <text x={CHART.left - 6} y={y(t) + 4} text-anchor="end" font-size="12" fill="#1b1b1b">
        {t.toLocaleString("en-US")}
      </text>
    </g>
  ));
}

/** The dates under the bars, every `labelEvery` days. */
function dayLabels(days: UsageDay[], scale: ChartScale) {
  const { slot, labelEvery } = scale;
  return days.map((day, index) =>
    index % labelEvery === 0 ? (
      <text
        x={CHART.left + index * slot + slot / 2}
        y={CHART.height - 12}
        text-anchor="middle"
        font-size="12"
        fill="#1b1b1b"
      >
        {day.day.slice(5)}
      </text>
    ) : null,
  );
}

/** The daily account quota as a dashed line, when it is on the scale. */
function quotaLine(scale: ChartScale) {
  const { quota, quotaOnScale, y } = scale;
  return quota !== null && quotaOnScale ? (
    <g>
      <line
        x1={CHART.left}
        x2={CHART.width - CHART.right}
        y1={y(quota)}
        y2={y(quota)}
        stroke="#1b1b1b"
        stroke-dasharray="6 4"
      />
      <text x={CHART.width - CHART.right} y={y(quota) - 4} text-anchor="end" font-size="12" fill="#1b1b1b">
        {`daily account quota ${quota}`}
      </text>
    </g>
  ) : null;
}

/** The legend of key colours and 429s; an off-scale quota is given here in words. */
function chartCaption(keys: UsageKey[], scale: ChartScale) {
  const { quota, quotaOnScale } = scale;
  return (
    <figcaption>
      <ul class="legend">
        {keys.slice(0, KEY_COLOURS.length - 1).map((k) => (
          <li>
            <svg width="12" height="12" aria-hidden="true">
              <rect width="12" height="12" fill={colourOf(keys, k.keyId)} />
            </svg>{" "}
            <code>{k.prefix}…</code> ({k.kind})
          </li>
        ))}
        {keys.length >= KEY_COLOURS.length ? <li>grey: other keys</li> : null}
        <li>
          <svg width="12" height="12" aria-hidden="true">
            <rect width="12" height="12" fill={RATE_LIMITED_COLOUR} />
          </svg>{" "}
          refused with 429
        </li>
      </ul>
      {quota !== null && !quotaOnScale ? (
        <p data-testid="quota-off-scale">{`The daily account quota, ${quota.toLocaleString("en-US")}, is above this scale.`}</p>
      ) : null}
    </figcaption>
  );
}

/**
 * Requests per day as stacked bars: each key's accepted requests in its colour, the day's 429s in
 * red on top, and the daily account quota as a dashed line when the plan has one. The axis scales
 * to the busiest day; the quota joins the scale only when it is near (within a quarter above the
 * peak), else the caption gives it, so a few requests under a large quota still show as bars.
 */
function UsageChart(props: { summary: UsageSummary; limits: UsageLimits; windowDays: number }) {
  const { days, keys } = props.summary;
  const scale = chartScale(props.summary, props.limits);
  const { quota, busiest } = scale;
  return (
    <figure>
      <svg
        viewBox={`0 0 ${CHART.width} ${CHART.height}`}
        width="100%"
        role="img"
        aria-labelledby="usage-chart-title usage-chart-desc"
      >
        <title id="usage-chart-title">{`Requests per UTC day, last ${props.windowDays} days`}</title>
        <desc id="usage-chart-desc">
          {`${props.summary.requests} requests in all, ${props.summary.rateLimited} of them refused with 429; busiest day ${busiest}.`}
          {quota ? ` The daily account quota is ${quota}.` : ""} The table below has every number.
        </desc>
        {axisTicks(scale)}
        {days.map((day, index) => dayBar(day, index, keys, scale))}
        {dayLabels(days, scale)}
        {quotaLine(scale)}
      </svg>
      {chartCaption(keys, scale)}
    </figure>
  );
}

function limitsText(limits: UsageLimits): string {
  const parts: string[] = [];
  if (limits.dailyKeyQuota !== null) parts.push(`${limits.dailyKeyQuota} requests per UTC day per key`);
  if (limits.dailyAccountQuota !== null) parts.push(`${limits.dailyAccountQuota} per day for the account`);
  if (limits.ratePerSecond !== null)
    parts.push(`${limits.ratePerSecond} per second (bursts of ${limits.burst ?? limits.ratePerSecond})`);
  if (limits.monthlyAllowance !== null)
    parts.push(`${limits.monthlyAllowance} a month included, more counted as overage`);
  return parts.length ? parts.join("; ") : "no limits";
}

/** Today's use against the daily quotas, when the plan has them. */
function TodayAgainstQuota(props: { summary: UsageSummary; limits: UsageLimits }) {
  const today = props.summary.days.at(-1);
  if (!today || (props.limits.dailyAccountQuota === null && props.limits.dailyKeyQuota === null)) return null;
  const accepted = (n: { requests: number; rateLimited: number }) => n.requests - n.rateLimited;
  return (
    <table>
      <caption>{`Today (${today.day}, UTC) against the daily quotas`}</caption>
      <thead>
        <tr>
          <th scope="col">Counted against</th>
          <th scope="col">Accepted</th>
          <th scope="col">Quota</th>
          <th scope="col">Refused (429)</th>
        </tr>
      </thead>
      <tbody>
        <tr>
          <th scope="row">The account</th>
          <td>{accepted(today)}</td>
          <td>{props.limits.dailyAccountQuota ?? "none"}</td>
          <td>{today.rateLimited}</td>
        </tr>
        {today.byKey.map((k) => (
          <tr>
            <th scope="row">
              <code>{props.summary.keys.find((key) => key.keyId === k.keyId)?.prefix ?? k.keyId}…</code>
            </th>
            <td>{accepted(k)}</td>
            <td>{props.limits.dailyKeyQuota ?? "none"}</td>
            <td>{k.rateLimited}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function UsagePage(props: {
  viewer: Viewer;
  windowDays: number;
  limits: UsageLimits;
  summary: UsageSummary;
  rows: UsageRow[];
}) {
  const { summary, limits } = props;
  const windowStart = summary.days[0]?.day ?? "";
  const detail = props.rows.filter((r) => r.day >= windowStart).reverse();
  return (
    <Page title="Usage" viewer={props.viewer} section="usage">
      <p>
        Plan: <strong>{limits.planName}</strong>: {limitsText(limits)}. This month so far:{" "}
        <strong data-testid="month-to-date">{summary.monthToDate}</strong> accepted requests
        {limits.monthlyAllowance !== null ? ` of ${limits.monthlyAllowance} included` : ""}. Counts reach this
        page within about 10 seconds.
      </p>
      <form method="get" action="/dashboard/usage">
        <label for="days">Window</label>
        <select id="days" name="days">
          {USAGE_WINDOWS.map((d) => (
            <option value={String(d)} selected={d === props.windowDays}>{`last ${d} days`}</option>
          ))}
        </select>{" "}
        <button type="submit">Show</button>
      </form>
      <UsageChart summary={summary} limits={limits} windowDays={props.windowDays} />
      <TodayAgainstQuota summary={summary} limits={limits} />
      <table>
        <caption>Requests per day, key and operation, newest day first</caption>
        <thead>
          <tr>
            <th scope="col">Day (UTC)</th>
            <th scope="col">Key</th>
            <th scope="col">Operation</th>
            <th scope="col">Requests</th>
            <th scope="col">Refused (429)</th>
          </tr>
        </thead>
        <tbody data-testid="usage-rows">
          {detail.map((r) => (
            <tr>
              <td>{r.day}</td>
              <td>
                <code>{r.keyPrefix}…</code>
              </td>
              <td>
                <code>{r.operation}</code>
              </td>
              <td>{r.requests}</td>
              <td>{r.rateLimited}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {detail.length === 0 ? <p>No request in this window.</p> : null}
    </Page>
  );
}
