import { scoreRelapse } from "@svc/engines";
import { call } from "@svc/testkit";
import { useTestService } from "@svc/testkit/vitest";
import { beforeAll, describe, expect, it } from "vitest";
import type { RelapseAgentRequest, RelapseAgentResponse } from "../src/index.js";

/**
 * The relapse agent over HTTP with the signals a reviewing psychiatrist sent (decisions 76-78):
 * the engine's safety and combination rules reach the response's risk unchanged.
 */
const svc = useTestService();
let key: string;

beforeAll(async () => {
  key = (await svc.seed.caller("enterprise")).key;
});

async function relapseAgent(signals: RelapseAgentRequest["signals"]) {
  const res = await call<RelapseAgentResponse, RelapseAgentRequest>(svc.url, "/v1/relapse/pt_r/agent", {
    key,
    body: { signals },
  });
  expect(res.status).toBe(200);
  return res.json.data;
}

describe("relapse agent: safety-critical and combined signals", () => {
  it("'suicidal ideation' at 1.0 is high, flagged for immediate review (was none, not flagged)", async () => {
    const data = await relapseAgent([{ indicator: "suicidal ideation", severity: 1 }]);
    expect(data.assessment?.band).toBe("high");
    expect(data.assessment?.contributing.map((c) => c.indicator)).toEqual(["suicidality"]);
    expect(data.risk.flag).toBe(true);
    expect(data.risk.level).toBe("high");
    expect(data.risk.labels[0]).toMatch(/^Immediate clinician review: Suicidal ideation/);
  });

  it("'command hallucinations' is high whatever else is sent", async () => {
    const data = await relapseAgent([
      { indicator: "anxiety", severity: 0 },
      { indicator: "command hallucinations", severity: 0.1 },
    ]);
    expect(data.risk).toMatchObject({ flag: true, level: "high" });
  });

  it("'stopped lithium' with 'short sleep' is high; a manic prodrome asks for review", async () => {
    const stopped = await relapseAgent([
      { indicator: "stopped lithium", severity: 0.5 },
      { indicator: "short sleep", severity: 0.5 },
    ]);
    expect(stopped.risk).toMatchObject({ flag: true, level: "high" });
    const prodrome = await relapseAgent([
      { indicator: "decreased need for sleep", severity: 0.6 },
      { indicator: "elevated mood", severity: 0.6 },
    ]);
    expect(prodrome.assessment?.band).toBe("elevated");
    expect(prodrome.risk).toMatchObject({ flag: true, level: "moderate" });
  });

  it("a negated or unrecognised indicator is named and never leaves the risk at none", async () => {
    const data = await relapseAgent([
      { indicator: "insomnia", severity: 0.1 },
      { indicator: "no suicidal ideation", severity: 1 },
      { indicator: "moon phase", severity: 1 },
    ]);
    expect(data.ok).toBe(false);
    expect(data.assessment?.unrecognized).toEqual(["no suicidal ideation", "moon phase"]);
    expect(data.warnings.join(" ")).toMatch(/Negated relapse indicator "no suicidal ideation"/);
    expect(data.risk.level).toBe("moderate");
  });
});

describe("relapse agent: safety concepts by meaning (decision 178)", () => {
  it.each([
    ["cut her arms last night", "high"],
    ["says he will hurt his neighbour", "high"],
    ["took all her pills", "high"],
    ["stopped venlafaxine", "high"],
    ["denies cutting", "moderate"],
    ["talks about killing", "moderate"],
  ])(
    "'%s' reads %s through the agent, as the engine reads it (each was low before)",
    async (indicator, level) => {
      const signals = [{ indicator, severity: 1 }];
      const data = await relapseAgent(signals);
      // The engine's level and flag; the envelope may add its "Not assessed" line to the labels.
      const engine = scoreRelapse(signals).risk;
      expect({ level: data.risk.level, flag: data.risk.flag }).toEqual({
        level: engine.level,
        flag: engine.flag,
      });
      expect(data.risk.labels).toEqual(expect.arrayContaining(engine.labels));
      expect(data.risk.level).toBe(level);
      expect(data.risk.flag).toBe(true);
    },
  );
});
