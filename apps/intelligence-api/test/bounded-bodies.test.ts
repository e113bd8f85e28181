import { call } from "@svc/testkit";
import { useTestService } from "@svc/testkit/vitest";
import { beforeAll, describe, expect, it } from "vitest";

/**
 * Each analysis and agent endpoint with a body at its schema's bounds (docs/bounded-inputs.md,
 * decision 169): every list at its maxItems, the long strings at their maxLength, over real HTTP.
 * Each answers 200 within a generous time: the bounds keep the work bounded, whatever the body.
 */
const svc = useTestService();
let key: string;

beforeAll(async () => {
  key = (await svc.seed.caller("enterprise")).key;
});

const GENEROUS_MS = 15_000;
const day = (i: number) => new Date(Date.parse("2024-01-01T09:00:00Z") + i * 86_400_000).toISOString();
const instruments = ["phq9", "gad7"];
const assessments = (n: number) =>
  Array.from({ length: n }, (_, i) => ({
    instrumentId: instruments[i % 2] as string,
    instrumentName: i % 2 === 0 ? "PHQ-9" : "GAD-7",
    score: (i * 7) % 21,
    maxScore: i % 2 === 0 ? 27 : 21,
    createdAt: day(i),
  }));
const MEDICINES = ["lithium", "ibuprofen", "sertraline", "tramadol", "clozapine", "fluoxetine", "linezolid"];
const history = Array.from({ length: 100 }, (_, i) => 1 + (i % 10) / 10);

const cases: { name: string; path: string; body: unknown }[] = [
  {
    name: "medication/analyze: 100 prescriptions x 500 assessments",
    path: "/v1/medication/analyze",
    body: {
      prescriptions: Array.from({ length: 100 }, (_, i) => ({
        id: `rx_${i}`,
        medicationName: `${MEDICINES[i % MEDICINES.length]} ${"x".repeat(140)}${i}`.slice(0, 160),
        dosage: "1".repeat(256),
        status: "active",
        prescribedAt: day(i).slice(0, 10),
      })),
      assessments: assessments(500),
      explain: true,
    },
  },
  {
    name: "biomarker/analyze: 100 panels of 200 readings",
    path: "/v1/biomarker/analyze",
    body: {
      labs: Array.from({ length: 100 }, (_, p) => ({
        id: `l${p}`,
        labName: "L",
        observedAt: day(p).slice(0, 10),
        results: {
          biomarkers: Array.from({ length: 200 }, (_, i) => ({ name: i % 2 ? "Na" : "Li", value: i })),
        },
      })),
      explain: true,
    },
  },
  {
    name: "outcome/score: 500 assessments",
    path: "/v1/outcome/score",
    body: { assessments: assessments(500), avgSleepHours: 7, explain: true },
  },
  {
    name: "relapse/predict: 500 assessments",
    path: "/v1/relapse/predict",
    body: { assessments: assessments(500), avgSleepHours: 5, daysSinceLastVisit: 60, explain: true },
  },
  {
    name: "dmse/analyze: four histories of 100",
    path: "/v1/dmse/analyze",
    body: {
      responseLatencySeconds: 2.6,
      speechRateWpm: 120,
      sessionDurationSeconds: 600,
      history: {
        response_latency: history,
        speech_rate: history.map((v) => v * 100),
        psychomotor: history,
        sustained_attention: history,
      },
      explain: true,
    },
  },
  {
    name: "medication agent: 50 medicines of 200 characters and 2,000 characters of context",
    path: "/v1/medication/pt_1/agent",
    body: {
      medications: Array.from({ length: 50 }, (_, i) =>
        `${MEDICINES[i % MEDICINES.length]} 50 mg ${"y".repeat(180)}`.slice(0, 200),
      ),
      context: "Reviewed. ".repeat(200),
    },
  },
  {
    name: "biomarker agent: 50 readings",
    path: "/v1/biomarker/pt_1/agent",
    body: {
      panel: Array.from({ length: 50 }, (_, i) => ({ analyte: i % 2 ? "lithium" : "sodium", value: 1 + i })),
    },
  },
  {
    name: "outcome agent: 20 instruments of 30 responses",
    path: "/v1/outcome/pt_1/agent",
    body: {
      instruments: Array.from({ length: 20 }, () => ({
        instrument: "z".repeat(100),
        responses: Array(30).fill(3),
      })),
    },
  },
  {
    name: "relapse agent: 30 signals",
    path: "/v1/relapse/pt_1/agent",
    body: {
      signals: Array.from({ length: 30 }, (_, i) => ({
        indicator: `${i % 2 ? "suicidal thoughts" : "harm to others"} ${"w ".repeat(40)}`.slice(0, 100),
        severity: 1,
      })),
    },
  },
];

describe("every analysis and agent endpoint at its bounds", () => {
  it.each(cases)("$name: 200 within a generous time", async ({ path, body }) => {
    const started = performance.now();
    const res = await call(svc.url, path, { key, body });
    expect(res.status, JSON.stringify(res.json).slice(0, 600)).toBe(200);
    expect(performance.now() - started).toBeLessThan(GENEROUS_MS);
  });
});

describe("biomarker/analyze at its bounds: the answer is bounded too (decision 171)", () => {
  const body = (cases.find((c) => c.path === "/v1/biomarker/analyze") as (typeof cases)[number]).body;
  // The answer was 5.2 MB (18,100 value findings) and its FHIR Bundle one Observation per finding.
  const MAX_ANSWER_CHARS = 200_000;

  it("JSON: under 200 kB, every current finding kept, what is left out counted", async () => {
    const res = await call<{
      data: {
        valueFindings: { analyte: string; finding: string; current: boolean }[];
        omitted?: { critical: number; implausible: number };
        intelligence: { summary: { status: string; flagged: string[] } };
      };
    }>(svc.url, "/v1/biomarker/analyze", { key, body });
    expect(res.status).toBe(200);
    expect(JSON.stringify(res.json).length).toBeLessThan(MAX_ANSWER_CHARS);
    const data = res.json.data;
    const current = data.valueFindings.filter((f) => f.current);
    expect(current.map((f) => `${f.analyte}:${f.finding}`).sort()).toEqual([
      "lithium:implausible",
      "sodium:critical",
    ]);
    expect(data.intelligence.summary.status).toBe("critical");
    expect(data.intelligence.summary.flagged.join(" ")).toMatch(/Sodium 199 mmol\/L/);
    expect((data.omitted?.critical ?? 0) + (data.omitted?.implausible ?? 0)).toBeGreaterThan(18_000);
  });

  it("FHIR: the Bundle holds one Observation per listed finding, under 200 kB", async () => {
    const res = await call<{ entry?: unknown[] }>(svc.url, "/v1/biomarker/analyze", {
      key,
      body,
      headers: { accept: "application/fhir+json" },
    });
    expect(res.status).toBe(200);
    expect(JSON.stringify(res.json).length).toBeLessThan(MAX_ANSWER_CHARS);
    expect(res.json.entry?.length ?? 0).toBeLessThan(50);
  });
});
