/**
 * The `psych-lithium-level` service (patient-view), in one module (decision 220): the patient's
 * newest serum lithium level against the toxicity threshold of the analyte table, and a card when
 * there is no readable level at all. A narrow service for EHRs that want only this alert at chart
 * opening; `psych-patient-view` reads the same level among all the others.
 */
import { analyteByKey } from "@svc/engines";
import { LOINC, readFhirInputs } from "@svc/fhir";
import { firstResources } from "../bounded-source.js";
import { type FoundCard, foundCard } from "../cards.js";
import { MAX_LAB_ENTRIES } from "../limits.js";
import { type CdsRule, DATA_RULE, KNOWLEDGE_REVISED, RULE_DEVELOPER } from "../rules.js";
import { cardContext } from "../run-context.js";
import { insufficientDataCard, notUsedLines } from "../run-shared.js";
import { type CdsService, defineCdsService, type ServiceRun } from "../service-module.js";

/** The analyte table's lithium row and its toxicity threshold (with its source). */
function lithiumRow() {
  const entry = analyteByKey("lithium");
  const threshold = entry?.measure?.criticalHigh;
  if (entry === undefined || threshold === undefined)
    throw new Error("the analyte table has no lithium toxicity threshold");
  return { entry, threshold };
}

const { entry: LITHIUM, threshold: THRESHOLD } = lithiumRow();
const LITHIUM_LOINC = (LITHIUM.loinc ?? []).map((ref) => `${LOINC}|${ref.code}`).join(",");

const TOXICITY_RULE: CdsRule = {
  id: "lithium-toxicity-threshold",
  kind: "lab",
  title: "Lithium level at or above the toxicity threshold",
  description: `Reads the newest serum lithium level (LOINC, UCUM unit checked against the analyte table) against the table's ${THRESHOLD.name} of ${THRESHOLD.value} mmol/L.`,
  citation: THRESHOLD.source,
  developer: RULE_DEVELOPER,
  evidenceLevel: "Product label threshold and a laboratory phone limit, as cited.",
  lastRevised: KNOWLEDGE_REVISED,
  engine: { name: "cds-hooks", version: KNOWLEDGE_REVISED },
  intendedUse: "Alert the clinician at chart opening to a lithium level in the toxic range.",
  cautionedUse:
    "One threshold on the newest level only: toxicity can occur below it (chronic toxicity, the elderly); check the sample timing and the patient.",
};

const date = (iso: string) => iso.slice(0, 10);

function runLithiumLevel({ prefetch, ctx }: ServiceRun<"patient-view">): FoundCard[] {
  const source = firstResources(prefetch.labs, MAX_LAB_ENTRIES);
  const inbound = readFhirInputs([source.items], { now: ctx.now, patientId: ctx.patientId });
  ctx.notUsed.push(...inbound.notUsed);
  const newest = inbound.labs
    .filter((reading) => reading.analyteKey === "lithium")
    .sort((a, b) => Date.parse(b.observedAt) - Date.parse(a.observedAt))[0];
  if (newest === undefined)
    return [
      insufficientDataCard(
        DATA_RULE,
        "No readable lithium level",
        [
          ctx.missingPrefetch.includes("labs")
            ? "- Lithium levels: not provided by the EHR and could not be fetched."
            : "- No readable serum lithium level was found.",
          ...notUsedLines(ctx.notUsed),
        ],
        ctx,
      ),
    ];
  const toxic = THRESHOLD.inclusive ? newest.value >= THRESHOLD.value : newest.value > THRESHOLD.value;
  if (!toxic) return [];
  return [
    foundCard(
      {
        rule: TOXICITY_RULE,
        indicator: "critical",
        summary: `Lithium ${newest.value} mmol/L on ${date(newest.observedAt)}: at or above the ${THRESHOLD.value} mmol/L toxicity threshold`,
        detail: [
          `The newest serum lithium level is **${newest.value} mmol/L** (${date(newest.observedAt)}), at or above the ${THRESHOLD.name} of ${THRESHOLD.value} mmol/L.`,
          `**Source:** ${THRESHOLD.source}`,
        ],
      },
      cardContext(ctx),
    ),
  ];
}

export const PSYCH_LITHIUM_LEVEL: CdsService = defineCdsService({
  descriptor: {
    hook: "patient-view",
    id: "psych-lithium-level",
    title: "Lithium level toxicity alert",
    description:
      "Reads the patient's newest serum lithium level and gives a critical card when it is at or above the toxicity threshold of the service's analyte table; says so when no level could be read.",
    prefetch: {
      labs: `Observation?patient={{context.patientId}}&code=${LITHIUM_LOINC}&_sort=-date&_count=20`,
    },
    usageRequirements:
      "Send the prefetch key labs (or a fhirServer with fhirAuthorization). Observations count when final, amended or corrected, with an effective time and a UCUM unit the analyte table accepts for lithium.",
  },
  optionalPrefetch: new Set(),
  rules: [TOXICITY_RULE],
  run: runLithiumLevel,
});
