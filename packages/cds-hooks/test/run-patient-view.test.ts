import { describe, expect, it } from "vitest";
import {
  type Card,
  type CdsRunResult,
  escapeMarkdown,
  isCleanJson,
  parseHookRequest,
  runCdsService,
} from "../src/index.js";
import {
  anc,
  gad7,
  lithium,
  medicationRequest,
  options,
  patientViewRequest,
  phq9,
  searchset,
  service,
  sodium,
  valproate,
  withPatientFacts,
} from "./fixtures.js";

function run(prefetch: Record<string, unknown>, extra: Record<string, unknown> = {}): CdsRunResult {
  const body = patientViewRequest(prefetch);
  const parsed = parseHookRequest(service("psych-patient-view"), body);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
  const result = runCdsService(parsed, withPatientFacts(prefetch), options(extra));
  for (const card of result.cards) {
    expect(isCleanJson(card)).toBe(true);
    expect(card.summary.length).toBeLessThan(140);
    expect(card.summary).not.toMatch(/\bnormal\b|all clear|no concerns/i);
  }
  return result;
}

const cardOf = (result: CdsRunResult, rule: string): Card | undefined =>
  result.cards[result.rules.indexOf(rule)];

const noLabs = searchset([]);
const noMeds = searchset([]);
const worseningPhq9 = searchset([
  phq9("p1", 5, "2026-09-01"),
  phq9("p2", 9, "2026-10-15"),
  phq9("p3", 17, "2026-11-20"),
]);

describe("patient-view: symptom trajectory and relapse early warning", () => {
  it("a PHQ-9 worsening 5 -> 17 is an elevated (warning) relapse card naming the reliable deterioration", () => {
    const result = run({ scores: worseningPhq9, labs: noLabs, medications: noMeds });
    expect(result.rules).toEqual(["relapse-early-warning"]);
    const card = cardOf(result, "relapse-early-warning");
    expect(card?.indicator).toBe("warning");
    expect(card?.summary).toMatch(/^Relapse early warning elevated \(\d+\/100\), symptom trend rising/);
    expect(card?.detail).toContain("PHQ-9 reliable deterioration: 5 -> 17");
    expect(card?.detail).toContain("not a validated prediction model");
    expect(result.engines.map((e) => [e.name, e.version])).toEqual([["relapse", "default"]]);
  });

  it("a severe latest PHQ-9 with GAD-7 scores is at least a warning", () => {
    const scores = searchset([
      phq9("p1", 21, "2026-11-10"),
      phq9("p2", 23, "2026-11-24"),
      gad7("g1", 16, "2026-11-24"),
    ]);
    const card = cardOf(run({ scores, labs: noLabs, medications: noMeds }), "relapse-early-warning");
    expect(["warning", "critical"]).toContain(card?.indicator);
  });

  it("stable low scores give no card at all: never an 'all normal' card", () => {
    const scores = searchset([phq9("p1", 3, "2026-10-20"), phq9("p2", 3, "2026-11-20")]);
    const meds = searchset([medicationRequest("m1", { rxnorm: "36437" }, "active", "2026-01-10")]);
    expect(run({ scores, labs: noLabs, medications: meds }).cards).toEqual([]);
  });

  it("no symptom scores (null prefetch) is an insufficient-data card, not reassurance", () => {
    const result = run({ scores: null, labs: null, medications: null });
    expect(result.cards).toHaveLength(1);
    expect(result.cards[0]).toMatchObject({
      indicator: "info",
      summary: expect.stringMatching(/not enough symptom-scale data/),
    });
    expect(result.missingPrefetch).toEqual([]);
  });

  it("stale scores (newest older than 90 days) are said as insufficient current data", () => {
    const scores = searchset([phq9("p1", 4, "2026-05-01"), phq9("p2", 3, "2026-06-01")]);
    const card = cardOf(run({ scores, labs: noLabs, medications: noMeds }), "relapse-early-warning");
    expect(card).toMatchObject({ indicator: "info", summary: expect.stringMatching(/too old/) });
  });

  it("missing keys (not provided, not fetched) are named on the insufficient-data card", () => {
    const result = run({ scores: worseningPhq9 });
    expect(result.missingPrefetch).toEqual(["labs", "medications"]);
    const card = cardOf(result, "insufficient-data");
    expect(card?.summary).toBe("Insufficient data: laboratory results, active medications not available");
  });

  it("uses the account's calibrated parameters when given, and says which version ran", () => {
    const result = run(
      { scores: worseningPhq9, labs: noLabs, medications: noMeds },
      { models: { relapse: { version: 3, params: {} } } },
    );
    expect(result.engines).toEqual([{ name: "relapse", version: "v3", modelKey: "relapse_risk" }]);
    expect(cardOf(result, "relapse-early-warning")?.detail).toContain("(relapse, v3)");
  });
});

describe("patient-view: laboratory monitoring", () => {
  it("lithium 1.6 mmol/L (HH) on lithium is a critical card from the biomarker engine", () => {
    const result = run({
      scores: null,
      labs: searchset([lithium("l1", 1.6, "2026-11-20T08:00:00Z", "HH")]),
      medications: searchset([
        medicationRequest("m1", { text: "Lithium carbonate 400 mg bd" }, "active", "2026-01-01"),
      ]),
    });
    const card = cardOf(result, "lab-lithium");
    expect(card).toMatchObject({
      indicator: "critical",
      summary: "Lithium critical: 1.6 mmol/L on 2026-11-20",
    });
    expect(card?.detail).toContain("toxicity threshold");
    expect(result.rules).not.toContain("lab-monitoring-due");
  });

  it("an unflagged lithium beyond the critical limit is still a critical card (the engine's value finding)", () => {
    const card = cardOf(
      run({ scores: null, labs: searchset([lithium("l1", 1.6, "2026-11-20")]), medications: noMeds }),
      "lab-lithium",
    );
    expect(card).toMatchObject({
      indicator: "critical",
      summary: "Lithium 1.6 mmol/L: at or above the 1.5 mmol/L toxicity threshold (2026-11-20)",
    });
  });

  it("an unflagged result outside the range but inside the critical limits is the agent tool's finding, as a card at the mapped level (decision 182)", () => {
    const result = run({
      scores: null,
      labs: searchset([lithium("l1", 1.2, "2026-11-20")]),
      medications: noMeds,
    });
    expect(result.engines.map((e) => e.name)).toContain("biomarker");
    // The panels tool reads lithium 1.2 mmol/L as moderate; the door table maps moderate to warning.
    const card = cardOf(result, "lab-lithium");
    expect(card?.indicator).toBe("warning");
    expect(card?.summary).toContain(
      "above the service's therapeutic range 0.6-1.0 mmol/L (not flagged by the laboratory)",
    );
    // Within the range: no card.
    const inRange = run({
      scores: null,
      labs: searchset([lithium("l2", 0.8, "2026-11-20")]),
      medications: noMeds,
    });
    expect(inRange.rules).not.toContain("lab-lithium");
  });

  it("clozapine with a low ANC is a critical card with the clozapine thresholds", () => {
    const result = run({
      scores: null,
      labs: searchset([anc("a1", 1.2, "2026-11-25T07:30:00Z", "L")]),
      medications: searchset([medicationRequest("m1", { rxnorm: "2626" }, "active", "2026-03-01")]),
    });
    const card = cardOf(result, "lab-anc");
    expect(card?.indicator).toBe("critical");
    expect(card?.summary).toBe(
      "Neutrophils (absolute) low, beyond a critical limit: 1.2 x10^9/L on 2026-11-25",
    );
    expect(card?.detail).toContain("clozapine");
  });

  it("sodium 124 mmol/L (LL) is critical", () => {
    const card = cardOf(
      run({ scores: null, labs: searchset([sodium("s1", 124, "2026-11-24", "LL")]), medications: noMeds }),
      "lab-sodium",
    );
    expect(card?.indicator).toBe("critical");
  });

  it("an unknown unit is never read as a value (not normal, not abnormal) and is named", () => {
    const result = run({
      scores: null,
      labs: searchset([lithium("l1", 0.7, "2026-11-20", "N", "mg/dL")]),
      medications: searchset([medicationRequest("m1", { text: "Lithium 400 mg" }, "active", "2026-01-01")]),
    });
    expect(result.rules).not.toContain("lab-lithium");
    expect(result.engines.map((e) => e.name)).not.toContain("biomarker");
    expect(result.notUsed).toEqual({ unknown_unit: 1 });
    expect(cardOf(result, "insufficient-data")?.detail).toContain(
      escapeMarkdown('unit "mg/dL" is not known for Lithium'),
    );
    expect(cardOf(result, "lab-monitoring-due")?.summary).toBe(
      "Lithium is active but no Lithium result from the last 180 days",
    );
  });

  it("an active valproate order with only an old level says the monitoring level is not current", () => {
    const result = run({
      scores: null,
      labs: searchset([valproate("v1", 70, "2026-01-10", "N")]),
      medications: searchset([
        medicationRequest("m1", { text: "Sodium valproate 500 mg" }, "active", "2025-06-01"),
      ]),
    });
    expect(cardOf(result, "lab-monitoring-due")?.detail).toContain("the newest is from 2026-01-10");
  });

  it("preliminary and entered-in-error results are skipped and said", () => {
    const result = run({
      scores: null,
      labs: searchset([
        { ...sodium("s1", 118, "2026-11-24", "LL"), status: "preliminary" },
        { ...lithium("l1", 2.1, "2026-11-24", "HH"), status: "entered-in-error" },
      ]),
      medications: noMeds,
    });
    expect(result.rules).not.toContain("lab-sodium");
    expect(result.notUsed).toEqual({ wrong_status: 2 });
    expect(cardOf(result, "insufficient-data")?.summary).toBe(
      "Insufficient data: 2 FHIR record(s) could not be read",
    );
  });

  it("an OperationOutcome instead of the labs is said as incomplete", () => {
    const result = run({
      scores: null,
      labs: { resourceType: "OperationOutcome", issue: [{ severity: "error", code: "timeout" }] },
      medications: noMeds,
    });
    expect(result.notUsed).toEqual({ incomplete: 1 });
  });
});
