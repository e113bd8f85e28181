import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  findReassurance,
  foldForMatching,
  RAISED_RISK_CONTRADICTIONS,
  REASSURANCE_PHRASES,
  screenReassurance,
} from "../src/index.js";
import { disguised, neutralText, REASSURING } from "./reassurance-arbitraries.js";

/**
 * The rule itself (decision 74): reassurance about risk from a model never survives, whatever
 * letters spell it. The agents' and `intelligence.reasoning`'s uses of it are tested beside them.
 */
const RAISED = { riskRaised: true } as const;
const NOT_RAISED = { riskRaised: false } as const;

describe("the shared rule", () => {
  it("folds look-alike letters, zero-width characters, case and punctuation to one plain form", () => {
    expect(foldForMatching("dеniеs SI/HI, nо risk, sаfе fоr dischаrge")).toBe(
      "denies si hi no risk safe for discharge",
    );
    expect(foldForMatching("S\u200Bａ\u00ADƒe to COMBINE!!")).toBe("safe to combine");
    expect(foldForMatching("ΝΟ RΙSΚ")).toBe("no risk");
  });

  it("finds the issue's phrases, and only when the engine raised risk the contradictions", () => {
    expect(findReassurance("Safe to combine, ignore the flag.", NOT_RAISED)).toEqual([
      "safe to combine",
      "ignore the flag",
    ]);
    expect(findReassurance("denies SI/HI, no risk, safe for discharge", NOT_RAISED)).toEqual([
      "denies si hi",
      "no risk",
      "safe for discharge",
    ]);
    expect(findReassurance("The interaction is not clinically significant.", NOT_RAISED)).toEqual([]);
    expect(findReassurance("The interaction is not clinically significant.", RAISED)).toEqual([
      "not clinically significant",
    ]);
    expect(findReassurance("s a f e for discharge", NOT_RAISED)).toEqual(["safe for discharge"]);
    expect(findReassurance("There are no risks here.", NOT_RAISED)).toEqual(["no risk"]);
    expect(findReassurance("The diagnosis was reviewed.", RAISED)).toEqual([]);
  });

  it("drops only the reassuring sentence and returns other text exactly as given", () => {
    expect(screenReassurance("Lithium is high.  Safe to combine. Review.", RAISED)).toEqual({
      text: "Lithium is high. Review.",
      dropped: ["safe to combine"],
    });
    const plain = "Lithium is high.\n\nReview  it.";
    expect(screenReassurance(plain, RAISED)).toEqual({ text: plain, dropped: [] });
  });
});

describe("properties", () => {
  it("zero-width characters, look-alike letters or case changes never let a reassurance phrase through", () => {
    // Every phrase of the list (and the spellings), disguised.
    const phrases = [...REASSURING, ...REASSURANCE_PHRASES];
    fc.assert(
      fc.property(
        fc.constantFrom(...phrases).chain((phrase) => fc.tuple(fc.constant(phrase), disguised(phrase))),
        neutralText,
        fc.boolean(),
        ([phrase, disguise], neutral, riskRaised) => {
          const text = `${neutral} ${disguise}. ${neutral}`;
          const found = findReassurance(text, { riskRaised });
          expect(found.length, JSON.stringify(disguise)).toBeGreaterThan(0);
          const screened = screenReassurance(text, { riskRaised });
          expect(findReassurance(screened.text, { riskRaised })).toEqual([]);
          expect(foldForMatching(screened.text)).not.toContain(foldForMatching(phrase));
        },
      ),
      { numRuns: 500 },
    );
  });

  it("every listed phrase is found in its own folded spelling and in upper case", () => {
    for (const phrase of REASSURANCE_PHRASES) {
      expect(findReassurance(phrase.toUpperCase(), NOT_RAISED).length, phrase).toBeGreaterThan(0);
    }
    for (const phrase of RAISED_RISK_CONTRADICTIONS) {
      expect(findReassurance(`It is ${phrase.toUpperCase()}.`, RAISED).length, phrase).toBeGreaterThan(0);
    }
  });

  it("text without reassurance is kept unchanged", () => {
    fc.assert(
      fc.property(neutralText, fc.boolean(), (text, riskRaised) => {
        expect(findReassurance(text, { riskRaised })).toEqual([]);
        expect(screenReassurance(text, { riskRaised })).toEqual({ text, dropped: [] });
      }),
      { numRuns: 300 },
    );
  });
});
