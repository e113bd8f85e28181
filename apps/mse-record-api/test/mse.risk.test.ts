import { startTestService, type TestService } from "@svc/testkit";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { mse, visit } from "./helpers.js";

/** The C-SSRS screener triage and risk-bearing options, case by case through the API. */
let svc: TestService;
let api: ReturnType<typeof mse>;

beforeAll(async () => {
  svc = await startTestService();
});
beforeEach(async () => {
  api = mse(svc.url, (await svc.seed.org()).key);
});
afterAll(async () => {
  await svc.close();
});

type Answers = Record<string, "yes" | "no">;
const cssrsCases: [string, Answers, "none" | "low" | "moderate" | "high"][] = [
  ["all no", { q1: "no", q2: "no", q3: "no", q4: "no", q5: "no", q6: "no" }, "none"],
  ["q1 only (wish to be dead)", { q1: "yes", q2: "no" }, "low"],
  ["q2 only (non-specific active thoughts)", { q1: "no", q2: "yes" }, "low"],
  ["q1 and q2", { q1: "yes", q2: "yes", q3: "no", q4: "no", q5: "no" }, "low"],
  ["q3 (method, no intent)", { q1: "yes", q2: "yes", q3: "yes", q4: "no", q5: "no" }, "moderate"],
  ["q4 (some intent)", { q1: "yes", q2: "yes", q3: "yes", q4: "yes", q5: "no" }, "high"],
  ["q5 (plan and intent)", { q1: "yes", q2: "yes", q3: "yes", q4: "no", q5: "yes" }, "high"],
  ["q6 yes, recent", { q6: "yes", q6_recent: "yes" }, "high"],
  ["q6 yes, more than 3 months ago", { q6: "yes", q6_recent: "no" }, "moderate"],
  ["q6 yes, recency not recorded (read as recent)", { q6: "yes" }, "high"],
  ["q2 and old behavior", { q2: "yes", q6: "yes", q6_recent: "no" }, "moderate"],
  ["q4 out of skip order (scored as given)", { q2: "no", q4: "yes" }, "high"],
];

describe("C-SSRS triage through POST /v1/mse/{visitId}", () => {
  it.each(cssrsCases)("%s -> %s", async (_name, cssrs, level) => {
    const id = visit("cssrs");
    const res = await api.write(id, { patientId: "p", selection: { risk: { values: [], cssrs } } });
    expect(res.status).toBe(200);
    expect(res.json.risk.level).toBe(level);
    expect(res.json.risk.flag).toBe(level !== "none");
    if (level === "none") {
      expect(res.json.risk.safetyEventId).toBeNull();
      expect(res.json.risk.labels).toEqual([]);
    } else {
      expect(res.json.risk.safetyEventId).toMatch(/^sev_/);
      expect(res.json.risk.labels.some((l: string) => l.startsWith("C-SSRS item"))).toBe(true);
    }
    const record = (await api.get(id)).json.mse;
    expect(record.riskLevel).toBe(level);
    expect(record.objectiveBlock).toContain(`triage level ${level}.`);
  });
});

describe("risk-bearing options", () => {
  const optionCases: [string, Record<string, unknown>, string][] = [
    ["passive SI", { risk: { values: ["passive_si"] } }, "low"],
    ["active SI", { risk: { values: ["active_si"] } }, "moderate"],
    ["SI with plan", { risk: { values: ["si_with_plan"] } }, "high"],
    ["recent attempt", { risk: { values: ["recent_suicide_attempt"] } }, "high"],
    ["command hallucinations", { perception: { values: ["command_hallucinations"] } }, "moderate"],
    [
      "suicidal ideation in thought content",
      { thought_content: { values: ["suicidal_ideation"] } },
      "moderate",
    ],
    [
      "auditory hallucinations are not risk-bearing",
      { perception: { values: ["auditory_hallucinations"] } },
      "none",
    ],
    [
      "the higher of option and screener wins",
      { risk: { values: ["passive_si"], cssrs: { q5: "yes" } } },
      "high",
    ],
  ];
  it.each(optionCases)("%s -> %s", async (_name, selection, level) => {
    const res = await api.write(visit("opt"), { patientId: "p", selection });
    expect(res.status).toBe(200);
    expect(res.json.risk.level).toBe(level);
    expect(res.json.risk.flag).toBe(level !== "none");
    expect(res.json.risk.safetyEventId === null).toBe(level === "none");
  });

  it("every risk-bearing write emits its own safety event", async () => {
    const id = visit("repeat");
    const a = await api.write(id, { patientId: "p", selection: { risk: { values: ["active_si"] } } });
    const b = await api.patch(id, { patientId: "p", selection: { mood: { values: ["depressed"] } } });
    expect(a.json.risk.safetyEventId).toMatch(/^sev_/);
    expect(b.json.risk.safetyEventId).toMatch(/^sev_/);
    expect(b.json.risk.safetyEventId).not.toBe(a.json.risk.safetyEventId);
    const events = (await api.safetyEvents(`?visitId=${id}`)).json.events;
    expect(events.map((e: { version: number }) => e.version)).toEqual([2, 1]);
  });
});
