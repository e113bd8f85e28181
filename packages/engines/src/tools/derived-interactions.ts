/**
 * Interactions and duplicate-therapy warnings derived from ingredient properties (decision 173):
 * two serotonergic drugs, a CNS depressant with an opioid, two antipsychotics, two members of one
 * pharmacological subclass, a drug with its own metabolite, prodrug or enantiomer, a strong
 * inducer or inhibitor with a substrate of the enzyme, and an anticholinergic burden of 3 or more.
 * The explicit label rules (interaction-rules.ts) override a derived finding of the same harm;
 * a property a rule needs that is unknown for an ingredient is returned as "not evaluated".
 * Method and sources: docs/engines/interactions.md ("Derived rules").
 */

import type { InteractionGroup, InteractionRule } from "../knowledge/interaction-rules.js";
import {
  type MedicineProperties,
  moietyLink,
  PROPERTY_LABELS,
  PROPERTY_SOURCES,
  type PropertyName,
  propertiesOf,
} from "../knowledge/medicine-properties.js";
import { CYP_ROLES, type CypEnzyme, QT_RISK, type SelectableClass } from "../knowledge/medicines.js";

/** One recognised ingredient as the rules see it. */
export interface DerivationMember {
  ingredient: string;
  classes: ReadonlySet<SelectableClass>;
}

/** A derived finding: a rule built for this pair, and the explicit groups that override it. */
export interface DerivedFinding {
  rule: InteractionRule;
  /** Explicit rule groups of the same harm; any match of one of them on the pair wins. */
  overriddenBy: readonly InteractionGroup[];
}

/** A property a derived rule needed and that is unknown for one ingredient of the pair. */
export interface UnknownProperty {
  ingredient: string;
  property: PropertyName;
  /** The other ingredient of the pair and the rule that needed it. */
  pairedWith: string;
  rule: string;
}

export interface PairDerivation {
  findings: DerivedFinding[];
  unknown: UnknownProperty[];
}

const SEROTONIN_GROUPS: readonly InteractionGroup[] = ["serotonin", "maoi"];
const EXPOSURE_GROUPS: readonly InteractionGroup[] = [
  "cyp2d6-inhibition",
  "cyp1a2-inhibition",
  "cyp3a4-inhibition",
  "clozapine-exposure",
  "quetiapine-exposure",
  "enzyme-induction",
  "antiepileptic-level",
  "anticoagulant-level",
];

const NICE_CG178_COMBINED =
  "NICE CG178 Psychosis and schizophrenia in adults (do not start regular combined antipsychotic medication, except for short periods such as when changing medication); Maudsley Prescribing Guidelines (antipsychotic polypharmacy)";

function isOpioid(member: DerivationMember): boolean {
  return member.classes.has("opioid");
}

function strongRoles(ingredient: string, role: "inhibitor" | "inducer"): CypEnzyme[] {
  const roles = CYP_ROLES[ingredient]?.[role] ?? {};
  return (Object.keys(roles) as CypEnzyme[]).filter((enzyme) => roles[enzyme] === "strong");
}

function unknownOf(
  props: MedicineProperties,
  property: PropertyName,
  pairedWith: string,
  rule: string,
): UnknownProperty {
  return { ingredient: props.ingredient, property, pairedWith, rule };
}

function derivedRule(
  id: DerivedRuleId,
  severity: InteractionRule["severity"],
  text: Pick<InteractionRule, "effect" | "mechanism" | "recommendation" | "source">,
): InteractionRule {
  const base = DERIVED_RULES.find((rule) => rule.id === id);
  if (base === undefined) throw new Error(`no derived rule ${id}`);
  return { ...base, severity, ...text };
}

type DerivedRuleId =
  | "derived-serotonergic-pair"
  | "derived-opioid-cns-depressant"
  | "derived-same-active-moiety"
  | "derived-two-antipsychotics"
  | "derived-same-subclass"
  | "derived-strong-inhibitor-substrate"
  | "derived-strong-inducer-substrate"
  | "derived-anticholinergic-burden";

function catalogued(
  id: DerivedRuleId,
  group: InteractionGroup,
  severity: InteractionRule["severity"],
  effect: string,
  mechanism: string,
  recommendation: string,
  source: string,
): InteractionRule {
  return {
    id,
    a: {},
    b: {},
    severity,
    group,
    effect,
    mechanism,
    recommendation,
    source,
    sourceChecked: false,
  };
}

/**
 * The derived rules as a catalogue (one entry per id, in general words), for readers that list
 * rules (the CDS rule pages); a finding carries the same id with the pair's own wording.
 */
export const DERIVED_RULES: readonly InteractionRule[] = [
  catalogued(
    "derived-serotonergic-pair",
    "serotonin",
    "moderate",
    "serotonin toxicity",
    "Two drugs with serotonergic activity, whatever their class: combined, they can cause serotonin syndrome.",
    "Check the combination is intended; start low, raise slowly, and tell the patient which symptoms to report.",
    PROPERTY_SOURCES.serotonergic,
  ),
  catalogued(
    "derived-opioid-cns-depressant",
    "cns-depression",
    "moderate",
    "additive sedation and respiratory depression",
    "An opioid with another CNS depressant: additive sedation and respiratory depression.",
    "Co-prescribe only when alternatives are inadequate; lowest doses, shortest duration; warn about sedation and slowed breathing.",
    PROPERTY_SOURCES.cnsDepressant,
  ),
  catalogued(
    "derived-same-active-moiety",
    "duplicate-therapy",
    "high",
    "duplicate therapy: one active moiety twice",
    "A drug with its own active metabolite, prodrug or enantiomer: together they add up to one drug's exposure.",
    "Do not combine; keep one of them and count its dose against the label maximum.",
    "The labels named in MOIETY_LINKS (docs/engines/medicine-coverage.md)",
  ),
  catalogued(
    "derived-two-antipsychotics",
    "duplicate-therapy",
    "moderate",
    "duplicate therapy: two antipsychotics",
    "Two antipsychotics: combined dopamine blockade adds extrapyramidal, metabolic, QT and sedative harm without established benefit, except for clozapine augmentation or a cross-taper.",
    "Check the combination is intended (a switch or a documented augmentation); otherwise keep one antipsychotic and review the total dose.",
    NICE_CG178_COMBINED,
  ),
  catalogued(
    "derived-same-subclass",
    "duplicate-therapy",
    "moderate",
    "duplicate therapy: two drugs of one class",
    "Two members of one pharmacological class: additive effects and adverse effects without added benefit.",
    "Check the combination is intended (for example a cross-taper); otherwise keep one.",
    PROPERTY_SOURCES.subclass,
  ),
  catalogued(
    "derived-strong-inhibitor-substrate",
    "cyp-inhibition",
    "moderate",
    "raised exposure",
    "A strong CYP inhibitor with a drug that enzyme clears (high when the drug has a narrow therapeutic index).",
    "Consider a lower dose of the affected drug or an alternative; monitor for adverse effects and, where measured, levels.",
    PROPERTY_SOURCES.cypSubstrate,
  ),
  catalogued(
    "derived-strong-inducer-substrate",
    "enzyme-induction",
    "moderate",
    "lowered exposure (loss of effect)",
    "A strong CYP inducer with a drug that enzyme clears (high when the drug has a narrow therapeutic index).",
    "Expect lower levels of the affected drug; monitor effect and levels and adjust the dose, also when the inducer is stopped.",
    PROPERTY_SOURCES.cypSubstrate,
  ),
  catalogued(
    "derived-anticholinergic-burden",
    "anticholinergic",
    "moderate",
    "anticholinergic burden",
    "Two drugs whose ACB scores add up to 3 or more: linked to cognitive impairment, falls and mortality.",
    "Review the need for each; prefer less anticholinergic alternatives, especially in older people.",
    PROPERTY_SOURCES.acb,
  ),
];

/** Two serotonergic drugs: serotonin toxicity, whatever their class. */
function serotonin(p: MedicineProperties, q: MedicineProperties, out: PairDerivation): void {
  if (p.serotonergic === true && q.serotonergic === true) {
    out.findings.push({
      overriddenBy: SEROTONIN_GROUPS,
      rule: derivedRule("derived-serotonergic-pair", "moderate", {
        effect: "serotonin toxicity",
        mechanism: `${p.ingredient} and ${q.ingredient} both have serotonergic activity; combined, they can cause serotonin syndrome.`,
        recommendation:
          "Check the combination is intended; start low, raise slowly, and tell the patient which symptoms to report (agitation, tremor, clonus, sweating, fever).",
        source: PROPERTY_SOURCES.serotonergic,
      }),
    });
    return;
  }
  for (const [known, other] of [
    [p, q],
    [q, p],
  ] as const) {
    if (known.serotonergic === true && other.serotonergic === undefined)
      out.unknown.push(unknownOf(other, "serotonergic", known.ingredient, "serotonergic pair"));
  }
}

/** An opioid with another CNS depressant: respiratory depression. */
function cnsWithOpioid(
  first: DerivationMember,
  second: DerivationMember,
  p: MedicineProperties,
  q: MedicineProperties,
  out: PairDerivation,
): void {
  for (const [opioid, other, otherProps] of [
    [first, second, q],
    [second, first, p],
  ] as const) {
    if (!isOpioid(opioid)) continue;
    if (otherProps.cnsDepressant === true) {
      out.findings.push({
        overriddenBy: ["cns-depression"],
        rule: derivedRule("derived-opioid-cns-depressant", "moderate", {
          effect: "additive sedation and respiratory depression",
          mechanism: `${opioid.ingredient} is an opioid and ${other.ingredient} a CNS depressant: additive sedation and respiratory depression.`,
          recommendation:
            "Co-prescribe only when alternatives are inadequate; lowest doses, shortest duration; warn about sedation and slowed breathing.",
          source: PROPERTY_SOURCES.cnsDepressant,
        }),
      });
      return;
    }
    if (otherProps.cnsDepressant === undefined)
      out.unknown.push(
        unknownOf(otherProps, "cnsDepressant", opioid.ingredient, "opioid with a CNS depressant"),
      );
  }
}

/** One active moiety twice, two antipsychotics, or two members of one subclass. */
function duplicateTherapy(p: MedicineProperties, q: MedicineProperties, out: PairDerivation): void {
  const link = moietyLink(p.ingredient, q.ingredient);
  if (link !== undefined) {
    const what =
      link.relation === "enantiomer"
        ? `${link.other} is an enantiomer of ${link.parent}`
        : link.relation === "prodrug"
          ? `${link.parent} is a prodrug of (or shares its active metabolite with) ${link.other}`
          : `${link.other} is an active metabolite of ${link.parent}`;
    out.findings.push({
      overriddenBy: [],
      rule: derivedRule("derived-same-active-moiety", "high", {
        effect: "duplicate therapy: one active moiety twice",
        mechanism: `${what}: together they add up to one drug's exposure, beyond what either label's dose allows for.`,
        recommendation: "Do not combine; keep one of them and count its dose against the label maximum.",
        source: link.source,
      }),
    });
    return;
  }
  if (p.subclass === undefined || q.subclass === undefined) return;
  if (p.subclass === null || p.subclass !== q.subclass) return;
  const antipsychotics = p.subclass === "antipsychotic";
  out.findings.push({
    overriddenBy: [],
    rule: derivedRule(
      antipsychotics ? "derived-two-antipsychotics" : "derived-same-subclass",
      "moderate",
      antipsychotics
        ? {
            effect: "duplicate therapy: two antipsychotics",
            mechanism:
              "Two antipsychotics: combined dopamine blockade adds extrapyramidal, metabolic, QT and sedative harm without established benefit, except for clozapine augmentation or a cross-taper.",
            recommendation:
              "Check the combination is intended (a switch or a documented augmentation); otherwise keep one antipsychotic and review the total dose.",
            source: NICE_CG178_COMBINED,
          }
        : {
            effect: `duplicate therapy: two drugs of one class (${p.subclass.replaceAll("_", " ")})`,
            mechanism: `${p.ingredient} and ${q.ingredient} belong to one pharmacological class: additive effects and adverse effects without added benefit.`,
            recommendation:
              "Check the combination is intended (for example a cross-taper); otherwise keep one.",
            source: PROPERTY_SOURCES.subclass,
          },
    ),
  });
}

/** A strong inhibitor or inducer of an enzyme with a drug that enzyme clears. */
function enzymeExposure(p: MedicineProperties, q: MedicineProperties, out: PairDerivation): void {
  for (const [perpetrator, victim] of [
    [p, q],
    [q, p],
  ] as const) {
    for (const role of ["inhibitor", "inducer"] as const) {
      const enzymes = strongRoles(perpetrator.ingredient, role);
      if (enzymes.length === 0) continue;
      if (victim.cypSubstrate === undefined) {
        out.unknown.push(unknownOf(victim, "cypSubstrate", perpetrator.ingredient, `strong CYP ${role}`));
        continue;
      }
      const shared = enzymes.filter((enzyme) => victim.cypSubstrate?.includes(enzyme));
      if (shared.length === 0) continue;
      const narrow = victim.narrowTherapeuticIndex === true;
      const inhibitor = role === "inhibitor";
      out.findings.push({
        overriddenBy: EXPOSURE_GROUPS,
        rule: derivedRule(
          inhibitor ? "derived-strong-inhibitor-substrate" : "derived-strong-inducer-substrate",
          narrow ? "high" : "moderate",
          {
            effect: inhibitor
              ? `raised ${victim.ingredient} exposure`
              : `lowered ${victim.ingredient} exposure (loss of effect)`,
            mechanism: `${perpetrator.ingredient} is a strong ${shared.join("/")} ${role}; ${victim.ingredient} is cleared by ${shared.join("/")}${narrow ? " and has a narrow therapeutic index" : ""}.`,
            recommendation: inhibitor
              ? `Consider a lower ${victim.ingredient} dose or an alternative; monitor for adverse effects${narrow ? " and levels" : ""}.`
              : `Expect lower ${victim.ingredient} levels; monitor effect${narrow ? " and levels" : ""} and adjust the dose, also when the inducer is stopped.`,
            source: `${CYP_ROLES[perpetrator.ingredient]?.source ?? "CYP_ROLES"}; ${PROPERTY_SOURCES.cypSubstrate}`,
          },
        ),
      });
    }
  }
}

/**
 * The QT rules are explicit (interaction-rules.ts, on the classes derived from QT_RISK); what is
 * derived here is the gap: a drug with a QT category paired with one whose category is not
 * recorded is not evaluated, never "no QT interaction".
 */
function qtUnknown(p: MedicineProperties, q: MedicineProperties, out: PairDerivation): void {
  for (const [known, other] of [
    [p, q],
    [q, p],
  ] as const) {
    if (QT_RISK[known.ingredient] !== undefined && QT_RISK[other.ingredient] === undefined)
      out.unknown.push(unknownOf(other, "qt", known.ingredient, "QT-prolonging pair"));
  }
}

/** Two drugs whose ACB scores add up to 3 or more. */
function anticholinergic(p: MedicineProperties, q: MedicineProperties, out: PairDerivation): void {
  if (p.acb === undefined || q.acb === undefined) return;
  if (p.acb === 0 || q.acb === 0 || p.acb + q.acb < 3) return;
  out.findings.push({
    overriddenBy: ["anticholinergic"],
    rule: derivedRule("derived-anticholinergic-burden", "moderate", {
      effect: `anticholinergic burden ${p.acb + q.acb}`,
      mechanism: `ACB scores ${p.ingredient} ${p.acb} and ${q.ingredient} ${q.acb}: a total of 3 or more is linked to cognitive impairment, falls and mortality.`,
      recommendation:
        "Review the need for each; prefer less anticholinergic alternatives, especially in older people.",
      source: PROPERTY_SOURCES.acb,
    }),
  });
}

/** Every derived finding of one pair, and every unknown property a derived rule needed. */
export function derivePair(first: DerivationMember, second: DerivationMember): PairDerivation {
  const p = propertiesOf(first.ingredient);
  const q = propertiesOf(second.ingredient);
  const out: PairDerivation = { findings: [], unknown: [] };
  serotonin(p, q, out);
  cnsWithOpioid(first, second, p, q, out);
  duplicateTherapy(p, q, out);
  enzymeExposure(p, q, out);
  anticholinergic(p, q, out);
  qtUnknown(p, q, out);
  return out;
}

/** "serotonergic activity unknown for X (needed for the serotonergic pair with Y)". */
export function unknownPropertyText(item: UnknownProperty): string {
  return `${PROPERTY_LABELS[item.property]} unknown for ${item.ingredient} (needed for the ${item.rule} rule with ${item.pairedWith})`;
}
