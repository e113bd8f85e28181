/**
 * A dependency-free SVG bar chart: API throughput as a share of each baseline (hand-checked, and
 * zod-validated), with the issue's 0.5x target against the hand-checked one.
 */
export function renderChart(
  rows: {
    scenario: string;
    rpsRatio: number;
    rpsRatioHand: number;
    p99RatioHand: number;
    /** Hand-checked baseline's server CPU per request over the API's (absent in older reports). */
    cpuRatioHand?: number;
    api: { p99: number };
    fixedRate: { p99: number };
  }[],
): string {
  const width = 760;
  const barHeight = 16;
  const rowHeight = 2 * barHeight + 16;
  const top = 56;
  const left = 150;
  const plot = width - left - 60;
  const height = top + rows.length * rowHeight + 40;
  const x = (ratio: number) => left + Math.min(1.2, ratio) * (plot / 1.2);
  const target = 0.5;
  const bars = rows
    .map((row, i) => {
      const y = top + i * rowHeight;
      const handColor = row.rpsRatioHand >= target ? "#2f7d32" : "#c62828";
      return `<text x="${left - 8}" y="${y + barHeight + 4}" text-anchor="end" font-size="13">${row.scenario}</text>
<rect x="${left}" y="${y}" width="${x(row.rpsRatioHand) - left}" height="${barHeight}" fill="${handColor}"/>
<text x="${x(row.rpsRatioHand) + 6}" y="${y + 12}" font-size="11">${row.rpsRatioHand.toFixed(2)}x hand · p99 ${row.p99RatioHand.toFixed(1)}x · p99@1k/s ${row.fixedRate.p99} ms${row.cpuRatioHand === undefined ? "" : ` · CPU/req ${row.cpuRatioHand.toFixed(2)}x`}</text>
<rect x="${left}" y="${y + barHeight + 2}" width="${x(row.rpsRatio) - left}" height="${barHeight}" fill="#90a4ae"/>
<text x="${x(row.rpsRatio) + 6}" y="${y + 2 * barHeight}" font-size="11">${row.rpsRatio.toFixed(2)}x zod</text>`;
    })
    .join("\n");
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" font-family="sans-serif">
<rect width="100%" height="100%" fill="#fff"/>
<text x="${left}" y="22" font-size="15" font-weight="bold">API req/s as a share of bare node:http baselines (same run)</text>
<text x="${left}" y="40" font-size="11">coloured: hand-checked (target 0.5x) · grey: zod-validated · CPU/req: baseline's CPU over the API's</text>
<line x1="${x(target)}" y1="${top - 8}" x2="${x(target)}" y2="${height - 30}" stroke="#555" stroke-dasharray="4 3"/>
<text x="${x(target) + 4}" y="${height - 16}" font-size="11">target 0.5x</text>
<line x1="${x(1)}" y1="${top - 8}" x2="${x(1)}" y2="${height - 30}" stroke="#aaa"/>
<text x="${x(1) + 4}" y="${height - 16}" font-size="11">1.0x</text>
${bars}
</svg>
`;
}

/**
 * CDS Hooks latency per call kind on a log scale (1 ms to 1 s): p50, p95, p99 and max of the hook
 * call, with `GET /healthz`'s p99 from the same loop beneath, and the specification's 500 ms line.
 */
export function renderCdsChart(
  rows: {
    variant: string;
    cds: { p50: number; p95: number; p99: number; max: number; overBudget: number; calls: number };
    healthz: { p99: number };
  }[],
  budgetMs: number,
): string {
  const width = 760;
  const barHeight = 12;
  const rowHeight = 5 * (barHeight + 3) + 18;
  const top = 72;
  const left = 180;
  const plot = width - left - 120;
  const height = top + rows.length * rowHeight + 40;
  const [minMs, maxMs] = [0.1, 1000];
  const x = (ms: number) =>
    Math.round(
      left + (Math.log10(Math.min(maxMs, Math.max(minMs, ms)) / minMs) / Math.log10(maxMs / minMs)) * plot,
    );
  const ticks = [0.1, 1, 10, 100, budgetMs, 1000]
    .map(
      (ms) =>
        `<line x1="${x(ms)}" y1="${top - 8}" x2="${x(ms)}" y2="${height - 30}" stroke="${ms === budgetMs ? "#c62828" : "#ccc"}"${ms === budgetMs ? ' stroke-dasharray="4 3"' : ""}/>
<text x="${x(ms) + 3}" y="${ms === budgetMs ? top - 12 : height - 16}" font-size="11">${ms === budgetMs ? `${ms} ms budget` : `${ms} ms`}</text>`,
    )
    .join("\n");
  const bars = rows
    .map((row, i) => {
      const y = top + i * rowHeight;
      const series: [string, number, string][] = [
        ["p50", row.cds.p50, "#1565c0"],
        ["p95", row.cds.p95, "#1e88e5"],
        ["p99", row.cds.p99, "#64b5f6"],
        ["max", row.cds.max, row.cds.max > budgetMs ? "#c62828" : "#bbdefb"],
        ["healthz p99", row.healthz.p99, "#90a4ae"],
      ];
      const lines = series
        .map(([label, ms, color], j) => {
          const by = y + j * (barHeight + 3);
          return `<rect x="${left}" y="${by}" width="${Math.max(1, x(ms) - left)}" height="${barHeight}" fill="${color}"/>
<text x="${x(ms) + 4}" y="${by + 10}" font-size="10">${label} ${ms} ms</text>`;
        })
        .join("\n");
      return `<text x="${left - 8}" y="${y + 2 * (barHeight + 3) + 10}" text-anchor="end" font-size="13">${row.variant}</text>
<text x="${left - 8}" y="${y + 3 * (barHeight + 3) + 10}" text-anchor="end" font-size="10">${row.cds.overBudget}/${row.cds.calls} over ${budgetMs} ms</text>
${lines}`;
    })
    .join("\n");
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" font-family="sans-serif">
<rect width="100%" height="100%" fill="#fff"/>
<text x="${left}" y="22" font-size="15" font-weight="bold">CDS Hooks call latency over loopback (sequential, log scale)</text>
<text x="${left}" y="40" font-size="11">blue: the hook call (p50, p95, p99, max) · grey: GET /healthz p99 in the same loop</text>
${ticks}
${bars}
</svg>
`;
}
