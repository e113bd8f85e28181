import { readFileSync } from "node:fs";

/**
 * The requests the bench sends: ping plus one typical request per analysis endpoint (a few
 * prescriptions, a month of weekly and daily assessments, two lab panels). Bodies are built
 * deterministically so every run sends the same bytes. An analysis endpoint without a body here
 * (a new engine's) is sent its request example from docs/openapi.json.
 */
export interface Scenario {
  name: string;
  method: "GET" | "POST";
  path: string;
  body?: unknown;
}

const DAY = 86_400_000;
const START = Date.parse("2026-06-01T09:00:00Z");

/** `count` PHQ-9 administrations every `everyDays` days, improving slowly with some noise. */
function assessments(count: number, everyDays: number) {
  return Array.from({ length: count }, (_, i) => ({
    instrumentId: "phq9",
    instrumentName: "PHQ-9",
    score: Math.max(0, 18 - Math.floor(i / 3) + ((i * 7) % 3) - 1),
    maxScore: 27,
    createdAt: new Date(START + i * everyDays * DAY).toISOString(),
  }));
}

const panel = (id: string, flagged: number) => ({
  id,
  labName: "Reference Lab",
  observedAt: "2026-07-01T08:00:00Z",
  results: {
    biomarkers: [
      { name: "TSH", value: 6.8, unit: "mIU/L", flag: "high", referenceRange: "0.4-4.0" },
      { name: "Lithium", value: 1.3, unit: "mmol/L", flag: "high", referenceRange: "0.6-1.2" },
      { name: "Sodium", value: 131, unit: "mmol/L", flag: "low", referenceRange: "135-145" },
      { name: "Vitamin B12", value: 150, unit: "pg/mL", flag: "low", referenceRange: "200-900" },
      ...Array.from({ length: 16 }, (_, i) => ({
        name: `Analyte ${i}`,
        value: 10 + i,
        unit: "U/L",
        flag: i < flagged ? "high" : "normal",
        referenceRange: "5-40",
      })),
    ],
  },
});

const handScenarios: Scenario[] = [
  { name: "ping", method: "GET", path: "/v1/ping" },
  {
    name: "dmse",
    method: "POST",
    path: "/v1/dmse/analyze",
    body: {
      psychomotorFidgetEpisodes: 14,
      responseLatencySeconds: 2.1,
      speechRateWpm: 118,
      sustainedAttentionPct: 71,
      sessionDurationSeconds: 900,
      history: {
        psychomotor: [8, 9, 11, 10, 12, 9, 10, 11, 13, 12],
        response_latency: [1.4, 1.5, 1.6, 1.5, 1.7, 1.6, 1.8, 1.7, 1.9, 2.0],
        speech_rate: [142, 138, 140, 135, 131, 129, 127, 125, 122, 120],
        sustained_attention: [82, 80, 79, 81, 78, 76, 75, 74, 73, 72],
      },
      sessionRef: "bench-session",
    },
  },
  {
    name: "medication",
    method: "POST",
    path: "/v1/medication/analyze",
    body: {
      prescriptions: [
        {
          id: "rx_1",
          medicationName: "Sertraline",
          dosage: "50 mg",
          status: "active",
          prescribedAt: "2026-06-20",
        },
        {
          id: "rx_2",
          medicationName: "Quetiapine",
          dosage: "25 mg",
          status: "active",
          prescribedAt: "2026-07-10",
        },
        { id: "rx_3", medicationName: "Lorazepam", status: "discontinued", prescribedAt: "2026-05-01" },
      ],
      assessments: assessments(30, 3),
      dmseLatencyPctChange: -12,
    },
  },
  {
    name: "biomarker",
    method: "POST",
    path: "/v1/biomarker/analyze",
    body: { labs: [panel("lab_1", 2), panel("lab_2", 0)] },
  },
  {
    name: "outcome",
    method: "POST",
    path: "/v1/outcome/score",
    body: {
      assessments: assessments(30, 3),
      dmseLatencyPctChange: -12,
      activeMedications: 2,
      biomarkerWatchCount: 1,
      avgSleepHours: 6.4,
    },
  },
  {
    name: "relapse",
    method: "POST",
    path: "/v1/relapse/predict",
    body: {
      assessments: assessments(30, 3),
      dmseLatencyPctChange: 18,
      avgSleepHours: 5.6,
      daysSinceMedChange: 12,
      hasActiveMedication: true,
      daysSinceLastVisit: 40,
    },
  },
];

/** The analysis operations of the published document (the POSTs tagged Analysis) and their examples. */
interface PublishedDocument {
  paths: Record<string, Record<string, { tags?: string[]; requestBody?: RequestBody }>>;
}
interface RequestBody {
  content: { "application/json": { example?: unknown } };
}

/**
 * One scenario per analysis endpoint the hand list lacks, named by the path's first word after
 * /v1 ("/v1/sleep/review" is "sleep"), its body the operation's request example.
 */
function documentedScenarios(covered: readonly Scenario[]): Scenario[] {
  const document = JSON.parse(
    readFileSync(new URL("../../docs/openapi.json", import.meta.url), "utf8"),
  ) as PublishedDocument;
  const paths = new Set(covered.map((s) => s.path));
  return Object.entries(document.paths).flatMap(([path, operations]) => {
    const post = operations.post;
    if (!post?.tags?.includes("Analysis") || paths.has(path)) return [];
    const name = path.split("/")[2] ?? path;
    return [
      { name, method: "POST" as const, path, body: post.requestBody?.content["application/json"].example },
    ];
  });
}

const allScenarios = [...handScenarios, ...documentedScenarios(handScenarios)];

/** BENCH_ONLY=dmse,relapse runs a subset. */
const only = process.env.BENCH_ONLY?.split(",").map((s) => s.trim());
export const scenarios: Scenario[] = only ? allScenarios.filter((s) => only.includes(s.name)) : allScenarios;
