/**
 * FHIR sources -> the patient-over-time review's input (decision 189): who the patient is (a
 * Patient's birthDate and gender, a pregnancy-status Observation), the medicines taken with their
 * first start dates (MedicationRequests with their prior prescriptions, MedicationStatements),
 * and dated readings (every Observation of an analyte the table knows, by `findAnalyteByLoinc`).
 * Nothing is judged here; what could not be read is said in `notes` and `notUsed`.
 * Rules: docs/fhir.md, "FHIR in: the patient"; decisions 201 and 202.
 */
import {
  type DatedReading,
  findAnalyteByLoinc,
  type PatientContext,
  type PatientReviewInput,
  type PregnancyStatus,
  type ReviewMedicine,
} from "@svc/engines";
import {
  ACTIVE_MEDICATION_STATUSES,
  medicineOfResource,
  readMedicationRequest,
} from "./medication-request.js";
import { COUNTED_OBSERVATION_STATUSES, effectiveTime, readObservation } from "./observation.js";
import { resourcesOf } from "./read.js";
import {
  codingsOf,
  FUTURE_TOLERANCE_MS,
  fhirTime,
  isObject,
  isOtherPatient,
  type Json,
  LOINC,
  labelOf,
  notUsed,
  text,
} from "./read-common.js";
import type { LabReading, MedicationReading, NotUsed, ReadOptions } from "./types.js";

/** LOINC 82810-3 "Pregnancy status" (IPS IG 1.1.0 pregnancy-status example; LOINC answer list LL4129-4). */
export const PREGNANCY_STATUS_LOINC = "82810-3";

const SNOMED = "http://snomed.info/sct";

/**
 * Values of a pregnancy-status Observation: the LOINC answers of the IPS value set
 * pregnancy-status-uv-ips (LA15173-0 Pregnant, LA26683-5 Not pregnant, LA4489-6 Unknown) and the
 * SNOMED CT concepts its concept map calls equivalent (77386006 pregnant, 60001007 not pregnant).
 */
export const PREGNANCY_ANSWERS: Readonly<Record<string, Readonly<Record<string, PregnancyStatus>>>> = {
  [LOINC]: { "LA15173-0": "pregnant", "LA26683-5": "not_pregnant", "LA4489-6": "unknown" },
  [SNOMED]: { "77386006": "pregnant", "60001007": "not_pregnant" },
};

/** MedicationStatement statuses that say the patient takes the medicine now (R4 MedicationStatementStatus). */
export const TAKEN_STATEMENT_STATUSES: readonly string[] = ["active"];

/** Links followed from a renewal to its first prescription; a longer chain is read as unknown. */
export const MAX_PRIOR_PRESCRIPTIONS = 50;

export interface PatientReviewRead {
  input: PatientReviewInput;
  /** One sentence each, for a clinician: a patient fact that is unknown and why. */
  notes: string[];
  /**
   * Resources only this reader reads (Patient, MedicationStatement, pregnancy-status
   * Observations) that could not be used. Observations and MedicationRequests the engines'
   * mapping reads (`readFhirInputs`) are named there, not here.
   */
  notUsed: NotUsed[];
}

const FHIR_DATE = /^(\d{4})(-(0[1-9]|1[0-2])(-(0[1-9]|[12]\d|3[01]))?)?$/;

function isPregnancyStatus(resource: Json): boolean {
  return codingsOf(resource.code, LOINC).some((c) => c.code === PREGNANCY_STATUS_LOINC);
}

/** Whether an Observation is a pregnancy status, which `readFhirInputs` leaves to this reader. */
export function isPatientFactObservation(resource: unknown): boolean {
  return isObject(resource) && resource.resourceType === "Observation" && isPregnancyStatus(resource);
}

/** A Patient's birthDate and gender as the patient context; what is missing said in notes. */
function readPatient(resource: Json, options: ReadOptions, out: PatientReviewRead): PatientContext {
  const label = labelOf(resource);
  const id = text(resource.id);
  if (options.patientId !== undefined && id !== null && id !== options.patientId) {
    out.notUsed.push(
      notUsed(resource, "other_patient", `${label} is another patient than the one in context.`),
    );
    return {};
  }
  const source = { kind: "ehr" as const, reference: label };
  const patient: PatientContext = {};
  const sources: NonNullable<PatientContext["sources"]> = {};
  const birthDate = text(resource.birthDate);
  const date = birthDate === null ? null : FHIR_DATE.exec(birthDate);
  if (date?.[4] !== undefined && birthDate !== null) {
    patient.birthDate = birthDate;
    sources.birthDate = source;
  } else if (date !== null && date !== undefined)
    out.notes.push(
      `${label} gives only part of a birth date (${birthDate}): the age is unknown, and rules that need it were not evaluated.`,
    );
  else
    out.notes.push(
      birthDate === null
        ? `${label} has no birthDate: the age is unknown, and rules that need it were not evaluated.`
        : `${label} has a birthDate that is not a FHIR date: the age is unknown, and rules that need it were not evaluated.`,
    );
  const gender = text(resource.gender);
  if (gender === "female" || gender === "male" || gender === "other" || gender === "unknown") {
    patient.sex = gender;
    sources.sex = source;
  } else out.notes.push(`${label} gives no administrative gender: the sex is unknown.`);
  return Object.keys(sources).length > 0 ? { ...patient, sources } : patient;
}

interface DatedStatus {
  status: PregnancyStatus;
  ms: number;
  iso: string;
  label: string;
}

/** The status a pregnancy-status Observation states, or a not-used entry. */
function readPregnancyStatus(resource: Json, options: ReadOptions): DatedStatus | NotUsed {
  const label = labelOf(resource);
  const status = text(resource.status);
  if (status === null || !COUNTED_OBSERVATION_STATUSES.includes(status))
    return notUsed(resource, "wrong_status", `${label} (pregnancy status) has status ${status ?? "(none)"}.`);
  if (isOtherPatient(resource.subject, options.patientId))
    return notUsed(resource, "other_patient", `${label} belongs to another patient than the one in context.`);
  const time = effectiveTime(resource);
  if (time === null || time.ms > options.now.getTime() + FUTURE_TOLERANCE_MS)
    return notUsed(resource, "no_date", `${label} (pregnancy status) has no usable effective time.`);
  for (const [system, answers] of Object.entries(PREGNANCY_ANSWERS)) {
    for (const { code } of codingsOf(resource.valueCodeableConcept, system)) {
      const read = answers[code];
      if (read !== undefined) return { status: read, ms: time.ms, iso: time.iso, label };
    }
  }
  return notUsed(
    resource,
    "no_value",
    `${label} (pregnancy status) has no value from the LOINC answer list or the SNOMED CT concepts the service reads.`,
  );
}

/**
 * The pregnancy fact: the newest readable status. "Pregnant" is carried; "not pregnant" states
 * one point in time and is never carried forward as a fact (decision 202): the pregnancy is left
 * unknown and the note says what the EHR recorded and when.
 */
function pregnancyFact(statuses: readonly DatedStatus[], out: PatientReviewRead): Partial<PatientContext> {
  const newest = [...statuses].sort((a, b) => b.ms - a.ms)[0];
  if (newest === undefined) return {};
  const day = newest.iso.slice(0, 10);
  if (newest.status === "pregnant") return { pregnancy: "pregnant" };
  out.notes.push(
    newest.status === "not_pregnant"
      ? `${newest.label} recorded "not pregnant" on ${day}; a status holds for the day it was recorded, so pregnancy is treated as unknown.`
      : `${newest.label} recorded the pregnancy status as unknown on ${day}.`,
  );
  return {};
}

/** The id a `priorPrescription` reference names ("MedicationRequest/<id>", or a full URL ending so). */
function priorId(resource: Json): string | null | undefined {
  const prior = resource.priorPrescription;
  if (prior === undefined) return undefined;
  const reference = isObject(prior) ? text(prior.reference) : null;
  const match =
    reference === null ? null : /(?:^|\/)MedicationRequest\/([^/]+?)(?:\/_history\/[^/]+)?$/.exec(reference);
  return match?.[1] ?? null;
}

const isoOf = (value: unknown): string | null => {
  const ms = fhirTime(value);
  return ms === null ? null : new Date(ms).toISOString();
};

/**
 * The first start of an active request (decision 201): a renewal (`priorPrescription`) is followed
 * back through the prescriptions in the data to the first, whose `authoredOn` is the start; a
 * renewal whose prior is not in the data has an unknown start. `basedOn` (the plan it fulfils) and
 * `dispenseRequest.validityPeriod` (how long the prescription may be dispensed) say nothing of
 * when the medicine was first taken and are not read.
 */
function requestStart(resource: Json, byId: ReadonlyMap<string, Json>): Omit<ReviewMedicine, "name"> {
  const label = labelOf(resource);
  let current = resource;
  const seen = new Set<Json>([resource]);
  for (let links = 0; ; links += 1) {
    const prior = priorId(current);
    if (prior === undefined) break;
    const found = prior === null ? undefined : byId.get(prior);
    if (found === undefined || seen.has(found) || links >= MAX_PRIOR_PRESCRIPTIONS)
      return {
        startedAt: null,
        startSource: `${labelOf(current)} renews an earlier prescription${prior === null ? "" : ` (MedicationRequest/${prior})`} that is not in the EHR's data: the first start is unknown.`,
      };
    seen.add(found);
    current = found;
  }
  const authored = isoOf(current.authoredOn);
  if (authored === null)
    return { startedAt: null, startSource: `${labelOf(current)} has no authoredOn: the start is unknown.` };
  return {
    startedAt: authored,
    startSource:
      current === resource
        ? `${label} authoredOn (no prior prescription is linked)`
        : `${labelOf(current)} authoredOn, the first of ${seen.size} linked prescriptions (priorPrescription)`,
  };
}

/** The start a MedicationStatement states: effectivePeriod.start, else effectiveDateTime. */
function statementStart(resource: Json): { at: string; source: string } | null {
  const label = labelOf(resource);
  const period = isObject(resource.effectivePeriod) ? resource.effectivePeriod : null;
  const fromPeriod = period === null ? null : isoOf(period.start);
  if (fromPeriod !== null) return { at: fromPeriod, source: `${label} effectivePeriod.start` };
  const fromDateTime = isoOf(resource.effectiveDateTime);
  return fromDateTime === null ? null : { at: fromDateTime, source: `${label} effectiveDateTime` };
}

interface StatementReading {
  label: string;
  text: string;
  ingredients: string[];
  start: { at: string; source: string } | null;
}

function readStatement(resource: Json, options: ReadOptions): StatementReading | NotUsed {
  const label = labelOf(resource);
  const status = text(resource.status);
  if (status === null || !TAKEN_STATEMENT_STATUSES.includes(status))
    return notUsed(
      resource,
      "wrong_status",
      `${label} has status ${status ?? "(none)"}; only active statements are read.`,
    );
  if (isOtherPatient(resource.subject, options.patientId))
    return notUsed(resource, "other_patient", `${label} belongs to another patient than the one in context.`);
  const medicine = medicineOfResource(resource);
  if (medicine === null)
    return notUsed(resource, "unknown_code", `${label} names no medicine the service knows.`);
  return { label, text: medicine.text, ingredients: medicine.ingredients, start: statementStart(resource) };
}

const shareIngredient = (a: readonly string[], b: readonly string[]) => a.some((x) => b.includes(x));

/** The name the review reads: the ingredient and its daily dose when the order states one. */
function medicineName(reading: MedicationReading): string {
  return reading.dailyDose !== undefined && reading.ingredients.length === 1
    ? `${reading.ingredients[0]} ${reading.dailyDose}`
    : reading.text;
}

/** The earlier of two starts; a known start wins over an unknown one. */
function earlier(
  a: Omit<ReviewMedicine, "name">,
  b: { at: string; source: string } | null,
): Omit<ReviewMedicine, "name"> {
  if (b === null) return a;
  if (a.startedAt === null || a.startedAt === undefined || Date.parse(b.at) < Date.parse(a.startedAt))
    return { startedAt: b.at, startSource: b.source };
  return a;
}

/** A laboratory reading as the review's dated reading (a censored value keeps its comparator). */
function datedReading(reading: LabReading): DatedReading {
  return {
    analyte: reading.analyteKey,
    value: reading.comparator === null ? reading.value : `${reading.comparator}${reading.value}`,
    ...(reading.unit === null ? {} : { unit: reading.unit }),
    observedAt: reading.observedAt,
    // The review's flag reads high, low and critical; a laboratory's "normal" is no flag.
    flag: reading.flag === "normal" ? null : reading.flag,
    loinc: reading.loinc,
  };
}

/**
 * A known analyte reported as a coded or text result (a qualitative pregnancy test): its value as
 * text for the review to judge, or null when it has none.
 */
function qualitativeReading(resource: Json, options: ReadOptions): DatedReading | null {
  const status = text(resource.status);
  if (status === null || !COUNTED_OBSERVATION_STATUSES.includes(status)) return null;
  if (isOtherPatient(resource.subject, options.patientId)) return null;
  const code = codingsOf(resource.code, LOINC).find((c) => findAnalyteByLoinc(c.code) !== null)?.code;
  const entry = code === undefined ? null : findAnalyteByLoinc(code);
  if (entry === null || code === undefined) return null;
  const concept = isObject(resource.valueCodeableConcept) ? resource.valueCodeableConcept : null;
  const firstDisplay =
    concept === null ? null : text((concept.coding as Json[] | undefined)?.find(isObject)?.display);
  const value =
    text(resource.valueString) ?? (concept === null ? null : (text(concept.text) ?? firstDisplay));
  const time = effectiveTime(resource);
  if (value === null || time === null || time.ms > options.now.getTime() + FUTURE_TOLERANCE_MS) return null;
  return { analyte: entry.key, value, observedAt: time.iso, loinc: code };
}

/** The resources of a review sorted by what they tell, each read once. */
interface SortedResources {
  patient: PatientContext;
  statuses: DatedStatus[];
  requests: { reading: MedicationReading; resource: Json }[];
  statements: StatementReading[];
  readings: DatedReading[];
}

/** MedicationRequests by id, of any status: followed as prior prescriptions for a start date. */
function requestsByIdOf(resources: readonly Json[]): Map<string, Json> {
  const requestsById = new Map<string, Json>();
  for (const r of resources) {
    const id = text(r.id);
    if (r.resourceType === "MedicationRequest" && id !== null && !requestsById.has(id))
      requestsById.set(id, r);
  }
  return requestsById;
}

/** An Observation: a pregnancy status, a numeric lab result, or a coded or text result of a known analyte. */
function sortObservation(
  resource: Json,
  options: ReadOptions,
  out: PatientReviewRead,
  sorted: SortedResources,
): void {
  if (isPregnancyStatus(resource)) {
    const read = readPregnancyStatus(resource, options);
    if ("reason" in read) out.notUsed.push(read);
    else sorted.statuses.push(read);
    return;
  }
  const read = readObservation(resource, options);
  if (!("reason" in read) && read.kind === "lab") sorted.readings.push(datedReading(read));
  else if ("reason" in read && read.reason === "no_value") {
    const qualitative = qualitativeReading(resource, options);
    if (qualitative !== null) sorted.readings.push(qualitative);
  }
}

/** Reads each resource once (the first of a repeated type/id), into what it tells; the first Patient is the patient. */
function sortResources(
  resources: readonly Json[],
  options: ReadOptions,
  out: PatientReviewRead,
): SortedResources {
  const sorted: SortedResources = { patient: {}, statuses: [], requests: [], statements: [], readings: [] };
  const seen = new Set<string>();
  for (const resource of resources) {
    const id = text(resource.id);
    const key = id === null ? null : `${String(resource.resourceType)}/${id}`;
    if (key !== null) {
      if (seen.has(key)) continue;
      seen.add(key);
    }
    if (resource.resourceType === "Patient") {
      if (Object.keys(sorted.patient).length === 0) sorted.patient = readPatient(resource, options, out);
    } else if (resource.resourceType === "Observation") sortObservation(resource, options, out, sorted);
    else if (resource.resourceType === "MedicationRequest") {
      const read = readMedicationRequest(
        resource,
        options,
        options.medicationStatuses ?? ACTIVE_MEDICATION_STATUSES,
      );
      if (!("reason" in read)) sorted.requests.push({ reading: read, resource });
    } else if (resource.resourceType === "MedicationStatement") {
      const read = readStatement(resource, options);
      if ("reason" in read) out.notUsed.push(read);
      else sorted.statements.push(read);
    }
  }
  return sorted;
}

/** The pregnancy the EHR records completes the patient context, with the newest pregnant status as its source. */
function withRecordedPregnancy(
  patient: PatientContext,
  statuses: readonly DatedStatus[],
  out: PatientReviewRead,
): PatientContext {
  const pregnancy = pregnancyFact(statuses, out);
  const newestPregnant = statuses.filter((s) => s.status === "pregnant").sort((a, b) => b.ms - a.ms)[0];
  if (pregnancy.pregnancy === undefined || newestPregnant === undefined) return patient;
  return {
    ...patient,
    pregnancy: pregnancy.pregnancy,
    sources: { ...patient.sources, pregnancy: { kind: "ehr", reference: newestPregnant.label } },
  };
}

/**
 * One medicine per active request (its start the earlier of the prescriptions followed and a
 * statement of the same ingredient), then one per statement naming an ingredient no request names.
 */
function reviewMedicines(sorted: SortedResources, requestsById: ReadonlyMap<string, Json>): ReviewMedicine[] {
  const { requests, statements } = sorted;
  const medicines: ReviewMedicine[] = requests.map(({ reading, resource }) => {
    const fromStatement = statements
      .filter((s) => shareIngredient(s.ingredients, reading.ingredients) && s.start !== null)
      .map((s) => s.start)
      .sort((a, b) => Date.parse(a?.at ?? "") - Date.parse(b?.at ?? ""))[0];
    return {
      name: medicineName(reading),
      ...earlier(requestStart(resource, requestsById), fromStatement ?? null),
    };
  });
  for (const statement of statements) {
    if (requests.some((r) => shareIngredient(r.reading.ingredients, statement.ingredients))) continue;
    medicines.push({
      name: statement.text,
      startedAt: statement.start?.at ?? null,
      startSource:
        statement.start?.source ?? `${statement.label} states no effective time: the start is unknown.`,
    });
  }
  return medicines;
}

/**
 * Reads every source (searchset Bundles, arrays, single resources, null) into the review's input.
 * Active MedicationRequests (the `options.medicationStatuses`, default `active`) and active
 * MedicationStatements are the medicines, one entry per request and one per statement naming an
 * ingredient no request names; requests of any status in the data are followed as prior
 * prescriptions.
 */
export function readPatientReview(sources: readonly unknown[], options: ReadOptions): PatientReviewRead {
  const out: PatientReviewRead = {
    input: { medicines: [], readings: [], now: options.now },
    notes: [],
    notUsed: [],
  };
  const resources: Json[] = [];
  for (const source of sources) resources.push(...resourcesOf(source).resources);
  const requestsById = requestsByIdOf(resources);
  const sorted = sortResources(resources, options, out);
  if (!resources.some((r) => r.resourceType === "Patient"))
    out.notes.push(
      "No Patient resource was available: the age and sex are unknown, and rules that need them were not evaluated.",
    );
  const patient = withRecordedPregnancy(sorted.patient, sorted.statuses, out);
  out.input = {
    ...(Object.keys(patient).length > 0 ? { patient } : {}),
    medicines: reviewMedicines(sorted, requestsById),
    readings: sorted.readings,
    now: options.now,
  };
  return out;
}
