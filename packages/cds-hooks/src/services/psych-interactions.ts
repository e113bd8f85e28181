/**
 * The psychotropic interaction services, `psych-interactions-select` (order-select) and
 * `psych-interactions-sign` (order-sign): one check offered at the two order hooks, so one module
 * holds both descriptors, their prefetch, their rules and their run.
 *
 * order-select and order-sign: the draft MedicationRequests the hook is about, against the
 * patient's active MedicationRequests (prefetch `medications`) and the session's other draft
 * orders, with the interaction checker. One card per interaction rule and pair of medicines,
 * naming the orders of each; a card for whatever could not be read or compared.
 *
 * Bounded before any work: at most MAX_DRAFT_ORDERS drafts and MAX_ACTIVE_REQUESTS
 * entries of the medication list are read, one checker call compares at most MAX_MEDICATIONS
 * distinct medicines, and each cut is said on the not-checked card.
 *
 * Decisions this module follows (docs/decisions.md): 114, a rule catalog with HTI-1 source
 * attributes; 115, cards say what the engines say, and silence is never reassurance; 142, order
 * hooks answer per medicine pair, and every caller's list is cut before it is read; 173,
 * interactions are derived from properties, the label pairs override, unknown is said; 174, label
 * dose limits for every ingredient whose label states one; 184, a dose above the label maximum is a
 * CDS order card; 201, the EHR door reads the patient, a renewal is not a start; 203, review
 * findings are CDS cards through the door table; 209, a CDS service is one module, found through
 * one registry.
 */
import {
  checkInteractions,
  DAILY_DOSE_LIMITS,
  type DailyDoseLimit,
  DERIVED_RULES,
  DOOR_LEVELS,
  DOSE_FINDING_RULES,
  type DoseAlert,
  doseCheckOptions,
  INTERACTION_RULES,
  type InteractionRule,
  MAX_MEDICATIONS,
  type MedicationInteraction,
  type PatientFinding,
  type ReviewMedicine,
  reviewPatient,
} from "@svc/engines";
import { type MedicationReading, readFhirInputs, readMedicationRequest, readPatientReview } from "@svc/fhir";
import { firstResources } from "../bounded-source.js";
import {
  type CardAction,
  type Coding,
  clipText,
  escapeMarkdown,
  type FoundCard,
  foundCard,
  type Indicator,
  type Suggestion,
} from "../cards.js";
import {
  MAX_ACTIVE_REQUESTS,
  MAX_DRAFT_ORDERS,
  MAX_LAB_ENTRIES,
  MAX_PATIENT_ENTRIES,
  ORDER_TEXT_SHOWN,
  ORDERS_NAMED,
} from "../limits.js";
import type { OrderSelectRequest, OrderSignRequest } from "../request.js";
import { findingCard } from "../review-cards.js";
import {
  type CdsRule,
  KNOWLEDGE_REVISED,
  OVERRIDE_REASONS_PATH,
  RULE_DEVELOPER,
  ruleLookup,
} from "../rules.js";
import { cardContext, type RunContext } from "../run-context.js";
import { insufficientDataCard, notUsedLines } from "../run-shared.js";
import {
  type CdsService,
  type CdsServiceDescriptor,
  defineCdsService,
  type ServiceRun,
} from "../service-module.js";
import { ACTIVE_MEDICATIONS, PATIENT, PATIENT_OBSERVATIONS } from "./prefetch-templates.js";

// Rules of the interaction services.

/**
 * The interaction checker is a deterministic tool, not a registry engine with calibrated
 * parameters; its version is the revision of its rule table.
 */
export const INTERACTIONS_ENGINE = { name: "interactions", version: `rules ${KNOWLEDGE_REVISED}` } as const;

function interactionRule(rule: InteractionRule): CdsRule {
  return {
    id: `interaction-${rule.id}`,
    kind: "interaction",
    title: `Drug interaction: ${rule.effect}`,
    description: `${rule.mechanism} ${rule.recommendation}`,
    citation: rule.source,
    developer: RULE_DEVELOPER,
    evidenceLevel: `Severity ${rule.severity} (FHIR DetectedIssue scale), assigned by the interaction knowledge base from the cited source; ${
      rule.sourceChecked
        ? "the cited source was read when the rule was written"
        : "the cited source was not re-read for this release"
    }.`,
    lastRevised: KNOWLEDGE_REVISED,
    engine: INTERACTIONS_ENGINE,
    intendedUse:
      "Alert the prescriber to a known interaction between a draft order and the patient's other medicines.",
    cautionedUse:
      "Not a complete interaction compendium: medicines the service does not recognise are reported as not checked, never as safe.",
  };
}

/** A label dose limit of one ingredient: the card for a dose above it. */
function doseRule(ingredient: string, limit: DailyDoseLimit): CdsRule {
  const reduced = limit.reduced;
  return {
    id: `dose-${ingredient}`,
    kind: "dose",
    title: `Dose above the label maximum: ${ingredient}`,
    description: `Reads the daily dose of a ${ingredient} order (its dosage instructions, or the dose written in its text, times the frequency) against the label maximum of ${limit.maxDailyMg} mg/day${
      reduced === undefined ? "" : ` (${reduced.maxDailyMg} mg/day for ${reduced.appliesTo})`
    }: above it, ${limit.harm}.`,
    citation: limit.source,
    developer: RULE_DEVELOPER,
    evidenceLevel: `Label maximum, severity high (FHIR DetectedIssue scale); ${
      limit.sourceChecked
        ? "the cited label was read when the limit was written"
        : "the cited label was not re-read for this release"
    }.`,
    lastRevised: KNOWLEDGE_REVISED,
    engine: INTERACTIONS_ENGINE,
    intendedUse: "Alert the prescriber to a draft order whose daily dose is above the label maximum.",
    cautionedUse:
      "Applies the label maximum only; doses the service could not read (no mass unit, no timing) are not checked, and a limit that depends on the patient's age is reported as not checked.",
  };
}

export const NOT_CHECKED_RULE: CdsRule = {
  id: "interaction-not-checked",
  kind: "data",
  title: "Interactions not checked",
  description:
    "Says when a draft order, or the patient's medication list, could not be read, so the interaction check is incomplete.",
  citation: "The interaction checker's rule that an unrecognised medicine is never read as no interaction.",
  developer: RULE_DEVELOPER,
  evidenceLevel: "Service policy.",
  lastRevised: KNOWLEDGE_REVISED,
  engine: INTERACTIONS_ENGINE,
  intendedUse: "Prevent silence from reading as 'no interaction'.",
  cautionedUse: "Check the unread medicines with another source.",
};

/** The rules the interaction cards come from: one per interaction rule, per dose limit, and not-checked. */
const RULES: readonly CdsRule[] = Object.freeze([
  ...INTERACTION_RULES.map(interactionRule),
  // The rules derived from ingredient properties, one page per rule id.
  ...DERIVED_RULES.map(interactionRule),
  ...Object.entries(DAILY_DOSE_LIMITS).map(([ingredient, limit]) => doseRule(ingredient, limit)),
  NOT_CHECKED_RULE,
]);

const ruleOf = ruleLookup(RULES);

/** Statuses a draft order may carry in `context.draftOrders` (the hook says draft; some EHRs send active). */
const DRAFT_STATUSES = ["draft", "active"] as const;

/** Interaction severity -> card indicator: high is critical. */
export const SEVERITY_INDICATOR: Readonly<Record<MedicationInteraction["severity"], Indicator>> = {
  high: "critical",
  moderate: "warning",
  low: "info",
};

/** Override reasons offered on an interaction card; system: our CodeSystem at a stable URL. */
export function overrideReasons(baseUrl: string): Coding[] {
  const system = `${baseUrl.replace(/\/+$/, "")}${OVERRIDE_REASONS_PATH}`;
  return [
    { system, code: "benefit-outweighs-risk", display: "Benefit outweighs the risk for this patient" },
    { system, code: "monitoring-in-place", display: "Combination intended; monitoring is in place" },
    { system, code: "not-taking-other", display: "Patient no longer takes the other medicine" },
    { system, code: "specialist-advice", display: "Following specialist advice" },
  ];
}

interface Order {
  reading: MedicationReading;
  /** "MedicationRequest/<id>" when the id is a FHIR id, else null. */
  ref: string | null;
  draft: boolean;
}

/** A FHIR id: the only ids that go into a reference, a delete action or a card's plain text. */
const FHIR_ID = /^[A-Za-z0-9\-.]{1,64}$/;

const refOf = (reading: MedicationReading) =>
  reading.resourceId !== null && FHIR_ID.test(reading.resourceId)
    ? `MedicationRequest/${reading.resourceId}`
    : null;

const effectOf = (ruleId: string) =>
  [...INTERACTION_RULES, ...DERIVED_RULES].find((rule) => rule.id === ruleId)?.effect ?? ruleId;

const isMedicationRequest = (item: unknown) =>
  typeof item === "object" &&
  item !== null &&
  (item as { resourceType?: unknown }).resourceType === "MedicationRequest";

const capitalise = (text: string) => (text === "" ? text : `${text[0]?.toUpperCase()}${text.slice(1)}`);

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/**
 * The text the checker reads for an order: with a daily dose from its dosage instructions, the
 * ingredient and that dose (so a strength in the name is not read as the dose),
 * else the order's text, which may carry a written dose of its own ("Quetiapine 1000 mg daily").
 */
function checkedText(order: Order): string {
  const { dailyDose, ingredients, text } = order.reading;
  return dailyDose !== undefined && ingredients.length === 1 ? `${ingredients[0]} ${dailyDose}` : text;
}

/** Reads the first MAX_DRAFT_ORDERS draft MedicationRequests of context.draftOrders. */
function readDrafts(
  request: OrderSelectRequest | OrderSignRequest,
  ctx: RunContext,
): { drafts: Order[]; total: number } {
  const { items, total } = firstResources(request.context.draftOrders, MAX_DRAFT_ORDERS, isMedicationRequest);
  const drafts: Order[] = [];
  for (const resource of items) {
    const read = readMedicationRequest(resource, { now: ctx.now, patientId: ctx.patientId }, DRAFT_STATUSES);
    if ("reason" in read) ctx.notUsed.push(read);
    else drafts.push({ reading: read, ref: refOf(read), draft: true });
  }
  return { drafts, total };
}

/**
 * The medicines one checker call compares: the distinct texts of the orders, the hook's own
 * drafts first, then the other drafts, then the active medicines, up to MAX_MEDICATIONS. Orders
 * whose text is left out are not compared.
 */
function comparedOrders(ordered: readonly Order[]): { texts: string[]; orders: Set<Order>; left: number } {
  const texts = new Set<string>();
  const orders = new Set<Order>();
  let left = 0;
  for (const order of ordered) {
    const text = checkedText(order);
    if (!texts.has(text) && texts.size < MAX_MEDICATIONS) texts.add(text);
    if (texts.has(text)) orders.add(order);
    else left += 1;
  }
  return { texts: [...texts], orders, left };
}

/** The orders of one medicine on an interaction card. */
interface Side {
  name: string;
  orders: Order[];
}

/**
 * The two sides of an interaction among the compared orders, or null when no order the hook is
 * about takes part: a target order naming one medicine (and not the other, so a combination
 * product is not an interaction with itself) with any order naming the other. The side holding
 * the hook's first target comes first.
 */
function sidesOf(
  interaction: MedicationInteraction,
  orders: readonly Order[],
  targets: ReadonlySet<Order>,
): [Side, Side] | null {
  const { a, b } = interaction;
  const has = (order: Order, ingredient: string) => order.reading.ingredients.includes(ingredient);
  const targetsA = new Set(orders.filter((o) => targets.has(o) && has(o, a) && !has(o, b)));
  const targetsB = new Set(orders.filter((o) => targets.has(o) && has(o, b) && !has(o, a)));
  const withA = orders.filter((o) => has(o, a));
  const withB = orders.filter((o) => has(o, b));
  const pairedA = targetsA.size > 0 && withB.length > 0;
  const pairedB = targetsB.size > 0 && withA.length > 0;
  if (!pairedA && !pairedB) return null;
  const sideA: Side = {
    name: a,
    orders: orders.filter((o) => (pairedA && targetsA.has(o)) || (pairedB && has(o, a))),
  };
  const sideB: Side = {
    name: b,
    orders: orders.filter((o) => (pairedB && targetsB.has(o)) || (pairedA && has(o, b))),
  };
  // Every target on a side is a target of that side's medicine: the first such order decides.
  const first = orders.find((o) => (pairedA && targetsA.has(o)) || (pairedB && targetsB.has(o)));
  return first !== undefined && targetsA.has(first) && pairedA ? [sideA, sideB] : [sideB, sideA];
}

/** Markdown lines naming a side's orders: the first ORDERS_NAMED, then a count of the rest. */
function orderLines(side: Side): string {
  const drafts = side.orders.filter((o) => o.draft).length;
  const heading = `**Orders with ${side.name}:** ${plural(drafts, "draft order", "draft orders")}, ${plural(side.orders.length - drafts, "active medication", "active medications")}.`;
  const named = side.orders.slice(0, ORDERS_NAMED).map((o) => {
    const what = o.draft ? "Draft order" : "Active medication";
    const id = o.ref === null ? "(no FHIR id)" : escapeMarkdown(o.ref);
    return `- ${what} ${id}: ${escapeMarkdown(clipText(o.reading.text, ORDER_TEXT_SHOWN))}`;
  });
  const rest = side.orders.length - named.length;
  return [heading, ...named, ...(rest > 0 ? [`- and ${rest} more.`] : [])].join("\n");
}

/**
 * A suggestion to remove every draft order of a side that has a FHIR id. Plain text only: the
 * label and descriptions hold our medicine names and FHIR ids, never the EHR's free text.
 */
function removeSuggestion(side: Side, ctx: RunContext): Suggestion | null {
  const drafts = side.orders.filter((o): o is Order & { ref: string } => o.draft && o.ref !== null);
  if (drafts.length === 0) return null;
  const actions: CardAction[] = drafts.map((o) => ({
    type: "delete",
    description: `Remove the draft order ${o.ref} (${side.name}).`,
    resourceId: o.ref,
  }));
  return {
    label:
      drafts.length === 1
        ? `Remove the draft order for ${side.name}`
        : `Remove the ${drafts.length} draft orders for ${side.name}`,
    uuid: ctx.uuid(),
    actions,
  };
}

function interactionCard(
  interaction: MedicationInteraction,
  sides: [Side, Side],
  ctx: RunContext,
): FoundCard {
  const rule = ruleOf(`interaction-${interaction.id}`);
  const [first, second] = sides;
  const suggestions = [removeSuggestion(first, ctx), removeSuggestion(second, ctx)]
    .filter((s): s is Suggestion => s !== null)
    .map((s, index) => (index === 0 ? { ...s, isRecommended: true } : s));
  return foundCard(
    {
      rule,
      indicator: SEVERITY_INDICATOR[interaction.severity],
      summary: `${capitalise(first.name)} with ${second.name}: ${effectOf(interaction.id)} (${interaction.severity} severity)`,
      detail: [
        `**${capitalise(interaction.severity)} severity interaction** between **${first.name}** and **${second.name}**.`,
        orderLines(first),
        orderLines(second),
        `**Mechanism:** ${interaction.mechanism}`,
        `**Recommendation:** ${interaction.recommendation}`,
        `**Source:** ${interaction.source}`,
      ],
      suggestions,
      overrideReasons: overrideReasons(ctx.baseUrl),
    },
    cardContext(ctx, `Engine: ${INTERACTIONS_ENGINE.name} (${INTERACTIONS_ENGINE.version}).`),
  );
}

/**
 * A dose above the label maximum in an order the hook is about: the checker's dose
 * alert at the door's indicator for its level (DOOR_LEVELS), citing the label on the card and on
 * the rule page, with a suggestion to remove the draft.
 */
function doseCard(alert: DoseAlert, side: Side, ctx: RunContext): FoundCard {
  const rule = ruleOf(`dose-${alert.ingredient}`);
  const limit = DAILY_DOSE_LIMITS[alert.ingredient];
  const suggestion = removeSuggestion(side, ctx);
  const daily = `${Number(alert.dailyMg.toFixed(2))} mg/day`;
  return foundCard(
    {
      rule,
      indicator: DOOR_LEVELS[alert.severity].cds ?? "info",
      summary: `${capitalise(alert.ingredient)} ${daily}: above the ${alert.maximumMg} mg/day label maximum`,
      detail: [
        `**Dose above the label maximum:** ${alert.ingredient} ${daily} ordered; the label maximum is ${alert.maximumMg} mg/day.`,
        orderLines(side),
        `**Finding:** ${alert.label}`,
        `**Source:** ${limit?.source ?? rule.citation}`,
      ],
      suggestions: suggestion === null ? [] : [{ ...suggestion, isRecommended: true }],
      overrideReasons: overrideReasons(ctx.baseUrl),
    },
    cardContext(ctx, `Engine: ${INTERACTIONS_ENGINE.name} (${INTERACTIONS_ENGINE.version}).`),
  );
}

/** The dose cards: one per dose alert of an order text held by an order the hook is about. */
function doseCards(
  alerts: readonly DoseAlert[],
  orders: readonly Order[],
  targets: ReadonlySet<Order>,
  ctx: RunContext,
): FoundCard[] {
  return alerts.flatMap((alert) => {
    const held = orders.filter((o) => targets.has(o) && checkedText(o).trim() === alert.input);
    return held.length === 0 ? [] : [doseCard(alert, { name: alert.ingredient, orders: held }, ctx)];
  });
}

/**
 * Who the patient is, for the hook's drafts: the Patient (prefetch `patient`) and
 * the pregnancy-status and laboratory Observations (prefetch `labs`), with the active medicines
 * and the drafts, through the one patient review. The drafts are medicines about to start.
 */
function patientReviewOf(
  prefetch: Readonly<Record<string, unknown>>,
  activeItems: readonly unknown[],
  targets: readonly Order[],
  ctx: RunContext,
) {
  const read = readPatientReview(
    [
      firstResources(prefetch.patient, MAX_PATIENT_ENTRIES).items,
      firstResources(prefetch.labs, MAX_LAB_ENTRIES).items,
      activeItems,
    ],
    { now: ctx.now, patientId: ctx.patientId },
  );
  ctx.notUsed.push(...read.notUsed);
  const drafted: ReviewMedicine[] = targets.map((order) => ({
    name: checkedText(order),
    startedAt: null,
    startSource: `draft order ${order.ref ?? "(no FHIR id)"}: not started yet`,
  }));
  const review = reviewPatient({ ...read.input, medicines: [...read.input.medicines, ...drafted] });
  return { review, notes: read.notes };
}

/**
 * Whether a finding is about a medicine: one of its `medicines` is the name the review was given,
 * or names one of the medicine's ingredients (a part may name "valproate" for "valproate 1000 mg
 * per day"). Case is ignored.
 */
export function findingNamesMedicine(
  finding: PatientFinding,
  name: string,
  ingredients: readonly string[],
): boolean {
  const given = name.toLowerCase();
  return (finding.medicines ?? []).some((medicine) => {
    const named = medicine.toLowerCase();
    return named === given || ingredients.some((ingredient) => named.includes(ingredient.toLowerCase()));
  });
}

/**
 * The drafts a patient-factor finding names. Doses are the order hook's own dose cards, at
 * the same age: not twice.
 */
function heldDrafts(finding: PatientFinding, targets: readonly Order[]): Order[] {
  if (finding.kind !== "patient_factor" || DOSE_FINDING_RULES.includes(finding.rule)) return [];
  const named = new Set(finding.medicines ?? []);
  return targets.filter((order) => named.has(checkedText(order)));
}

/**
 * The patient-factor rules about the hook's drafts that lack a fact (renal function not given, a
 * teratogen with pregnancy unknown): lines of the not-checked card, not a card each on every
 * order.
 */
function factorNotEvaluatedLines(findings: readonly PatientFinding[], targets: readonly Order[]): string[] {
  return findings
    .filter((finding) => !finding.assessed && heldDrafts(finding, targets).length > 0)
    .map((finding) => `Not evaluated: ${finding.title}`);
}

/**
 * The patient-factor findings about the hook's drafts as cards (a valproate draft for a pregnant
 * patient), at the door table's indicator, each offering to remove the drafts it names.
 */
function factorCards(
  findings: readonly PatientFinding[],
  targets: readonly Order[],
  ctx: RunContext,
): FoundCard[] {
  return findings.flatMap((finding) => {
    // Doses are the order hook's own dose cards, at the same age: not twice.
    if (!finding.assessed) return [];
    const held = heldDrafts(finding, targets);
    if (held.length === 0) return [];
    const side: Side = {
      name: held[0]?.reading.ingredients[0] ?? checkedText(held[0] as Order),
      orders: held,
    };
    const suggestion = removeSuggestion(side, ctx);
    return (
      findingCard(finding, cardContext(ctx), {
        orderLines: [orderLines(side)],
        ...(suggestion === null ? {} : { suggestions: [{ ...suggestion, isRecommended: true }] }),
      }) ?? []
    );
  });
}

/** What was cut before reading or comparing, for the not-checked card. */
interface Cuts {
  drafts: number;
  actives: number;
  /** Orders whose medicine was beyond the checker's MAX_MEDICATIONS. */
  notCompared: number;
}

/** Cards for the hook's drafts: one per interaction rule and pair of medicines, then what was not checked. */
function runOrderHook({ request, prefetch, ctx }: ServiceRun<"order-select" | "order-sign">): FoundCard[] {
  ctx.recorder.record({ name: INTERACTIONS_ENGINE.name, version: INTERACTIONS_ENGINE.version });
  const { drafts, total: draftTotal } = readDrafts(request, ctx);
  const medications = prefetch.medications;
  const activeSource = firstResources(medications, MAX_ACTIVE_REQUESTS);
  const active = readFhirInputs([activeSource.items], { now: ctx.now, patientId: ctx.patientId });
  ctx.notUsed.push(...active.notUsed);
  // An EHR may list a draft it already saves as active: the draft is compared once, as a draft.
  const draftRefs = new Set(drafts.map((d) => d.ref));
  const actives: Order[] = active.medications
    .map((reading) => ({ reading, ref: refOf(reading), draft: false }))
    .filter((m) => m.ref === null || !draftRefs.has(m.ref));
  const selected = request.hook === "order-select" ? new Set<string>(request.context.selections) : null;
  const targets = new Set(drafts.filter((d) => selected === null || (d.ref !== null && selected.has(d.ref))));

  const ordered = [
    ...drafts.filter((d) => targets.has(d)),
    ...drafts.filter((d) => !targets.has(d)),
    ...actives,
  ];
  const compared = comparedOrders(ordered);
  const { review, notes } = patientReviewOf(prefetch, activeSource.items, [...targets], ctx);
  // The patient's age reaches the label dose limits that depend on it.
  const check =
    targets.size === 0 ? null : checkInteractions(compared.texts, doseCheckOptions(review.patient, ctx.now));
  const interactions = check?.interactions ?? [];
  const orders = [...drafts, ...actives].filter((o) => compared.orders.has(o));
  const cards: FoundCard[] = [];
  for (const interaction of interactions) {
    const sides = sidesOf(interaction, orders, targets);
    if (sides !== null) cards.push(interactionCard(interaction, sides, ctx));
  }
  cards.push(...doseCards(check?.doseAlerts ?? [], orders, targets, ctx));
  cards.push(...factorCards(review.findings, [...targets], ctx));
  const factLines = [
    ...(ctx.missingPrefetch.includes("patient")
      ? ["- The patient's record (Patient) was not provided by the EHR and could not be fetched."]
      : []),
    ...(ctx.missingPrefetch.includes("labs")
      ? [
          "- The patient's laboratory and pregnancy-status results were not provided by the EHR and could not be fetched: pregnancy and renal-function rules were not evaluated.",
        ]
      : []),
    ...notes.map((note) => `- ${escapeMarkdown(note)}`),
  ];
  const cuts: Cuts = {
    drafts: draftTotal - Math.min(draftTotal, MAX_DRAFT_ORDERS),
    actives: activeSource.total - activeSource.items.length,
    notCompared: compared.left,
  };
  // A property a rule needed and the model does not know is said here, as in every door:
  // "Not evaluated: QT risk category unknown for X (...)"; so is a dose limit
  // that needs the age, which the hook does not have, in the words of the
  // checker's risk labels, as the JSON answer's `notEvaluated` says it.
  const ageNotGiven =
    check?.risk.labels.filter((l) => l.startsWith("Not evaluated:") && l.includes("age not given")) ?? [];
  const notChecked = [
    ...notCheckedLines(medications, ctx, cuts, draftTotal, activeSource.total),
    ...(check?.warnings.filter((w) => w.startsWith("Not evaluated:")) ?? []),
    ...ageNotGiven,
    // Why the age is unknown, where a limit needed it; a missing fact no rule
    // needed is not a card of its own on every order. Patient-factor rules that lack a fact say
    // so in their own not-evaluated findings.
    ...(ageNotGiven.length > 0 ? factLines : []),
    ...factorNotEvaluatedLines(review.findings, [...targets]),
  ];
  if (notChecked.length > 0)
    cards.push(
      insufficientDataCard(
        ruleOf("interaction-not-checked"),
        "Interaction check incomplete: some orders or medicines were not read or compared",
        notChecked,
        ctx,
      ),
    );
  return cards;
}

function notCheckedLines(
  medications: unknown,
  ctx: RunContext,
  cuts: Cuts,
  draftTotal: number,
  activeTotal: number,
): string[] {
  const lines: string[] = [];
  if (ctx.missingPrefetch.includes("medications"))
    lines.push(
      "The patient's active medication list was not available: interactions with current medicines were not checked.",
    );
  else if (medications === null)
    lines.push(
      "The EHR sent no medication list (null): interactions with current medicines were not checked.",
    );
  if (cuts.drafts > 0)
    lines.push(
      `The draft orders hold ${draftTotal} MedicationRequests; only the first ${MAX_DRAFT_ORDERS} were read: the other ${cuts.drafts} were not checked for interactions.`,
    );
  if (cuts.actives > 0)
    lines.push(
      `The active medication list holds ${activeTotal} entries; only the first ${MAX_ACTIVE_REQUESTS} were read: interactions with the other ${cuts.actives} were not checked.`,
    );
  if (cuts.notCompared > 0)
    lines.push(
      `At most ${MAX_MEDICATIONS} different medicines are compared at once: ${plural(cuts.notCompared, "order naming another medicine was", "orders naming other medicines were")} not compared.`,
    );
  lines.push(...notUsedLines(ctx.notUsed));
  return lines;
}

const ORDER_USAGE =
  "Send the patient's active MedicationRequests as prefetch `medications` (or a fhirServer with fhirAuthorization so the service can fetch them). Medicines are read by RxNorm ingredient code or by name; draft orders it cannot read, and a missing medication list, are reported as not checked, never as no interaction. The Patient (`patient`: birth date and gender) and the laboratory and pregnancy-status Observations (`labs`) let the service apply age-dependent dose limits and patient-factor rules (pregnancy, renal function) to the draft orders; without them those rules are said to be not evaluated.";

const ORDER_PREFETCH = { medications: ACTIVE_MEDICATIONS, patient: PATIENT, labs: PATIENT_OBSERVATIONS };

/**
 * Keys the order services answer without: an EHR that registered them before these
 * keys existed sends neither them nor a fhirServer, and its calls must not turn into 412s.
 */
const OPTIONAL_PREFETCH: ReadonlySet<string> = new Set(["patient", "labs"]);

/** An order service of this module at its hook. */
function orderService(
  descriptor: CdsServiceDescriptor & { hook: "order-select" | "order-sign" },
): CdsService {
  return defineCdsService({
    descriptor,
    optionalPrefetch: OPTIONAL_PREFETCH,
    rules: RULES,
    run: runOrderHook,
  });
}

export const PSYCH_INTERACTIONS_SELECT = orderService({
  hook: "order-select",
  id: "psych-interactions-select",
  title: "Psychotropic drug interactions (order select)",
  description:
    "Checks each newly selected draft MedicationRequest against the patient's active MedicationRequests and the other draft orders with the service's interaction rules: one card per interaction (critical for high severity), with a suggestion to remove the draft order.",
  prefetch: ORDER_PREFETCH,
  usageRequirements: ORDER_USAGE,
});

export const PSYCH_INTERACTIONS_SIGN = orderService({
  hook: "order-sign",
  id: "psych-interactions-sign",
  title: "Psychotropic drug interactions (order sign)",
  description:
    "Checks every draft MedicationRequest about to be signed against the patient's active MedicationRequests and the other draft orders: one card per interaction (critical for high severity), with a suggestion to remove the draft order.",
  prefetch: ORDER_PREFETCH,
  usageRequirements: ORDER_USAGE,
});
