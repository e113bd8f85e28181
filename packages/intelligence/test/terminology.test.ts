import { describe, expect, it } from "vitest";
import {
  LOINC_INSTRUMENTS,
  LOINC_SYSTEM,
  matchIngredient,
  matchIngredients,
  RXNORM_INGREDIENTS,
  RXNORM_SYNONYMS,
  RXNORM_SYSTEM,
  SNOMED_FINDINGS,
  SNOMED_SYSTEM,
  type TerminologyEntry,
} from "../src/terminology.js";
import { CODE_SYSTEMS } from "../src/types.js";

const rxnorm = Object.values(RXNORM_INGREDIENTS);
const loinc: TerminologyEntry[] = Object.values(LOINC_INSTRUMENTS).flatMap((i) => Object.values(i));
const snomed: TerminologyEntry[] = Object.values(SNOMED_FINDINGS);

function expectWellFormed(entries: TerminologyEntry[], pattern: RegExp) {
  expect(entries.length).toBeGreaterThan(0);
  for (const e of entries) {
    expect(e.code).toMatch(pattern);
    expect(e.display.trim()).not.toBe("");
    expect(e.source.trim()).not.toBe("");
  }
  const codes = entries.map((e) => e.code);
  expect(new Set(codes).size).toBe(codes.length);
}

describe("terminology tables", () => {
  it("use the canonical system URIs", () => {
    expect(RXNORM_SYSTEM).toBe(CODE_SYSTEMS.rxnorm);
    expect(LOINC_SYSTEM).toBe(CODE_SYSTEMS.loinc);
    expect(SNOMED_SYSTEM).toBe(CODE_SYSTEMS.snomed);
  });

  it("RxNorm codes are non-empty digit strings without duplicates", () => {
    expectWellFormed(rxnorm, /^\d+$/);
  });

  it("LOINC codes are digit strings with check digit, without duplicates", () => {
    expectWellFormed(loinc, /^\d+-\d$/);
    expect(LOINC_INSTRUMENTS.phq9.total.code).toBe("44261-6");
    expect(LOINC_INSTRUMENTS.gad7.total.code).toBe("70274-6");
  });

  it("SNOMED CT codes are non-empty digit strings without duplicates", () => {
    expectWellFormed(snomed, /^\d+$/);
  });

  it("keys are lowercase and synonyms point at existing entries", () => {
    for (const key of Object.keys(RXNORM_INGREDIENTS)) expect(key).toBe(key.toLowerCase());
    for (const target of Object.values(RXNORM_SYNONYMS)) expect(RXNORM_INGREDIENTS[target]).toBeDefined();
    for (const key of Object.keys(SNOMED_FINDINGS)) expect(key).toMatch(/^[a-z]+(_[a-z]+)*$/);
  });
});

describe("matchIngredient", () => {
  it.each([
    ["sertraline HCl", "36437"],
    ["Sertraline hydrochloride 50 mg tablet", "36437"],
    ["ESCITALOPRAM 10MG", "321988"],
    ["citalopram 20 mg", "2556"],
    ["Venlafaxine ER 75 mg capsule", "39786"],
    ["Valproic acid 250 mg capsule", "11118"],
    ["methylphenidate-ER 18mg", "6901"],
  ])("%s -> %s", (name, code) => {
    expect(matchIngredient(name)?.code).toBe(code);
  });

  it("prefers the longest ingredient name (escitalopram is not citalopram)", () => {
    expect(matchIngredient("escitalopram oxalate")?.display).toBe("escitalopram");
    expect(matchIngredients("escitalopram oxalate").map((e) => e.display)).toEqual(["escitalopram"]);
  });

  it("codes every verified ingredient of a combination, never only the first", () => {
    expect(matchIngredients("olanzapine/fluoxetine 6/25 mg").map((e) => e.code)).toEqual(["61381", "4493"]);
    expect(matchIngredient("olanzapine/fluoxetine 6/25 mg")).toBeNull();
    expect(matchIngredients("Symbyax 6/25")).toEqual([]);
  });

  it.each([
    "Lithium carbonate 300 mg ER", // lithium not verified -> unmapped
    "Zoloft 50 mg", // brand names are not mapped
    "quetiapine 25 mg", // unverified ingredient
    "divalproex sodium DR 500 mg", // not mapped to valproic acid without source support
    "sertralinex", // whole-word matching only
    "",
    "   ",
  ])("returns null for %j", (name) => {
    expect(matchIngredient(name)).toBeNull();
  });
});
