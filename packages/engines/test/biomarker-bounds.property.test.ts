/**
 * The biomarker answer is bounded whatever the number of readings (decision 171): every current
 * finding is kept and every current critical value named, earlier findings keep the newest few
 * per analyte and kind, unrecognised flagged names keep the worst few, and the rest is counted.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  analyzeBiomarkers,
  BIOMARKER_MAP,
  type BiomarkerData,
  EARLIER_FINDINGS_KEPT,
  UNRECOGNISED_SIGNALS_KEPT,
} from "../src/biomarker.js";
import type { Biomarker, LabPanel } from "../src/types.js";

const NOW = new Date("2026-08-01T00:00:00Z");
const run = (labs: LabPanel[]) => analyzeBiomarkers({ labs }, { now: NOW });
const day = (i: number) => new Date(Date.parse("2024-01-01T09:00:00Z") + i * 86_400_000).toISOString();
const size = (value: unknown) => JSON.stringify(value).length;

/** The request schema's bounds: 100 panels of 200 readings. */
const MAX_PANELS = 100;
const MAX_READINGS = 200;
/** The stated bound of one answer (engine data and facts together). */
const MAX_ANSWER_CHARS = 200_000;

const maximal = (reading: (p: number, i: number) => Biomarker): LabPanel[] =>
  Array.from({ length: MAX_PANELS }, (_, p) => ({
    id: `l${p}`,
    labName: "L",
    observedAt: day(p).slice(0, 10),
    results: { biomarkers: Array.from({ length: MAX_READINGS }, (_, i) => reading(p, i)) },
  }));

/** Analytes whose newest reading is a critical finding, from the findings (only current ones). */
const currentCriticals = (data: BiomarkerData) =>
  new Set(data.valueFindings.filter((f) => f.finding === "critical" && f.current).map((f) => f.analyte));

describe("biomarker answer at the schema's maximal input (decision 171)", () => {
  it("two analytes x 20,000 readings: the answer is small and names every current critical value", () => {
    const labs = maximal((_, i) => ({ name: i % 2 ? "Na" : "Li", value: i }));
    const result = run(labs);
    expect(size(result)).toBeLessThan(MAX_ANSWER_CHARS);
    // The current values are in the newest panel: its own answer names the same current criticals.
    const newestPanel = run(labs.slice(-1));
    expect(currentCriticals(newestPanel.data).size).toBeGreaterThan(0);
    expect(currentCriticals(result.data)).toEqual(currentCriticals(newestPanel.data));
    expect(result.data.valueFindings.filter((f) => f.current)).toEqual(
      newestPanel.data.valueFindings.filter((f) => f.current),
    );
    expect(result.facts.summary.status).toBe("critical");
    expect(result.facts.summary.requiresClinicianReview).toBe(true);
    for (const named of newestPanel.facts.summary.flagged)
      expect(result.facts.summary.flagged).toContain(named);
    // Earlier findings: the newest few per analyte and kind, the rest counted.
    const earlier = result.data.valueFindings.filter((f) => !f.current);
    const perKey = new Map<string, number>();
    for (const f of earlier)
      perKey.set(`${f.analyte}/${f.finding}`, (perKey.get(`${f.analyte}/${f.finding}`) ?? 0) + 1);
    for (const n of perKey.values()) expect(n).toBeLessThanOrEqual(EARLIER_FINDINGS_KEPT);
    const omitted = result.data.omitted;
    expect(omitted).toBeDefined();
    const counted =
      result.data.valueFindings.length +
      (omitted?.critical ?? 0) +
      (omitted?.notEvaluatedUnit ?? 0) +
      (omitted?.implausible ?? 0);
    expect(counted).toBeGreaterThan(18_000);
    // Every reason sentence lists a few items and says how many more.
    for (const reason of result.facts.confidence.reasons) expect(reason.length).toBeLessThan(2_000);
    expect(result.facts.confidence.reasons.join(" ")).toMatch(/and \d+ more/);
  });

  it("20,000 distinct unrecognised names flagged critical: bounded, still critical, and counted", () => {
    const result = run(
      maximal((p, i) => ({ name: `Unknown analyte ${p}-${i}`, value: i, flag: "critical" })),
    );
    expect(size(result)).toBeLessThan(MAX_ANSWER_CHARS);
    expect(result.data.signals).toHaveLength(UNRECOGNISED_SIGNALS_KEPT);
    expect(result.data.signalsPresent).toBe(UNRECOGNISED_SIGNALS_KEPT);
    expect(result.data.omitted?.unrecognisedSignals).toBe(
      MAX_PANELS * MAX_READINGS - UNRECOGNISED_SIGNALS_KEPT,
    );
    expect(result.data.omitted?.unrecognisedCritical).toBe(
      MAX_PANELS * MAX_READINGS - UNRECOGNISED_SIGNALS_KEPT,
    );
    expect(result.facts.summary.status).toBe("critical");
    expect(result.facts.summary.requiresClinicianReview).toBe(true);
    expect(result.facts.summary.headline).toMatch(/19980 more flagged analyte/);
    expect(result.facts.summary.flagged.join(" ")).toMatch(/19980 more flagged analyte/);
  });
});

// Names the table knows (with and without a measurement row), spellings, and unrecognised ones.
const NAMES = [
  "Li",
  "Lithium",
  "Na",
  "Sodium",
  "K",
  "Potassium",
  "ANC",
  "TSH",
  "Glucose",
  "Mystery A",
  "Mystery B",
];
const UNITS = [undefined, "mmol/L", "mg/dL", "x10^9/L", "furlongs"];
const readingArb: fc.Arbitrary<Biomarker> = fc.record(
  {
    name: fc.oneof(fc.constantFrom(...NAMES), fc.string({ minLength: 1, maxLength: 6 })),
    value: fc.oneof(fc.double({ min: -10, max: 2_000, noNaN: true }), fc.constant("positive")),
    unit: fc.constantFrom(...UNITS),
    flag: fc.constantFrom("high", "low", "critical", "normal"),
  },
  { requiredKeys: ["name", "value"] },
) as fc.Arbitrary<Biomarker>;
const panelsArb = (first: number) =>
  fc.array(fc.array(readingArb, { maxLength: 30 }), { maxLength: 6 }).map((lists) =>
    lists.map(
      (biomarkers, i): LabPanel => ({
        id: `p${first + i}`,
        labName: "L",
        observedAt: day(first + i).slice(0, 10),
        results: { biomarkers },
      }),
    ),
  );

/** At most one current finding per known analyte, and EARLIER_FINDINGS_KEPT per analyte and kind. */
const FINDINGS_BOUND = BIOMARKER_MAP.length * (1 + 3 * EARLIER_FINDINGS_KEPT);

describe("biomarker bounds (fast-check, decision 171)", () => {
  it("adding earlier readings never removes a current critical finding, and the answer stays bounded", () => {
    fc.assert(
      fc.property(panelsArb(1_000), panelsArb(0), fc.nat(400), (recent, earlier, copies) => {
        const base = run(recent);
        // Many more earlier readings: the same earlier panels repeated.
        const extra = Array.from({ length: Math.min(copies, 100) }, () => earlier).flat();
        const more = run([...extra, ...recent]);
        for (const analyte of currentCriticals(base.data))
          expect(currentCriticals(more.data)).toContain(analyte);
        if (base.facts.summary.status === "critical") expect(more.facts.summary.status).toBe("critical");
        for (const result of [base, more]) {
          expect(result.data.valueFindings.length).toBeLessThanOrEqual(FINDINGS_BOUND);
          expect(
            result.data.signals.filter((s) => !BIOMARKER_MAP.some((e) => `bio_${e.key}` === s.signalKey))
              .length,
          ).toBeLessThanOrEqual(UNRECOGNISED_SIGNALS_KEPT);
          expect(size(result)).toBeLessThan(MAX_ANSWER_CHARS);
          // Every current critical reading of a known analyte is a current finding.
          for (const f of result.data.valueFindings.filter((x) => x.current))
            expect(
              result.data.valueFindings.filter((x) => x.current && x.analyte === f.analyte),
            ).toHaveLength(1);
        }
      }),
      { numRuns: 60 },
    );
  });
});
