/** A dependency-free SVG bar chart: API throughput as a share of the baseline, with the 0.6 target. */
export function renderChart(
  rows: { scenario: string; rpsRatio: number; api: { p99: number }; fixedRate: { p99: number } }[],
): string {
  const width = 720;
  const barHeight = 26;
  const top = 50;
  const left = 170;
  const plot = width - left - 40;
  const height = top + rows.length * (barHeight + 14) + 40;
  const x = (ratio: number) => left + Math.min(1.2, ratio) * (plot / 1.2);
  const bars = rows
    .map((row, i) => {
      const y = top + i * (barHeight + 14);
      const color = row.rpsRatio >= 0.6 ? "#2f7d32" : "#c62828";
      return `<text x="${left - 8}" y="${y + 17}" text-anchor="end" font-size="13">${row.scenario}</text>
<rect x="${left}" y="${y}" width="${x(row.rpsRatio) - left}" height="${barHeight}" fill="${color}"/>
<text x="${x(row.rpsRatio) + 6}" y="${y + 17}" font-size="12">${row.rpsRatio.toFixed(2)}x · p99 ${row.api.p99} ms · p99@1k/s ${row.fixedRate.p99} ms</text>`;
    })
    .join("\n");
  const target = x(0.6);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" font-family="sans-serif">
<rect width="100%" height="100%" fill="#fff"/>
<text x="${left}" y="24" font-size="15" font-weight="bold">API req/s as a share of the bare node:http baseline (same run)</text>
<line x1="${target}" y1="${top - 10}" x2="${target}" y2="${height - 30}" stroke="#555" stroke-dasharray="4 3"/>
<text x="${target + 4}" y="${height - 16}" font-size="11">target 0.6x</text>
<line x1="${x(1)}" y1="${top - 10}" x2="${x(1)}" y2="${height - 30}" stroke="#aaa"/>
<text x="${x(1) + 4}" y="${height - 16}" font-size="11">1.0x</text>
${bars}
</svg>
`;
}
