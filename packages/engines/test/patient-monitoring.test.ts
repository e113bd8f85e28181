/**
 * Monitoring schedules (decisions 192-194): the examples and the table's own rules.
 */
import { describe, expect, it } from "vitest";
import { CLINICAL_LEVELS } from "../src/judgement.js";
import { ANALYTES, analyteByKey } from "../src/knowledge/analytes.js";
import { INGREDIENTS } from "../src/knowledge/medicines.js";
import {
  BASELINE_WINDOW_DAYS,
  MONITORING_SCHEDULES,
  schedulesFor,
} from "../src/knowledge/monitoring-schedules.js";
import { monitoringFindings } from "../src/patient/monitoring.js";
import { reviewPatient } from "../src/patient/review.js";
import type {
  DatedReading,
  PatientFinding,
  PatientReviewInput,
  ReviewMedicine,
} from "../src/patient/types.js";

const DAY = 86_400_000;
const NOW = new Date("2026-12-01T09:00:00Z");

function daysBefore(days: number, now: Date = NOW): string {
  return new Date(now.getTime() - days * DAY).toISOString();
}

function review(
  medicines: ReviewMedicine[],
  readings: DatedReading[],
  patient: PatientReviewInput["patient"] = { ageYears: 40, egfr: 90 },
): PatientFinding[] {
  return monitoringFindings({ medicines, readings, now: NOW, patient });
}

function about(findings: PatientFinding[], analyte: string): PatientFinding[] {
  return findings.filter((f) => f.analyte === analyte);
}

describe("monitoring: the issue's examples", () => {
  it("clozapine three weeks in with only the baseline count: overdue, high, since week 1", () => {
    const findings = review(
      [{ name: "Clozapine 100 mg", startedAt: daysBefore(21) }],
      [{ analyte: "ANC", value: 4.1, unit: "10*9/L", observedAt: daysBefore(23) }],
    );
    const [anc] = about(findings, "anc");
    expect(anc?.rule).toBe("monitoring_overdue");
    expect(anc?.level).toBe("high");
    expect(anc?.since).toBe(daysBefore(14).slice(0, 10));
    expect(anc?.title).toBe(
      "Neutrophil count overdue: last 23 days ago, weekly in weeks 1-18 (UK and US labels)",
    );
    expect(anc?.medicines).toEqual(["Clozapine 100 mg"]);
  });

  it("clozapine for two years, last count three months ago: overdue, high, 4-weekly phase", () => {
    const findings = review(
      [{ name: "Clozaril", startedAt: daysBefore(730) }],
      [{ analyte: "Neutrophils", value: 3.2, unit: "10*9/L", observedAt: daysBefore(91) }],
    );
    const [anc] = about(findings, "anc");
    expect(anc?.level).toBe("high");
    expect(anc?.since).toBe(daysBefore(91 - 28).slice(0, 10));
    expect(anc?.title).toContain("last 91 days ago, every 4 weeks after week 52");
  });

  it("the issue's card: a count 94 days ago in week 15 reads weekly in weeks 1-18", () => {
    const findings = review(
      [{ name: "clozapine", startedAt: daysBefore(100) }],
      [{ analyte: "anc", value: 3, unit: "10*9/L", observedAt: daysBefore(94) }],
    );
    expect(about(findings, "anc")[0]?.title).toBe(
      "Neutrophil count overdue: last 94 days ago, weekly in weeks 1-18 (UK and US labels)",
    );
  });

  it("lithium level six months old with an ACE inhibitor: overdue since 3 months after the last test", () => {
    const findings = review(
      [
        { name: "Priadel 800 mg", startedAt: daysBefore(3 * 365) },
        { name: "lisinopril 10 mg", startedAt: daysBefore(400) },
      ],
      [{ analyte: "Lithium", value: 0.7, unit: "mmol/L", observedAt: daysBefore(182) }],
    );
    const [level] = about(findings, "lithium");
    expect(level?.rule).toBe("monitoring_overdue");
    expect(level?.level).toBe("moderate");
    expect(level?.since).toBe(daysBefore(182 - 91).slice(0, 10));
    expect(level?.detail).toContain("lisinopril 10 mg (an ACE inhibitor)");
  });

  it("the same lithium level without an interacting drug, under 65, eGFR 90, TSH normal: not due", () => {
    const findings = review(
      [{ name: "lithium carbonate", startedAt: daysBefore(3 * 365) }],
      [
        { analyte: "lithium", value: 0.7, unit: "mmol/L", observedAt: daysBefore(150) },
        { analyte: "TSH", value: 2.1, unit: "mU/L", observedAt: daysBefore(150) },
      ],
    );
    expect(about(findings, "lithium")).toEqual([]);
  });
});

describe("monitoring: lithium", () => {
  const lithium = { name: "lithium 400 mg", startedAt: daysBefore(3 * 365) };
  const normalTsh: DatedReading = { analyte: "tsh", value: 2, unit: "mU/L", observedAt: daysBefore(30) };

  it("age 65 or over makes the level 3-monthly", () => {
    const readings: DatedReading[] = [
      { analyte: "lithium", value: 0.6, unit: "mmol/L", observedAt: daysBefore(100) },
      normalTsh,
    ];
    expect(about(review([lithium], readings, { ageYears: 64, egfr: 80 }), "lithium")).toEqual([]);
    const older = about(review([lithium], readings, { ageYears: 65, egfr: 80 }), "lithium");
    expect(older[0]?.level).toBe("moderate");
    expect(older[0]?.detail).toContain("aged 65 or over");
  });

  it("eGFR below 60 makes the level 3-monthly", () => {
    const readings: DatedReading[] = [
      { analyte: "lithium", value: 0.6, unit: "mmol/L", observedAt: daysBefore(100) },
      normalTsh,
    ];
    expect(about(review([lithium], readings, { ageYears: 40, egfr: 60 }), "lithium")).toEqual([]);
    expect(about(review([lithium], readings, { ageYears: 40, egfr: 59 }), "lithium")[0]?.level).toBe(
      "moderate",
    );
  });

  it("a raised TSH makes the level 3-monthly", () => {
    const readings: DatedReading[] = [
      { analyte: "lithium", value: 0.6, unit: "mmol/L", observedAt: daysBefore(100) },
      { analyte: "tsh", value: 9, unit: "mU/L", observedAt: daysBefore(30) },
    ];
    expect(about(review([lithium], readings), "lithium")[0]?.level).toBe("moderate");
  });

  it("an unknown age is not read as under 65: a low not-assessed finding when 3-monthly would be overdue", () => {
    const findings = review(
      [lithium],
      [{ analyte: "lithium", value: 0.6, unit: "mmol/L", observedAt: daysBefore(100) }, normalTsh],
      { egfr: 80 },
    );
    const [level] = about(findings, "lithium");
    expect(level?.rule).toBe("monitoring_risk_unknown");
    expect(level?.assessed).toBe(false);
    expect(level?.level).toBe("low");
    expect(level?.detail).toContain("age not given");
  });

  it("a topical NSAID is not an interacting drug for the schedule", () => {
    const readings: DatedReading[] = [
      { analyte: "lithium", value: 0.6, unit: "mmol/L", observedAt: daysBefore(100) },
      normalTsh,
    ];
    expect(about(review([lithium, { name: "diclofenac gel" }], readings), "lithium")).toEqual([]);
    expect(about(review([lithium, { name: "naproxen 500 mg" }], readings), "lithium")[0]?.level).toBe(
      "moderate",
    );
  });

  it("weekly levels after a dose change: due one week after the change", () => {
    const findings = review(
      [{ ...lithium, doseChangedAt: daysBefore(10) }],
      [{ analyte: "lithium", value: 0.6, unit: "mmol/L", observedAt: daysBefore(20) }, normalTsh],
    );
    const [level] = about(findings, "lithium");
    expect(level?.level).toBe("moderate");
    expect(level?.since).toBe(daysBefore(3).slice(0, 10));
    expect(level?.title).toContain("weekly for 4 weeks after a dose change");
  });

  it("first level one week after starting; none needed before", () => {
    const started = { name: "lithium", startedAt: daysBefore(3) };
    expect(about(review([started], []), "lithium")[0]?.rule).toBe("monitoring_due");
    const week2 = { name: "lithium", startedAt: daysBefore(9) };
    expect(about(review([week2], []), "lithium")[0]?.rule).toBe("monitoring_overdue");
  });

  it("renal and thyroid function every 6 months, moderate; calcium low", () => {
    const findings = review(
      [lithium],
      [
        { analyte: "eGFR", value: 85, unit: "mL/min/1.73m2", observedAt: daysBefore(200) },
        { analyte: "TSH", value: 2, unit: "mU/L", observedAt: daysBefore(200) },
        { analyte: "calcium", value: 2.4, unit: "mmol/L", observedAt: daysBefore(200) },
        { analyte: "lithium", value: 0.6, unit: "mmol/L", observedAt: daysBefore(10) },
      ],
    );
    expect(about(findings, "egfr")[0]?.level).toBe("moderate");
    expect(about(findings, "tsh")[0]?.level).toBe("moderate");
    expect(about(findings, "calcium")[0]?.level).toBe("low");
  });
});

describe("monitoring: antipsychotic metabolic tests", () => {
  it("baseline, 12 weeks, 1 year, then yearly for glucose or HbA1c", () => {
    const started = daysBefore(100);
    const atBaseline: DatedReading = {
      analyte: "HbA1c",
      value: 36,
      unit: "mmol/mol",
      observedAt: daysBefore(102),
    };
    const [glucose] = about(review([{ name: "olanzapine", startedAt: started }], [atBaseline]), "glucose");
    expect(glucose?.level).toBe("low");
    expect(glucose?.since).toBe(daysBefore(100 - 84).slice(0, 10));
    expect(glucose?.title).toContain("at 12 weeks");
    const at12: DatedReading = { ...atBaseline, observedAt: daysBefore(14) };
    expect(
      about(review([{ name: "olanzapine", startedAt: started }], [atBaseline, at12]), "glucose"),
    ).toEqual([]);
  });

  it("clozapine is an antipsychotic: it gets the metabolic tests too, one finding per test for two antipsychotics", () => {
    const findings = review(
      [
        { name: "clozapine", startedAt: daysBefore(400) },
        { name: "aripiprazole 10 mg", startedAt: daysBefore(40) },
      ],
      [],
    );
    const lipids = about(findings, "total_cholesterol");
    expect(lipids).toHaveLength(1);
    expect(lipids[0]?.medicines).toEqual(["clozapine", "aripiprazole 10 mg"]);
  });

  it("weight readings by the analyte name: weekly in weeks 1-6, then at 12 weeks", () => {
    const readings: DatedReading[] = [
      { analyte: "weight", value: 80, unit: "kg", observedAt: daysBefore(50) },
      { analyte: "weight", value: 81, unit: "kg", observedAt: daysBefore(18) },
    ];
    // Started 60 days ago: the weight on day 42 (the last weekly one) asks for the 12-week one on day 84.
    const findings = review([{ name: "haloperidol 5 mg", startedAt: daysBefore(60) }], readings);
    expect(about(findings, "weight")).toEqual([]);
    const late = review([{ name: "haloperidol 5 mg", startedAt: daysBefore(60) }], readings.slice(0, 1));
    expect(about(late, "weight")[0]?.title).toBe("Weight overdue: last 50 days ago, weekly in weeks 1-6");
  });

  it("prolactin at baseline only, reported in the first year", () => {
    expect(
      about(review([{ name: "risperidone", startedAt: daysBefore(30) }], []), "prolactin")[0]?.title,
    ).toBe("Prolactin missing: no baseline before the start");
    expect(about(review([{ name: "risperidone", startedAt: daysBefore(400) }], []), "prolactin")).toEqual([]);
  });
});

describe("monitoring: valproate and carbamazepine", () => {
  it("valproate liver function in the first 6 months: moderate when overdue", () => {
    const findings = review(
      [{ name: "Depakote 500 mg", startedAt: daysBefore(90) }],
      [
        { analyte: "ALT", value: 20, unit: "U/L", observedAt: daysBefore(91) },
        { analyte: "platelets", value: 250, unit: "10*9/L", observedAt: daysBefore(91) },
      ],
    );
    expect(about(findings, "alt")[0]?.level).toBe("moderate");
    expect(about(findings, "platelets")).toEqual([]);
  });

  it("carbamazepine sodium at 2 weeks and monthly with a diuretic, 6-monthly without", () => {
    const readings: DatedReading[] = [
      { analyte: "sodium", value: 140, unit: "mmol/L", observedAt: daysBefore(30) },
      { analyte: "wbc", value: 6, unit: "10*9/L", observedAt: daysBefore(30) },
      { analyte: "alt", value: 20, unit: "U/L", observedAt: daysBefore(30) },
    ];
    const start = daysBefore(31);
    expect(about(review([{ name: "carbamazepine", startedAt: start }], readings), "sodium")).toEqual([]);
    const withDiuretic = review(
      [
        { name: "carbamazepine", startedAt: start },
        { name: "bendroflumethiazide 2.5 mg", startedAt: daysBefore(900) },
      ],
      readings,
    );
    expect(about(withDiuretic, "sodium")[0]?.rule).toBe("monitoring_overdue");
  });
});

describe("monitoring: what is not known is said", () => {
  it("an unknown start: a low not-assessed finding, and the longest interval still judges the last test", () => {
    const findings = review(
      [{ name: "clozapine" }],
      [{ analyte: "anc", value: 3, unit: "10*9/L", observedAt: daysBefore(40) }],
    );
    const unknown = findings.find((f) => f.rule === "monitoring_start_unknown");
    expect(unknown?.assessed).toBe(false);
    expect(unknown?.level).toBe("low");
    const [anc] = about(findings, "anc");
    expect(anc?.level).toBe("high");
    expect(anc?.since).toBe(daysBefore(12).slice(0, 10));
    expect(anc?.title).toContain("(start unknown)");
  });

  it("an unknown start with a recent count: only the not-assessed finding for the count", () => {
    const findings = review(
      [{ name: "clozapine", startedAt: "renewed last week" }],
      [{ analyte: "anc", value: 3, unit: "10*9/L", observedAt: daysBefore(5) }],
    );
    expect(findings.find((f) => f.rule === "monitoring_start_unknown")?.detail).toContain(
      "could not be read",
    );
    expect(about(findings, "anc")).toEqual([]);
  });

  it("an undated count is not counted and is named", () => {
    const findings = review(
      [{ name: "clozapine", startedAt: daysBefore(60) }],
      [{ analyte: "anc", value: 3, unit: "10*9/L", observedAt: null }],
    );
    const [anc] = about(findings, "anc");
    expect(anc?.title).toBe(
      "Neutrophil count overdue: none since the start (no baseline), weekly in weeks 1-18 (UK and US labels)",
    );
    expect(anc?.level).toBe("high");
    expect(anc?.since).toBe(daysBefore(60).slice(0, 10));
    expect(anc?.detail).toContain("1 undated result could not be placed");
  });

  it("a start in the future and a reading before the start do not crash; the baseline is due by the start", () => {
    const future = new Date(NOW.getTime() + 3 * DAY).toISOString();
    const findings = review([{ name: "clozapine", startedAt: future }], []);
    const [anc] = about(findings, "anc");
    expect(anc?.rule).toBe("monitoring_due");
    expect(anc?.level).toBe("none");
    expect(
      about(
        review(
          [{ name: "clozapine", startedAt: future }],
          [{ analyte: "anc", value: 4, unit: "10*9/L", observedAt: daysBefore(1) }],
        ),
        "anc",
      ),
    ).toEqual([]);
  });

  it(`a count older than ${BASELINE_WINDOW_DAYS} days before the start is not a baseline`, () => {
    const findings = review(
      [{ name: "clozapine", startedAt: daysBefore(3) }],
      [{ analyte: "anc", value: 4, unit: "10*9/L", observedAt: daysBefore(3 + BASELINE_WINDOW_DAYS + 1) }],
    );
    expect(about(findings, "anc")[0]?.title).toBe("Neutrophil count overdue: no baseline before the start");
  });

  it("a count by LOINC code only is read (the next weekly count is due within the week)", () => {
    const findings = review(
      [{ name: "clozapine", startedAt: daysBefore(3) }],
      [
        {
          analyte: "Neut abs (lab code 99)",
          loinc: "751-8",
          value: 4,
          unit: "10*9/L",
          observedAt: daysBefore(4),
        },
      ],
    );
    expect(about(findings, "anc")[0]?.title).toBe(
      "Neutrophil count due: last 4 days ago, weekly in weeks 1-18 (UK and US labels)",
    );
  });

  it("reviewPatient carries the monitoring findings and their highest level", () => {
    const result = reviewPatient({
      medicines: [{ name: "clozapine", startedAt: daysBefore(21) }],
      readings: [{ analyte: "anc", value: 4, unit: "10*9/L", observedAt: daysBefore(22) }],
      now: NOW,
    });
    expect(result.level).toBe("high");
    expect(result.requiresClinicianReview).toBe(true);
  });
});

describe("the monitoring table", () => {
  it("names only analytes of the analyte table (weight and BMI once their rows exist)", () => {
    const keys = new Set(ANALYTES.map((a) => a.key));
    for (const row of MONITORING_SCHEDULES)
      for (const key of row.analytes) {
        if ((key === "weight" || key === "bmi") && analyteByKey(key) === undefined) continue;
        expect(keys.has(key), `${row.id}: ${key}`).toBe(true);
      }
  });

  it("applies to ingredients and classes of the medicine model", () => {
    const ingredients = new Set(INGREDIENTS.map((i) => i.ingredient));
    for (const row of MONITORING_SCHEDULES)
      if ("ingredient" in row.appliesTo) expect(ingredients.has(row.appliesTo.ingredient), row.id).toBe(true);
    const clozapine = INGREDIENTS.find((i) => i.ingredient === "clozapine");
    expect(schedulesFor("clozapine", clozapine?.classes ?? []).map((r) => r.id)).toContain(
      "antipsychotic_weight",
    );
  });

  it("never shortens an interval or raises a level in a later phase", () => {
    for (const row of MONITORING_SCHEDULES)
      for (const phases of [row.phases, row.atRisk?.phases ?? []]) {
        for (let i = 1; i < phases.length; i++) {
          const before = phases[i - 1];
          const after = phases[i];
          if (!before || !after) continue;
          expect(after.fromDay, row.id).toBeGreaterThan(before.fromDay);
          expect(after.intervalDays, row.id).toBeGreaterThanOrEqual(before.intervalDays);
          expect(CLINICAL_LEVELS.indexOf(after.overdueLevel ?? row.overdueLevel), row.id).toBeLessThanOrEqual(
            CLINICAL_LEVELS.indexOf(before.overdueLevel ?? row.overdueLevel),
          );
        }
        if (phases.length > 0) expect(phases[0]?.fromDay, row.id).toBe(0);
      }
  });

  it("the stricter schedule is never looser than the usual one at any day", () => {
    for (const row of MONITORING_SCHEDULES) {
      if (!row.atRisk) continue;
      for (let day = 0; day < 3 * 365; day++) {
        const usual = [...row.phases].reverse().find((p) => p.fromDay <= day);
        const strict = [...row.atRisk.phases].reverse().find((p) => p.fromDay <= day);
        expect(strict?.intervalDays ?? 0, `${row.id} day ${day}`).toBeLessThanOrEqual(
          usual?.intervalDays ?? 0,
        );
      }
    }
  });
});
