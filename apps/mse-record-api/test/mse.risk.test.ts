import { useTestService } from "@svc/testkit/vitest";
import { beforeEach, describe, expect, it } from "vitest";
import { mse, visit } from "./helpers.js";

/** The C-SSRS screener triage and risk-bearing options, case by case through the API. */
const svc = useTestService();
let api: ReturnType<typeof mse>;

beforeEach(async () => {
  api = mse(svc.url, (await svc.seed.org()).key);
});

type Answers = Record<string, "yes" | "no">;
type Level = "none" | "low" | "moderate" | "high";
/** Name, answers, level, and the answers the screener's skip rule still needs. */
const cssrsCases: [string, Answers, Level, string[]][] = [
  ["all no", { q1: "no", q2: "no", q3: "no", q4: "no", q5: "no", q6: "no" }, "none", []],
  ["q1 only (wish to be dead)", { q1: "yes", q2: "no" }, "low", ["q6"]],
  [
    "q2 only, items 3-5 not asked (read as at least moderate)",
    { q1: "no", q2: "yes" },
    "moderate",
    ["q3", "q4", "q5", "q6"],
  ],
  ["q1 and q2", { q1: "yes", q2: "yes", q3: "no", q4: "no", q5: "no" }, "low", ["q6"]],
  ["q3 (method, no intent)", { q1: "yes", q2: "yes", q3: "yes", q4: "no", q5: "no" }, "moderate", ["q6"]],
  ["q4 (some intent)", { q1: "yes", q2: "yes", q3: "yes", q4: "yes", q5: "no" }, "high", ["q6"]],
  ["q5 (plan and intent)", { q1: "yes", q2: "yes", q3: "yes", q4: "no", q5: "yes" }, "high", ["q6"]],
  ["q6 yes, recent", { q6: "yes", q6_recent: "yes" }, "high", ["q1", "q2"]],
  ["q6 yes, more than 3 months ago", { q6: "yes", q6_recent: "no" }, "moderate", ["q1", "q2"]],
  ["q6 yes, recency not recorded (read as recent)", { q6: "yes" }, "high", ["q1", "q2", "q6_recent"]],
  ["q2 and old behavior", { q2: "yes", q6: "yes", q6_recent: "no" }, "moderate", ["q1", "q3", "q4", "q5"]],
  ["q1 and q2 yes, items 3-5 not asked", { q1: "yes", q2: "yes", q6: "no" }, "moderate", ["q3", "q4", "q5"]],
  ["q4 out of skip order (scored as given)", { q2: "no", q4: "yes" }, "high", ["q1", "q6"]],
];

describe("C-SSRS triage through POST /v1/mse/{visitId}", () => {
  it.each(cssrsCases)("%s -> %s", async (_name, cssrs, level, missing) => {
    const id = visit("cssrs");
    const res = await api.write(id, { patientId: "p", selection: { risk: { values: [], cssrs } } });
    expect(res.status).toBe(200);
    expect(res.json.risk.level).toBe(level);
    expect(res.json.risk.flag).toBe(level !== "none");
    const status = { complete: missing.length === 0, missingItems: missing, triageLevel: level };
    expect(res.json.risk.cssrs).toEqual(status);
    if (level === "none") {
      expect(res.json.risk.safetyEventId).toBeNull();
      expect(res.json.risk.labels).toEqual([]);
    } else {
      expect(res.json.risk.safetyEventId).toMatch(/^sev_/);
      expect(res.json.risk.labels.some((l: string) => l.startsWith("C-SSRS item"))).toBe(true);
    }
    expect(res.json.risk.labels.some((l: string) => l.startsWith("C-SSRS screen incomplete: "))).toBe(
      missing.length > 0,
    );
    const record = (await api.get(id)).json.mse;
    expect(record.riskLevel).toBe(level);
    expect(record.cssrs).toEqual(status);
    expect(record.objectiveBlock).toContain(
      missing.length > 0 ? `triage level ${level} until completed.` : `triage level ${level}.`,
    );
  });
});

describe("an incomplete C-SSRS screen", () => {
  const onlyQ1Line =
    "Risk: C-SSRS screener incomplete: not answered: items 2 and 6; answered no to item 1. Not a negative screen; triage level low until completed.";

  it("is saved as a draft, never reads as negative, and GET, history and the write say what is missing", async () => {
    const id = visit("partial");
    const res = await api.write(id, {
      patientId: "p",
      selection: { risk: { values: [], cssrs: { q1: "no" } } },
    });
    expect(res.status).toBe(200);
    expect(res.json.risk).toEqual({
      flag: false,
      level: "low",
      labels: ["C-SSRS screen incomplete: items 2 and 6 not answered"],
      cssrs: { complete: false, missingItems: ["q2", "q6"], triageLevel: "low" },
      safetyEventId: null,
    });

    const got = await api.get(id);
    expect(got.status).toBe(200);
    expect(got.json.mse).toMatchObject({
      riskFlag: false,
      riskLevel: "low",
      riskLabels: ["C-SSRS screen incomplete: items 2 and 6 not answered"],
      cssrs: { complete: false, missingItems: ["q2", "q6"], triageLevel: "low" },
      safetyEventId: null,
    });
    expect(got.json.mse.lines.map((l: { line: string }) => l.line)).toEqual([onlyQ1Line]);
    expect(got.json.mse.objectiveBlock).not.toContain("no items endorsed");

    // Completing the screen by a patch settles it: a complete all-no screen is negative.
    const done = await api.patch(id, {
      patientId: "p",
      selection: { risk: { values: [], cssrs: { q1: "no", q2: "no", q6: "no" } } },
    });
    expect(done.status).toBe(200);
    expect(done.json.risk).toEqual({
      flag: false,
      level: "none",
      labels: [],
      cssrs: { complete: true, missingItems: [], triageLevel: "none" },
      safetyEventId: null,
    });
    const after = (await api.get(id)).json.mse;
    expect(after).toMatchObject({ riskLevel: "none", riskLabels: [], cssrs: { complete: true } });
    expect(after.objectiveBlock).toBe("Risk: C-SSRS screener: no items endorsed; triage level none.");

    const history = await api.history(id);
    expect(history.status).toBe(200);
    expect(history.json.versions.map((v: { lines: string[] }) => v.lines)).toEqual([
      ["Risk: C-SSRS screener: no items endorsed; triage level none."],
      [onlyQ1Line],
    ]);
    expect(history.json.chainValid).toBe(true);
    // Incompleteness alone is not a risk finding: no safety event.
    expect((await api.safetyEvents(`?visitId=${id}`)).json.events).toEqual([]);
  });

  it("a patch with a yes to item 2 and items 3-5 not asked is accepted, moderate, flagged and names the gap", async () => {
    const id = visit("partial-q2");
    await api.write(id, { patientId: "p", selection: { mood: { values: ["depressed"] } } });
    const res = await api.patch(id, {
      patientId: "p",
      selection: { risk: { values: [], cssrs: { q1: "no", q2: "yes", q6: "no" } } },
    });
    expect(res.status).toBe(200);
    expect(res.json.risk).toMatchObject({
      flag: true,
      level: "moderate",
      labels: [
        "C-SSRS item 2: non-specific active suicidal thoughts",
        "C-SSRS screen incomplete: items 3, 4 and 5 not answered; items 3, 4 and 5 still to ask after the yes to item 2 (a yes to item 4 or 5 is high risk), read as at least moderate until asked",
      ],
      cssrs: { complete: false, missingItems: ["q3", "q4", "q5"], triageLevel: "moderate" },
    });
    expect(res.json.risk.safetyEventId).toMatch(/^sev_/);
    const record = (await api.get(id)).json.mse;
    expect(record.riskLevel).toBe("moderate");
    expect(record.riskLabels).toContain(
      "C-SSRS screen incomplete: items 3, 4 and 5 not answered; items 3, 4 and 5 still to ask after the yes to item 2 (a yes to item 4 or 5 is high risk), read as at least moderate until asked",
    );
    expect(record.lines.find((l: { key: string }) => l.key === "risk")?.line).toBe(
      "Risk: C-SSRS screener incomplete: yes to item 2; not answered: items 3, 4 and 5; answered no to items 1 and 6; items 3, 4 and 5 still to ask after the yes to item 2; triage level moderate until completed.",
    );
    const [v2] = (await api.history(id)).json.versions;
    expect(v2?.lines).toContain(record.lines[1]?.line);
  });

  it("names a missing item 6 recency and keeps the conservative high level", async () => {
    const id = visit("partial-q6");
    const res = await api.write(id, {
      patientId: "p",
      selection: { risk: { values: [], cssrs: { q1: "no", q2: "no", q6: "yes" } } },
    });
    expect(res.status).toBe(200);
    expect(res.json.risk).toMatchObject({ flag: true, level: "high" });
    expect(res.json.risk.labels).toContain("C-SSRS screen incomplete: item 6 recency not answered");
    const record = (await api.get(id)).json.mse;
    expect(record.cssrs).toEqual({ complete: false, missingItems: ["q6_recent"], triageLevel: "high" });
    expect(record.objectiveBlock).toContain("not answered: item 6 recency");
  });

  it("GET shows cssrs null when the record has no screen", async () => {
    const id = visit("noscreen");
    await api.write(id, { patientId: "p", selection: { risk: { values: ["denies_si_hi"] } } });
    const record = (await api.get(id)).json.mse;
    expect(record.cssrs).toBeNull();
    expect(record.riskLevel).toBe("none");
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
