/**
 * Patient factors (decision 190) over the whole input space: unknown is never normal, a name is
 * read as its ingredients whatever it is called, another medicine never hides a finding, and
 * ages and renal values around every cut-off give the side of the cut-off they are on.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { propertiesOf } from "../src/knowledge/medicine-properties.js";
import { COMBINATION_PRODUCTS, INGREDIENTS } from "../src/knowledge/medicines.js";
import { type PatientContext, PREGNANCY_STATUSES, SEXES } from "../src/patient/context.js";
import {
  CHILDBEARING_AGE_YEARS,
  GENERIC_RENAL,
  RENAL_RULES,
  TERATOGEN_RULES,
} from "../src/patient/factor-rules.js";
import { FINDING_TITLE_MAX, patientFactorFindings } from "../src/patient/factors.js";
import type { PatientFinding } from "../src/patient/types.js";

const NOW = new Date("2026-12-01T09:00:00Z");
const RANK = { none: 0, low: 1, moderate: 2, high: 3 } as const;

const PREGNANCY_RULES = new Set([
  "teratogen_pregnancy",
  "teratogen_potential_pregnancy",
  "teratogen_pregnancy_unknown",
  "teratogen_childbearing_potential",
]);
const RENAL_RULE_IDS = new Set(["renal_impairment", "renal_function_unknown"]);

function run(patient: PatientContext, names: readonly string[]): PatientFinding[] {
  return patientFactorFindings({
    patient,
    medicines: names.map((name) => ({ name })),
    readings: [],
    now: NOW,
  });
}

/** The highest level among findings of a family that name a medicine. */
function familyLevel(all: PatientFinding[], family: ReadonlySet<string>, name: string): number {
  let level = 0;
  for (const f of all)
    if (family.has(f.rule) && f.medicines?.includes(name)) level = Math.max(level, RANK[f.level]);
  return level;
}

const teratogens = TERATOGEN_RULES.map((r) => r.ingredient);
const renalIngredients = INGREDIENTS.map((i) => i.ingredient).filter((i) => propertiesOf(i).renal === true);
const anyIngredient = fc.constantFrom(...INGREDIENTS.map((i) => i.ingredient));
const medicineName = fc.oneof(
  anyIngredient,
  fc.constantFrom(...INGREDIENTS.flatMap((i) => [...i.brands, ...i.names])),
  fc.constantFrom(...COMBINATION_PRODUCTS.flatMap((p) => p.names)),
  fc.constantFrom("Zyxorin 5 mg", "vitamin d", "unknown tablet"),
);

/**
 * Any patient a door could send. A male patient is never stated pregnant or possibly pregnant
 * (the statement would be read as stated, and removing it would leave a man); at most one renal
 * measure, so that removing a fact never leaves the other measure's normal value behind.
 */
const patientArb: fc.Arbitrary<PatientContext> = fc
  .record(
    {
      sex: fc.constantFrom(...SEXES),
      pregnancy: fc.constantFrom(...PREGNANCY_STATUSES),
      ageYears: fc.integer({ min: 0, max: 110 }),
      breastfeeding: fc.boolean(),
      renal: fc.oneof(
        fc.record({ egfr: fc.integer({ min: 0, max: 150 }) }),
        fc.record({ creatinineClearance: fc.integer({ min: 0, max: 200 }) }),
      ),
      hepaticImpairment: fc.constantFrom("none", "mild", "moderate", "severe", "unknown" as const),
    },
    { requiredKeys: [] },
  )
  .filter((p) => !(p.sex === "male" && (p.pregnancy === "pregnant" || p.pregnancy === "possible")))
  .map(({ renal, ...rest }) => ({ ...rest, ...(renal ?? {}) }) as PatientContext);

const FACTS = [
  "sex",
  "pregnancy",
  "ageYears",
  "breastfeeding",
  "egfr",
  "creatinineClearance",
  "hepaticImpairment",
] as const;

describe("patient factors: properties", () => {
  it("removing a patient fact never silences a teratogen's pregnancy finding or a renal medicine's renal finding", () => {
    fc.assert(
      fc.property(
        patientArb,
        fc.constantFrom(...teratogens),
        fc.constantFrom(...renalIngredients),
        fc.array(medicineName, { maxLength: 4 }),
        (patient, teratogen, renal, others) => {
          const names = [teratogen, renal, ...others];
          const before = run(patient, names);
          for (const fact of FACTS) {
            if (patient[fact] === undefined) continue;
            const rest: PatientContext = { ...patient };
            delete rest[fact];
            const after = run(rest, names);
            if (familyLevel(before, PREGNANCY_RULES, teratogen) > 0)
              expect(
                familyLevel(after, PREGNANCY_RULES, teratogen),
                `${teratogen} without ${fact}`,
              ).toBeGreaterThan(0);
            // Renal: with no renal value left, the renal medicine is never silent.
            if (rest.egfr === undefined && rest.creatinineClearance === undefined)
              expect(familyLevel(after, RENAL_RULE_IDS, renal), `${renal} without ${fact}`).toBeGreaterThan(
                0,
              );
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it("a teratogen is never silent for a patient who is not known to be male and not stated not pregnant", () => {
    fc.assert(
      fc.property(patientArb, fc.constantFrom(...teratogens), (patient, teratogen) => {
        fc.pre(patient.sex !== "male" && patient.pregnancy !== "not_pregnant");
        expect(familyLevel(run(patient, [teratogen]), PREGNANCY_RULES, teratogen)).toBeGreaterThan(0);
      }),
    );
  });

  it("a brand or other name gives the findings of its generic", () => {
    const named = INGREDIENTS.flatMap((i) =>
      [...i.brands, ...i.names].map((name) => [name, i.ingredient] as const),
    );
    fc.assert(
      fc.property(patientArb, fc.constantFrom(...named), (patient, [name, generic]) => {
        const signature = (all: PatientFinding[]) =>
          all.map((f) => `${f.rule}:${f.level}:${f.assessed}`).sort();
        expect(signature(run(patient, [name]))).toEqual(signature(run(patient, [generic])));
      }),
    );
  });

  it("a combination product gives the findings of its ingredients", () => {
    const products = COMBINATION_PRODUCTS.flatMap((p) =>
      p.names.map((name) => [name, p.ingredients] as const),
    );
    fc.assert(
      fc.property(patientArb, fc.constantFrom(...products), (patient, [name, ingredients]) => {
        const signature = (all: PatientFinding[]) =>
          all.map((f) => `${f.rule}:${f.level}:${f.assessed}`).sort();
        expect(signature(run(patient, [name]))).toEqual(signature(run(patient, [...ingredients])));
      }),
    );
  });

  it("adding another medicine never removes or lowers a finding", () => {
    fc.assert(
      fc.property(
        patientArb,
        fc.array(medicineName, { minLength: 1, maxLength: 5 }),
        medicineName,
        (patient, names, extra) => {
          const after = run(patient, [...names, extra]);
          for (const f of run(patient, names)) {
            const kept = after.find(
              (g) =>
                g.rule === f.rule &&
                RANK[g.level] >= RANK[f.level] &&
                (f.medicines ?? []).every((m) => g.medicines?.includes(m)),
            );
            expect(kept, `${f.rule} ${f.medicines} after adding ${extra}`).toBeDefined();
          }
        },
      ),
    );
  });

  it("shifting the birth date and the clock by the same amount changes nothing", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 100 }),
        fc.integer({ min: -20_000, max: 20_000 }),
        fc.constantFrom(...SEXES),
        fc.array(medicineName, { minLength: 1, maxLength: 4 }),
        (years, shiftDays, sex, names) => {
          const born = new Date(Date.UTC(1950 + years, 4, 17));
          const at = (shift: number) => {
            const birth = new Date(born.getTime() + shift * 86_400_000);
            const now = new Date(Date.UTC(2026, 11, 1) + shift * 86_400_000);
            return patientFactorFindings({
              patient: { sex, birthDate: birth.toISOString().slice(0, 10) },
              medicines: names.map((name) => ({ name })),
              readings: [],
              now,
            }).map((f) => `${f.rule}:${f.level}:${f.assessed}`);
          };
          // Steps of 365 days: the birthday (17 May) stays months from the clock's day (1 December),
          // so a leap day moved across cannot change the age.
          const shift = Math.round(shiftDays / 365) * 365;
          expect(at(shift)).toEqual(at(0));
        },
      ),
    );
  });

  it("every title fits the card and every finding names its source", () => {
    fc.assert(
      fc.property(patientArb, fc.array(medicineName, { maxLength: 12 }), (patient, names) => {
        for (const f of run(patient, names)) {
          expect(f.title.length).toBeLessThanOrEqual(FINDING_TITLE_MAX);
          expect(f.source.length).toBeGreaterThan(10);
          expect(f.level).not.toBe("none");
          if (!f.assessed) expect(RANK[f.level]).toBeGreaterThanOrEqual(RANK.low);
        }
      }),
    );
  });
});

describe("patient factors: ages around every boundary", () => {
  const { min, max } = CHILDBEARING_AGE_YEARS;
  it.each([min - 1, min, min + 1, max - 1, max, max + 1])(
    "valproate, female aged %i, pregnancy not stated",
    (age) => {
      const f = run({ sex: "female", ageYears: age }, ["valproate"]).find(
        (x) => x.rule === "teratogen_pregnancy_unknown",
      );
      expect(f?.level).toBe(age >= min && age <= max ? "high" : "low");
    },
  );

  it.each([min, max + 1])(
    "a birth date on or one day before the %i-th birthday reads the age of that day",
    (age) => {
      const birthday = `${NOW.getUTCFullYear() - age}-12-01`;
      const dayAfter = `${NOW.getUTCFullYear() - age}-12-02`;
      const level = (birthDate: string) =>
        run({ sex: "female", birthDate }, ["valproate"]).find((x) => x.rule === "teratogen_pregnancy_unknown")
          ?.level;
      const inBand = (a: number) => (a >= min && a <= max ? "high" : "low");
      expect(level(birthday)).toBe(inBand(age));
      expect(level(dayAfter)).toBe(inBand(age - 1));
    },
  );

  it("renal values on each side of every label cut-off fall in their band", () => {
    const rules = [...RENAL_RULES, { ingredient: "levetiracetam", ...GENERIC_RENAL }];
    for (const rule of rules) {
      for (const band of rule.bands) {
        for (const measure of ["egfr", "creatinineClearance"] as const) {
          const below = run({ [measure]: band.below - 0.5 }, [rule.ingredient]).find(
            (f) => f.rule === "renal_impairment",
          );
          const at = run({ [measure]: band.below }, [rule.ingredient]).find(
            (f) => f.rule === "renal_impairment",
          );
          expect(
            RANK[below?.level ?? "none"],
            `${rule.ingredient} just below ${band.below}`,
          ).toBeGreaterThanOrEqual(RANK[band.level]);
          expect(RANK[at?.level ?? "none"], `${rule.ingredient} at ${band.below}`).toBeLessThanOrEqual(
            RANK[below?.level ?? "none"],
          );
        }
      }
    }
  });

  it("a lower renal value never gives a lower level", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...renalIngredients),
        fc.integer({ min: 0, max: 150 }),
        fc.integer({ min: 0, max: 150 }),
        (ingredient, a, b) => {
          const level = (v: number) =>
            RANK[
              run({ creatinineClearance: v }, [ingredient]).find((f) => f.rule === "renal_impairment")
                ?.level ?? "none"
            ];
          expect(level(Math.min(a, b))).toBeGreaterThanOrEqual(level(Math.max(a, b)));
        },
      ),
    );
  });
});
