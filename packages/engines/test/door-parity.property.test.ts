/**
 * Door parity at the package level (decision 182): the one judgement of a laboratory reading and
 * of a score change, against the agent tools (`evaluatePanel`, `scoreInstruments`) and the JSON
 * engines (`analyzeBiomarkers`, `predictRelapse`, `scoreOutcome`), each read back through the door
 * table. Many runs here; the HTTP test of the app runs a few through every door.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  ANALYTES,
  analyzeBiomarkers,
  CLINICAL_LEVELS,
  DOOR_LEVELS,
  evaluatePanel,
  INSTRUMENT_IDS,
  INSTRUMENTS,
  judgeLabReading,
  judgeScoreChange,
  type LabFlag,
  predictRelapse,
  STATUS_LEVEL,
  scoreInstruments,
  scoreOutcome,
  TONE_LEVEL,
} from "../src/index.js";

const NOW = new Date("2026-12-01T12:00:00Z");
const MEASURED = ANALYTES.filter((a) => a.measure !== undefined);

/** A reading of a measured analyte, in one of its accepted units, across and beyond its plausible range. */
const arbReading = fc.integer({ min: 0, max: MEASURED.length - 1 }).chain((i) => {
  const entry = MEASURED[i] as (typeof MEASURED)[number];
  const measure = entry.measure as NonNullable<(typeof entry)["measure"]>;
  const { low, high } = measure.plausible;
  return fc.record({
    entry: fc.constant(entry),
    unit: fc.constantFrom(measure.canonicalUnit, ...measure.units.map((u) => u.ucum), "bananas/L", undefined),
    value: fc
      .double({ min: low - (high - low) * 0.1, max: high * 1.1, noNaN: true })
      .map((v) => Math.round(v * 1000) / 1000),
    flag: fc.constantFrom<LabFlag | null>(null, null, "high", "low", "critical"),
  });
});

describe("door parity: laboratory readings (package level)", () => {
  it("the agent tool's risk is the door table's mapping of the one judgement (no laboratory flag)", () => {
    fc.assert(
      fc.property(arbReading, ({ entry, unit, value }) => {
        const judged = judgeLabReading(entry, value, unit, null);
        const tool = evaluatePanel([{ analyte: entry.key, value, ...(unit ? { unit } : {}) }]);
        if (judged.assessed) {
          expect(tool.risk.level).toBe(DOOR_LEVELS[judged.level].agent.level);
          expect(tool.risk.flag).toBe(DOOR_LEVELS[judged.level].agent.flag);
        } else {
          // Not assessed: at least the judgement's level, flagged, named (decision 80).
          expect(CLINICAL_LEVELS.indexOf(tool.risk.level)).toBeGreaterThanOrEqual(
            CLINICAL_LEVELS.indexOf(judged.level),
          );
          expect(judged.level).not.toBe("none");
          expect(tool.risk.flag).toBe(true);
          expect(tool.risk.labels.some((l) => l.startsWith("Not evaluated: "))).toBe(true);
        }
      }),
      { numRuns: 2000 },
    );
  });

  it("the JSON answer's status and review are the door table's mapping of the one judgement, flagged or not", () => {
    fc.assert(
      fc.property(arbReading, ({ entry, unit, value, flag }) => {
        const judged = judgeLabReading(entry, value, unit, flag);
        const run = analyzeBiomarkers(
          {
            labs: [
              {
                id: "p1",
                labName: "Lab",
                observedAt: "2026-11-29T08:00:00Z",
                results: {
                  biomarkers: [
                    { name: entry.display, value, ...(unit ? { unit } : {}), ...(flag ? { flag } : {}) },
                  ],
                },
              },
            ],
          },
          { now: NOW },
        );
        const summary = run.facts.summary;
        if (judged.assessed || flag !== null) {
          expect(STATUS_LEVEL[summary.status as keyof typeof STATUS_LEVEL]).toBe(judged.level);
          if (judged.assessed)
            expect(summary.requiresClinicianReview).toBe(
              DOOR_LEVELS[judged.level].json.requiresClinicianReview,
            );
          const signal = run.data.signals[0];
          if (signal) expect(TONE_LEVEL[signal.tone as keyof typeof TONE_LEVEL]).toBe(judged.level);
        } else {
          // Not assessed and not flagged: named and reviewed, the status not raised (nothing was read).
          expect(summary.status).toBe("no_flags");
          expect(summary.requiresClinicianReview).toBe(true);
          expect(run.data.valueFindings).toEqual([
            expect.objectContaining({ current: true, level: judged.level }),
          ]);
        }
      }),
      { numRuns: 2000 },
    );
  });
});

const arbScores = fc.constantFrom(...INSTRUMENT_IDS).chain((id) => {
  const k = INSTRUMENTS[id];
  const total = k.wholeNumberTotals
    ? fc.integer({ min: k.totalMin, max: k.totalMax })
    : fc.integer({ min: k.totalMin * 10, max: k.totalMax * 10 }).map((n) => n / 10);
  return fc.record({ id: fc.constant(id), before: total, after: total });
});

describe("door parity: score changes (package level)", () => {
  it("a reliable deterioration is a finding in the agent tool, the relapse engine and the outcome engine alike, on every instrument", () => {
    fc.assert(
      fc.property(arbScores, ({ id, before, after }) => {
        const k = INSTRUMENTS[id];
        const judged = judgeScoreChange(id, before, after);
        const tool = scoreInstruments([{ instrument: k.display, total: after, priorTotal: before }]);
        expect(tool.results[0]?.reliableChange).toBe(judged.reliable);
        expect(tool.risk.labels.some((l) => /reliable deterioration/.test(l))).toBe(
          judged.reliableDeterioration,
        );
        const assessments = [
          { score: before, createdAt: "2026-10-01T09:00:00Z" },
          { score: after, createdAt: "2026-11-25T09:00:00Z" },
        ].map((a) => ({ instrumentId: id, instrumentName: k.display, maxScore: k.totalMax, ...a }));
        for (const run of [
          predictRelapse({ assessments }, { now: NOW }),
          scoreOutcome({ assessments }, { now: NOW }),
        ]) {
          const said = run.facts.summary.flagged.some((l) =>
            /reliable deterioration|toward its worse end/.test(l),
          );
          expect(said).toBe(judged.reliableDeterioration);
        }
      }),
      { numRuns: 2000 },
    );
  });
});

describe("door parity: the cases that diverged (decision 182)", () => {
  const oneReading = (name: string, value: number, unit: string, flag?: "normal") =>
    analyzeBiomarkers(
      {
        labs: [
          {
            id: "p1",
            labName: "Lab",
            observedAt: "2026-11-29T08:00:00Z",
            results: { biomarkers: [{ name, value, unit, ...(flag ? { flag } : {}) }] },
          },
        ],
      },
      { now: NOW },
    );

  it.each([
    // HbA1c 60 mmol/mol (7.6 %) on an antipsychotic: the diabetes range, elevated (decision 188).
    ["HbA1c", 60, "mmol/mol", "moderate", "elevated", true],
    // HbA1c 6.0 %: above the reference range, below the diabetes range (prediabetes), watch.
    ["HbA1c", 6, "%", "low", "watch", false],
    // eGFR 35 on lithium: below the reference range, elevated.
    ["eGFR", 35, "mL/min/{1.73_m2}", "moderate", "elevated", true],
    // Neutrophils 1.7 x10^9/L: the UK clozapine amber band (1.5-2.0), elevated.
    ["Neutrophils", 1.7, "10*9/L", "moderate", "elevated", true],
  ] as const)("%s %s %s unflagged: tool %s, JSON %s", (name, value, unit, level, status, review) => {
    const tool = evaluatePanel([{ analyte: name, value, unit }]);
    expect(tool.risk).toMatchObject({ level, flag: true });
    const run = oneReading(name, value, unit);
    expect(run.data.signals).toEqual([]);
    expect(run.facts.summary).toMatchObject({ status, requiresClinicianReview: review });
    expect(run.data.valueFindings).toEqual([
      expect.objectContaining({ finding: "out_of_range", current: true, level, labFlag: null }),
    ]);
    expect(run.facts.summary.flagged.join(" ")).toMatch(/not flagged by the laboratory/);
  });

  it("a value the laboratory flagged normal but outside the service's range names the laboratory's own range", () => {
    const run = oneReading("Lithium", 1.2, "mmol/L", "normal");
    expect(run.facts.summary.status).toBe("elevated");
    expect(run.data.valueFindings[0]?.detail).toMatch(
      /within the laboratory's own range by its flag; check that range/,
    );
  });

  it("a WEMWBS fall of 10 (55 to 45) is a reliable deterioration in the tool, as in the relapse engine", () => {
    const tool = scoreInstruments([{ instrument: "WEMWBS", total: 45, priorTotal: 55 }]);
    expect(tool.risk).toMatchObject({ flag: true, level: "low" });
    expect(tool.risk.labels[0]).toMatch(/^WEMWBS reliable deterioration: 55 to 45/);
  });
});
