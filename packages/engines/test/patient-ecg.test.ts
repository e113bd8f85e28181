import { describe, expect, it } from "vitest";
import { judgeLabReading } from "../src/judgement.js";
import { analyteByKey, findAnalyte, findAnalyteByLoinc } from "../src/knowledge/analytes.js";
import { ecgFindings, patientWithReadings, pregnancyTestResult } from "../src/patient/ecg.js";
import { reviewPatient } from "../src/patient/review.js";
import type {
  DatedReading,
  PatientFinding,
  PatientReviewInput,
  ReviewMedicine,
} from "../src/patient/types.js";

/**
 * The ECG part of the patient review and the context read from readings (decision 191): QTc
 * above 500 ms or a rise of more than 60 ms from baseline is high (Drew et al. 2010), above the
 * sex-specific upper limit moderate with a QT-risk medicine, else low; a positive pregnancy test
 * sets pregnancy where the caller was silent and is a finding where the caller said otherwise.
 */

const NOW = new Date("2026-08-01T00:00:00Z");
const qtc = (
  value: number | string,
  observedAt: string | null,
  unit: string | undefined = "ms",
): DatedReading => ({
  analyte: "QTc",
  value,
  observedAt,
  ...(unit === undefined ? {} : { unit }),
});
const input = (
  readings: DatedReading[],
  medicines: ReviewMedicine[] = [],
  patient: PatientReviewInput["patient"] = {},
): PatientReviewInput => ({ patient, medicines, readings, now: NOW });
const rules = (findings: PatientFinding[]) => findings.map((f) => f.rule).sort();
const byRule = (findings: PatientFinding[], rule: string) => findings.find((f) => f.rule === rule);

describe("analyte table: ECG and pregnancy rows", () => {
  it("finds the new rows by name and by verified LOINC code", () => {
    for (const name of ["QTc", "QTcF", "QTcB", "corrected QT", "QT corrected", "QTc interval"])
      expect(findAnalyte(name)?.key, name).toBe("qtc");
    expect(findAnalyte("QT interval")?.key).toBe("qt");
    for (const name of ["Heart rate", "HR", "pulse", "Ventricular rate"])
      expect(findAnalyte(name)?.key, name).toBe("heart_rate");
    for (const name of ["hCG", "beta-hCG", "Urine pregnancy test", "Serum hCG", "pregnancy test"])
      expect(findAnalyte(name)?.key, name).toBe("hcg");
    expect(findAnalyteByLoinc("8636-3")?.key).toBe("qtc");
    expect(findAnalyteByLoinc("76634-5")?.key).toBe("qtc");
    expect(findAnalyteByLoinc("8634-8")?.key).toBe("qt");
    expect(findAnalyteByLoinc("8867-4")?.key).toBe("heart_rate");
    expect(findAnalyteByLoinc("2106-3")?.key).toBe("hcg");
    expect(findAnalyteByLoinc("2118-8")?.key).toBe("hcg");
  });

  it("judges a QTc with the one judgement: above 500 ms high, above 450 ms low, seconds read as ms", () => {
    const entry = analyteByKey("qtc") ?? null;
    expect(judgeLabReading(entry, 510, "ms").level).toBe("high");
    expect(judgeLabReading(entry, 0.51, "s").level).toBe("high");
    expect(judgeLabReading(entry, 500, "ms").level).toBe("low");
    expect(judgeLabReading(entry, 455, "ms").level).toBe("low");
    expect(judgeLabReading(entry, 440, "ms").level).toBe("none");
    // Unit-less: 510 is plausible only in ms, 0.51 only in seconds.
    expect(judgeLabReading(entry, 510, undefined).level).toBe("high");
    expect(judgeLabReading(entry, 0.51, undefined).level).toBe("high");
  });

  it("reads serum hCG at the laboratory cut-offs: below 5 negative, 25 and above elevated", () => {
    const entry = analyteByKey("hcg") ?? null;
    expect(judgeLabReading(entry, 3, "mIU/mL").level).toBe("none");
    expect(judgeLabReading(entry, 12, "IU/L").level).toBe("low");
    expect(judgeLabReading(entry, 30, "mIU/mL").level).toBe("moderate");
  });
});

describe("ecgFindings: the QTc rules", () => {
  it("issue example: QTc 510 ms on citalopram is high and names citalopram", () => {
    const findings = ecgFindings(input([qtc(510, "2026-07-20")], [{ name: "citalopram 20 mg" }]));
    const f = byRule(findings, "qtc_above_500");
    expect(f?.level).toBe("high");
    expect(f?.medicines).toEqual(["citalopram 20 mg"]);
    expect(f?.detail).toContain("citalopram 20 mg (known risk of torsade de pointes)");
    expect(f?.since).toBe("2026-07-20");
    const review = reviewPatient(input([qtc(510, "2026-07-20")], [{ name: "citalopram 20 mg" }]));
    expect(review.level).toBe("high");
    expect(review.requiresClinicianReview).toBe(true);
  });

  it("a rise of 65 ms from 420 is high even at 485", () => {
    const findings = ecgFindings(
      input([qtc(420, "2026-01-10"), qtc(485, "2026-07-10")], [], { sex: "female" }),
    );
    const f = byRule(findings, "qtc_rise_over_60");
    expect(f?.level).toBe("high");
    expect(f?.title).toBe("QTc rose by 65 ms from baseline");
    expect(f?.since).toBe("2026-07-10");
  });

  it("the baseline is the last QTc before a QT-risk medicine started, when its start is known", () => {
    const readings = [qtc(380, "2025-09-01"), qtc(420, "2026-02-01"), qtc(470, "2026-05-01")];
    const started = ecgFindings(
      input(readings, [{ name: "escitalopram", startedAt: "2026-03-01" }], { sex: "male" }),
    );
    // 470 - 420 = 50: not the high-risk rise, but more than 30 ms on a QT-risk medicine (moderate);
    // above the men's limit on a QT-risk medicine: moderate.
    expect(rules(started)).toEqual(["qtc_above_upper_limit", "qtc_rise_over_30"]);
    expect(byRule(started, "qtc_above_upper_limit")?.level).toBe("moderate");
    expect(byRule(started, "qtc_rise_over_30")?.level).toBe("moderate");
    // Start unknown: the earliest QTc is the baseline (470 - 380 = 90), and the text says why.
    const unknown = ecgFindings(
      input(readings, [{ name: "escitalopram", startedAt: null }], { sex: "male" }),
    );
    expect(byRule(unknown, "qtc_rise_over_60")?.detail).toContain("start of a QT-risk medicine is unknown");
  });

  it("a rise of more than 30 ms is reviewed: moderate on a QT-risk medicine, low without; 30 exactly is nothing", () => {
    const onDrug = (later: number) =>
      ecgFindings(
        input([qtc(400, "2026-01-01"), qtc(later, "2026-07-01")], [{ name: "citalopram 20 mg" }], {
          sex: "female",
        }),
      );
    expect(byRule(onDrug(431), "qtc_rise_over_30")?.level).toBe("moderate");
    expect(byRule(onDrug(430), "qtc_rise_over_30")).toBeUndefined();
    expect(byRule(onDrug(460), "qtc_rise_over_30")?.level).toBe("moderate");
    expect(byRule(onDrug(461), "qtc_rise_over_30")).toBeUndefined();
    expect(byRule(onDrug(461), "qtc_rise_over_60")?.level).toBe("high");
    const noDrug = ecgFindings(
      input([qtc(400, "2026-01-01"), qtc(440, "2026-07-01")], [], { sex: "female" }),
    );
    expect(byRule(noDrug, "qtc_rise_over_30")?.level).toBe("low");
  });

  it("male 455 ms is above the limit; female 455 ms is not; unknown sex uses the stricter limit", () => {
    const male = ecgFindings(input([qtc(455, "2026-07-01")], [], { sex: "male" }));
    expect(byRule(male, "qtc_above_upper_limit")?.level).toBe("low");
    const onQtDrug = ecgFindings(
      input([qtc(455, "2026-07-01")], [{ name: "haloperidol 5 mg" }], { sex: "male" }),
    );
    expect(byRule(onQtDrug, "qtc_above_upper_limit")?.level).toBe("moderate");
    expect(ecgFindings(input([qtc(455, "2026-07-01")], [], { sex: "female" }))).toEqual([]);
    const unknown = ecgFindings(input([qtc(455, "2026-07-01")]));
    expect(byRule(unknown, "qtc_above_upper_limit")?.detail).toContain("sex not known");
  });

  it("a newest normal QTc does not hide one above 500 ms within 180 days; an older one is past", () => {
    const recent = ecgFindings(input([qtc(520, "2026-06-01"), qtc(430, "2026-07-25")]));
    expect(byRule(recent, "qtc_above_500_recent")?.level).toBe("high");
    const old = ecgFindings(input([qtc(520, "2025-06-01"), qtc(430, "2026-07-25")]));
    expect(byRule(old, "qtc_above_500_recent")).toBeUndefined();
  });

  it("an undated QTc is the newest only when it is the only one, and never reads as fine", () => {
    const only = ecgFindings(input([qtc(430, null)]));
    expect(byRule(only, "qtc_undated")).toMatchObject({ level: "low", assessed: false });
    const onlyHigh = ecgFindings(input([qtc(510, null)]));
    expect(byRule(onlyHigh, "qtc_above_500")?.title).toContain("(undated)");
    const withDated = ecgFindings(input([qtc(530, null), qtc(430, "2026-07-01")]));
    expect(byRule(withDated, "qtc_above_500")?.title).toBe("QTc 530 ms (undated) above 500 ms");
  });

  it("a QT interval with a heart rate is corrected by Fridericia's formula and says so", () => {
    const readings: DatedReading[] = [
      { analyte: "QT interval", value: 440, unit: "ms", observedAt: "2026-07-01T10:00:00Z" },
      { analyte: "Heart rate", value: 90, unit: "bpm", observedAt: "2026-07-01T10:00:00Z" },
    ];
    // RR = 60/90 s; 440 / (2/3)^(1/3) = 503.7 ms.
    const findings = ecgFindings(input(readings, [], { sex: "female" }));
    const f = byRule(findings, "qtc_above_500");
    expect(f?.title).toBe("QTc 504 ms above 500 ms");
    expect(f?.detail).toContain("Fridericia");
    const alone = ecgFindings(input([readings[0] as DatedReading]));
    expect(byRule(alone, "qt_not_corrected")).toMatchObject({ level: "low", assessed: false });
  });

  it("names medicines whose QT category is unknown as not evaluated when a QTc finding exists", () => {
    const findings = ecgFindings(
      input([qtc(510, "2026-07-20")], [{ name: "sertraline 100 mg" }, { name: "citalopram" }]),
    );
    const f = byRule(findings, "qt_risk_not_evaluated");
    expect(f).toMatchObject({ level: "low", assessed: false, medicines: ["sertraline 100 mg"] });
    expect(ecgFindings(input([qtc(420, "2026-07-20")], [{ name: "sertraline 100 mg" }]))).toEqual([]);
  });

  it("a QTc that cannot be read is not evaluated, never normal", () => {
    const findings = ecgFindings(input([qtc(510, "2026-07-20", "beats")]));
    expect(byRule(findings, "qtc_not_read")).toMatchObject({ level: "low", assessed: false });
  });
});

describe("patientWithReadings and pregnancy tests", () => {
  const positive: DatedReading = {
    analyte: "Urine pregnancy test",
    value: "Positive",
    observedAt: "2026-07-25",
  };

  it("a positive test sets pregnancy when the caller was silent, naming the reading", () => {
    const patient = patientWithReadings({ sex: "female" }, [positive], NOW);
    expect(patient.pregnancy).toBe("pregnant");
    expect(patient.sources?.pregnancy?.kind).toBe("reading");
    expect(patientWithReadings({ pregnancy: "unknown" }, [positive], NOW).pregnancy).toBe("pregnant");
  });

  it("keeps the caller's not_pregnant and reports the conflict, high with a teratogen", () => {
    const patient = patientWithReadings({ pregnancy: "not_pregnant" }, [positive], NOW);
    expect(patient.pregnancy).toBe("not_pregnant");
    const withValproate = ecgFindings({
      patient,
      medicines: [{ name: "sodium valproate 500 mg" }],
      readings: [positive],
      now: NOW,
    });
    expect(byRule(withValproate, "pregnancy_test_conflict")).toMatchObject({
      level: "high",
      medicines: ["sodium valproate 500 mg"],
      kind: "patient_factor",
    });
    const without = ecgFindings({ patient, medicines: [], readings: [positive], now: NOW });
    expect(byRule(without, "pregnancy_test_conflict")?.level).toBe("moderate");
  });

  it("reads serum hCG at the cut-offs and ignores a negative or old test", () => {
    expect(pregnancyTestResult({ analyte: "hCG", value: 30, unit: "mIU/mL" })).toBe("positive");
    expect(pregnancyTestResult({ analyte: "hCG", value: 12, unit: "IU/L" })).toBe("indeterminate");
    expect(pregnancyTestResult({ analyte: "hCG", value: "<2", unit: "IU/L" })).toBe("negative");
    expect(pregnancyTestResult({ analyte: "hCG", value: "see report", flag: "high" })).toBe("positive");
    expect(pregnancyTestResult({ analyte: "hCG", value: "see report" })).toBeNull();
    const negative = { analyte: "hCG", value: "negative", observedAt: "2026-07-30" };
    expect(patientWithReadings({}, [negative], NOW).pregnancy).toBeUndefined();
    const old = { ...positive, observedAt: "2025-09-01" };
    expect(patientWithReadings({}, [old], NOW).pregnancy).toBeUndefined();
    const indeterminate = { analyte: "hCG", value: 12, unit: "IU/L", observedAt: "2026-07-30" };
    expect(patientWithReadings({}, [indeterminate], NOW).pregnancy).toBe("possible");
    // A newer negative test after a positive one: the newest decides, nothing is set.
    expect(patientWithReadings({}, [positive, negative], NOW).pregnancy).toBeUndefined();
  });

  it("an undated positive test sets nothing but is a finding", () => {
    const undated = { ...positive, observedAt: null };
    expect(patientWithReadings({}, [undated], NOW).pregnancy).toBeUndefined();
    const findings = ecgFindings(input([undated]));
    expect(byRule(findings, "pregnancy_test_undated")).toMatchObject({ level: "moderate", assessed: false });
  });

  it("the newest dated eGFR sets egfr when absent, converted; the caller's value and old results win", () => {
    const readings: DatedReading[] = [
      { analyte: "eGFR", value: 70, unit: "mL/min/1.73m2", observedAt: "2026-03-01" },
      { analyte: "eGFR", value: 0.8, unit: "mL/s/1.73m2", observedAt: "2026-07-01" },
    ];
    const patient = patientWithReadings({}, readings, NOW);
    expect(patient.egfr).toBeCloseTo(48, 9);
    expect(patient.sources?.egfr?.reference).toContain("2026-07-01");
    expect(patientWithReadings({ egfr: 90 }, readings, NOW).egfr).toBe(90);
    const old = [{ analyte: "eGFR", value: 70, unit: "mL/min/1.73m2", observedAt: "2025-06-01" }];
    expect(patientWithReadings({}, old, NOW).egfr).toBeUndefined();
    expect(patientWithReadings({}, readings, NOW).creatinineClearance).toBeUndefined();
  });
});
