import { call } from "@svc/testkit";
import { useTestService } from "@svc/testkit/vitest";
import { beforeAll, describe, expect, it } from "vitest";
import type {
  BiomarkerAgentRequest,
  BiomarkerAgentResponse,
  MedicationAgentRequest,
  MedicationAgentResponse,
  OutcomeAgentRequest,
  OutcomeAgentResponse,
  RelapseAgentRequest,
  RelapseAgentResponse,
} from "../src/index.js";

/**
 * The record-level agents with no model configured (the embedded default and these machines):
 * each runs its fixed deterministic tool plan, the template narrator writes the reasoning from
 * engine output, and `runner` says so. The engine's findings and risk come through unchanged.
 */
const svc = useTestService();
let key: string;

beforeAll(async () => {
  key = (await svc.seed.caller("enterprise")).key;
});

describe("without a model: the deterministic tool plan", () => {
  it("medication: a serotonergic combination is found, with risk, citations and the template narrative", async () => {
    const res = await call<MedicationAgentResponse, MedicationAgentRequest>(
      svc.url,
      "/v1/medication/pt_1/agent",
      {
        key,
        body: { medications: ["Sertraline 100 mg", "tramadol 50mg"] },
      },
    );
    expect(res.status).toBe(200);
    const data = res.json.data;
    expect(data).toMatchObject({
      object: "medication.agent.assessment",
      patientId: "pt_1",
      mode: "advisory",
      ok: true,
      runner: "deterministic",
      toolCalls: ["checkInteractions"],
      steps: 1,
    });
    expect(data.assessment?.recognized).toEqual(["sertraline", "tramadol"]);
    const pair = data.assessment?.interactions.find(
      (i) => [i.a, i.b].sort().join("+") === "sertraline+tramadol",
    );
    expect(pair?.severity).toMatch(/high|moderate/);
    expect(pair?.source.length).toBeGreaterThan(5);
    expect(data.risk.flag).toBe(true);
    expect(data.reasoning?.narrator).toBe("template");
    expect(data.reasoning?.narrative).toMatch(/tramadol/);
    expect(data.citations.length).toBeGreaterThan(0);
    expect(data.disclaimer).toMatch(/not by a language model/);
  });

  it("medication: unknown names are unrecognized and warned, never read as no interaction", async () => {
    const res = await call<MedicationAgentResponse, MedicationAgentRequest>(
      svc.url,
      "/v1/medication/pt_1/agent",
      {
        key,
        body: { medications: ["sertraline", "zorblatine 5 mg"] },
      },
    );
    expect(res.status).toBe(200);
    expect(res.json.data.assessment?.unrecognized).toEqual(["zorblatine 5 mg"]);
    expect(res.json.data.warnings.join(" ")).toMatch(/not (recognised|recognized)/i);
    expect(res.json.data.reasoning?.narrative).toMatch(/not recognised/);
  });

  it("medication: nothing recognised is assessment null, ok false, and risk says not assessed", async () => {
    const res = await call<MedicationAgentResponse, MedicationAgentRequest>(
      svc.url,
      "/v1/medication/pt_1/agent",
      {
        key,
        body: { medications: ["zorblatine"] },
      },
    );
    expect(res.status).toBe(200);
    expect(res.json.data.assessment).toBeNull();
    expect(res.json.data.ok).toBe(false);
    expect(res.json.data.risk.labels.join(" ")).toMatch(/Not assessed/);
  });

  it("biomarker: lithium at the toxicity threshold is critical and high risk", async () => {
    const res = await call<BiomarkerAgentResponse, BiomarkerAgentRequest>(
      svc.url,
      "/v1/biomarker/pt_2/agent",
      {
        key,
        body: {
          panel: [
            { analyte: "lithium", value: 1.5 },
            { analyte: "sodium", value: 140 },
          ],
        },
      },
    );
    expect(res.status).toBe(200);
    const data = res.json.data;
    expect(data.toolCalls).toEqual(["getPanels", "evaluatePanel"]);
    const lithium = data.assessment?.results.find((r) => r.analyte.toLowerCase() === "lithium");
    expect(lithium).toMatchObject({ value: 1.5, flag: "critical_high", unit: "mmol/L" });
    expect(data.risk).toMatchObject({ flag: true, level: "high" });
  });

  it("biomarker: sodium below 125 is critical; an unknown analyte is unrecognized and warned", async () => {
    const res = await call<BiomarkerAgentResponse, BiomarkerAgentRequest>(
      svc.url,
      "/v1/biomarker/pt_2/agent",
      {
        key,
        body: {
          panel: [
            { analyte: "sodium", value: 124 },
            { analyte: "unobtainium", value: 3 },
          ],
        },
      },
    );
    expect(res.status).toBe(200);
    expect(res.json.data.assessment?.results[0]?.flag).toBe("critical_low");
    expect(res.json.data.assessment?.unrecognized).toEqual(["unobtainium"]);
    expect(res.json.data.warnings.join(" ")).toMatch(/unobtainium/);
  });

  it("outcome: PHQ-9 item 9 above 0 raises risk even with a minimal total", async () => {
    const res = await call<OutcomeAgentResponse, OutcomeAgentRequest>(svc.url, "/v1/outcome/pt_3/agent", {
      key,
      body: { instruments: [{ instrument: "PHQ-9", responses: [0, 0, 0, 0, 0, 0, 0, 0, 1] }] },
    });
    expect(res.status).toBe(200);
    const data = res.json.data;
    expect(data.toolCalls).toEqual(["getInstruments", "scoreInstruments"]);
    expect(data.assessment?.results[0]).toMatchObject({ instrument: "PHQ-9", total: 1 });
    expect(data.risk.flag).toBe(true);
    expect(["moderate", "high"]).toContain(data.risk.level);
  });

  it("outcome: a reliable improvement against the prior total", async () => {
    const res = await call<OutcomeAgentResponse, OutcomeAgentRequest>(svc.url, "/v1/outcome/pt_3/agent", {
      key,
      body: { instruments: [{ instrument: "GAD-7", total: 6, priorTotal: 12 }] },
    });
    expect(res.status).toBe(200);
    expect(res.json.data.assessment?.results[0]).toMatchObject({
      instrument: "GAD-7",
      trajectory: "improved",
      change: -6,
      reliableChange: true,
    });
  });

  it("relapse: the engine's composite and band, with unknown indicators unrecognized", async () => {
    const res = await call<RelapseAgentResponse, RelapseAgentRequest>(svc.url, "/v1/relapse/pt_4/agent", {
      key,
      body: {
        signals: [
          { indicator: "medication_nonadherence", severity: 1 },
          { indicator: "moon_phase", severity: 0.5 },
        ],
      },
    });
    expect(res.status).toBe(200);
    const data = res.json.data;
    expect(data.toolCalls).toEqual(["getSignalModel", "scoreRelapse"]);
    expect(data.assessment?.compositeScore).toBeGreaterThan(0);
    expect(data.assessment?.band).not.toBe("low");
    expect(data.assessment?.unrecognized).toEqual(["moon_phase"]);
    expect(data.warnings.join(" ")).toMatch(/moon_phase/);
    expect(data.risk.flag).toBe(true);
  });
});
