import type { ErrorEnvelope } from "@svc/http";
import { call } from "@svc/testkit";
import { useTestService } from "@svc/testkit/vitest";
import { beforeAll, describe, expect, it } from "vitest";
import type { OutcomeScoreResponse, RelapsePredictionResponse } from "../src/index.js";

/** Every bound of the analysis endpoints, just inside (200) and just outside (400 naming the path). */
const svc = useTestService();
let key: string;

beforeAll(async () => {
  key = (await svc.seed.caller("enterprise")).key;
});

const assessment = (overrides: Record<string, unknown> = {}) => ({
  instrumentId: "phq9",
  instrumentName: "PHQ-9",
  score: 10,
  maxScore: 27,
  createdAt: "2026-06-01T09:00:00Z",
  ...overrides,
});
const many = <T>(n: number, make: (i: number) => T) => Array.from({ length: n }, (_, i) => make(i));
const prescription = (i = 0) => ({ id: `rx_${i}`, medicationName: "Sertraline", status: "active" });
const biomarker = (overrides: Record<string, unknown> = {}) => ({
  name: "TSH",
  value: 5,
  flag: "high",
  ...overrides,
});
const panel = (biomarkers: unknown[] = [biomarker()]) => ({
  id: "lab_1",
  labName: "Lab",
  results: { biomarkers },
});

interface BoundCase {
  path: string;
  base: Record<string, unknown>;
  field: string;
  inside: Record<string, unknown>;
  outside: Record<string, unknown>;
  /** The issue path expected for `outside`. */
  issue: string;
}

const DMSE = "/v1/dmse/analyze";
const MED = "/v1/medication/analyze";
const BIO = "/v1/biomarker/analyze";
const OUT = "/v1/outcome/score";
const REL = "/v1/relapse/predict";
const dmseBase = { responseLatencySeconds: 1.5 };
const medBase = { prescriptions: [prescription()], assessments: [assessment()] };
const bioBase = { labs: [panel()] };
const scoreBase = { assessments: [assessment()] };

const cases: BoundCase[] = [
  // dmse metrics and their bounds
  ...(
    [
      ["psychomotorFidgetEpisodes", 1000],
      ["responseLatencySeconds", 120],
      ["speechRateWpm", 600],
      ["sustainedAttentionPct", 100],
      ["sessionDurationSeconds", 14_400],
    ] as const
  ).flatMap(([field, max]): BoundCase[] => [
    {
      path: DMSE,
      base: dmseBase,
      field: `${field} max`,
      inside: { [field]: max },
      outside: { [field]: max + 0.01 },
      issue: field,
    },
    {
      path: DMSE,
      base: dmseBase,
      field: `${field} min`,
      inside: { [field]: 0 },
      outside: { [field]: -0.01 },
      issue: field,
    },
  ]),
  {
    path: DMSE,
    base: dmseBase,
    field: "history length",
    inside: { history: { response_latency: many(100, () => 1.5) } },
    outside: { history: { response_latency: many(101, () => 1.5) } },
    issue: "history.response_latency",
  },
  {
    path: DMSE,
    base: dmseBase,
    field: "history value",
    inside: { history: { speech_rate: [600] } },
    outside: { history: { speech_rate: [601] } },
    issue: "history.speech_rate.0",
  },
  {
    path: DMSE,
    base: dmseBase,
    field: "sessionRef length",
    inside: { sessionRef: "s".repeat(128) },
    outside: { sessionRef: "s".repeat(129) },
    issue: "sessionRef",
  },
  // medication
  {
    path: MED,
    base: medBase,
    field: "prescriptions count",
    inside: { prescriptions: many(100, prescription) },
    outside: { prescriptions: many(101, prescription) },
    issue: "prescriptions",
  },
  {
    path: MED,
    base: medBase,
    field: "assessments count",
    inside: { assessments: many(500, () => assessment()) },
    outside: { assessments: many(501, () => assessment()) },
    issue: "assessments",
  },
  {
    path: MED,
    base: medBase,
    field: "medicationName length",
    inside: { prescriptions: [{ ...prescription(), medicationName: "m".repeat(160) }] },
    outside: { prescriptions: [{ ...prescription(), medicationName: "m".repeat(161) }] },
    issue: "prescriptions.0.medicationName",
  },
  {
    path: MED,
    base: medBase,
    field: "dmseLatencyPctChange max",
    inside: { dmseLatencyPctChange: 1000 },
    outside: { dmseLatencyPctChange: 1000.5 },
    issue: "dmseLatencyPctChange",
  },
  {
    path: MED,
    base: medBase,
    field: "dmseLatencyPctChange min",
    inside: { dmseLatencyPctChange: -100 },
    outside: { dmseLatencyPctChange: -100.5 },
    issue: "dmseLatencyPctChange",
  },
  // assessment fields (through medication)
  ...(
    [
      ["score", 1000, 1000.5, "score max"],
      ["score", 0, -1, "score min"],
      ["maxScore", 1000, 1001, "maxScore max"],
      ["maxScore", 1, 0.5, "maxScore min"],
      ["instrumentId", "i".repeat(64), "i".repeat(65), "instrumentId length"],
      ["instrumentId", "i", "", "instrumentId empty"],
      ["instrumentName", "n".repeat(120), "n".repeat(121), "instrumentName length"],
      ["createdAt", "2026-06-01", "yesterday", "createdAt format"],
    ] as const
  ).map(
    ([name, ok, bad, label]): BoundCase => ({
      path: MED,
      base: medBase,
      field: `assessment ${label}`,
      inside: { assessments: [assessment({ [name]: ok })] },
      outside: { assessments: [assessment({ [name]: bad })] },
      issue: `assessments.0.${name}`,
    }),
  ),
  // biomarker
  {
    path: BIO,
    base: bioBase,
    field: "labs count",
    inside: { labs: many(100, () => panel()) },
    outside: { labs: many(101, () => panel()) },
    issue: "labs",
  },
  {
    path: BIO,
    base: bioBase,
    field: "labs empty",
    inside: { labs: [panel()] },
    outside: { labs: [] },
    issue: "labs",
  },
  {
    path: BIO,
    base: bioBase,
    field: "biomarkers per panel",
    inside: { labs: [panel(many(200, () => biomarker()))] },
    outside: { labs: [panel(many(201, () => biomarker()))] },
    issue: "labs.0.results.biomarkers",
  },
  {
    path: BIO,
    base: bioBase,
    field: "biomarker note",
    inside: { labs: [panel([biomarker({ note: "n".repeat(240) })])] },
    outside: { labs: [panel([biomarker({ note: "n".repeat(241) })])] },
    issue: "labs.0.results.biomarkers.0.note",
  },
  {
    path: BIO,
    base: bioBase,
    field: "biomarker flag",
    inside: { labs: [panel([biomarker({ flag: "critical" })])] },
    outside: { labs: [panel([biomarker({ flag: "borderline" })])] },
    issue: "labs.0.results.biomarkers.0.flag",
  },
  {
    path: BIO,
    base: bioBase,
    field: "labName length",
    inside: { labs: [{ ...panel(), labName: "l".repeat(160) }] },
    outside: { labs: [{ ...panel(), labName: "l".repeat(161) }] },
    issue: "labs.0.labName",
  },
  // outcome
  ...(["activeMedications", "biomarkerWatchCount"] as const).flatMap((field): BoundCase[] => [
    {
      path: OUT,
      base: scoreBase,
      field: `${field} max`,
      inside: { [field]: 100 },
      outside: { [field]: 101 },
      issue: field,
    },
    {
      path: OUT,
      base: scoreBase,
      field: `${field} integer`,
      inside: { [field]: 0 },
      outside: { [field]: 1.5 },
      issue: field,
    },
  ]),
  {
    path: OUT,
    base: scoreBase,
    field: "avgSleepHours max",
    inside: { avgSleepHours: 24 },
    outside: { avgSleepHours: 24.1 },
    issue: "avgSleepHours",
  },
  {
    path: OUT,
    base: scoreBase,
    field: "avgSleepHours min",
    inside: { avgSleepHours: 0 },
    outside: { avgSleepHours: -0.1 },
    issue: "avgSleepHours",
  },
  // relapse
  ...(["daysSinceMedChange", "daysSinceLastVisit"] as const).flatMap((field): BoundCase[] => [
    {
      path: REL,
      base: scoreBase,
      field: `${field} max`,
      inside: { [field]: 3650 },
      outside: { [field]: 3651 },
      issue: field,
    },
    {
      path: REL,
      base: scoreBase,
      field: `${field} min`,
      inside: { [field]: 0 },
      outside: { [field]: -1 },
      issue: field,
    },
  ]),
  {
    path: REL,
    base: scoreBase,
    field: "hasActiveMedication type",
    inside: { hasActiveMedication: true },
    outside: { hasActiveMedication: "yes" },
    issue: "hasActiveMedication",
  },
  {
    path: REL,
    base: scoreBase,
    field: "assessments count",
    inside: { assessments: many(500, (i) => assessment({ score: i % 27 })) },
    outside: { assessments: many(501, () => assessment()) },
    issue: "assessments",
  },
];

describe.each(cases)("$path $field", (c) => {
  it("accepts the value just inside the bound", async () => {
    const res = await call<Partial<ErrorEnvelope>>(svc.url, c.path, {
      key,
      body: { ...c.base, ...c.inside },
    });
    expect(res.status, JSON.stringify(res.json?.error)).toBe(200);
  });
  it("refuses the value just outside with 400 naming the path", async () => {
    const res = await call<ErrorEnvelope>(svc.url, c.path, { key, body: { ...c.base, ...c.outside } });
    expect(res.status).toBe(400);
    expect(res.json.ok).toBe(false);
    expect(res.json.error.code).toBe("invalid_request");
    expect(res.json.error.issues?.map((i: { path: string }) => i.path)).toContain(c.issue);
  });
});

describe("required inputs", () => {
  it("dmse needs at least one of the four metrics", async () => {
    const res = await call<ErrorEnvelope>(svc.url, DMSE, { key, body: { sessionDurationSeconds: 60 } });
    expect(res.status).toBe(400);
    expect(res.json.error.issues?.[0]?.message).toMatch(/at least one of/);
  });
  it.each([
    [MED, { assessments: [] }, "prescriptions"],
    [MED, { prescriptions: [] }, "assessments"],
    [BIO, {}, "labs"],
    [OUT, {}, "assessments"],
    [REL, {}, "assessments"],
  ])("%s without %j is refused", async (path, body, issue) => {
    const res = await call<ErrorEnvelope>(svc.url, path, { key, body });
    expect(res.status).toBe(400);
    expect(res.json.error.issues?.map((i: { path: string }) => i.path)).toContain(issue);
  });
  it("applies the contract's defaults (activeMedications 0, hasActiveMedication false)", async () => {
    const outcome = await call<OutcomeScoreResponse>(svc.url, OUT, { key, body: { assessments: [] } });
    expect(outcome.status).toBe(200);
    const inputs = outcome.json.data.intelligence.provenance.inputs.map((i: { name: string }) => i.name);
    expect(inputs).not.toContain("avgSleepHours");
    const relapse = await call<RelapsePredictionResponse>(svc.url, REL, { key, body: { assessments: [] } });
    expect(relapse.status).toBe(200);
    expect(relapse.json.data.score).toBeGreaterThanOrEqual(0);
  });
  it("refuses a body that is not an object", async () => {
    const res = await call<ErrorEnvelope>(svc.url, OUT, { key, rawBody: "[1,2]" });
    expect(res.status).toBe(400);
    expect(res.json.error.code).toBe("invalid_request");
  });
});
