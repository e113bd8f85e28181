import { MODEL_TEXT_CLIP_CHARS } from "@svc/intelligence";
import { createOpenAiCompatibleChatModel } from "@svc/model";
import {
  type ScriptedModelServer,
  startScriptedModelServer,
  textAnswer,
  toolCallsAnswer,
} from "@svc/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { medicationAgent, runMseAgent, runRecordAgent } from "../src/index.js";

/**
 * The agents on a hostile model: the port's real adapter against a scripted OpenAI-compatible
 * server on loopback. Every string the model chose that reaches a response is clipped by the one
 * helper (clipModelText), and a model repeating itself cannot grow the warnings without bound.
 */
let server: ScriptedModelServer;
beforeAll(async () => {
  server = await startScriptedModelServer();
});
afterAll(async () => {
  await server.close();
});

const NOW = () => new Date("2026-06-01T10:00:00.000Z");
const LIMITS = { maxSteps: 3, callTimeoutMs: 2_000, totalTimeoutMs: 5_000 };
const model = () => createOpenAiCompatibleChatModel({ baseUrl: server.baseUrl, model: "scripted" });
const LONG_NAME = "x".repeat(3_000);
/** The longest quoted model string a warning may hold: the clip bound. */
const quotedRun = new RegExp(`x{${MODEL_TEXT_CLIP_CHARS + 1}}`);

function expectBounded(warnings: readonly string[]) {
  for (const warning of warnings) {
    expect(warning).not.toMatch(quotedRun);
    expect(warning.length).toBeLessThan(400);
  }
  expect(warnings.length).toBeLessThan(20);
}

describe("a record agent on a hostile model", () => {
  it("clips a 3,000-character tool name in its warning", async () => {
    server.script([toolCallsAnswer([{ name: LONG_NAME, args: {} }]), textAnswer("Reviewed.")]);
    const result = await runRecordAgent(
      medicationAgent,
      { patientId: "pt-1", body: { medications: ["sertraline", "tramadol"] } },
      { model: model(), limits: LIMITS, now: NOW },
    );
    const rejected = result.warnings.find((w) => w.startsWith("The model's call to x"));
    expect(rejected).toBe(
      `The model's call to ${"x".repeat(MODEL_TEXT_CLIP_CHARS - 3)}... was rejected (no such tool); nothing from it was used.`,
    );
    expectBounded(result.warnings);
  });

  it("bounds the warnings of many rejected calls and many invented citations", async () => {
    const calls = Array.from({ length: 16 }, (_, i) => ({ name: `${LONG_NAME}${i}`, args: {} }));
    const citations = Array.from({ length: 200 }, (_, i) => `${LONG_NAME}:${i}`);
    server.script([
      toolCallsAnswer(calls),
      toolCallsAnswer(calls),
      textAnswer(JSON.stringify({ narrative: "Reviewed.", observations: [], citations })),
    ]);
    const result = await runRecordAgent(
      medicationAgent,
      { patientId: "pt-1", body: { medications: ["sertraline", "tramadol"] } },
      { model: model(), limits: LIMITS, now: NOW },
    );
    expect(result.warnings).toContain("27 further rejected tool calls were not listed.");
    expect(result.warnings).toContain("195 further dropped citations were not listed.");
    expectBounded(result.warnings);
  });

  it("keeps one observation per entity however often the model repeats it", async () => {
    const observations = Array.from({ length: 1_000 }, (_, i) => ({
      entity: "sertraline",
      note: `Note ${i}.`,
    }));
    server.script([textAnswer(JSON.stringify({ narrative: "Reviewed.", observations, citations: [] }))]);
    const result = await runRecordAgent(
      medicationAgent,
      { patientId: "pt-1", body: { medications: ["sertraline", "tramadol"] } },
      { model: model(), limits: LIMITS, now: NOW },
    );
    const fromModel = (result.assessment?.observations ?? []).filter((o) => o.source === "model");
    expect(fromModel).toEqual([{ medication: expect.any(String), note: "Note 0.", source: "model" }]);
    expect(result.warnings).toContain("994 further repeated observations were not listed.");
    expectBounded(result.warnings);
  });
});

describe("the MSE agent on a hostile model", () => {
  it("clips a 3,000-character tool name and bounds 200 invented domains", async () => {
    const selection = Object.fromEntries(
      Array.from({ length: 200 }, (_, i) => [`${LONG_NAME}${i}`, { values: ["a"] }]),
    );
    server.script([
      toolCallsAnswer([{ name: LONG_NAME, args: {} }]),
      textAnswer(JSON.stringify({ selection, narrative: "Proposed.", citations: [] })),
    ]);
    const result = await runMseAgent(
      { visitId: "visit-1", patientId: "pt-1", transcript: "I have been low for weeks." },
      { model: model(), limits: LIMITS, now: NOW },
    );
    expect(result.warnings).toContain("195 further dropped domains were not listed.");
    expectBounded(result.warnings);
  });

  it("bounds the warnings of 2,000 values a domain does not have", async () => {
    const values = Array.from({ length: 2_000 }, (_, i) => `${"z".repeat(200)}${i}`);
    server.script([
      textAnswer(
        JSON.stringify({ selection: { mood: { values: ["depressed", ...values] } }, narrative: "Proposed." }),
      ),
    ]);
    const result = await runMseAgent(
      { visitId: "visit-1", patientId: "pt-1", transcript: "I have been low for weeks." },
      { model: model(), limits: LIMITS, now: NOW },
    );
    expect(result.warnings).toContain("1995 further dropped values were not listed.");
    expect(result.draft?.selection.mood?.values).toEqual(["depressed"]);
    for (const warning of result.warnings) expect(warning).not.toMatch(/z{81}/);
    expectBounded(result.warnings);
  });
});
