/**
 * The rows docs/engines/evidence.md must hold for the patient-factor tables (decision 190), keyed
 * by constant, with the value as the page writes it; read by patient-factors-evidence.test.ts.
 */
import {
  BREASTFEEDING_RULES,
  CHILDBEARING_AGE_YEARS,
  FACTOR_NOT_EVALUATED_LEVEL,
  GENERIC_RENAL,
  GENERIC_TERATOGEN,
  HEPATIC_RULES,
  MALE_RULES,
  RENAL_RULES,
  TERATOGEN_RULES,
} from "@svc/engines";

export function patientFactorRows(): Map<string, string> {
  const rows = new Map<string, string>();
  rows.set("CHILDBEARING_AGE_YEARS.min", String(CHILDBEARING_AGE_YEARS.min));
  rows.set("CHILDBEARING_AGE_YEARS.max", String(CHILDBEARING_AGE_YEARS.max));
  rows.set("FACTOR_NOT_EVALUATED_LEVEL", FACTOR_NOT_EVALUATED_LEVEL);
  for (const rule of TERATOGEN_RULES) {
    rows.set(`${rule.ingredient}.pregnant`, rule.pregnant);
    rows.set(`${rule.ingredient}.potential`, rule.potential);
    if (rule.preventionProgramme !== undefined)
      rows.set(`${rule.ingredient}.preventionProgramme`, rule.preventionProgramme);
  }
  rows.set("GENERIC_TERATOGEN.pregnant", GENERIC_TERATOGEN.pregnant);
  rows.set("GENERIC_TERATOGEN.potential", GENERIC_TERATOGEN.potential);
  for (const rule of BREASTFEEDING_RULES) rows.set(`${rule.ingredient}.breastfeeding`, rule.level);
  const unit = (measure: string) => (measure === "eGFR" ? "mL/min/1.73 m2" : "mL/min");
  for (const rule of [...RENAL_RULES, { ingredient: "GENERIC_RENAL", ...GENERIC_RENAL }]) {
    for (const band of rule.bands)
      rows.set(
        `${rule.ingredient}.renal.below${band.below}`,
        `< ${band.below} ${unit(rule.measure)}: ${band.level}`,
      );
  }
  for (const rule of HEPATIC_RULES) {
    const grades = (["mild", "moderate", "severe"] as const).map((g) => `${g} ${rule.levels[g] ?? "none"}`);
    rows.set(`${rule.ingredient}.hepatic`, grades.join(", "));
  }
  for (const rule of MALE_RULES) rows.set(`${rule.ingredient}.maleBelowAge${rule.belowAgeYears}`, rule.level);
  return rows;
}
