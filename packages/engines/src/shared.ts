/**
 * Small pure helpers shared by the engines: rounding, clamping, a fast
 * ISO 8601 timestamp reader, mean/SD, linear ramps, confidence levels, a signal-key slug and the
 * symptom-scale trajectory (percent of the scale maximum on the most administered instrument).
 * No clock, no I/O, no dependencies. Parameter sets: params.ts.
 */
import {
  INSTRUMENTS,
  type InstrumentId,
  nearestFormTotals,
  percentOfScale,
  recogniseInstrument,
  type ScaleDirection,
  totalValidity,
} from "./knowledge/instruments.js";
import type { Assessment, ConfidenceLevel } from "./types.js";

export const MS_PER_DAY = 86_400_000;

/** Rounds to `digits` decimals the way Math.round does (halves up); never returns -0. */
export function round(value: number, digits = 2): number {
  const factor = 10 ** digits;
  const r = Math.round(value * factor) / factor;
  return r === 0 ? 0 : r;
}

/** A number as text, rounded (2 decimals by default), without trailing zeros. */
export function fmt(value: number, digits = 2): string {
  return String(round(value, digits));
}

/** A signed number as text: "+3.5", "-2", "0". */
export function signed(value: number, digits = 2): string {
  const r = round(value, digits);
  return r > 0 ? `+${r}` : String(r);
}

export function clamp(value: number, lo: number, hi: number): number {
  return Math.min(Math.max(value, lo), hi);
}

/**
 * Linear ramp from 0 at `zeroAt` to 1 at `fullAt`, clamped to [0, 1]. Works in either direction
 * (`fullAt` below `zeroAt` ramps up as the value falls). Equal ends give a step at that value.
 */
export function ramp(value: number, zeroAt: number, fullAt: number): number {
  if (zeroAt === fullAt) return fullAt >= zeroAt && value >= fullAt ? 1 : 0;
  return clamp((value - zeroAt) / (fullAt - zeroAt), 0, 1);
}

export function isFiniteNumber(value: unknown): value is number {
  return typeof value === "number" && Number.isFinite(value);
}

export function mean(values: readonly number[]): number {
  let sum = 0;
  for (const v of values) sum += v;
  return values.length === 0 ? 0 : sum / values.length;
}

/** Sample standard deviation (n - 1 denominator); 0 for fewer than two values. */
export function sampleSd(values: readonly number[]): number {
  const n = values.length;
  if (n < 2) return 0;
  const m = mean(values);
  let ss = 0;
  for (const v of values) ss += (v - m) * (v - m);
  return Math.sqrt(ss / (n - 1));
}

/** Confidence level of a 0..1 score against two cut-offs. */
export function confidenceLevel(score: number, highMin: number, moderateMin: number): ConfidenceLevel {
  return score >= highMin ? "high" : score >= moderateMin ? "moderate" : "low";
}

// ---------------------------------------------------------------------------------------------
// Timestamps

/** Two ASCII digits at `i` as a number, or -1. */
function d2(s: string, i: number): number {
  const a = s.charCodeAt(i) - 48;
  const b = s.charCodeAt(i + 1) - 48;
  return a >= 0 && a <= 9 && b >= 0 && b <= 9 ? a * 10 + b : -1;
}

function daysInMonth(y: number, m: number): number {
  if (m === 2) return (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0 ? 29 : 28;
  return m === 4 || m === 6 || m === 9 || m === 11 ? 30 : 31;
}

/** Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's days_from_civil). */
function daysFromCivil(year: number, m: number, d: number): number {
  const y = m <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (m > 2 ? m - 3 : m + 9) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

/**
 * Milliseconds since the epoch of the common ISO 8601 forms (`YYYY-MM-DD`, and
 * `YYYY-MM-DDTHH:MM[:SS[.fff…]]` with `Z` or `±HH:MM`), read by hand because `Date.parse` costs
 * about 0.13 µs per call; any other text goes to `Date.parse`, so the result always equals
 * `Date.parse(text)`. Returns null when the text is not a readable date.
 */
export function parseTime(text: string | undefined | null): number | null {
  if (typeof text !== "string") return null;
  const fast = parseIsoFast(text);
  if (!Number.isNaN(fast)) return fast;
  const t = Date.parse(text);
  return Number.isFinite(t) ? t : null;
}

/**
 * Each assessment's createdAt in milliseconds (null when unreadable), in input order: an engine
 * parses the times once and hands them to each reader of the same assessments.
 */
export function assessmentTimes(assessments: readonly Assessment[]): (number | null)[] {
  return assessments.map((a) => parseTime(a.createdAt));
}

/** Cumulative days before each month (index 1-12) in a common year. */
const DAYS_BEFORE_MONTH = [0, 0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334];

/** One ASCII digit at `i` as 0-9, or a value above 9 (unsigned wrap-around for characters below "0"). */
const dg = (s: string, i: number): number => (s.charCodeAt(i) - 48) >>> 0;

/**
 * The canonical form `YYYY-MM-DDTHH:MM:SS.sssZ` (what `Date#toISOString` writes, and what most
 * callers send), in about half the time of the general reader; NaN when the text is not exactly
 * that form with in-range fields.
 */
function parseCanonical(s: string): number {
  if (
    s.charCodeAt(4) !== 45 ||
    s.charCodeAt(7) !== 45 ||
    s.charCodeAt(10) !== 84 ||
    s.charCodeAt(13) !== 58 ||
    s.charCodeAt(16) !== 58 ||
    s.charCodeAt(19) !== 46 ||
    s.charCodeAt(23) !== 90
  )
    return Number.NaN;
  const y0 = dg(s, 0);
  const y1 = dg(s, 1);
  const y2 = dg(s, 2);
  const y3 = dg(s, 3);
  const mo0 = dg(s, 5);
  const mo1 = dg(s, 6);
  const d0 = dg(s, 8);
  const d1 = dg(s, 9);
  const h0 = dg(s, 11);
  const h1 = dg(s, 12);
  const mi0 = dg(s, 14);
  const mi1 = dg(s, 15);
  const s0 = dg(s, 17);
  const s1 = dg(s, 18);
  const f0 = dg(s, 20);
  const f1 = dg(s, 21);
  const f2 = dg(s, 22);
  if (
    // The tens digits of month, day, hour, minute and second need no check: a non-digit there
    // pushes the field out of its range below.
    y0 > 9 ||
    y1 > 9 ||
    y2 > 9 ||
    y3 > 9 ||
    mo1 > 9 ||
    d1 > 9 ||
    h1 > 9 ||
    mi1 > 9 ||
    s1 > 9 ||
    f0 > 9 ||
    f1 > 9 ||
    f2 > 9
  )
    return Number.NaN;
  const y = y0 * 1000 + y1 * 100 + y2 * 10 + y3;
  const mo = mo0 * 10 + mo1;
  const d = d0 * 10 + d1;
  const h = h0 * 10 + h1;
  const mi = mi0 * 10 + mi1;
  const sec = s0 * 10 + s1;
  if (mo < 1 || mo > 12 || d < 1 || h > 23 || mi > 59 || sec > 59) return Number.NaN;
  const leap = (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
  if (d > 28 && d > (mo === 2 ? (leap ? 29 : 28) : mo === 4 || mo === 6 || mo === 9 || mo === 11 ? 30 : 31))
    return Number.NaN;
  const yp = y - 1;
  const leapsBefore = Math.floor(yp / 4) - Math.floor(yp / 100) + Math.floor(yp / 400) - 477;
  const day =
    (y - 1970) * 365 + leapsBefore + (DAYS_BEFORE_MONTH[mo] as number) + d - 1 + (leap && mo > 2 ? 1 : 0);
  return day * MS_PER_DAY + ((h * 60 + mi) * 60 + sec) * 1000 + f0 * 100 + f1 * 10 + f2;
}

/** NaN when the text is not one of the fast forms (the caller then asks Date.parse). */
function parseIsoFast(s: string): number {
  const len = s.length;
  if (len === 24) {
    const t = parseCanonical(s);
    if (!Number.isNaN(t)) return t;
  }
  if (len < 10 || s.charCodeAt(4) !== 45 || s.charCodeAt(7) !== 45) return Number.NaN;
  const yh = d2(s, 0);
  const yl = d2(s, 2);
  const mo = d2(s, 5);
  const d = d2(s, 8);
  if (yh < 0 || yl < 0 || mo < 1 || mo > 12 || d < 1) return Number.NaN;
  const y = yh * 100 + yl;
  if (d > 28 && d > daysInMonth(y, mo)) return Number.NaN;
  const day = daysFromCivil(y, mo, d);
  if (len === 10) return day * MS_PER_DAY;
  if (len < 17 || s.charCodeAt(10) !== 84 || s.charCodeAt(13) !== 58) return Number.NaN;
  const h = d2(s, 11);
  const mi = d2(s, 14);
  if (h < 0 || h > 23 || mi < 0 || mi > 59) return Number.NaN;
  let i = 16;
  let sec = 0;
  let ms = 0;
  if (s.charCodeAt(i) === 58) {
    sec = d2(s, i + 1);
    if (sec < 0 || sec > 59) return Number.NaN;
    i += 3;
    if (s.charCodeAt(i) === 46) {
      i += 1;
      const start = i;
      while (i < len) {
        const c = s.charCodeAt(i) - 48;
        if (c < 0 || c > 9) break;
        if (i - start < 3) ms = ms * 10 + c;
        i += 1;
      }
      const n = i - start;
      if (n === 0) return Number.NaN;
      if (n === 1) ms *= 100;
      else if (n === 2) ms *= 10;
    }
  }
  let offsetMin = 0;
  const z = s.charCodeAt(i);
  if (z === 90 && i + 1 === len) {
    offsetMin = 0;
  } else if ((z === 43 || z === 45) && i + 6 === len && s.charCodeAt(i + 3) === 58) {
    const oh = d2(s, i + 1);
    const om = d2(s, i + 4);
    if (oh < 0 || oh > 23 || om < 0 || om > 59) return Number.NaN;
    offsetMin = (z === 43 ? 1 : -1) * (oh * 60 + om);
  } else {
    return Number.NaN;
  }
  const t = day * MS_PER_DAY + ((h * 60 + mi - offsetMin) * 60 + sec) * 1000 + ms;
  // Date's own range: ±8.64e15 ms.
  return Math.abs(t) <= 8.64e15 ? t : Number.NaN;
}

/** ISO text of epoch milliseconds, or null. */
export function isoOf(time: number | null): string | null {
  return time === null ? null : new Date(time).toISOString();
}

/** "2026-06-01" of epoch milliseconds. */
export function dateOf(time: number): string {
  return new Date(time).toISOString().slice(0, 10);
}

/**
 * Signal-key suffix of a name: Unicode-decomposed, accents dropped, lower-cased, every run of
 * characters other than a-z and 0-9 turned into one "_", leading/trailing "_" removed
 * ("Sertraline HCl 50mg" -> "sertraline_hcl_50mg"); an empty result becomes "unnamed".
 */
export function slugOf(name: string): string {
  const slug = name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "");
  return slug === "" ? "unnamed" : slug;
}

// ---------------------------------------------------------------------------------------------
// Symptom-scale trajectory

/**
 * Trajectory of the most administered instrument whose direction is known (else of the most
 * administered one), in percent of each administration's maxScore toward the worse end of the
 * scale (decision 60): on a higher-is-better scale (WHO-5) 100 - percent, so a rise is always worse.
 */
export interface Trajectory {
  /** Recognised instrument key, else the normalised instrumentId (else name). */
  instrumentKey: string;
  /** The recognised instrument, or null. */
  known: InstrumentId | null;
  /** Which way a worse state moves the score; null when not known (change must not be read). */
  direction: ScaleDirection | null;
  /** instrumentName of the newest administration of that instrument. */
  instrumentName: string;
  /** Distinct instruments among the readable administrations. */
  instruments: number;
  /** Readable administrations of the chosen instrument. */
  n: number;
  /** Of them, administrations whose total is invalid for the instrument (decision 81). */
  invalid: number;
  firstAt: number;
  lastAt: number;
  /** Percent of maximum toward the worse end (0-100) of the oldest and newest administration. */
  firstPct: number;
  lastPct: number;
  /** lastPct - firstPct, in percentage points (positive = worse, whatever the scale's direction). */
  change: number;
  /** lastAt - firstAt in days. */
  spanDays: number;
  /** Newest readable createdAt over all assessments (any instrument). */
  newestAt: number;
  /** Readable assessments of any instrument. */
  readable: number;
}

interface Group {
  key: string;
  known: InstrumentId | null;
  direction: ScaleDirection | null;
  n: number;
  times: number[];
  pcts: number[];
  invalid: number;
  /** Per administration: valid, and the percentages of its nearest totals toward the worse / better end. */
  valid: boolean[];
  worsePcts: number[];
  betterPcts: number[];
  firstAt: number;
  firstPct: number;
  lastAt: number;
  lastPct: number;
  lastName: string;
}

const normaliseKey = (text: string): string => text.toLowerCase().replace(/[^a-z0-9]/g, "");

/** Instrument key of an administration: its normalised instrumentId, else its normalised name. */
export function instrumentKeyOf(a: Pick<Assessment, "instrumentId" | "instrumentName">): string {
  const id = normaliseKey(a.instrumentId);
  if (id !== "") return id;
  const name = normaliseKey(a.instrumentName);
  return name === "" ? "unknown" : name;
}

/** Percent of maximum of one administration, clamped to 0-100 (a score above its maxScore reads as 100). */
export function pctOfMax(score: number, maxScore: number): number {
  return clamp((score / maxScore) * 100, 0, 100);
}

/** A trajectory and its administrations (times and percentages toward the worse end, aligned). */
export interface TrajectoryRead {
  trajectory: Trajectory;
  times: number[];
  pcts: number[];
  /** Whether each administration's total is valid for its instrument (decision 81). */
  valid: boolean[];
  /** Each administration at its nearest total toward the worse / better end (pcts when valid). */
  worsePcts: number[];
  betterPcts: number[];
}

/** A new instrument group, opened by its first readable administration. */
function newGroup(key: string, known: InstrumentId | null, t: number, name: string): Group {
  return {
    key,
    known,
    direction: known ? INSTRUMENTS[known].direction : null,
    n: 0,
    times: [],
    pcts: [],
    invalid: 0,
    valid: [],
    worsePcts: [],
    betterPcts: [],
    firstAt: t,
    firstPct: 0,
    lastAt: t,
    lastPct: 0,
    lastName: name,
  };
}

/** The instrument groups of a read, by table key (recognised instruments) or by instrumentKeyOf. */
interface InstrumentGroups {
  groups: Map<string, Group>;
  /**
   * instrumentId -> instrumentName -> group: most requests repeat one or two pairs, so each pair
   * is recognised once.
   */
  byPair: Map<string, Map<string, Group>>;
}

/** The group of an administration, opened at time `t` when it is the instrument's first. */
function groupOf(read: InstrumentGroups, a: Assessment, t: number): Group {
  let byName = read.byPair.get(a.instrumentId);
  if (byName === undefined) {
    byName = new Map();
    read.byPair.set(a.instrumentId, byName);
  }
  let g = byName.get(a.instrumentName);
  if (g === undefined) {
    const known = recogniseInstrument(a.instrumentId, a.instrumentName);
    const key = known ?? instrumentKeyOf(a);
    g = read.groups.get(key);
    if (g === undefined) {
      g = newGroup(key, known, t, a.instrumentName);
      read.groups.set(key, g);
    }
    byName.set(a.instrumentName, g);
  }
  return g;
}

/**
 * Adds one administration to its group: its percentage toward the worse end, and for a total no
 * form of the instrument can give, the nearest valid totals toward either end.
 */
function addAdministration(g: Group, a: Assessment, t: number): void {
  const raw = clamp(percentOfScale(g.known, a.score, a.maxScore), 0, 100);
  const toward = (r: number) => (g.direction === "higher_is_better" ? 100 - r : r);
  const pct = toward(raw);
  if (g.known !== null && totalValidity(g.known, a.score, a.maxScore) === "invalid") {
    const near = nearestFormTotals(g.known, a.score, a.maxScore);
    g.invalid += 1;
    g.valid.push(false);
    g.worsePcts.push(toward(clamp(percentOfScale(g.known, near.worse, a.maxScore), 0, 100)));
    g.betterPcts.push(toward(clamp(percentOfScale(g.known, near.better, a.maxScore), 0, 100)));
  } else {
    g.valid.push(true);
    g.worsePcts.push(pct);
    g.betterPcts.push(pct);
  }
  if (g.n === 0) {
    g.firstPct = pct;
    g.lastPct = pct;
  }
  g.n += 1;
  g.times.push(t);
  g.pcts.push(pct);
  if (t < g.firstAt) {
    g.firstAt = t;
    g.firstPct = pct;
  }
  if (t >= g.lastAt) {
    g.lastAt = t;
    g.lastPct = pct;
    g.lastName = a.instrumentName;
  }
}

/**
 * The group whose trajectory is read: the most administrations among groups whose direction is
 * known, else among all; ties to the newest administration, then the alphabetically first key.
 */
function chosenGroup(groups: ReadonlyMap<string, Group>): Group | null {
  let best: Group | null = null;
  for (const g of groups.values()) {
    const knownFirst = (g.direction !== null) !== (best?.direction !== null);
    if (
      best === null ||
      (knownFirst && g.direction !== null) ||
      (!knownFirst && g.n > best.n) ||
      (!knownFirst &&
        g.n === best.n &&
        (g.lastAt > best.lastAt || (g.lastAt === best.lastAt && g.key < best.key)))
    ) {
      best = g;
    }
  }
  return best;
}

function trajectoryReadOf(
  best: Group,
  instruments: number,
  newestAt: number,
  readable: number,
): TrajectoryRead {
  return {
    trajectory: {
      instrumentKey: best.key,
      known: best.known,
      direction: best.direction,
      instrumentName: best.lastName,
      instruments,
      n: best.n,
      invalid: best.invalid,
      firstAt: best.firstAt,
      lastAt: best.lastAt,
      firstPct: best.firstPct,
      lastPct: best.lastPct,
      change: best.lastPct - best.firstPct,
      spanDays: (best.lastAt - best.firstAt) / MS_PER_DAY,
      newestAt,
      readable,
    },
    times: best.times,
    pcts: best.pcts,
    valid: best.valid,
    worsePcts: best.worsePcts,
    betterPcts: best.betterPcts,
  };
}

/**
 * Reads assessments once: parses each createdAt (unreadable dates and non-finite scores are
 * skipped), groups by instrument (recognised instruments under their table key) and returns the
 * trajectory of the instrument with the most readable administrations among those whose direction
 * is known, else among all (ties: the one with the newest administration, then the alphabetically
 * first key), plus the readable times/percentages of that instrument for windowed
 * statistics. Order of the input does not matter; equal timestamps keep input order (the first
 * of them is "first", the last of them is "last"). Null when no administration is readable.
 */
export function readTrajectory(
  assessments: readonly Assessment[] | undefined,
  /** Each assessment's parsed createdAt (assessmentTimes), when the caller has them already. */
  times?: readonly (number | null)[],
): TrajectoryRead | null {
  if (!assessments || assessments.length === 0) return null;
  const instruments: InstrumentGroups = { groups: new Map(), byPair: new Map() };
  let newestAt = Number.NEGATIVE_INFINITY;
  let readable = 0;
  for (let i = 0; i < assessments.length; i++) {
    const a = assessments[i] as Assessment;
    const t = times ? (times[i] ?? null) : parseTime(a.createdAt);
    if (t === null || !Number.isFinite(a.score) || !Number.isFinite(a.maxScore) || a.maxScore <= 0) continue;
    readable += 1;
    if (t > newestAt) newestAt = t;
    addAdministration(groupOf(instruments, a, t), a, t);
  }
  const best = chosenGroup(instruments.groups);
  if (best === null) return null;
  return trajectoryReadOf(best, instruments.groups.size, newestAt, readable);
}

/** Least-squares slope and the points it used. */
export interface SlopeFit {
  /** Percentage points per 30 days; null when fewer than two distinct times. */
  slopePer30Days: number | null;
  /** Administrations used. */
  used: number;
  /** Oldest time used. */
  fromAt: number;
}

/**
 * Ordinary least-squares slope of percent-of-maximum against time, in percentage points per 30
 * days, over the administrations within `windowDays` before the newest one (inclusive); when the
 * window holds fewer than two, the two newest distinct times are used (and any administration at
 * them). Order-independent.
 */
export function slopePer30Days(
  times: readonly number[],
  pcts: readonly number[],
  windowDays: number,
): SlopeFit {
  const n = times.length;
  if (n === 0) return { slopePer30Days: null, used: 0, fromAt: Number.NaN };
  let newest = Number.NEGATIVE_INFINITY;
  for (const t of times) if (t > newest) newest = t;
  let from = newest - Math.max(0, windowDays) * MS_PER_DAY;
  let inWindow = 0;
  let secondNewest = Number.NEGATIVE_INFINITY;
  for (const t of times) {
    if (t >= from) inWindow += 1;
    if (t < newest && t > secondNewest) secondNewest = t;
  }
  let distinctInWindow = false;
  for (const t of times) {
    if (t >= from && t < newest) {
      distinctInWindow = true;
      break;
    }
  }
  if ((inWindow < 2 || !distinctInWindow) && secondNewest > Number.NEGATIVE_INFINITY) from = secondNewest;
  // Times in days relative to the newest, for numerical stability.
  let count = 0;
  let sx = 0;
  let sy = 0;
  for (let i = 0; i < n; i++) {
    const t = times[i] as number;
    if (t < from) continue;
    count += 1;
    sx += (t - newest) / MS_PER_DAY;
    sy += pcts[i] as number;
  }
  const mx = sx / count;
  const my = sy / count;
  let sxx = 0;
  let sxy = 0;
  for (let i = 0; i < n; i++) {
    const t = times[i] as number;
    if (t < from) continue;
    const dx = (t - newest) / MS_PER_DAY - mx;
    sxx += dx * dx;
    sxy += dx * ((pcts[i] as number) - my);
  }
  return { slopePer30Days: sxx > 0 ? (sxy / sxx) * 30 : null, used: count, fromAt: from };
}

/** Whole days from `time` to `now` (fractional), never negative (a future time counts as now). */
export function daysBetween(time: number, now: number): number {
  return Math.max(0, (now - time) / MS_PER_DAY);
}
