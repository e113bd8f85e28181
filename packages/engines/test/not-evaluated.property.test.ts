/**
 * One rule for what an agent tool could not evaluate (decision 80): it never leaves the risk at
 * `none`. Checked for the shared function and, as metamorphic properties, for each of the four
 * tools: adding something the tool cannot evaluate never lowers the risk level, always yields at
 * least `low` with a flag and a label naming it; a fully evaluated input carries no
 * "Not evaluated" label, so its risk is what its findings say.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { findAnalyte } from "../src/knowledge/analytes.js";
import { getInstruments, type InstrumentDefinition } from "../src/knowledge/instrument-catalog.js";
import { totalOfResponses } from "../src/knowledge/instruments.js";
import { checkInteractions, listKnownIngredients, parseMedication } from "../src/tools/interactions.js";
import { evaluatePanel, getPanels, type PanelReading } from "../src/tools/panels.js";
import { RELAPSE_INDICATORS, readRelapseIndicator, scoreRelapse } from "../src/tools/relapse-signals.js";
import { type InstrumentSubmission, scoreInstruments } from "../src/tools/score-instruments.js";
import {
  AGENT_RISK_LEVELS,
  type AgentRisk,
  type AgentRiskLevel,
  combineRisks,
  notEvaluatedLabel,
  riskWithNotEvaluated,
} from "../src/tools/types.js";

const rank = (level: AgentRiskLevel) => AGENT_RISK_LEVELS.indexOf(level);
const NOT_EVALUATED = /^Not evaluated: /;

/** Invariants of the rule for a risk computed with something not evaluated. */
function expectNotEvaluatedRaises(before: AgentRisk, after: AgentRisk, named: string): void {
  expect(rank(after.level)).toBeGreaterThanOrEqual(rank(before.level));
  expect(rank(after.level)).toBeGreaterThanOrEqual(rank("low"));
  expect(after.flag).toBe(true);
  expect(after.labels.some((label) => label.includes(named))).toBe(true);
  // Every finding of the evaluated input is still reported.
  for (const label of before.labels) expect(after.labels).toContain(label);
}

// ---------------------------------------------------------------------------------------------
// The shared function

const levelArb = fc.constantFrom(...AGENT_RISK_LEVELS);
const riskArb: fc.Arbitrary<AgentRisk> = fc
  .record({ level: levelArb, labels: fc.array(fc.string({ maxLength: 12 }), { maxLength: 3 }) })
  .map(({ level, labels }) => ({ flag: level !== "none", level, labels }));
const itemArb = fc.record(
  { what: fc.string({ minLength: 1, maxLength: 12 }), why: fc.string({ maxLength: 12 }), level: levelArb },
  { requiredKeys: ["what", "why"] },
);

describe("riskWithNotEvaluated: the one rule (decision 80)", () => {
  it("property: with no not-evaluated item the risk is the evaluated findings' risk, unchanged", () => {
    fc.assert(
      fc.property(fc.array(riskArb, { maxLength: 5 }), (risks) => {
        expect(riskWithNotEvaluated(risks, [])).toEqual(combineRisks(risks));
      }),
    );
  });

  it("property: each not-evaluated item gives at least low, a flag and its label; nothing is lowered", () => {
    fc.assert(
      fc.property(
        fc.array(riskArb, { maxLength: 5 }),
        fc.array(itemArb, { minLength: 1, maxLength: 4 }),
        (risks, items) => {
          const before = combineRisks(risks);
          const after = riskWithNotEvaluated(risks, items);
          for (const item of items) expectNotEvaluatedRaises(before, after, notEvaluatedLabel(item));
          for (const item of items)
            expect(rank(after.level)).toBeGreaterThanOrEqual(rank(item.level ?? "low"));
        },
      ),
    );
  });

  it('labels read "Not evaluated: <what> (<why>)"', () => {
    expect(riskWithNotEvaluated([], [{ what: '"xyzzy"', why: "not recognised" }])).toEqual({
      flag: true,
      level: "low",
      labels: ['Not evaluated: "xyzzy" (not recognised)'],
    });
  });
});

// ---------------------------------------------------------------------------------------------
// checkInteractions

const KNOWN = listKnownIngredients();
const knownEntryArb = fc
  .tuple(
    fc.constantFrom(...KNOWN),
    fc.option(fc.constantFrom("10 mg", "100mg", "XL 150 mg"), { nil: undefined }),
  )
  .map(([name, dose]) => (dose ? `${name} ${dose}` : name));
/** Made-up words that name no medicine: "qz" then letters. */
const unknownEntryArb = fc
  .stringMatching(/^qz[a-z]{2,8}( [0-9]{1,3} mg)?$/)
  .filter((text) => parseMedication(text) === null);

describe("checkInteractions: not evaluated is never none (decision 80)", () => {
  it("property: adding an unrecognised entry never lowers the risk, gives at least low, and names it", () => {
    fc.assert(
      fc.property(
        fc.array(knownEntryArb, { maxLength: 6 }),
        unknownEntryArb,
        fc.nat(),
        (known, unknown, at) => {
          const before = checkInteractions(known, { ageYears: 40 }).risk;
          const list = [...known];
          list.splice(at % (list.length + 1), 0, unknown);
          const after = checkInteractions(list, { ageYears: 40 });
          expect(after.complete).toBe(false);
          expectNotEvaluatedRaises(before, after.risk, `"${unknown}"`);
        },
      ),
    );
  });

  it("property: adding an unrecognised word to a known entry (partly recognised) never lowers the risk", () => {
    fc.assert(
      fc.property(fc.array(knownEntryArb, { minLength: 1, maxLength: 5 }), unknownEntryArb, (known, word) => {
        const before = checkInteractions(known, { ageYears: 40 }).risk;
        const partly = `${known[0]} ${word.split(" ")[0]}`;
        const after = checkInteractions([partly, ...known.slice(1)], { ageYears: 40 });
        expectNotEvaluatedRaises(before, after.risk, `"${partly}"`);
      }),
    );
  });

  it("property: a fully evaluated list has no Not evaluated label; its level is its highest finding", () => {
    fc.assert(
      fc.property(fc.array(knownEntryArb, { maxLength: 6 }), (known) => {
        const check = checkInteractions(known, { ageYears: 40 });
        fc.pre(check.complete);
        // The only not-evaluated labels of a recognised list are properties a rule needed and the
        // model does not know (decision 173); each says so.
        for (const label of check.risk.labels.filter((l) => NOT_EVALUATED.test(l)))
          expect(label).toMatch(/unknown for .* \(needed for the .* rule with /);
        const severities = [...check.interactions, ...check.doseAlerts].map((f) => f.severity);
        const unknownProperty = check.risk.labels.some((label) => NOT_EVALUATED.test(label));
        const highest = severities.reduce<AgentRiskLevel>(
          (a, b) => (rank(b) > rank(a) ? b : a),
          unknownProperty ? "low" : "none",
        );
        expect(check.risk.level).toBe(highest);
      }),
    );
  });

  it('lithium + "xyzzy 10 mg" reads low, named (was none, flag false)', () => {
    expect(checkInteractions(["lithium", "xyzzy 10 mg"]).risk).toEqual({
      flag: true,
      level: "low",
      labels: ['Not evaluated: "xyzzy 10 mg" (not a recognised medicine; its interactions were not checked)'],
    });
  });

  it("a high interaction stays high beside an unrecognised entry", () => {
    const check = checkInteractions(["lithium", "hydrochlorothiazide", "xyzzy"]);
    expect(check.risk.level).toBe("high");
    expect(check.risk.labels.at(-1)).toMatch(/^Not evaluated: "xyzzy"/);
  });
});

// ---------------------------------------------------------------------------------------------
// evaluatePanel

const PANEL_ANALYTES = getPanels().flatMap((panel) => panel.analytes);
/** A reading in the analyte's canonical unit, well inside its plausible range. */
const evaluableReadingArb: fc.Arbitrary<PanelReading> = fc
  .tuple(fc.constantFrom(...PANEL_ANALYTES), fc.double({ min: 0.02, max: 0.98, noNaN: true }))
  .map(([analyte, t]) => {
    const plausible = findAnalyte(analyte.analyte)?.measure?.plausible ?? { low: 0, high: 1 };
    return {
      analyte: analyte.analyte,
      value: plausible.low + t * (plausible.high - plausible.low),
      unit: analyte.ucum,
    };
  });
const notEvaluableReadingArb: fc.Arbitrary<{ reading: PanelReading; named: string }> = fc.oneof(
  fc
    .stringMatching(/^qz[a-z]{2,8}$/)
    .filter((name) => findAnalyte(name) === undefined || findAnalyte(name) === null)
    .map((name) => ({ reading: { analyte: name, value: 1 }, named: `"${name}"` })),
  // Neutrophils without a unit, 1.6-100: plausible as x10^9/L and as cells/uL, so refused
  // (decision 180; below 1.5 every reading is critical, above 100 only cells/uL is plausible).
  fc.double({ min: 1.6, max: 100, noNaN: true }).map((value) => ({
    reading: { analyte: "ANC", value },
    named: `Neutrophils (absolute) ${value}`,
  })),
  fc.constantFrom("furlongs", "mg/furlong").map((unit) => ({
    reading: { analyte: "lithium", value: 0.8, unit },
    named: `Lithium 0.8 ${unit}`,
  })),
);

describe("evaluatePanel: not evaluated is never none (decision 80)", () => {
  it("property: adding a reading that cannot be evaluated never lowers the risk, gives at least low, names it", () => {
    fc.assert(
      fc.property(
        fc.array(evaluableReadingArb, { maxLength: 6 }),
        notEvaluableReadingArb,
        (readings, { reading, named }) => {
          const before = evaluatePanel(readings).risk;
          const after = evaluatePanel([...readings, reading]).risk;
          expectNotEvaluatedRaises(
            readings.length === 0 ? { flag: false, level: "none", labels: [] } : before,
            after,
            named,
          );
        },
      ),
    );
  });

  it("property: a fully evaluated panel has no Not evaluated label; none only when every flag is normal", () => {
    fc.assert(
      fc.property(fc.array(evaluableReadingArb, { minLength: 1, maxLength: 6 }), (readings) => {
        const out = evaluatePanel(readings);
        expect(out.unrecognized).toEqual([]);
        expect(out.risk.labels.some((label) => NOT_EVALUATED.test(label))).toBe(false);
        expect(out.risk.level === "none").toBe(out.results.every((r) => r.flag === "normal"));
      }),
    );
  });

  it("ANC 4 without a unit is refused, moderate as 4 /uL would be critical, named (was none, flag false)", () => {
    const risk = evaluatePanel([{ analyte: "ANC", value: 4 }]).risk;
    expect(risk.level).toBe("moderate");
    expect(risk.flag).toBe(true);
    expect(risk.labels).toHaveLength(1);
    expect(risk.labels[0]).toMatch(/^Not evaluated: Neutrophils \(absolute\) 4 \(unit: /);
    // 400 is plausible only as cells/uL (0.4 x10^9/L): read so, and critical (decision 180).
    expect(evaluatePanel([{ analyte: "ANC", value: 400 }]).risk.level).toBe("high");
  });
});

// ---------------------------------------------------------------------------------------------
// scoreInstruments

const INSTRUMENTS = getInstruments();
function responsesArb(definition: InstrumentDefinition): fc.Arbitrary<number[]> {
  return fc.tuple(
    ...Array.from({ length: definition.itemCount }, (_, index) => {
      const listed = definition.allowedItemValues?.[index + 1];
      return listed
        ? fc.constantFrom(...listed)
        : fc.integer({ min: definition.itemMin, max: definition.itemMax });
    }),
  );
}
const submissionArb: fc.Arbitrary<InstrumentSubmission> = fc
  .constantFrom(...INSTRUMENTS)
  .chain((definition) =>
    responsesArb(definition).map((responses) => ({ instrument: definition.display, responses })),
  );
// Not in the instrument table (BDI-II, PHQ-2, HAM-D and MADRS now are: decision 60).
const unknownInstrumentArb = fc.constantFrom("CES-D", "HAM-A", "MADRS-S", "BDI", "qz scale");

describe("scoreInstruments: not evaluated is never none (decision 80)", () => {
  it("property: adding an unknown instrument never lowers the risk, gives at least low, names it", () => {
    fc.assert(
      fc.property(fc.array(submissionArb, { maxLength: 4 }), unknownInstrumentArb, (known, unknown) => {
        const before = scoreInstruments(known).risk;
        const after = scoreInstruments([...known, { instrument: unknown, total: 10 }]).risk;
        expectNotEvaluatedRaises(before, after, `instrument "${unknown}"`);
      }),
    );
  });

  it("property: a risk-item instrument given as a total only (above 0) is never none and names the item", () => {
    const withRiskItem = INSTRUMENTS.filter((d) => d.riskItems.length > 0);
    fc.assert(
      fc.property(
        fc
          .constantFrom(...withRiskItem)
          .chain((d) => responsesArb(d).map((responses) => ({ definition: d, responses }))),
        ({ definition, responses }) => {
          const total = totalOfResponses(definition.id, responses);
          fc.pre(total > 0);
          const fromResponses = scoreInstruments([{ instrument: definition.display, responses }]).risk;
          const fromTotal = scoreInstruments([{ instrument: definition.display, total }]).risk;
          expect(rank(fromTotal.level)).toBeGreaterThanOrEqual(rank("low"));
          expect(fromTotal.flag).toBe(true);
          for (const riskItem of definition.riskItems)
            expect(fromTotal.labels).toContain(
              notEvaluatedLabel({
                what: `${definition.display} item ${riskItem.item}`,
                why: `given as a total only: ${riskItem.screens} not screened`,
              }),
            );
          // From responses every item was read: nothing is labelled not evaluated.
          expect(fromResponses.labels.some((label) => NOT_EVALUATED.test(label))).toBe(false);
        },
      ),
    );
  });

  it("an unknown instrument alone reads low, named (was none, flag false)", () => {
    expect(scoreInstruments([{ instrument: "CES-D", total: 30 }]).risk).toEqual({
      flag: true,
      level: "low",
      labels: ['Not evaluated: instrument "CES-D" (not recognised: not scored and its risk not assessed)'],
    });
  });
});

// ---------------------------------------------------------------------------------------------
// scoreRelapse (decision 77's wording, on the shared rule)

const relapseNameArb = fc.constantFrom(...RELAPSE_INDICATORS.map((i) => i.indicator));
const relapseUnknownArb = fc
  .stringMatching(/^qz[a-z]{2,8}$/)
  .filter((name) => readRelapseIndicator(name).indicator === null);

describe("scoreRelapse: not evaluated is never none (decision 80)", () => {
  it("property: adding an unrecognised indicator never lowers the risk, gives at least low, names it", () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({ indicator: relapseNameArb, severity: fc.double({ min: 0, max: 1, noNaN: true }) }),
          {
            maxLength: 6,
          },
        ),
        relapseUnknownArb,
        (signals, unknown) => {
          const before = scoreRelapse(signals).risk;
          const after = scoreRelapse([...signals, { indicator: unknown, severity: 0.5 }]).risk;
          expect(rank(after.level)).toBeGreaterThanOrEqual(rank(before.level));
          expect(rank(after.level)).toBeGreaterThanOrEqual(rank("low"));
          expect(after.flag).toBe(true);
          expect(after.labels).toContain(`Not scored: unrecognised indicator "${unknown}"`);
        },
      ),
    );
  });
});
