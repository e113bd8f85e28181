/**
 * One MedicationRequest -> the medicine model's ingredients, or a named "not used" entry. An
 * RxNorm ingredient code is looked up in the medicine model (`INGREDIENTS[].rxcui`, verified codes
 * only); any other RxNorm code (a clinical drug, a brand) is read by its display, then the
 * concept's text, through the same name reading the interaction checker uses. Rules: docs/fhir.md,
 * "FHIR in"; decision 112.
 */
import { checkInteractions, INGREDIENTS } from "@svc/engines";
import {
  array,
  codingsOf,
  fhirTime,
  isObject,
  isOtherPatient,
  type Json,
  labelOf,
  notUsed,
  RXNORM,
  text,
} from "./read-common.js";
import type { MedicationReading, NotUsed, ReadOptions } from "./types.js";

/**
 * Statuses of a patient's MedicationRequest that count as a medicine being taken (decision 112):
 * `active` only. `on-hold` (suspended), `draft` (not yet signed; a hook's draft orders are read
 * from its context instead), `completed`, `stopped`, `cancelled`, `entered-in-error` and
 * `unknown` do not.
 */
export const ACTIVE_MEDICATION_STATUSES: readonly string[] = ["active"];

const INGREDIENT_BY_RXCUI: ReadonlyMap<string, string> = new Map(
  INGREDIENTS.flatMap((entry) => (entry.rxcui === null ? [] : [[entry.rxcui, entry.ingredient] as const])),
);

/**
 * The longest medicine name read (display, text). Reading a name costs time in proportion to its
 * length, and a name is a few words: a longer one is not read, so a caller cannot make one
 * resource cost seconds (decision 146).
 */
export const MAX_MEDICINE_NAME = 256;

/**
 * RxNorm displays of one concept tried as names, before its text: an order carries one to three
 * codings, and each name tried costs a reading, so a concept with thousands of codings costs no
 * more than this many (decision 146).
 */
export const MAX_DISPLAYS_READ = 4;

/** Ingredients the interaction checker recognises in a text (none for an unknown, empty or over-long one). */
function ingredientsIn(name: string): string[] {
  if (name.length > MAX_MEDICINE_NAME) return [];
  return checkInteractions([name]).recognized;
}

/** The medicine named by the order: a known RxNorm ingredient code, else a display or text the model reads. */
function medicineOf(concept: unknown): { text: string; ingredients: string[]; rxnorm: string | null } | null {
  const codings = codingsOf(concept, RXNORM);
  for (const coding of codings) {
    const ingredient = INGREDIENT_BY_RXCUI.get(coding.code);
    if (ingredient !== undefined) return { text: ingredient, ingredients: [ingredient], rxnorm: coding.code };
  }
  const names = [
    ...codings.slice(0, MAX_DISPLAYS_READ).map((c) => c.display),
    isObject(concept) ? text(concept.text) : null,
  ];
  for (const name of names) {
    if (name === null) continue;
    const ingredients = ingredientsIn(name);
    if (ingredients.length > 0) return { text: name, ingredients, rxnorm: null };
  }
  return null;
}

/**
 * The medicine of a `medicationReference`: a contained Medication (`#id`) read by its `code`
 * like a medicationCodeableConcept, else the reference's `display` read as a name. A reference to
 * a Medication elsewhere on the server is not fetched.
 */
function medicineOfReference(resource: Json): ReturnType<typeof medicineOf> {
  const reference = resource.medicationReference;
  if (!isObject(reference)) return null;
  const target = text(reference.reference);
  if (target?.startsWith("#")) {
    const contained = array(resource.contained).find(
      (item) => isObject(item) && item.resourceType === "Medication" && item.id === target.slice(1),
    );
    const fromCode = isObject(contained) ? medicineOf(contained.code) : null;
    if (fromCode !== null) return fromCode;
  }
  return medicineOf({ text: text(reference.display) });
}

/** Mass units of a UCUM `doseQuantity.code` (or its `unit`), as the interaction checker writes them. */
const DOSE_UNIT: Readonly<Record<string, string>> = { mg: "mg", g: "g", ug: "mcg", mcg: "mcg" };

/** `periodUnit` (UCUM) in days. */
const PERIOD_DAYS: Readonly<Record<string, number>> = { h: 1 / 24, d: 1, wk: 7, mo: 30, a: 365 };

/** Administrations per day of the HL7 timing abbreviations (v3 GTSAbbreviation) an order may send instead of `repeat`. */
const CODE_PER_DAY: Readonly<Record<string, number>> = { QD: 1, AM: 1, PM: 1, BID: 2, TID: 3, QID: 4 };

/** The most dosage instructions added into one daily dose (an order carries one to a few). */
const MAX_DOSAGE_INSTRUCTIONS = 8;

/**
 * The most administrations one instruction gives in any 24 hours: `frequencyMax` (else
 * `frequency`, else 1) per `period` `periodUnit`, rounded up (every 5 hours is 5 in a day), or a
 * timing code; `timeOfDay` counts each time. Null when the timing does not say how often.
 */
function perDay(timing: unknown): number | null {
  if (!isObject(timing)) return null;
  const repeat = isObject(timing.repeat) ? timing.repeat : null;
  if (repeat !== null) {
    const times = array(repeat.timeOfDay).length;
    if (times > 0) return times;
    const count = repeat.frequencyMax ?? repeat.frequency ?? 1;
    const days = PERIOD_DAYS[text(repeat.periodUnit) ?? ""];
    const period = repeat.period;
    if (
      typeof count === "number" &&
      count >= 1 &&
      typeof period === "number" &&
      period > 0 &&
      days !== undefined
    )
      return Math.ceil((count / (period * days)) * (1 - 1e-9));
  }
  const code = codingsOf(timing.code, "http://terminology.hl7.org/CodeSystem/v3-GTSAbbreviation")[0]?.code;
  return code === undefined ? null : (CODE_PER_DAY[code] ?? null);
}

/**
 * The daily dose of an order's dosage instructions, as a phrase the interaction checker reads
 * ("300 mg per day"; decision 184): each instruction's first `doseQuantity` (the top of a
 * `doseRange`) times its administrations a day, summed. The checker converts the unit and applies
 * the label limits; nothing is judged here. Absent when any instruction lacks a mass dose or a
 * timing, or the instructions use different units.
 */
function dailyDoseOf(resource: Json): string | undefined {
  const instructions = array(resource.dosageInstruction);
  if (instructions.length === 0 || instructions.length > MAX_DOSAGE_INSTRUCTIONS) return undefined;
  let total = 0;
  let unit: string | undefined;
  for (const instruction of instructions) {
    if (!isObject(instruction) || instruction.asNeededBoolean === true) return undefined;
    const rate = array(instruction.doseAndRate)[0];
    if (!isObject(rate)) return undefined;
    const quantity = isObject(rate.doseQuantity)
      ? rate.doseQuantity
      : isObject(rate.doseRange) && isObject(rate.doseRange.high)
        ? rate.doseRange.high
        : null;
    const value = quantity?.value;
    const written = DOSE_UNIT[text(quantity?.code) ?? text(quantity?.unit) ?? ""];
    const times = perDay(instruction.timing);
    if (typeof value !== "number" || !(value > 0) || written === undefined || times === null)
      return undefined;
    if (unit !== undefined && unit !== written) return undefined;
    unit = written;
    total += value * times;
  }
  return unit === undefined || !Number.isFinite(total)
    ? undefined
    : `${Number(total.toFixed(3))} ${unit} per day`;
}

/**
 * The medicine a MedicationRequest or MedicationStatement names (`medicationCodeableConcept`,
 * else `medicationReference`), read the same way for both; null when the service knows none.
 */
export function medicineOfResource(resource: Json): ReturnType<typeof medicineOf> {
  return medicineOf(resource.medicationCodeableConcept) ?? medicineOfReference(resource);
}

/**
 * Reads one MedicationRequest. `statuses` are the statuses that count (default
 * ACTIVE_MEDICATION_STATUSES; a hook's draft orders are read with ["draft"]). A request with
 * `doNotPerform` is an order not to give the medicine and is never read as one being taken.
 */
export function readMedicationRequest(
  resource: unknown,
  options: ReadOptions,
  statuses: readonly string[] = options.medicationStatuses ?? ACTIVE_MEDICATION_STATUSES,
): MedicationReading | NotUsed {
  if (!isObject(resource) || resource.resourceType !== "MedicationRequest")
    return notUsed(resource, "unsupported_resource", "Not a MedicationRequest.");
  const label = labelOf(resource);
  const status = text(resource.status);
  if (status === null || !statuses.includes(status))
    return notUsed(
      resource,
      "wrong_status",
      `${label} has status ${status ?? "(none)"}; only ${statuses.join(", ")} requests are read here.`,
    );
  if (resource.doNotPerform === true)
    return notUsed(resource, "wrong_status", `${label} is an order not to give the medicine (doNotPerform).`);
  if (isOtherPatient(resource.subject, options.patientId))
    return notUsed(resource, "other_patient", `${label} belongs to another patient than the one in context.`);
  const medicine = medicineOfResource(resource);
  if (medicine === null)
    return notUsed(
      resource,
      "unknown_code",
      resource.medicationReference !== undefined
        ? `${label} names its medicine by a reference the service cannot read (only a contained Medication's code or the reference's display are read).`
        : `${label} names no medicine the service knows (no known RxNorm ingredient code, display or text of at most ${MAX_MEDICINE_NAME} characters).`,
    );
  const authored = fhirTime(resource.authoredOn);
  const dailyDose = dailyDoseOf(resource);
  return {
    kind: "medication",
    resourceId: text(resource.id),
    text: medicine.text,
    ingredients: medicine.ingredients,
    rxnorm: medicine.rxnorm,
    ...(dailyDose === undefined ? {} : { dailyDose }),
    status,
    authoredOn: authored === null ? null : new Date(authored).toISOString(),
  };
}
