/**
 * order-select and order-sign: each draft MedicationRequest the hook is about, against the
 * patient's active MedicationRequests (prefetch `medications`) and the session's other draft
 * orders, with the interaction checker. One card per interaction; a card for whatever could not
 * be checked (decision 115).
 */
import {
  checkInteractions,
  INTERACTION_RULES,
  MAX_MEDICATIONS,
  type MedicationInteraction,
} from "@svc/engines";
import { type MedicationReading, readFhirInputs, readMedicationRequest, resourcesOf } from "@svc/fhir";
import { buildCard, type Card, type Coding, escapeMarkdown, type Indicator } from "./cards.js";
import type { OrderSelectRequest, OrderSignRequest } from "./request.js";
import { INTERACTIONS_ENGINE, OVERRIDE_REASONS_PATH, requireRule } from "./rules.js";
import { cardContext, type RunContext } from "./run-context.js";
import { insufficientDataCard, notUsedLines } from "./run-shared.js";

/** Statuses a draft order may carry in `context.draftOrders` (the hook says draft; some EHRs send active). */
const DRAFT_STATUSES = ["draft", "active"] as const;

/** Interaction severity -> card indicator: high is critical (decision 115). */
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

interface Medicine {
  reading: MedicationReading;
  /** "MedicationRequest/<id>" or null. */
  ref: string | null;
  draft: boolean;
}

const refOf = (reading: MedicationReading) =>
  reading.resourceId === null ? null : `MedicationRequest/${reading.resourceId}`;

const effectOf = (ruleId: string) => INTERACTION_RULES.find((rule) => rule.id === ruleId)?.effect ?? ruleId;

function nameOf(medicine: Medicine): string {
  return medicine.reading.ingredients.join(" + ");
}

/** Reads the draft MedicationRequests of context.draftOrders. */
function readDrafts(request: OrderSelectRequest | OrderSignRequest, ctx: RunContext): Medicine[] {
  const { resources } = resourcesOf(request.context.draftOrders);
  const drafts: Medicine[] = [];
  for (const resource of resources) {
    if (resource.resourceType !== "MedicationRequest") continue;
    const read = readMedicationRequest(resource, { now: ctx.now, patientId: ctx.patientId }, DRAFT_STATUSES);
    if ("reason" in read) ctx.notUsed.push(read);
    else drafts.push({ reading: read, ref: refOf(read), draft: true });
  }
  return drafts;
}

function interactionCard(
  target: Medicine,
  other: Medicine,
  interaction: MedicationInteraction,
  ctx: RunContext,
): Card {
  const rule = requireRule(`interaction-${interaction.id}`);
  const targets = [target, ...(other.draft ? [other] : [])].filter((m) => m.ref !== null);
  const suggestions = targets.map((m, index) => ({
    label: `Remove the draft order for ${nameOf(m)}`,
    uuid: ctx.uuid(),
    ...(index === 0 ? { isRecommended: true } : {}),
    actions: [
      {
        type: "delete" as const,
        description: `Remove the draft order for ${nameOf(m)} (${m.reading.text}).`,
        resourceId: m.ref as string,
      },
    ],
  }));
  const otherKind = other.draft ? "another draft order" : "an active medication";
  return buildCard(
    {
      rule,
      indicator: SEVERITY_INDICATOR[interaction.severity],
      summary: `${capitalise(nameOf(target))} with ${nameOf(other)}: ${effectOf(interaction.id)} (${interaction.severity} severity)`,
      detail: [
        `**${capitalise(interaction.severity)} severity interaction** between the draft order for **${escapeMarkdown(target.reading.text)}** and ${otherKind}, **${escapeMarkdown(other.reading.text)}**.`,
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

const capitalise = (text: string) => (text === "" ? text : `${text[0]?.toUpperCase()}${text.slice(1)}`);

/** Interactions of one draft with the others: one per rule and pair of orders, the draft's side first. */
function interactionsOf(
  target: Medicine,
  others: readonly Medicine[],
): { other: Medicine; interaction: MedicationInteraction }[] {
  const checked = checkInteractions([
    target.reading.text,
    ...others.slice(0, MAX_MEDICATIONS - 1).map((m) => m.reading.text),
  ]);
  const own = new Set(target.reading.ingredients);
  const found: { other: Medicine; interaction: MedicationInteraction }[] = [];
  for (const interaction of checked.interactions) {
    const [mine, theirs] = own.has(interaction.a)
      ? [interaction.a, interaction.b]
      : [interaction.b, interaction.a];
    if (!own.has(mine) || own.has(theirs)) continue;
    for (const other of others) {
      if (other.reading.ingredients.includes(theirs)) found.push({ other, interaction });
    }
  }
  return found;
}

/** Cards for the hook's drafts: one per interaction (each pair of orders and rule once), then what was not checked. */
export function runOrderHook(
  hook: "order-select" | "order-sign",
  request: OrderSelectRequest | OrderSignRequest,
  prefetch: Readonly<Record<string, unknown>>,
  ctx: RunContext,
): Card[] {
  ctx.recorder.record({ name: INTERACTIONS_ENGINE.name, version: INTERACTIONS_ENGINE.version });
  const drafts = readDrafts(request, ctx);
  const medications = prefetch.medications;
  const active = readFhirInputs([medications], { now: ctx.now, patientId: ctx.patientId });
  ctx.notUsed.push(...active.notUsed);
  // An EHR may list a draft it already saves as active: the draft is compared once, as a draft.
  const draftRefs = new Set(drafts.map((d) => d.ref));
  const actives: Medicine[] = active.medications
    .map((reading) => ({ reading, ref: refOf(reading), draft: false }))
    .filter((m) => m.ref === null || !draftRefs.has(m.ref));
  const selected =
    hook === "order-select" ? new Set((request as OrderSelectRequest).context.selections as string[]) : null;
  const targets = drafts.filter((d) => selected === null || (d.ref !== null && selected.has(d.ref)));

  const cards: Card[] = [];
  const seen = new Set<string>();
  for (const target of targets) {
    const others = [...actives, ...drafts.filter((d) => d !== target)];
    for (const { other, interaction } of interactionsOf(target, others)) {
      const key = [
        interaction.id,
        ...[target.ref ?? target.reading.text, other.ref ?? other.reading.text].sort(),
      ].join("|");
      if (seen.has(key)) continue;
      seen.add(key);
      cards.push(interactionCard(target, other, interaction, ctx));
    }
  }
  const notChecked = notCheckedLines(medications, ctx, actives.length + drafts.length > MAX_MEDICATIONS);
  if (notChecked.length > 0)
    cards.push(
      insufficientDataCard(
        requireRule("interaction-not-checked"),
        "Interaction check incomplete: some orders or medicines could not be read",
        notChecked,
        ctx,
      ),
    );
  return cards;
}

function notCheckedLines(medications: unknown, ctx: RunContext, capped: boolean): string[] {
  const lines: string[] = [];
  if (ctx.missingPrefetch.includes("medications"))
    lines.push(
      "The patient's active medication list was not available: interactions with current medicines were not checked.",
    );
  else if (medications === null)
    lines.push(
      "The EHR sent no medication list (null): interactions with current medicines were not checked.",
    );
  if (capped) lines.push(`Only the first ${MAX_MEDICATIONS} medicines were compared.`);
  lines.push(...notUsedLines(ctx.notUsed));
  return lines;
}
