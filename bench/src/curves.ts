/**
 * `pnpm bench:curves`: does cost grow linearly with input size? For 1, 10, 100 and 500
 * assessments (relapse, outcome, medication with 5 prescriptions) and 1, 20 and 200 biomarkers in
 * one panel (biomarker): the engine's own time per call (direct calls, no service), and the whole
 * service's CPU time per request in process (auth, Redis rate limit, validation, engine,
 * intelligence block, serialisation; see service-cpu.ts). Prints a table with the marginal cost
 * per item of each step, and writes bench/results/curves.json and curves.svg (log-log).
 */
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { analyzeBiomarkers, analyzeMedication, predictRelapse, scoreOutcome } from "@svc/engines";
import { type AppFetch, serviceCpuPerRequest, startInProcessService } from "./service-cpu.js";

const here = path.dirname(fileURLToPath(import.meta.url));
const NOW = new Date("2026-08-01T00:00:00Z");
const START = Date.parse("2025-01-01T09:00:00Z");
const ASSESSMENT_SIZES = [1, 10, 100, 500];
const BIOMARKER_SIZES = [1, 20, 200];
const SERVICE_ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 3_000);

function assessments(count: number) {
  return Array.from({ length: count }, (_, i) => ({
    instrumentId: i % 5 === 0 ? "gad7" : "phq9",
    instrumentName: i % 5 === 0 ? "GAD-7" : "PHQ-9",
    score: (i * 7) % 22,
    maxScore: i % 5 === 0 ? 21 : 27,
    createdAt: new Date(START + i * 12 * 3_600_000).toISOString(),
  }));
}

const prescriptions = Array.from({ length: 5 }, (_, i) => ({
  id: `rx_${i}`,
  medicationName: ["Sertraline", "Quetiapine", "Lithium", "Lamotrigine", "Bupropion"][i] as string,
  dosage: "50 mg",
  status: "active" as const,
  prescribedAt: new Date(START + (i + 1) * 20 * 86_400_000).toISOString().slice(0, 10),
}));

function panel(count: number) {
  const names = ["TSH", "Lithium", "Sodium", "Vitamin B12", "ALT", "Creatinine"];
  return [
    {
      id: "lab_1",
      labName: "Reference Lab",
      observedAt: "2026-07-01T08:00:00Z",
      results: {
        biomarkers: Array.from({ length: count }, (_, i) => ({
          name: names[i] ?? `Analyte ${i}`,
          value: 1 + ((i * 13) % 50) / 10,
          unit: "mmol/L",
          flag: i % 3 === 0 ? "high" : "normal",
          referenceRange: "1.0-4.0",
        })),
      },
    },
  ];
}

interface Series {
  name: string;
  unit: "assessments" | "biomarkers";
  sizes: number[];
  body(size: number): Record<string, unknown>;
  path: string;
  engine(body: Record<string, unknown>): unknown;
}

const series: Series[] = [
  {
    name: "relapse",
    unit: "assessments",
    sizes: ASSESSMENT_SIZES,
    path: "/v1/relapse/predict",
    body: (n) => ({ assessments: assessments(n), avgSleepHours: 5.6, daysSinceLastVisit: 40 }),
    engine: (body) => predictRelapse(body as never, { now: NOW }),
  },
  {
    name: "outcome",
    unit: "assessments",
    sizes: ASSESSMENT_SIZES,
    path: "/v1/outcome/score",
    body: (n) => ({ assessments: assessments(n), activeMedications: 2 }),
    engine: (body) => scoreOutcome(body as never, { now: NOW }),
  },
  {
    name: "medication (5 prescriptions)",
    unit: "assessments",
    sizes: ASSESSMENT_SIZES,
    path: "/v1/medication/analyze",
    body: (n) => ({ prescriptions, assessments: assessments(n) }),
    engine: (body) => analyzeMedication(body as never, { now: NOW }),
  },
  {
    name: "biomarker (one panel)",
    unit: "biomarkers",
    sizes: BIOMARKER_SIZES,
    path: "/v1/biomarker/analyze",
    body: (n) => ({ labs: panel(n) }),
    engine: (body) => analyzeBiomarkers(body as never, { now: NOW }),
  },
];

/** Microseconds per call: repeated until 200 ms have passed, best of three such runs. */
function engineMicroseconds(run: () => unknown): number {
  const times: number[] = [];
  for (let round = 0; round < 3; round++) {
    let calls = 0;
    const started = process.hrtime.bigint();
    let elapsed = 0n;
    while (elapsed < 200_000_000n) {
      for (let i = 0; i < 20; i++) run();
      calls += 20;
      elapsed = process.hrtime.bigint() - started;
    }
    times.push(Number(elapsed) / 1_000 / calls);
  }
  return Math.min(...times);
}

interface Point {
  size: number;
  engineUs: number;
  serviceCpuUs: number;
}

async function measureSeries(s: Series, fetch: AppFetch, key: string): Promise<Point[]> {
  const points: Point[] = [];
  for (const size of s.sizes) {
    const body = s.body(size);
    const engineUs = engineMicroseconds(() => s.engine(body));
    const service = await serviceCpuPerRequest(
      fetch,
      { method: "POST", path: s.path, key, body: JSON.stringify(body) },
      SERVICE_ITERATIONS,
      Math.min(1_000, SERVICE_ITERATIONS),
    );
    if (service.status !== 200)
      throw new Error(`${s.name} at ${size}: the service answered ${service.status}`);
    points.push({ size, engineUs, serviceCpuUs: service.cpuUs });
    console.log(
      `${s.name} @ ${size} ${s.unit}: engine ${engineUs.toFixed(1)} µs, service ${service.cpuUs.toFixed(1)} µs CPU/req`,
    );
  }
  return points;
}

/** Marginal cost per added item between consecutive sizes (µs per item). */
function marginal(points: Point[], key: "engineUs" | "serviceCpuUs"): number[] {
  return points.slice(1).map((p, i) => {
    const before = points[i] as Point;
    return (p[key] - before[key]) / (p.size - before.size);
  });
}

function renderCurves(results: { name: string; unit: string; points: Point[] }[]): string {
  const width = 860;
  const panelHeight = 260;
  const left = 70;
  const plotWidth = width - left - 300;
  const colors = ["#1565c0", "#2e7d32", "#c62828", "#6a1b9a"];
  const logX = (n: number) => left + (Math.log10(n) / Math.log10(500)) * plotWidth;
  const panels = (["engineUs", "serviceCpuUs"] as const).map((key, panelIndex) => {
    const top = 40 + panelIndex * (panelHeight + 40);
    const values = results.flatMap((r) => r.points.map((p) => p[key]));
    const lo = Math.log10(Math.max(0.1, Math.min(...values)) / 1.5);
    const hi = Math.log10(Math.max(...values) * 1.5);
    const y = (v: number) =>
      top + panelHeight - ((Math.log10(Math.max(v, 0.1)) - lo) / (hi - lo)) * panelHeight;
    const lines = results
      .map((r, i) => {
        const d = r.points
          .map((p, j) => `${j ? "L" : "M"}${logX(p.size).toFixed(1)},${y(p[key]).toFixed(1)}`)
          .join(" ");
        return `<path d="${d}" fill="none" stroke="${colors[i]}" stroke-width="2"/>`;
      })
      .join("\n");
    // Labels at the right edge, in the order of their lines' ends, at least 14 px apart.
    const ends = results
      .map((r, i) => ({ r, i, at: y((r.points.at(-1) as Point)[key]) }))
      .sort((a, b) => a.at - b.at);
    let previous = Number.NEGATIVE_INFINITY;
    const labels = ends
      .map(({ r, i, at }) => {
        const placed = Math.max(at + 4, previous + 14);
        previous = placed;
        const last = r.points.at(-1) as Point;
        return `<text x="${left + plotWidth + 8}" y="${placed.toFixed(1)}" font-size="11" fill="${colors[i]}">${r.name}: ${last[key].toFixed(0)} µs at ${last.size}</text>`;
      })
      .join("\n");
    const yTicks = [1, 10, 100, 1000, 10000]
      .filter((v) => Math.log10(v) >= lo && Math.log10(v) <= hi)
      .map(
        (v) =>
          `<line x1="${left}" x2="${left + plotWidth}" y1="${y(v)}" y2="${y(v)}" stroke="#eee"/><text x="${left - 6}" y="${y(v) + 4}" font-size="11" text-anchor="end">${v}</text>`,
      )
      .join("");
    const ticks = [1, 10, 100, 500]
      .map(
        (n) =>
          `<text x="${logX(n)}" y="${top + panelHeight + 16}" font-size="11" text-anchor="middle">${n}</text>`,
      )
      .join("");
    const title = key === "engineUs" ? "engine time per call (µs, log)" : "service CPU per request (µs, log)";
    return `<text x="${left}" y="${top - 10}" font-size="13" font-weight="bold">${title}</text>
<rect x="${left}" y="${top}" width="${plotWidth}" height="${panelHeight}" fill="none" stroke="#ccc"/>
${yTicks}${ticks}${lines}
${labels}`;
  });
  const height = 40 + 2 * (panelHeight + 40) + 20;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" font-family="sans-serif">
<rect width="100%" height="100%" fill="#fff"/>
${panels.join("\n")}
<text x="${left}" y="${height - 8}" font-size="11">x: input size (assessments, or biomarkers for the biomarker line), log scale. A straight line of slope 1 is linear growth.</text>
</svg>
`;
}

async function main(): Promise<void> {
  const service = await startInProcessService("bench-curves");
  try {
    const results = [];
    for (const s of series) {
      const points = await measureSeries(s, service.fetch, service.key);
      results.push({
        name: s.name,
        unit: s.unit,
        points,
        engineUsPerItem: marginal(points, "engineUs"),
        serviceUsPerItem: marginal(points, "serviceCpuUs"),
      });
    }
    console.table(
      results.map((r) => ({
        series: r.name,
        ...Object.fromEntries(
          r.points.map((p) => [`engine µs @${p.size}`, Math.round(p.engineUs * 10) / 10]),
        ),
        ...Object.fromEntries(r.points.map((p) => [`service µs @${p.size}`, Math.round(p.serviceCpuUs)])),
        "engine µs/item per step": r.engineUsPerItem.map((v) => v.toFixed(2)).join(" → "),
      })),
    );
    const resultsDir = path.join(here, "..", "results");
    mkdirSync(resultsDir, { recursive: true });
    writeFileSync(
      path.join(resultsDir, "curves.json"),
      `${JSON.stringify({ generatedAt: new Date().toISOString(), results }, null, 2)}\n`,
    );
    writeFileSync(path.join(resultsDir, "curves.svg"), renderCurves(results));
    console.log("wrote bench/results/curves.json and bench/results/curves.svg");
  } finally {
    await service.close();
  }
}

await main();
process.exit(0);
