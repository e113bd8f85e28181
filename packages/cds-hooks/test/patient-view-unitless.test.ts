/**
 * The CDS patient-view door reads a laboratory Observation sent without a unit through the one
 * judgement (decision 180, decision 182), as the JSON biomarker answer, the agent tool and MCP do:
 * read in the one unit scale that makes it plausible, critical when critical under every
 * plausible reading, otherwise said to be not evaluated (never silent, never normal). Analytes
 * coded with the verified LOINC codes 59261-8 (IFCC HbA1c) and 98979-8 (eGFR, CKD-EPI 2021) are
 * judged at the level the JSON biomarker answer gives.
 */
import type { Observation } from "@medplum/fhirtypes";
import {
  analyteByKey,
  analyzeBiomarkers,
  DOOR_LEVELS,
  judgeLabReading,
  levelOfIndicator,
} from "@svc/engines";
import { describe, expect, it } from "vitest";
import { type CdsRunResult, escapeMarkdown, parseHookRequest, runCdsService } from "../src/index.js";
import { labObservation, options, patientViewRequest, searchset, service } from "./fixtures.js";

function run(labs: Observation[]): CdsRunResult {
  const prefetch = { labs: searchset(labs), scores: null, medications: searchset([]) };
  const parsed = parseHookRequest(service("psych-patient-view"), patientViewRequest(prefetch));
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
  return runCdsService(parsed, prefetch, options());
}

/** An Observation of `loinc` whose valueQuantity carries the value only (no unit, no code). */
function unitless(id: string, loinc: string, display: string, value: number): Observation {
  const o = labObservation(id, loinc, display, value, "x", "2026-11-24");
  o.valueQuantity = { value };
  return o;
}

const cardsOf = (result: CdsRunResult, rule: string) =>
  result.cards.filter((_, i) => result.rules[i] === rule);

/** The level the JSON biomarker answer gives the one current reading (its value finding or signal). */
function jsonLevel(name: string, value: number, unit: string | undefined, loinc: string) {
  const data = analyzeBiomarkers(
    {
      labs: [
        {
          id: "p1",
          labName: "JSON",
          observedAt: "2026-11-24T12:00:00Z",
          results: { biomarkers: [{ name, value, loinc, ...(unit ? { unit } : {}) }] },
        },
      ],
    },
    { now: new Date("2026-11-26T12:00:00Z") },
  ).data;
  return data.valueFindings.find((f) => f.current)?.level ?? "none";
}

describe("patient-view: a laboratory value without a unit goes to the one judgement", () => {
  it("lithium 1.6 without a unit (one unit scale) is a critical lithium card that says no unit was given", () => {
    const result = run([unitless("l1", "14334-7", "Lithium", 1.6)]);
    const [card] = cardsOf(result, "lab-lithium");
    expect(card?.indicator).toBe("critical");
    expect(card?.detail).toContain("No unit was given on the Observation (value sent: 1.6)");
    expect(card?.detail).toContain("read in mmol/L, the one unit scale Lithium is reported in");
    expect(result.notUsed).toEqual({});
    const entry = analyteByKey("lithium") ?? null;
    expect(DOOR_LEVELS[judgeLabReading(entry, 1.6, undefined).level].cds).toBe("critical");
  });

  it("neutrophils 0.4 without a unit (critical under every plausible reading) is a critical card", () => {
    const result = run([unitless("a1", "751-8", "Neutrophils", 0.4)]);
    const [card] = cardsOf(result, "lab-anc");
    expect(card?.indicator).toBe("critical");
    expect(card?.detail).toMatch(/sent without a unit/);
    expect(card?.detail).toContain("No unit was given on the Observation (value sent: 0.4)");
    expect(judgeLabReading(analyteByKey("anc") ?? null, 0.4, undefined).level).toBe("high");
  });

  it("an ambiguous value without a unit (clozapine 0.45: mg/L or µmol/L) is a not-evaluated card, never silent", () => {
    const entry = analyteByKey("clozapine") ?? null;
    const judged = judgeLabReading(entry, 0.45, undefined);
    expect(judged.assessed).toBe(false);
    const result = run([unitless("c1", "6896-5", "Clozapine", 0.45)]);
    expect(cardsOf(result, "lab-clozapine")).toEqual([]);
    const [card] = cardsOf(result, "insufficient-data");
    expect(card?.indicator).toBe("info");
    expect(card?.summary).toBe("1 laboratory value(s) could not be evaluated");
    expect(card?.detail).toContain(escapeMarkdown("Clozapine: not evaluated: unit (unit missing"));
  });
});

describe("patient-view: LOINC codes of the analyte table's rows, judged at the JSON door's level", () => {
  it("HbA1c 60 mmol/mol coded 59261-8 (IFCC) is converted and carded at the JSON answer's level", () => {
    const level = jsonLevel("HbA1c", 60, "mmol/mol", "59261-8");
    // The diabetes range (decision 188).
    expect(level).toBe("moderate");
    const result = run([labObservation("h1", "59261-8", "HbA1c IFCC", 60, "mmol/mol", "2026-11-24")]);
    const cards = cardsOf(result, "lab-hba1c");
    expect(cards.map((c) => levelOfIndicator(c.indicator))).toEqual([level]);
    expect(cards[0]?.summary).toMatch(/HbA1c 7\.64 %/);
    expect(result.notUsed).toEqual({});
  });

  it("eGFR 35 coded 98979-8 (CKD-EPI 2021) is carded at the JSON answer's level", () => {
    const level = jsonLevel("eGFR", 35, "mL/min/{1.73_m2}", "98979-8");
    expect(level).toBe("moderate");
    const result = run([labObservation("e1", "98979-8", "eGFR", 35, "mL/min/{1.73_m2}", "2026-11-24")]);
    expect(cardsOf(result, "lab-egfr").map((c) => levelOfIndicator(c.indicator))).toEqual([level]);
    expect(result.notUsed).toEqual({});
  });
});
