import { createServer } from "node:net";
import { scoreRelapse } from "@svc/engines";
import type { ErrorEnvelope } from "@svc/http";
import { createOpenAiCompatibleChatModel } from "@svc/model";
import { call, startTestService, textAnswer, toolCallsAnswer } from "@svc/testkit";
import { describe, expect, it } from "vitest";
import type {
  BiomarkerAgentRequest,
  BiomarkerAgentResponse,
  MedicationAgentRequest,
  MedicationAgentResponse,
  RelapseAgentRequest,
  RelapseAgentResponse,
} from "../src/index.js";
import { useScriptedModelService } from "./scripted-model.js";

/**
 * The record-level agents on a model: the port's real adapter against a scripted
 * OpenAI-compatible server on loopback. The model runs the tool loop and writes the narrative;
 * the engine's assessment and risk stand whatever the model says; what the model says about
 * anything no tool returned is dropped into warnings; a model that is down or slow is a 503.
 */
const LIMITS = { maxSteps: 3, callTimeoutMs: 500, totalTimeoutMs: 1_500 };
const agents = useScriptedModelService(LIMITS);
const { svc } = agents;

const panel = [
  { analyte: "lithium", value: 1.6 },
  { analyte: "sodium", value: 139 },
];
const finalAnswer = (answer: unknown) => textAnswer(JSON.stringify(answer));

function postBiomarker(body: BiomarkerAgentRequest) {
  return call<BiomarkerAgentResponse, BiomarkerAgentRequest>(svc.url, "/v1/biomarker/pt_secret_17/agent", {
    key: agents.key,
    body,
  });
}

describe("a well-behaved tool loop", () => {
  it("runs the model's tool calls, keeps its grounded narrative and observations, and sends no patient id", async () => {
    agents.model.script([
      toolCallsAnswer([{ name: "getPanels", args: {} }]),
      toolCallsAnswer([{ name: "evaluatePanel", args: { panel } }]),
      finalAnswer({
        narrative: "Lithium is above the toxicity threshold. Sodium is within range.",
        observations: [{ entity: "Lithium", note: "Check for signs of toxicity today." }],
        citations: ["evaluatePanel:lithium"],
      }),
    ]);
    const res = await postBiomarker({ panel, context: "On lithium for 3 years." });
    expect(res.status).toBe(200);
    const data = res.json.data;
    expect(data).toMatchObject({
      runner: "model",
      ok: true,
      steps: 3,
      toolCalls: ["getPanels", "evaluatePanel"],
    });
    expect(data.reasoning).toMatchObject({ narrator: "model" });
    expect(data.reasoning?.narrative).toBe(
      "Lithium is above the toxicity threshold. Sodium is within range.",
    );
    expect(data.assessment?.observations).toContainEqual({
      analyte: "Lithium",
      note: "Check for signs of toxicity today.",
      source: "model",
    });
    expect(data.citations).toEqual(["evaluatePanel:lithium"]);
    expect(data.risk).toMatchObject({ flag: true, level: "high" });
    expect(data.warnings).toEqual([]);
    const sent = JSON.stringify(agents.model.received);
    expect(sent).not.toContain("pt_secret_17");
    expect(sent).toContain("On lithium for 3 years.");
  });
});

describe("a model that strays", () => {
  it("an invented analyte: its observation and the sentence naming it are dropped and warned", async () => {
    agents.model.script([
      toolCallsAnswer([{ name: "evaluatePanel", args: { panel } }]),
      finalAnswer({
        narrative: "Lithium is above the toxicity threshold. Troponin is raised, suggesting myocarditis.",
        observations: [
          { entity: "troponin", note: "Raised troponin." },
          { entity: "lithium", note: "Toxic range." },
        ],
        citations: ["evaluatePanel:troponin"],
      }),
    ]);
    const res = await postBiomarker({ panel });
    expect(res.status).toBe(200);
    const data = res.json.data;
    expect(data.reasoning?.narrative).toBe("Lithium is above the toxicity threshold.");
    expect(data.assessment?.observations.filter((o) => o.source === "model").map((o) => o.note)).toEqual([
      "Toxic range.",
    ]);
    expect(data.assessment?.results.map((r) => r.analyte.toLowerCase())).not.toContain("troponin");
    const warnings = data.warnings.join("\n");
    expect(warnings).toMatch(/observation about "troponin"/);
    expect(warnings).toMatch(/citation "evaluatePanel:troponin"/);
    expect(warnings).toMatch(/sentence of the narrative naming "troponin"/);
  });

  it("an invented drug in the medication agent is dropped and warned", async () => {
    agents.model.script([
      toolCallsAnswer([{ name: "checkInteractions", args: { medications: ["sertraline", "tramadol"] } }]),
      finalAnswer({
        narrative: "Sertraline with tramadol raises serotonin syndrome risk.",
        observations: [{ entity: "linezolid", note: "Avoid linezolid." }],
      }),
    ]);
    const res = await call<MedicationAgentResponse, MedicationAgentRequest>(
      svc.url,
      "/v1/medication/pt_1/agent",
      {
        key: agents.key,
        body: { medications: ["sertraline", "tramadol"] },
      },
    );
    expect(res.status).toBe(200);
    expect(res.json.data.assessment?.observations).toEqual([]);
    expect(res.json.data.warnings.join("\n")).toMatch(/observation about "linezolid"/);
    expect(res.json.data.toolCalls).toEqual(["checkInteractions"]);
  });

  it("a model that sets a score, a band or a risk is ignored: the engine's stand", async () => {
    const signals = [
      { indicator: "medication_nonadherence", severity: 1 },
      { indicator: "sleep_disruption", severity: 0.8 },
    ];
    const engine = scoreRelapse(signals);
    agents.model.script([
      toolCallsAnswer([{ name: "scoreRelapse", args: { signals, compositeScore: 2 } }]),
      finalAnswer({
        narrative: "Risk is low.",
        compositeScore: 3,
        band: "low",
        risk: { flag: false, level: "none", labels: [] },
      }),
    ]);
    const res = await call<RelapseAgentResponse, RelapseAgentRequest>(svc.url, "/v1/relapse/pt_4/agent", {
      key: agents.key,
      body: { signals },
    });
    expect(res.status).toBe(200);
    const data = res.json.data;
    expect(data.assessment?.compositeScore).toBe(engine.compositeScore);
    expect(data.assessment?.band).toBe(engine.band);
    expect(data.risk).toEqual(engine.risk);
  });

  it("malformed tool arguments: the call is rejected with a warning and the engine runs the tool itself", async () => {
    agents.model.script([
      toolCallsAnswer([{ name: "checkInteractions", args: "{not json" }]),
      finalAnswer({ narrative: "Sertraline with tramadol raises serotonin syndrome risk." }),
    ]);
    const res = await call<MedicationAgentResponse, MedicationAgentRequest>(
      svc.url,
      "/v1/medication/pt_1/agent",
      {
        key: agents.key,
        body: { medications: ["sertraline", "tramadol"] },
      },
    );
    expect(res.status).toBe(200);
    const data = res.json.data;
    expect(data.warnings.join("\n")).toMatch(/call to checkInteractions was rejected/);
    expect(data.warnings.join("\n")).toMatch(/did not run checkInteractions on the submitted data/);
    expect(data.toolCalls).toEqual(["checkInteractions"]);
    expect(data.assessment?.interactions.length).toBeGreaterThan(0);
  });

  it("a model that loops past the step bound: ok false, the engine's assessment, no narrative", async () => {
    agents.model.script([toolCallsAnswer([{ name: "getPanels", args: {} }])]);
    const res = await postBiomarker({ panel });
    expect(res.status).toBe(200);
    const data = res.json.data;
    expect(data.ok).toBe(false);
    expect(data.steps).toBe(LIMITS.maxSteps);
    expect(data.reasoning).toBeNull();
    expect(data.assessment?.results.length).toBe(2);
    expect(data.risk.level).toBe("high");
    expect(data.warnings.join("\n")).toMatch(/step limit \(3\)/);
  });
});

describe("a model that cannot serve", () => {
  it("answers 500: 503 service_unavailable", async () => {
    agents.model.script([{ status: 500, body: { error: { message: "upstream exploded" } } }]);
    const res = await call<ErrorEnvelope>(svc.url, "/v1/biomarker/pt_1/agent", {
      key: agents.key,
      body: { panel },
    });
    expect(res.status).toBe(503);
    expect(res.json.error.code).toBe("service_unavailable");
    expect(res.json.error.message).not.toMatch(/exploded/);
  });

  it("too slow: 503 within the time limit", async () => {
    agents.model.script([{ ...finalAnswer({ narrative: "Too late." }), delayMs: 3_000 }]);
    const started = Date.now();
    const res = await call<ErrorEnvelope>(svc.url, "/v1/biomarker/pt_1/agent", {
      key: agents.key,
      body: { panel },
    });
    expect(res.status).toBe(503);
    // Not a timing assertion of speed: the answer came before the model would have.
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  it("unreachable: 503", async () => {
    const port = await closedPort();
    const down = await startTestService({
      chatModel: createOpenAiCompatibleChatModel({ baseUrl: `http://127.0.0.1:${port}/v1`, model: "gone" }),
      agentLimits: LIMITS,
    });
    try {
      const downKey = (await down.seed.caller("enterprise")).key;
      const res = await call<ErrorEnvelope>(down.url, "/v1/outcome/pt_1/agent", {
        key: downKey,
        body: { instruments: [{ instrument: "PHQ-9", total: 12 }] },
      });
      expect(res.status).toBe(503);
      expect(res.json.error.code).toBe("service_unavailable");
    } finally {
      await down.close();
    }
  });

  it("input the engine cannot score is 400 before any model call", async () => {
    agents.model.script([finalAnswer({ narrative: "unused" })]);
    const res = await call<ErrorEnvelope>(svc.url, "/v1/outcome/pt_1/agent", {
      key: agents.key,
      body: { instruments: [{ instrument: "PHQ-9", responses: [1, 1] }] },
    });
    expect(res.status).toBe(400);
    expect(agents.model.received).toEqual([]);
  });
});

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe("the patient review on a model (decision 198)", () => {
  it("is offered reviewPatient with the patient data; the review and the age-checked dose stand; the context is read", async () => {
    const body: MedicationAgentRequest = {
      medications: ["Citalopram 40 mg"],
      patient: { ageYears: 70, sex: "female" },
      context: "Lives alone.",
    };
    agents.model.script([
      toolCallsAnswer([
        { name: "checkInteractions", args: { medications: body.medications, patient: body.patient } },
        { name: "reviewPatient", args: { patient: body.patient, medicines: [{ name: "Citalopram 40 mg" }] } },
      ]),
      finalAnswer({
        narrative: "Citalopram 40 mg is above the maximum at this age.",
        observations: [],
        citations: ["checkInteractions:citalopram"],
      }),
    ]);
    const res = await call<MedicationAgentResponse, MedicationAgentRequest>(
      svc.url,
      "/v1/medication/pt_1/agent",
      {
        key: agents.key,
        body,
      },
    );
    expect(res.status, res.text).toBe(200);
    const data = res.json.data;
    expect(data.runner).toBe("model");
    expect(data.toolCalls).toEqual(["checkInteractions", "reviewPatient"]);
    expect(data.risk.level).toBe("high");
    expect(data.risk.labels.join(" ")).toMatch(/above the 20 mg\/day maximum at age 70/);
    expect(data.patientReview).toMatchObject({ ageYears: 70 });
    expect(data.warnings.join(" ")).not.toMatch(/context was not read|did not run/);
    const sent = JSON.stringify(agents.model.received);
    expect(sent).toContain("reviewPatient");
    expect(sent).toContain("Lives alone.");
    expect(sent).toContain('\\"ageYears\\":70');
  });
});
