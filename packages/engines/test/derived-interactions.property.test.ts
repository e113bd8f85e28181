/**
 * Interactions derived from ingredient properties (decision 173) and label dose limits
 * (decision 174), over the whole model: what must hold for every pair, not only the examples.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { MEDICINE_PROPERTIES, MOIETY_LINKS, propertiesOf } from "../src/knowledge/medicine-properties.js";
import { DAILY_DOSE_LIMITS, INGREDIENTS, QT_RISK } from "../src/knowledge/medicines.js";
import { DERIVED_RULES } from "../src/tools/derived-interactions.js";
import {
  checkInteractions,
  type DrugSelector,
  INTERACTION_RULES,
  type InteractionCheck,
  type InteractionGroup,
} from "../src/tools/interactions.js";

const RANK = { low: 1, moderate: 2, high: 3 } as const;
const GROUP_OF = new Map([...INTERACTION_RULES, ...DERIVED_RULES].map((rule) => [rule.id, rule.group]));
const ALL = INGREDIENTS.map((item) => item.ingredient);
const CLASSES = new Map(INGREDIENTS.map((item) => [item.ingredient, new Set<string>(item.classes)]));

function groupsOf(check: InteractionCheck): Map<InteractionGroup | undefined, number> {
  const found = new Map<InteractionGroup | undefined, number>();
  for (const i of check.interactions) {
    const group = GROUP_OF.get(i.id);
    found.set(group, Math.max(found.get(group) ?? 0, RANK[i.severity]));
  }
  return found;
}

function matches(ingredient: string, selector: DrugSelector): boolean {
  if (selector.ingredients?.includes(ingredient)) return true;
  return selector.classes?.some((c) => CLASSES.get(ingredient)?.has(c)) ?? false;
}

/** The most severe explicit rule per group for an unordered pair (systemic route). */
function explicitGroups(a: string, b: string): Map<InteractionGroup, number> {
  const out = new Map<InteractionGroup, number>();
  for (const rule of INTERACTION_RULES) {
    const hit = (matches(a, rule.a) && matches(b, rule.b)) || (matches(b, rule.a) && matches(a, rule.b));
    if (hit) out.set(rule.group, Math.max(out.get(rule.group) ?? 0, RANK[rule.severity]));
  }
  return out;
}

const distinctPair = (pool: readonly string[]) =>
  fc.tuple(fc.constantFrom(...pool), fc.constantFrom(...pool)).filter(([a, b]) => a !== b);

const serotonergic = ALL.filter((i) => propertiesOf(i).serotonergic === true);
const qtDrugs = Object.keys(QT_RISK);
const noQtCategory = ALL.filter((i) => QT_RISK[i] === undefined);
// Ingredients taken alone as topical NSAIDs change class; the pairs below use names only.

describe("derived interactions (decision 173)", () => {
  it("any two serotonergic ingredients give a serotonin finding, whatever their class", () => {
    expect(serotonergic.length).toBeGreaterThan(40);
    fc.assert(
      fc.property(distinctPair(serotonergic), ([a, b]) => {
        const groups = groupsOf(checkInteractions([a, b]));
        expect(groups.has("serotonin") || groups.has("maoi"), `${a} + ${b}`).toBe(true);
      }),
      { numRuns: 400 },
    );
  });

  it("any two QT drugs give a QT finding", () => {
    fc.assert(
      fc.property(distinctPair(qtDrugs), ([a, b]) => {
        expect(groupsOf(checkInteractions([a, b])).has("qt"), `${a} + ${b}`).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it("every ingredient with its own metabolite, prodrug or enantiomer is high duplicate therapy", () => {
    for (const link of MOIETY_LINKS) {
      for (const list of [
        [link.parent, link.other],
        [link.other, link.parent],
      ]) {
        const check = checkInteractions(list);
        const moiety = check.interactions.find((i) => i.id === "derived-same-active-moiety");
        expect(moiety?.severity, list.join(" + ")).toBe("high");
        expect(check.risk.level).toBe("high");
      }
    }
  });

  it("a QT drug with an ingredient whose QT category is unknown is not evaluated, never none", () => {
    fc.assert(
      fc.property(fc.constantFrom(...qtDrugs), fc.constantFrom(...noQtCategory), (qt, other) => {
        const check = checkInteractions([qt, other]);
        expect(check.risk.level).not.toBe("none");
        expect(check.risk.flag).toBe(true);
        expect(check.risk.labels.join("\n")).toContain(`QT risk category unknown for ${other}`);
      }),
      { numRuns: 300 },
    );
  });

  it("a strong inhibitor or inducer with an ingredient whose CYP roles are unknown is not evaluated", () => {
    const unknownCyp = ALL.filter((i) => propertiesOf(i).cypSubstrate === undefined);
    expect(unknownCyp.length).toBeGreaterThan(0);
    fc.assert(
      fc.property(
        fc.constantFrom("fluoxetine", "paroxetine", "clarithromycin", "carbamazepine", "rifampicin"),
        fc.constantFrom(...unknownCyp),
        (perpetrator, other) => {
          fc.pre(perpetrator !== other);
          const check = checkInteractions([perpetrator, other]);
          expect(check.risk.level).not.toBe("none");
          expect(check.risk.labels.join("\n")).toContain(`CYP substrate roles unknown for ${other}`);
        },
      ),
      { numRuns: 200 },
    );
  });

  it("the explicit label pairs still win: each matched group reads the explicit severity", () => {
    fc.assert(
      fc.property(distinctPair(ALL), ([a, b]) => {
        const reported = groupsOf(checkInteractions([a, b]));
        for (const [group, severity] of explicitGroups(a, b)) {
          expect(reported.get(group), `${a} + ${b} (${group})`).toBe(severity);
        }
        const derived = checkInteractions([a, b]).interactions.filter((i) => i.id.startsWith("derived-"));
        for (const finding of derived) {
          const overriding =
            finding.id === "derived-serotonergic-pair"
              ? ["serotonin", "maoi"]
              : finding.id === "derived-opioid-cns-depressant"
                ? ["cns-depression"]
                : finding.id === "derived-anticholinergic-burden"
                  ? ["anticholinergic"]
                  : [];
          for (const group of overriding)
            expect(explicitGroups(a, b).has(group as InteractionGroup), `${a} + ${b}`).toBe(false);
        }
      }),
      { numRuns: 1500 },
    );
  });

  it("two members of one duplicate-therapy subclass give a duplicate-therapy finding", () => {
    const bySubclass = new Map<string, string[]>();
    for (const [ingredient, props] of MEDICINE_PROPERTIES) {
      if (typeof props.subclass !== "string" || !ALL.includes(ingredient)) continue;
      bySubclass.set(props.subclass, [...(bySubclass.get(props.subclass) ?? []), ingredient]);
    }
    const pairs = [...bySubclass.values()].filter((members) => members.length > 1);
    fc.assert(
      fc.property(
        fc.constantFrom(...pairs).chain((members) => distinctPair(members)),
        ([a, b]) => {
          expect(groupsOf(checkInteractions([a, b])).has("duplicate-therapy"), `${a} + ${b}`).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("trazodone + tramadol, risperidone + paliperidone, olanzapine + haloperidol (before: no interaction)", () => {
    const trazodone = checkInteractions(["trazodone 100 mg", "tramadol 50 mg"]);
    expect(trazodone.interactions.map((i) => i.id)).toContain("serotonergic-tramadol");
    expect(trazodone.risk.level).toBe("high");
    const risperidone = checkInteractions(["risperidone 4 mg", "paliperidone 6 mg"]);
    expect(risperidone.interactions[0]).toMatchObject({ id: "derived-same-active-moiety", severity: "high" });
    const two = checkInteractions(["olanzapine 10 mg", "haloperidol 5 mg"]);
    expect(two.interactions.map((i) => i.id)).toContain("derived-two-antipsychotics");
    // Lithium with an SSRI stays the label's low rating; the derived moderate is overridden.
    const lithium = checkInteractions(["lithium", "sertraline"]);
    expect(lithium.interactions.map((i) => `${i.id}:${i.severity}`)).toEqual([
      "lithium-serotonergic-antidepressant:low",
    ]);
  });
});

describe("label dose limits (decision 174)", () => {
  const limited = Object.keys(DAILY_DOSE_LIMITS);

  it("covers the psychotropic groups, not one antidepressant", () => {
    expect(limited.length).toBeGreaterThanOrEqual(100);
    for (const name of ["sertraline", "escitalopram", "quetiapine", "aripiprazole", "zolpidem", "pregabalin"])
      expect(limited, name).toContain(name);
  });

  it("any written dose above the label maximum is a high finding citing the label", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...limited),
        fc.double({ min: 1.01, max: 20, noNaN: true }),
        (ingredient, factor) => {
          const limit = DAILY_DOSE_LIMITS[ingredient];
          if (limit === undefined) return;
          const dose = Math.ceil(limit.maxDailyMg * factor * 100) / 100;
          fc.pre(dose > limit.maxDailyMg);
          const check = checkInteractions([`${ingredient} ${dose} mg`]);
          expect(check.doseAlerts, `${ingredient} ${dose} mg`).toHaveLength(1);
          expect(check.doseAlerts[0]?.severity).toBe("high");
          expect(check.risk.level).toBe("high");
          expect(check.warnings.join(" ")).toContain(limit.source);
        },
      ),
      { numRuns: 400 },
    );
  });

  it("a dose between the older-adult and the adult maximum is a finding over the age, not evaluated without it", () => {
    const reduced = limited.filter((i) => DAILY_DOSE_LIMITS[i]?.reduced !== undefined);
    expect(reduced.length).toBeGreaterThanOrEqual(8);
    for (const ingredient of reduced) {
      const limit = DAILY_DOSE_LIMITS[ingredient];
      const lower = limit?.reduced;
      if (limit === undefined || lower === undefined) continue;
      const dose = (lower.maxDailyMg + limit.maxDailyMg) / 2;
      const older = checkInteractions([`${ingredient} ${dose} mg`], { ageYears: lower.aboveAgeYears + 1 });
      expect(older.doseAlerts[0]?.maximumMg, ingredient).toBe(lower.maxDailyMg);
      const unknownAge = checkInteractions([`${ingredient} ${dose} mg`]);
      expect(unknownAge.doseAlerts, ingredient).toEqual([]);
      expect(unknownAge.risk.level, ingredient).toBe("low");
      expect(unknownAge.risk.labels.join(" "), ingredient).toContain("age not given");
      const younger = checkInteractions([`${ingredient} ${dose} mg`], { ageYears: 30 });
      if (lower.withClasses === undefined) expect(younger.risk.level, ingredient).toBe("none");
    }
  });

  it("sertraline 300 mg (before: none) and 0.3 g read the same", () => {
    for (const entry of ["sertraline 300 mg", "sertraline 0.3 g", "Zoloft 150 mg bd"]) {
      const check = checkInteractions([entry]);
      expect(check.doseAlerts[0], entry).toMatchObject({
        ingredient: "sertraline",
        dailyMg: 300,
        maximumMg: 200,
      });
    }
  });
});
