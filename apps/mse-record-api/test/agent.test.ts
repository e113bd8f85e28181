import { createServer } from "node:net";
import { mseSafetyEvents, mseVersions, mseVisits } from "@svc/db";
import type { FlatErrorBody } from "@svc/http";
import { type ChatModel, createOpenAiCompatibleChatModel } from "@svc/model";
import {
  call,
  type ScriptedAnswer,
  type ScriptedModelServer,
  startScriptedModelServer,
  startTestService,
  type TestService,
  textAnswer,
  toolCallsAnswer,
} from "@svc/testkit";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { MseAgentRequestBody, MseAgentResponse } from "../src/routes/v1_mse_agent.js";
import { mse, visit } from "./helpers.js";

/**
 * POST /v1/mse/{visitId}/agent over real HTTP: one service whose model is the real
 * OpenAI-compatible adapter (pointed at a scripted server on loopback, or at a closed port), and
 * one with no model (the deterministic plan). The proposal's commit is posted to the write
 * endpoint; the agent itself never writes.
 */
// The wording clients see (the agent's constants; restated so the test checks the words).
const RISK_NOT_ASSESSED_LABEL =
  "Suicide risk not assessed by the agent: the clinician must complete the risk domain and the C-SSRS screen.";
const TRANSCRIPT_NOT_ANALYSED_WARNING =
  "The transcript was not analysed for MSE findings: no language model is configured; only telemetry-supported findings are proposed. It was screened for safety concepts only, which raise the risk and propose nothing.";
const LIMITS = { maxSteps: 6, callTimeoutMs: 1_500, totalTimeoutMs: 4_000 };

let server: ScriptedModelServer;
let withModel: TestService;
let noModel: TestService;
let closedPortUrl: string;
/** The adapter the model service uses for the current test (the scripted server by default). */
let adapter: ChatModel;
const switchableModel: ChatModel = { runToolLoop: (request) => adapter.runToolLoop(request) };

async function closedPort(): Promise<string> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const address = probe.address();
  const port = typeof address === "object" && address ? address.port : 0;
  await new Promise((resolve) => probe.close(resolve));
  return `http://127.0.0.1:${port}/v1`;
}

beforeAll(async () => {
  server = await startScriptedModelServer();
  closedPortUrl = await closedPort();
  withModel = await startTestService({ chatModel: switchableModel, agentLimits: LIMITS });
  noModel = await startTestService();
});
afterAll(async () => {
  await Promise.all([withModel.close(), noModel.close()]);
  await server.close();
});
beforeEach(() => {
  adapter = createOpenAiCompatibleChatModel({ baseUrl: server.baseUrl, model: "scripted" });
});

const agent = <Res = MseAgentResponse>(svc: TestService, key: string, visitId: string, body: unknown) =>
  call<Res, unknown>(svc.url, `/v1/mse/${visitId}/agent`, { method: "POST", key, body });

const telemetry = { speechRateWpm: 80, responseLatencySeconds: 2.6, sessionDurationSeconds: 600 };
const transcript = "I feel hopeless most days. I keep losing my train of thought.";

/** A well-behaved loop: every tool once, then the final JSON answer. */
function wellBehavedScript(
  selection: unknown,
  narrative = "Mood and hopelessness come from the transcript.",
): ScriptedAnswer[] {
  return [
    toolCallsAnswer([{ name: "getCatalog", args: {} }]),
    toolCallsAnswer([{ name: "analyzeTelemetry", args: { telemetry } }]),
    toolCallsAnswer([{ name: "validateDraft", args: { selection } }]),
    toolCallsAnswer([{ name: "assessRisk", args: { selection } }]),
    textAnswer(
      JSON.stringify({ selection, narrative, citations: ["analyzeTelemetry:speech_rate", "validateDraft"] }),
    ),
  ];
}

async function mseRowCounts(svc: TestService): Promise<number[]> {
  const db = svc.db.handle.db;
  return [
    (await db.select().from(mseVisits)).length,
    (await db.select().from(mseVersions)).length,
    (await db.select().from(mseSafetyEvents)).length,
  ];
}

describe("with a model (scripted, real adapter)", () => {
  it("a well-behaved loop gives a draft and a commit that saves version 1", async () => {
    const { key } = await withModel.seed.org();
    const id = visit("agent");
    const selection = { mood: { values: ["depressed"] }, thought_content: { values: ["hopelessness"] } };
    server.script(wellBehavedScript(selection));
    const body: MseAgentRequestBody = { patientId: "pt-1", transcript, telemetry, clinicianId: "dr-a" };
    const res = await agent(withModel, key, id, body);

    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({
      object: "mse.agent.proposal",
      visitId: id,
      mode: "proposed",
      ok: true,
      runner: "model",
      toolCalls: ["getCatalog", "analyzeTelemetry", "validateDraft", "assessRisk"],
      steps: 5,
      citations: ["analyzeTelemetry:speech_rate", "validateDraft"],
    });
    const draft = res.json.draft;
    expect(Object.keys(draft?.selection ?? {})).toEqual(["speech", "mood", "thought_content"]);
    expect(draft?.selection.speech).toMatchObject({
      values: ["slowed", "increased_latency"],
      provenance: "digital_mse",
    });
    expect(draft?.selection.mood).toEqual({ values: ["depressed"], confidence: "low" });
    expect(res.json.reasoning).toMatchObject({ narrator: "model" });
    expect(res.json.risk.labels).toContain(RISK_NOT_ASSESSED_LABEL);
    expect(res.json.commit).toEqual({
      method: "POST",
      path: `/v1/mse/${id}`,
      body: { patientId: "pt-1", selection: draft?.selection, clinicianId: "dr-a" },
    });
    // The model saw the four tools and the transcript, never the ids.
    const sent = JSON.stringify(server.received[0]);
    for (const tool of ["getCatalog", "analyzeTelemetry", "validateDraft", "assessRisk"])
      expect(sent).toContain(tool);
    expect(sent).toContain("hopeless most days");
    expect(sent).not.toContain("pt-1");
    expect(sent).not.toContain(id);

    // Nothing was written by the agent; the commit, posted as-is, records version 1.
    const api = mse(withModel.url, key);
    expect((await api.get<FlatErrorBody>(id)).status).toBe(404);
    const commit = res.json.commit;
    const written = await call<{ ok: boolean; version: number }>(withModel.url, commit?.path ?? "", {
      method: commit?.method,
      key,
      body: commit?.body,
    });
    expect(written.status).toBe(200);
    expect(written.json).toMatchObject({ ok: true, version: 1 });
    const stored = await api.get(id);
    expect(stored.json.mse.version).toBe(1);
    expect(stored.json.mse.selection).toEqual(draft?.selection);
    expect(stored.json.mse.objectiveBlock).toBe(draft?.objectiveBlock);
    expect(stored.json.mse.clinicianId).toBe("dr-a");
  });

  it("drops an invalid option and an unknown domain into warnings and keeps the rest", async () => {
    const { key } = await withModel.seed.org();
    server.script([
      textAnswer(
        JSON.stringify({
          selection: {
            mood: { values: ["depressed", "gloomy"] },
            vibes: { values: ["bad"] },
            insight: { values: ["partial"] },
          },
          narrative: "Proposed from the transcript.",
          citations: [],
        }),
      ),
    ]);
    const res = await agent(withModel, key, visit(), { patientId: "p", transcript });
    expect(res.status).toBe(200);
    expect(res.json.draft?.selection).toEqual({
      mood: { values: ["depressed"], confidence: "low" },
      insight: { values: ["partial"], confidence: "low" },
    });
    const warnings = res.json.warnings.join("\n");
    expect(warnings).toContain('Dropped "gloomy" from the proposed mood domain');
    expect(warnings).toContain('Dropped the proposed domain "vibes"');
    expect(res.json.ok).toBe(true);
  });

  it("drops denies_si_hi with a warning: the agent never proposes an absence of risk", async () => {
    const { key } = await withModel.seed.org();
    server.script([
      textAnswer(
        JSON.stringify({
          selection: {
            risk: { values: ["denies_si_hi"], cssrs: { q1: "no", q2: "no", q6: "no" } },
            mood: { values: ["anxious"] },
          },
          narrative: "The patient denies suicidal ideation. Mood is anxious.",
        }),
      ),
    ]);
    const res = await agent(withModel, key, visit(), {
      patientId: "p",
      transcript: "No, I would never hurt myself.",
    });
    expect(res.status).toBe(200);
    expect(res.json.draft?.selection.risk).toBeUndefined();
    // Not assessed is low and flagged (decision 179); the denied self-harm is flagged, not cleared.
    expect(res.json.risk).toMatchObject({
      flag: true,
      level: "low",
      labels: [
        "Transcript screen: Self-harm mentioned as denied or absent (sentence 1); not read as an absence, for the clinician to confirm",
        RISK_NOT_ASSESSED_LABEL,
      ],
    });
    const warnings = res.json.warnings.join("\n");
    expect(warnings).toContain('Dropped the model\'s risk option "denies_si_hi"');
    expect(warnings).toContain("a negative screen must be recorded by the clinician");
    expect(res.json.reasoning?.narrative).toBe("Mood is anxious.");
  });

  it("keeps passive_si from the transcript, raises the risk flag and asks the clinician to confirm", async () => {
    const { key } = await withModel.seed.org();
    const id = visit("risk");
    server.script([
      textAnswer(
        JSON.stringify({
          selection: { risk: { values: ["passive_si"] } },
          narrative: "A passive death wish is proposed.",
        }),
      ),
    ]);
    const res = await agent(withModel, key, id, {
      patientId: "p",
      transcript: "Sometimes I wish I just would not wake up.",
    });
    expect(res.status).toBe(200);
    expect(res.json.draft?.selection.risk).toEqual({ values: ["passive_si"], confidence: "low" });
    expect(res.json.risk).toMatchObject({ flag: true, level: "low" });
    expect(res.json.risk.labels).toEqual([
      "Risk: Passive death wish",
      "Transcript screen: Passive death wish (sentence 1), for the clinician to assess",
      RISK_NOT_ASSESSED_LABEL,
    ]);
    expect(res.json.warnings).toContain(
      "Risk finding proposed from the transcript, for the clinician to confirm: Risk: Passive death wish.",
    );
    // Committed by the clinician, the write computes the same risk and writes its safety event.
    const written = await call<{ risk: { flag: boolean; safetyEventId: string | null } }>(
      withModel.url,
      res.json.commit?.path ?? "",
      { method: "POST", key, body: res.json.commit?.body },
    );
    expect(written.status).toBe(200);
    expect(written.json.risk.flag).toBe(true);
    expect(written.json.risk.safetyEventId).toMatch(/^sev_/);
  });

  it("a model stopped at the step bound gives ok false with the telemetry draft only", async () => {
    const { key } = await withModel.seed.org();
    server.script([toolCallsAnswer([{ name: "getCatalog", args: {} }])]);
    const res = await agent(withModel, key, visit(), { patientId: "p", transcript, telemetry });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ ok: false, steps: LIMITS.maxSteps, reasoning: null, runner: "model" });
    expect(Object.keys(res.json.draft?.selection ?? {})).toEqual(["speech"]);
    expect(res.json.warnings.join("\n")).toContain("stopped at the step limit (6)");
  });

  it("a model answering 500 is 503 with a flat error, and nothing is stored", async () => {
    const { key } = await withModel.seed.org();
    const id = visit("down");
    server.script([{ status: 500, body: { error: { message: "overloaded" } } }]);
    const before = await mseRowCounts(withModel);
    const res = await agent<FlatErrorBody>(withModel, key, id, { patientId: "p", transcript, telemetry });
    expect(res.status).toBe(503);
    expect(res.json.error).toContain("temporarily unavailable: it answered with an error");
    expect(res.json.code).toBe("service_unavailable");
    expect(server.received).toHaveLength(1); // no retry storm
    expect((await mse(withModel.url, key).get<FlatErrorBody>(id)).status).toBe(404);
    expect(await mseRowCounts(withModel)).toEqual(before);
  });

  it("a model that cannot be reached (closed port) is 503", async () => {
    const { key } = await withModel.seed.org();
    adapter = createOpenAiCompatibleChatModel({ baseUrl: closedPortUrl, model: "scripted" });
    const id = visit("closed");
    const res = await agent<FlatErrorBody>(withModel, key, id, { patientId: "p", transcript });
    expect(res.status).toBe(503);
    expect(res.json.code).toBe("service_unavailable");
    expect((await mse(withModel.url, key).get<FlatErrorBody>(id)).status).toBe(404);
  });

  it("a model slower than the call limit is 503 within the limit", async () => {
    const { key } = await withModel.seed.org();
    server.script([{ ...textAnswer("{}"), delayMs: 5_000 }]);
    const started = Date.now();
    const res = await agent<FlatErrorBody>(withModel, key, visit(), { patientId: "p", transcript });
    expect(res.status).toBe(503);
    expect(Date.now() - started).toBeLessThan(LIMITS.totalTimeoutMs);
  });
});

describe("without a model (deterministic plan)", () => {
  it("proposes the telemetry findings only; the commit saves version 1", async () => {
    const { key } = await noModel.seed.org();
    const id = visit("det");
    const res = await agent(noModel, key, id, { patientId: "p", transcript, telemetry });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({
      ok: true,
      runner: "deterministic",
      reasoning: { narrator: "template" },
    });
    expect(res.json.draft?.selection).toEqual({
      speech: expect.objectContaining({ values: ["slowed", "increased_latency"], provenance: "digital_mse" }),
    });
    expect(res.json.warnings).toContain(TRANSCRIPT_NOT_ANALYSED_WARNING);
    const written = await call<{ version: number }>(noModel.url, res.json.commit?.path ?? "", {
      method: "POST",
      key,
      body: res.json.commit?.body,
    });
    expect(written.json.version).toBe(1);
  });

  it("a transcript alone is 200 with no draft and warnings saying why", async () => {
    const { key } = await noModel.seed.org();
    const res = await agent(noModel, key, visit(), { patientId: "p", transcript });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ ok: false, draft: null, commit: null });
    expect(res.json.warnings).toContain(TRANSCRIPT_NOT_ANALYSED_WARNING);
  });
});

describe("request bounds", () => {
  it.each([
    ["neither transcript nor telemetry", { patientId: "p" }],
    ["no patientId", { transcript }],
    ["telemetry without a metric", { patientId: "p", telemetry: { sessionDurationSeconds: 600 } }],
    ["telemetry out of bounds", { patientId: "p", telemetry: { speechRateWpm: 601 } }],
    ["a blank transcript", { patientId: "p", transcript: "   " }],
    ["context over 2000 characters", { patientId: "p", telemetry, context: "x".repeat(2001) }],
  ])("%s is 400 with a flat error", async (_name, body) => {
    const { key } = await noModel.seed.org();
    const res = await agent<FlatErrorBody>(noModel, key, visit(), body);
    expect(res.status).toBe(400);
    expect(typeof res.json.error).toBe("string");
  });

  it("context of 2000 characters and a transcript at its limit are accepted", async () => {
    const { key } = await noModel.seed.org();
    const res = await agent(noModel, key, visit(), {
      patientId: "p",
      telemetry,
      transcript: "x".repeat(20_000),
      context: "x".repeat(2000),
    });
    expect(res.status).toBe(200);
  });
});

describe("who may call", () => {
  const body = { patientId: "p", telemetry };

  it("an account's secret test key is accepted (the contract's secret key)", async () => {
    const caller = await noModel.seed.caller("sandbox");
    const res = await agent(noModel, caller.key, visit(), body);
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ object: "mse.agent.proposal", ok: true, runner: "deterministic" });
    expect(res.headers.get("x-ratelimit-limit")).not.toBeNull();
  });

  it("an account's secret live key is accepted on a paid plan with production access, else 402", async () => {
    const paid = await noModel.seed.account({ plan: "launch", production: true });
    const live = await noModel.seed.key("secret_live", paid.id);
    const ok = await agent(noModel, live.key, visit(), body);
    expect(ok.status).toBe(200);
    expect(ok.json.object).toBe("mse.agent.proposal");

    const unpaid = await noModel.seed.account({ plan: "sandbox" });
    const refused = await agent<FlatErrorBody>(
      noModel,
      (await noModel.seed.key("secret_live", unpaid.id)).key,
      visit(),
      body,
    );
    expect(refused.status).toBe(402);
    expect(refused.json.code).toBe("payment_required");
    expect(typeof refused.json.error).toBe("string");
  });

  it("an organization key with mse:write alone is accepted", async () => {
    const { key } = await noModel.seed.org(["mse:write"]);
    expect((await agent(noModel, key, visit(), body)).status).toBe(200);
  });

  it("publishable keys are 403 forbidden, from an allowed origin too", async () => {
    const caller = await noModel.seed.caller("enterprise");
    const publishable = await noModel.seed.key("publishable", caller.account.id);
    const res = await call<FlatErrorBody>(noModel.url, `/v1/mse/${visit()}/agent`, {
      method: "POST",
      body,
      headers: { authorization: `Bearer ${publishable.key}`, origin: "http://localhost:3000" },
    });
    expect(res.status).toBe(403);
    expect(res.json.code).toBe("forbidden");
  });

  it("a secret key still cannot save the proposal: the write takes an organization key", async () => {
    const caller = await noModel.seed.caller("sandbox");
    const proposal = await agent(noModel, caller.key, visit(), body);
    const commit = proposal.json.commit;
    expect(commit).not.toBeNull();
    const res = await call<FlatErrorBody>(noModel.url, commit?.path ?? "", {
      method: "POST",
      key: caller.key,
      body: commit?.body,
    });
    expect(res.status).toBe(403);
    expect(res.json.code).toBe("forbidden");
  });

  it("no key is 401; an organization key without mse:write is 403", async () => {
    expect((await call(noModel.url, `/v1/mse/${visit()}/agent`, { method: "POST", body })).status).toBe(401);
    const { key } = await noModel.seed.org(["mse:read", "mse:sign"]);
    const res = await agent<FlatErrorBody>(noModel, key, visit(), body);
    expect(res.status).toBe(403);
    expect(res.json.error).toContain("mse:write");
  });

  it("agent calls write nothing", async () => {
    const { key } = await noModel.seed.org();
    const before = await mseRowCounts(noModel);
    const id = visit("nowrite");
    for (let i = 0; i < 3; i += 1) expect((await agent(noModel, key, id, body)).status).toBe(200);
    expect(await mseRowCounts(noModel)).toEqual(before);
    expect((await mse(noModel.url, key).get<FlatErrorBody>(id)).status).toBe(404);
  });
});
