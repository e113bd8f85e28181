import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { analyzeBiomarkers } from "../src/biomarker.js";
import { DOOR_LEVELS } from "../src/door-levels.js";
import { CLINICAL_LEVELS, type ClinicalLevel } from "../src/judgement.js";
import { analyzeMedication } from "../src/medication.js";
import { prescriptionEntryText } from "../src/medication-list.js";
import {
  doorPatientReview,
  findingDoorLevel,
  medicinesOfPrescriptions,
  patientReviewRisk,
  patientReviewSummary,
  readingsOfLabPanels,
} from "../src/patient/doors.js";
import {
  PATIENT_FINDING_KINDS,
  type PatientContext,
  type PatientFinding,
  type PatientReview,
} from "../src/patient/index.js";
import type { LabPanel, Prescription } from "../src/types.js";

/**
 * The patient review in the JSON, agent and MCP doors (decision 198): each door's input mapped
 * once, one rule of when an answer carries the review, and the findings in each door's
 * vocabulary. Checked over generated findings, so the rules hold whatever the review's parts find.
 */

const NOW = new Date("2026-08-01T00:00:00Z");
const rank = (level: ClinicalLevel) => CLINICAL_LEVELS.indexOf(level);

const findingArb: fc.Arbitrary<PatientFinding> = fc.record({
  kind: fc.constantFrom(...PATIENT_FINDING_KINDS),
  rule: fc.stringMatching(/^[a-z_]{3,20}$/),
  level: fc.constantFrom(...CLINICAL_LEVELS),
  assessed: fc.boolean(),
  title: fc.stringMatching(/^[A-Za-z][A-Za-z ]{2,40}$/),
  detail: fc.constant("detail"),
  source: fc.constant("a label"),
});

const reviewOf = (findings: PatientFinding[]): PatientReview => ({
  level: findings.reduce<ClinicalLevel>(
    (worst, f) => (rank(f.level) > rank(worst) ? f.level : worst),
    "none",
  ),
  requiresClinicianReview: findings.some((f) => f.level === "high"),
  findings,
  patient: {},
  ageYears: null,
});

/** Whether the JSON door reviews one finding: by its level as DOOR_LEVELS maps it, and always when not assessed. */
const setsReview = (f: PatientFinding) =>
  !f.assessed || DOOR_LEVELS[findingDoorLevel(f)].json.requiresClinicianReview;

describe("the findings in each door's vocabulary", () => {
  it("agent and MCP risk: the highest level, a finding not assessed at least low, one label per finding", () => {
    fc.assert(
      fc.property(fc.array(findingArb, { maxLength: 8 }), (findings) => {
        const risk = patientReviewRisk(reviewOf(findings));
        const expected = findings
          .map((f) => (f.assessed ? f.level : rank(f.level) < rank("low") ? "low" : f.level))
          .reduce<ClinicalLevel>((worst, level) => (rank(level) > rank(worst) ? level : worst), "none");
        expect(risk.level).toBe(expected);
        expect(risk.flag).toBe(expected !== "none");
        for (const f of findings.filter((x) => !x.assessed))
          expect(risk.labels).toContain(`Not evaluated: ${f.title}`);
        if (findings.some((f) => !f.assessed)) expect(risk.level).not.toBe("none");
      }),
    );
  });

  it("JSON summary: review set and each reviewed finding flagged exactly when DOOR_LEVELS or NOT_ASSESSED_DOORS say so", () => {
    fc.assert(
      fc.property(fc.array(findingArb, { maxLength: 8 }), (findings) => {
        const summary = patientReviewSummary(reviewOf(findings));
        const reviewed = findings.filter(setsReview);
        expect(summary.requiresClinicianReview).toBe(reviewed.length > 0);
        expect(summary.flagged).toHaveLength(reviewed.length);
        for (const f of findings.filter((x) => x.assessed && x.level === "high"))
          expect(summary.flagged).toContain(`Patient review (high): ${f.title}`);
        expect(summary.headline === null).toBe(findings.length === 0);
      }),
    );
  });

  it("adding a finding never lowers the risk nor unsets review", () => {
    fc.assert(
      fc.property(fc.array(findingArb, { maxLength: 6 }), findingArb, (findings, extra) => {
        const before = reviewOf(findings);
        const after = reviewOf([...findings, extra]);
        expect(rank(patientReviewRisk(after).level)).toBeGreaterThanOrEqual(
          rank(patientReviewRisk(before).level),
        );
        if (patientReviewSummary(before).requiresClinicianReview)
          expect(patientReviewSummary(after).requiresClinicianReview).toBe(true);
      }),
    );
  });

  it("no review, or one without findings, changes nothing in a JSON summary", () => {
    expect(patientReviewSummary(null)).toEqual({
      flagged: [],
      requiresClinicianReview: false,
      headline: null,
    });
    expect(patientReviewSummary(reviewOf([]))).toEqual({
      flagged: [],
      requiresClinicianReview: false,
      headline: null,
    });
  });
});

describe("each door's input mapped once", () => {
  const prescriptions: Prescription[] = [
    {
      id: "rx_1",
      medicationName: "Lithium",
      dosage: "400 mg",
      frequency: "twice daily",
      status: "active",
      prescribedAt: "2025-03-01",
    },
    { id: "rx_2", medicationName: "Clozapine 100 mg", status: "Active" },
    { id: "rx_3", medicationName: "Sertraline 50 mg", status: "discontinued", prescribedAt: "2024-01-01" },
  ];

  it("active prescriptions only, named as the interaction check reads them, started at prescribedAt (or unknown)", () => {
    expect(medicinesOfPrescriptions(prescriptions)).toEqual([
      {
        name: prescriptionEntryText(prescriptions[0] as Prescription),
        startedAt: "2025-03-01",
        startSource: "prescription rx_1 prescribedAt",
      },
      { name: "Clozapine 100 mg", startedAt: null },
    ]);
    expect(medicinesOfPrescriptions(prescriptions)[0]?.name).toBe("Lithium 400 mg twice daily");
  });

  it("every biomarker of every panel, dated by its panel, with unit, flag (normal is none) and LOINC", () => {
    const labs: LabPanel[] = [
      {
        id: "l1",
        labName: "Lab",
        observedAt: "2026-05-01",
        results: {
          biomarkers: [
            { name: "Creatinine", value: 1.4, unit: "mg/dL", flag: "high", loinc: "2160-0" },
            { name: "Sodium", value: 140, unit: "mmol/L", flag: "normal" },
          ],
        },
      },
      { id: "l2", labName: "Lab", results: { biomarkers: [{ name: "hCG", value: "positive" }] } },
    ];
    expect(readingsOfLabPanels(labs)).toEqual([
      {
        analyte: "Creatinine",
        value: 1.4,
        unit: "mg/dL",
        observedAt: "2026-05-01",
        flag: "high",
        loinc: "2160-0",
      },
      { analyte: "Sodium", value: 140, unit: "mmol/L", observedAt: "2026-05-01", flag: null },
      { analyte: "hCG", value: "positive", observedAt: null, flag: null },
    ]);
  });
});

const patientArb: fc.Arbitrary<PatientContext> = fc.record(
  {
    ageYears: fc.integer({ min: 0, max: 130 }),
    sex: fc.constantFrom("female", "male", "other", "unknown"),
    pregnancy: fc.constantFrom("pregnant", "possible", "not_pregnant", "unknown"),
    egfr: fc.integer({ min: 5, max: 130 }),
  },
  { requiredKeys: [] },
);
const MEDICINES = [
  "Clozapine 200 mg",
  "Lithium 800 mg",
  "Sodium valproate 500 mg",
  "Citalopram 40 mg",
  "Olanzapine 10 mg",
];
const prescriptionArb: fc.Arbitrary<Prescription[]> = fc.array(
  fc.record({
    id: fc.constant("rx"),
    medicationName: fc.constantFrom(...MEDICINES),
    status: fc.constant("active"),
    prescribedAt: fc.constantFrom("2026-07-10", "2026-01-01", "2024-06-01"),
  }),
  { maxLength: 3 },
);
const labsArb: fc.Arbitrary<LabPanel[]> = fc.array(
  fc.record({
    id: fc.constant("l"),
    labName: fc.constant("Lab"),
    observedAt: fc.constantFrom("2026-07-20", "2026-03-01", "2025-08-01"),
    results: fc.record({
      biomarkers: fc.array(
        fc.record({
          name: fc.constantFrom("ANC", "Lithium", "Creatinine", "QTc", "Weight"),
          value: fc.double({ min: 0.1, max: 600, noNaN: true }),
        }),
        { maxLength: 3 },
      ),
    }),
  }),
  { maxLength: 3 },
);

describe("one rule of when an answer carries the review, read into the engines' facts in one place", () => {
  it("present with patient facts, or medicines and readings, or a finding; absent otherwise", () => {
    fc.assert(
      fc.property(
        fc.option(patientArb, { nil: undefined }),
        prescriptionArb,
        labsArb,
        (patient, rx, labs) => {
          const medicines = medicinesOfPrescriptions(rx);
          const readings = readingsOfLabPanels(labs);
          const review = doorPatientReview({
            ...(patient ? { patient } : {}),
            medicines,
            readings,
            now: NOW,
          });
          const sentPatient = patient !== undefined && Object.keys(patient).length > 0;
          const sentBoth = medicines.length > 0 && readings.length > 0;
          if (sentPatient || sentBoth) expect(review).not.toBeNull();
          else expect(review === null || review.findings.length > 0).toBe(true);
        },
      ),
    );
  });

  it("the medication and biomarker answers carry that review and flag and review its findings as the summary says", () => {
    fc.assert(
      fc.property(
        fc.option(patientArb, { nil: undefined }),
        prescriptionArb,
        labsArb,
        (patient, rx, labs) => {
          const medication = analyzeMedication(
            { prescriptions: rx, assessments: [], ...(patient ? { patient } : {}), labs },
            { now: NOW },
          );
          const biomarker = analyzeBiomarkers(
            { labs, ...(patient ? { patient } : {}), prescriptions: rx },
            { now: NOW },
          );
          const expected = doorPatientReview({
            ...(patient ? { patient } : {}),
            medicines: medicinesOfPrescriptions(rx),
            readings: readingsOfLabPanels(labs),
            now: NOW,
          });
          for (const run of [medication, biomarker]) {
            expect(run.data.patientReview ?? null).toEqual(expected);
            const summary = patientReviewSummary(expected);
            for (const line of summary.flagged) expect(run.facts.summary.flagged).toContain(line);
            if (summary.requiresClinicianReview) expect(run.facts.summary.requiresClinicianReview).toBe(true);
          }
        },
      ),
      { numRuns: 60 },
    );
  });

  it("the medication answer's dose check reads the patient's age, at every age around the label's boundary", () => {
    for (const age of [59, 60, 61, 70]) {
      const run = analyzeMedication(
        {
          prescriptions: [{ id: "rx", medicationName: "Citalopram 40 mg", status: "active" }],
          assessments: [],
          patient: { ageYears: age },
        },
        { now: NOW },
      );
      const alerts = run.data.interactionCheck?.doseAlerts ?? [];
      // The citalopram label's reduced maximum applies above 60 (DAILY_DOSE_LIMITS).
      if (age > 60) {
        expect(alerts).toEqual([expect.objectContaining({ maximumMg: 20, severity: "high" })]);
        expect(run.facts.summary.requiresClinicianReview).toBe(true);
      } else {
        expect(alerts).toEqual([]);
        expect(run.data.interactionCheck?.notEvaluated.join(" ")).not.toMatch(/age not given/);
      }
    }
    const unknown = analyzeMedication(
      {
        prescriptions: [{ id: "rx", medicationName: "Citalopram 40 mg", status: "active" }],
        assessments: [],
      },
      { now: NOW },
    );
    expect(unknown.data.interactionCheck?.notEvaluated.join(" ")).toMatch(/age not given/);
  });
});
