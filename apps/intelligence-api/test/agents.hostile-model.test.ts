import type { ErrorEnvelope } from "@svc/http";
import { call, textAnswer, toolCallsAnswer } from "@svc/testkit";
import { describe, expect, it } from "vitest";
import type { BiomarkerAgentResponse } from "../src/index.js";
import { useScriptedModelService } from "./scripted-model.js";

/**
 * The record agents over HTTP on a hostile model (a scripted OpenAI-compatible server on
 * loopback): a reply with thousands of tool calls or tens of megabytes is refused while it is
 * read (503, nothing ran), and a model-chosen string never reaches a warning unclipped
 * (decision 89).
 */
const LIMITS = { maxSteps: 3, callTimeoutMs: 5_000, totalTimeoutMs: 10_000 };
const agents = useScriptedModelService(LIMITS);
const { svc } = agents;

const panel = [
  { analyte: "lithium", value: 1.6 },
  { analyte: "sodium", value: 139 },
];
function post<T extends BiomarkerAgentResponse | ErrorEnvelope>() {
  return call<T>(svc.url, "/v1/biomarker/pt_1/agent", { key: agents.key, body: { panel } });
}

describe("a hostile model", () => {
  it("2,000 tool calls in one reply: 503 service_unavailable at once, after one model call", async () => {
    const calls = Array.from({ length: 2_000 }, () => ({ name: "getPanels", args: {} }));
    agents.model.script([toolCallsAnswer(calls), textAnswer("Done.")]);
    const started = performance.now();
    const res = await post<ErrorEnvelope>();
    expect(res.status).toBe(503);
    expect(res.json.error.code).toBe("service_unavailable");
    expect(res.json.error.message).toContain("over the service's bounds for a model reply");
    expect(agents.model.received).toHaveLength(1);
    expect(performance.now() - started).toBeLessThan(3_000);
  });

  it("a 30 MB chunked reply: 503, read no further than the bound", async () => {
    agents.model.script([{ ...textAnswer("x".repeat(30_000_000)), chunked: true }]);
    const res = await post<ErrorEnvelope>();
    expect(res.status).toBe(503);
    expect(res.json.error.code).toBe("service_unavailable");
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(agents.model.bytesSent).toBeLessThan(12_000_000);
  });

  it("a 3,000-character tool name: the warning quotes it clipped to 80 characters", async () => {
    const name = "y".repeat(3_000);
    agents.model.script([
      toolCallsAnswer([{ name, args: {} }]),
      textAnswer(JSON.stringify({ narrative: "Reviewed." })),
    ]);
    const res = await post<BiomarkerAgentResponse>();
    expect(res.status).toBe(200);
    const warning = res.json.data.warnings.find((w) => w.startsWith("The model's call to y"));
    expect(warning).toBe(
      `The model's call to ${"y".repeat(77)}... was rejected (no such tool); nothing from it was used.`,
    );
    for (const w of res.json.data.warnings) expect(w).not.toMatch(/y{81}/);
  });
});
