/**
 * Door parity in CDS patient-view (decision 182): every reliable deterioration between two
 * scores of an instrument the FHIR reader can code (PHQ-9, GAD-7, AUDIT: a verified LOINC total
 * code) is said on the relapse early-warning card, as the agent tool and the JSON engines say it;
 * a change the one judgement does not call a reliable deterioration is never said to be one.
 * Every pair of totals is run (not a sample). A laboratory reading, flagged or not, is a card of
 * its analyte's rule at the indicator the door table maps the one judgement's level to.
 */
import {
  analyteByKey,
  type ClinicalLevel,
  chooseLoinc,
  DOOR_LEVELS,
  INSTRUMENTS,
  type InstrumentId,
  judgeLabReading,
  judgeScoreChange,
  type LabFlag,
  levelOfIndicator,
  NOT_ASSESSED_DOORS,
} from "@svc/engines";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { escapeMarkdown, parseHookRequest, runCdsService } from "../src/index.js";
import {
  labObservation,
  options,
  patientViewRequest,
  scoreObservation,
  searchset,
  service,
} from "./fixtures.js";

const DETERIORATION = /reliable deterioration|toward its worse end/;

function relapseCardText(id: InstrumentId, before: number, after: number): string {
  const k = INSTRUMENTS[id];
  const code = k.loinc?.total.code as string;
  const prefetch = {
    scores: searchset([
      scoreObservation("s1", code, k.display, before, "2026-10-01"),
      scoreObservation("s2", code, k.display, after, "2026-11-25"),
    ]),
    labs: searchset([]),
    medications: searchset([]),
  };
  const parsed = parseHookRequest(service("psych-patient-view"), patientViewRequest(prefetch));
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
  const result = runCdsService(parsed, prefetch, options());
  return result.cards
    .filter((_, i) => result.rules[i] === "relapse-early-warning")
    .map((card) => `${card.summary} ${card.detail}`)
    .join(" ");
}

describe("door parity: a reliable deterioration on the CDS relapse card", () => {
  for (const id of ["phq9", "gad7", "audit"] as const) {
    it(`${INSTRUMENTS[id].display}: every pair of totals`, () => {
      const k = INSTRUMENTS[id];
      const mismatches: string[] = [];
      for (let before = k.totalMin; before <= k.totalMax; before += 1)
        for (let after = k.totalMin; after <= k.totalMax; after += 1) {
          const expected = judgeScoreChange(id, before, after).reliableDeterioration;
          if (DETERIORATION.test(relapseCardText(id, before, after)) !== expected)
            mismatches.push(`${before} -> ${after}: expected ${expected}`);
        }
      expect(mismatches).toEqual([]);
    });
  }
});

/** Analytes with a verified LOINC code for their canonical unit, and value spans over their ranges. */
const LAB_CASES = [
  { key: "lithium", low: 0.1, high: 2.6 },
  { key: "sodium", low: 112, high: 168 },
  { key: "anc", low: 0.2, high: 8 },
  { key: "egfr", low: 8, high: 120 },
  { key: "hba1c", low: 4, high: 12 },
  { key: "valproate", low: 10, high: 200 },
].flatMap(({ key, low, high }) => {
  const entry = analyteByKey(key);
  const measure = entry?.measure;
  const loinc = entry && measure ? chooseLoinc(entry, measure.canonicalUnit) : null;
  return entry && measure && loinc
    ? [{ entry, ucum: measure.canonicalUnit, loinc: loinc.code, low, high }]
    : [];
});

const FLAG_OF: Readonly<Record<string, LabFlag>> = { H: "high", L: "low", HH: "critical", LL: "critical" };
const RANK: readonly ClinicalLevel[] = ["none", "low", "moderate", "high"];

describe("door parity: a laboratory reading on the CDS lab card", () => {
  it("the card of the analyte's rule is at the door table's indicator of the one judgement, flagged or not", () => {
    expect(LAB_CASES.length).toBeGreaterThanOrEqual(5);
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: LAB_CASES.length - 1 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.constantFrom(null, null, "H", "L", "HH", "LL"),
        (which, share, interpretation) => {
          const c = LAB_CASES[which] as (typeof LAB_CASES)[number];
          const value = Math.round((c.low + share * (c.high - c.low)) * 100) / 100;
          const judged = judgeLabReading(
            c.entry,
            value,
            c.ucum,
            interpretation ? (FLAG_OF[interpretation] as LabFlag) : null,
          );
          const prefetch = {
            labs: searchset([
              labObservation(
                "o1",
                c.loinc,
                c.entry.display,
                value,
                c.ucum,
                "2026-11-24",
                interpretation ?? undefined,
              ),
            ]),
            scores: null,
            medications: searchset([]),
          };
          const parsed = parseHookRequest(service("psych-patient-view"), patientViewRequest(prefetch));
          if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
          const result = runCdsService(parsed, prefetch, options());
          const rule = `lab-${c.entry.key.replaceAll("_", "-")}`;
          const levels = result.cards
            .filter((_, i) => result.rules[i] === rule)
            .map((card) => levelOfIndicator(card.indicator));
          const level = levels.reduce<ClinicalLevel>(
            (a, b) => (RANK.indexOf(b) > RANK.indexOf(a) ? b : a),
            "none",
          );
          expect(level).toBe(judged.level);
          expect(DOOR_LEVELS[judged.level].cds === null).toBe(levels.length === 0);
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe("door parity: a laboratory reading sent without a unit (decision 180)", () => {
  it("is carded at the door table's indicator of the one judgement when judged, else named on a not-evaluated card", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: LAB_CASES.length - 1 }),
        // Values across the canonical span and the spans of the other accepted units (/uL, mmol/mol).
        fc.oneof(fc.double({ min: 0, max: 1, noNaN: true }), fc.double({ min: 0, max: 200, noNaN: true })),
        (which, share) => {
          const c = LAB_CASES[which] as (typeof LAB_CASES)[number];
          const value =
            share <= 1
              ? Math.round((c.low + share * (c.high - c.low)) * 100) / 100
              : Math.round(share * 100) / 100;
          const judged = judgeLabReading(c.entry, value, undefined);
          const observation = labObservation("o1", c.loinc, c.entry.display, value, c.ucum, "2026-11-24");
          observation.valueQuantity = { value };
          const prefetch = { labs: searchset([observation]), scores: null, medications: searchset([]) };
          const parsed = parseHookRequest(service("psych-patient-view"), patientViewRequest(prefetch));
          if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
          const result = runCdsService(parsed, prefetch, options());
          const rule = `lab-${c.entry.key.replaceAll("_", "-")}`;
          const cards = result.cards.filter((_, i) => result.rules[i] === rule);
          const level = cards
            .map((card) => levelOfIndicator(card.indicator))
            .reduce<ClinicalLevel>((a, b) => (RANK.indexOf(b) > RANK.indexOf(a) ? b : a), "none");
          const unread = result.cards.filter(
            (card, i) =>
              result.rules[i] === "insufficient-data" && card.summary.includes("could not be evaluated"),
          );
          if (judged.assessed) {
            expect(level).toBe(judged.level);
            for (const card of cards) expect(card.detail).toContain("No unit was given on the Observation");
            expect(unread).toEqual([]);
          } else {
            // Not assessed: one representation in every door, an info card that names it.
            expect(cards).toEqual([]);
            expect(unread.map((card) => card.indicator)).toEqual([NOT_ASSESSED_DOORS.cds]);
            expect(unread[0]?.detail).toContain(escapeMarkdown(c.entry.display));
          }
          expect(result.notUsed).toEqual({});
        },
      ),
      { numRuns: 500 },
    );
  });
});
