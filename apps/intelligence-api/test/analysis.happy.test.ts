import { promoteModelVersion, proposeModelVersion } from "@svc/db";
import { ENGINE_NAMES } from "@svc/intelligence";
import { call } from "@svc/testkit";
import { useTestService } from "@svc/testkit/vitest";
import { beforeAll, describe, expect, it } from "vitest";
import type { RelapsePredictionResponse } from "../src/index.js";
import { type AnalysisResponse, bodies } from "./analysis-bodies.js";

/**
 * The five analysis endpoints over real HTTP: envelopes, the intelligence and model blocks,
 * `previous`, `explain`, `sessionRef`, and calibrated versions taking effect without a restart.
 */
const svc = useTestService();
let key: string;

beforeAll(async () => {
  key = (await svc.seed.caller("enterprise")).key;
});

/** Any analysis response, its `data` read with the `score` two of the five carry. */
type ScoredAnalysis = AnalysisResponse & { data: { score?: number } };

/** Resolve a dotted `mapsTo` pointer inside `data`. */
function resolvePointer(data: unknown, pointer: string): unknown {
  let at: unknown = data;
  for (const part of pointer.split(".")) {
    if (at === null || typeof at !== "object") return undefined;
    at = (at as Record<string, unknown>)[part];
  }
  return at;
}

describe.each(Object.entries(bodies))("%s", (engine, spec) => {
  it("answers 200 with the envelope, the intelligence block and the model block", async () => {
    const res = await call<ScoredAnalysis>(svc.url, spec.path, {
      key,
      body: { ...spec.body, sessionRef: "visit-42" },
    });
    expect(res.status).toBe(200);
    expect(res.json.ok).toBe(true);
    expect(res.headers.get("x-request-id")).toMatch(/^req_/);
    if (engine === "dmse") expect(res.json.requestId).toBe(res.headers.get("x-request-id"));
    else expect(res.json.requestId).toBeUndefined();
    const data = res.json.data;
    expect(data.object).toBe(spec.object);
    expect(data.sessionRef).toBe("visit-42");
    expect(Date.parse(data.generatedAt)).not.toBeNaN();
    expect(data.model).toEqual({ key: expect.any(String), version: null, source: "default" });
    const intel = data.intelligence;
    expect(intel.schema).toBe("service.intelligence/v1");
    expect(intel.engine).toBe(engine);
    expect(intel.provenance.engineVersion).toBe("default");
    expect(intel.provenance.method).toBe("deterministic_rules");
    expect(intel.dataQuality.completeness).toBeGreaterThanOrEqual(0);
    expect(intel.dataQuality.completeness).toBeLessThanOrEqual(1);
    expect(intel.confidence.score).toBeGreaterThanOrEqual(0);
    expect(intel.confidence.score).toBeLessThanOrEqual(1);
    expect(intel.change).toBeNull();
    expect(intel.reasoning).toBeNull();
    for (const code of intel.codes) {
      expect([
        "http://snomed.info/sct",
        "http://loinc.org",
        "http://www.nlm.nih.gov/research/umls/rxnorm",
      ]).toContain(code.system);
      expect(resolvePointer(data, code.mapsTo)).toBeDefined();
    }
  });

  it("explains the change against `previous` and narrates when `explain` is true", async () => {
    const first = await call<ScoredAnalysis>(svc.url, spec.path, { key, body: spec.body });
    // The previous inputs lacked the body's first field: the change names it (only the
    // endpoint's own fields are accepted in previous.inputs, so no caller key is ever echoed).
    const [added, ...kept] = Object.keys(spec.body) as [string, ...string[]];
    const previous = {
      status: first.json.data.intelligence.summary.status,
      computedAt: first.json.data.generatedAt,
      inputs: Object.fromEntries(kept.map((k) => [k, (spec.body as Record<string, unknown>)[k]])),
      ...(typeof first.json.data.score === "number" ? { score: first.json.data.score - 5 } : {}),
    };
    const res = await call<ScoredAnalysis>(svc.url, spec.path, {
      key,
      body: { ...spec.body, previous, explain: true },
    });
    expect(res.status).toBe(200);
    const change = res.json.data.intelligence.change;
    expect(change).not.toBeNull();
    expect(change?.previousStatus).toBe(previous.status);
    expect(change?.currentStatus).toBe(res.json.data.intelligence.summary.status);
    expect(change?.previousComputedAt).toBe(previous.computedAt);
    expect(change?.explanations.some((e: string) => e.startsWith(`${added} is now supplied`))).toBe(true);
    if (typeof res.json.data.score === "number") expect(change?.delta).toBe(5);
    const reasoning = res.json.data.intelligence.reasoning;
    expect(reasoning?.narrative.split(/(?<=\.)\s/).length).toBeGreaterThanOrEqual(2);
    expect(reasoning?.narrator).toBe("template");
    expect(reasoning?.narrative).not.toContain("visit-42");
  });

  it("is deterministic apart from the clock", async () => {
    const a = await call<ScoredAnalysis>(svc.url, spec.path, { key, body: spec.body });
    const b = await call<ScoredAnalysis>(svc.url, spec.path, { key, body: spec.body });
    const strip = (d: Record<string, unknown>) =>
      JSON.parse(JSON.stringify(d).replace(/"20\d\d-\d\d-\d\dT\d\d:\d\d:\d\d\.\d+Z"/g, '"T"'));
    expect(strip(a.json.data)).toEqual(strip(b.json.data));
  });
});

describe("calibrated model versions", () => {
  it("a promoted version runs at once and shows in model and provenance; nothing is stored per request", async () => {
    const db = svc.db.handle.db;
    const before = await call<RelapsePredictionResponse>(svc.url, bodies.relapse.path, {
      key,
      body: bodies.relapse.body,
    });
    expect(before.json.data.model.source).toBe("default");
    const proposed = await proposeModelVersion(db, ENGINE_NAMES, {
      engine: "relapse",
      params: {},
      note: "same as default",
    });
    await promoteModelVersion(db, ENGINE_NAMES, {
      engine: "relapse",
      version: proposed.version,
      by: "Dr Test",
    });
    // The cache refreshes within its TTL (5 s) without a restart; Redis pub/sub makes it immediate
    // where the CLI announces it (tested with the CLI).
    let after = before;
    for (let i = 0; i < 40 && after.json.data.model.source === "default"; i++) {
      await new Promise((r) => setTimeout(r, 250));
      after = await call<RelapsePredictionResponse>(svc.url, bodies.relapse.path, {
        key,
        body: bodies.relapse.body,
      });
    }
    expect(after.json.data.model).toEqual({
      key: "relapse_risk",
      version: proposed.version,
      source: "calibrated",
    });
    expect(after.json.data.intelligence.provenance.engineVersion).toBe(`v${proposed.version}`);
    // Same parameters as the defaults: same score.
    expect(after.json.data.score).toBe(before.json.data.score);
  });
});
