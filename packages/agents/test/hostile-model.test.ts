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
      { chatModel: model(), limits: LIMITS, now: NOW },
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
      { chatModel: model(), limits: LIMITS, now: NOW },
    );
    expect(result.warnings).toContain("27 further rejected tool calls were not listed.");
    // 50 citations are read (decision 168): 5 listed, 45 counted, and the 150 unread said once.
    expect(result.warnings).toContain("45 further dropped citations were not listed.");
    expect(result.warnings).toContain(
      "The model's answer held 150 further observations and citations past the 50 of each that are read; they were not read.",
    );
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
      { chatModel: model(), limits: LIMITS, now: NOW },
    );
    const fromModel = (result.assessment?.observations ?? []).filter((o) => o.source === "model");
    expect(fromModel).toEqual([{ medication: expect.any(String), note: "Note 0.", source: "model" }]);
    expect(result.warnings).toContain("44 further repeated observations were not listed.");
    expect(result.warnings).toContain(
      "The model's answer held 950 further observations and citations past the 50 of each that are read; they were not read.",
    );
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
      { chatModel: model(), limits: LIMITS, now: NOW },
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
      { chatModel: model(), limits: LIMITS, now: NOW },
    );
    expect(result.warnings).toContain("1995 further dropped values were not listed.");
    expect(result.draft?.selection.mood?.values).toEqual(["depressed"]);
    for (const warning of result.warnings) expect(warning).not.toMatch(/z{81}/);
    expectBounded(result.warnings);
  });
});

/**
 * A final answer near the reply bound (1 MiB) is read only up to the service's bound on model
 * text before any screening, grounding or regular expression runs over it (decision 168). Before,
 * a fenced answer of spaces held the process for minutes (a cubic regular expression), and 1 MiB of
 * sentences took the reassurance screen 5-20 s of one thread. The time bounds are generous: they
 * show "bounded", not "fast".
 */
describe("an agent's final answer near the reply bound", () => {
  const SECONDS = 1_000;
  const timed = async <T>(run: () => Promise<T>): Promise<{ result: T; ms: number }> => {
    const started = performance.now();
    const result = await run();
    return { result, ms: performance.now() - started };
  };
  const medication = (text: string) => {
    server.script([textAnswer(text)]);
    return timed(() =>
      runRecordAgent(
        medicationAgent,
        { patientId: "pt-1", body: { medications: ["lithium", "ibuprofen"] } },
        { chatModel: model(), limits: LIMITS, now: NOW },
      ),
    );
  };

  it("a fence of 3,000 spaces that never closes is read as prose at once", async () => {
    const { result, ms } = await medication(`\`\`\`${" ".repeat(3_000)}x`);
    expect(ms).toBeLessThan(5 * SECONDS);
    expect(result.reasoning?.narrative.length ?? 0).toBeLessThanOrEqual(2_000);
    expectBounded(result.warnings);
  });

  it("900 kB of reassuring sentences: bounded time, bounded warnings, no reassurance kept", async () => {
    const { result, ms } = await medication("The patient is safe. ".repeat(43_000));
    expect(ms).toBeLessThan(5 * SECONDS);
    expect(result.reasoning).toBeNull();
    expectBounded(result.warnings);
  });

  it("a JSON answer of 700 kB: narrative, observations and citations read to their bounds", async () => {
    const answer = JSON.stringify({
      narrative: "Lithium with ibuprofen raises the lithium level. ".repeat(8_000),
      observations: Array.from({ length: 3_000 }, () => ({ entity: "lithium", note: "Safe. ".repeat(10) })),
      citations: Array.from({ length: 3_000 }, (_, i) => `checkInteractions:${i}`),
    });
    expect(answer.length).toBeGreaterThan(700_000);
    const { result, ms } = await medication(answer);
    expect(ms).toBeLessThan(5 * SECONDS);
    expect(result.reasoning?.narrative.length ?? 0).toBeLessThanOrEqual(2_000);
    expectBounded(result.warnings);
  });

  it("the MSE agent: 470 kB of narrative sentences and a 375 kB note", async () => {
    const sentences = "Denies suicidal ideation. Mood is low. ".repeat(12_000);
    server.script([
      textAnswer(
        JSON.stringify({
          selection: { mood: { values: ["depressed"], text: "Calm and safe. ".repeat(25_000) } },
          narrative: sentences,
        }),
      ),
    ]);
    const { result, ms } = await timed(() =>
      runMseAgent(
        { visitId: "visit-1", patientId: "pt-1", transcript: "I have been low for weeks." },
        { chatModel: model(), limits: LIMITS, now: NOW },
      ),
    );
    expect(ms).toBeLessThan(5 * SECONDS);
    expect(result.draft?.selection.mood?.values).toEqual(["depressed"]);
    expect(result.draft?.selection.mood?.text ?? "").not.toMatch(/safe/i);
    expect(result.reasoning?.narrative ?? "").not.toMatch(/denies/i);
    expectBounded(result.warnings);
  });
});

describe("tool calls without end, and arguments nested without end", () => {
  it("a model that calls a tool at every step stops at the step bound with the engine's answer", async () => {
    server.script([toolCallsAnswer([{ name: "checkInteractions", args: { medications: ["lithium"] } }])]);
    const result = await runRecordAgent(
      medicationAgent,
      { patientId: "pt-1", body: { medications: ["lithium", "ibuprofen"] } },
      { chatModel: model(), limits: LIMITS, now: NOW },
    );
    expect(server.received).toHaveLength(LIMITS.maxSteps);
    expect(result.ok).toBe(false);
    expect(result.assessment).not.toBeNull();
    expectBounded(result.warnings);
  });

  it("arguments nested 200,000 deep: the reply is refused as over the bounds, not a stack overflow", async () => {
    const deep = `{"medications":${"[".repeat(200_000)}${"]".repeat(200_000)}}`;
    server.script([
      toolCallsAnswer([{ name: "checkInteractions", args: deep }]),
      textAnswer(JSON.stringify({ narrative: "Reviewed." })),
    ]);
    const run = runRecordAgent(
      medicationAgent,
      { patientId: "pt-1", body: { medications: ["lithium", "ibuprofen"] } },
      { chatModel: model(), limits: LIMITS, now: NOW },
    );
    await expect(run).rejects.toMatchObject({ name: "ModelUnavailableError", reason: "reply_over_bound" });
    expect(server.received).toHaveLength(1);
  });

  it("arguments nested 32 deep are still read (a rejected call, answered)", async () => {
    const deep = `{"medications":${"[".repeat(31)}${"]".repeat(31)}}`;
    server.script([
      toolCallsAnswer([{ name: "checkInteractions", args: deep }]),
      textAnswer(JSON.stringify({ narrative: "Reviewed." })),
    ]);
    const result = await runRecordAgent(
      medicationAgent,
      { patientId: "pt-1", body: { medications: ["lithium", "ibuprofen"] } },
      { chatModel: model(), limits: LIMITS, now: NOW },
    );
    expect(result.warnings.some((w) => w.includes("was rejected"))).toBe(true);
  });
});
