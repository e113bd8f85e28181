/**
 * The patient record a CDS Hooks bench call carries, built from the knowledge model so the bench
 * holds no list of codes of its own: instrument totals by their verified LOINC codes, laboratory
 * results by each analyte's verified LOINC code and canonical UCUM unit (a value inside the range
 * the engine reads it against), medicines by their RxNorm ingredient code where one is verified,
 * else by name as text (as many EHRs send them).
 */
import {
  ANALYTES,
  type AnalyteEntry,
  chooseLoinc,
  INGREDIENTS,
  INSTRUMENTS,
  type InstrumentId,
} from "@svc/engines";

export const BENCH_PATIENT_ID = "bench-patient-1";

const LOINC = "http://loinc.org";
const UCUM = "http://unitsofmeasure.org";
const RXNORM = "http://www.nlm.nih.gov/research/umls/rxnorm";
const OBSERVATION_CATEGORY = "http://terminology.hl7.org/CodeSystem/observation-category";
const INTERPRETATION = "http://terminology.hl7.org/CodeSystem/v3-ObservationInterpretation";

/** A FHIR R4 resource as JSON (the bench only builds and sends them). */
export type FhirJson = { resourceType: string; id?: string } & Record<string, unknown>;

const DAY_MS = 86_400_000;
const dateDaysAgo = (now: Date, days: number) => new Date(now.getTime() - days * DAY_MS).toISOString();

function category(code: "survey" | "laboratory") {
  return [{ coding: [{ system: OBSERVATION_CATEGORY, code }] }];
}

/** A final instrument total (PHQ-9, GAD-7, ...) coded with the instrument's verified LOINC code. */
function scoreObservation(id: string, instrument: InstrumentId, score: number, when: string): FhirJson {
  const loinc = INSTRUMENTS[instrument].loinc?.total;
  if (!loinc) throw new Error(`${instrument} has no verified LOINC total code`);
  return {
    resourceType: "Observation",
    id,
    status: "final",
    category: category("survey"),
    code: { coding: [{ system: LOINC, code: loinc.code, display: loinc.display }], text: loinc.display },
    subject: { reference: `Patient/${BENCH_PATIENT_ID}` },
    effectiveDateTime: when,
    valueQuantity: { value: score, system: UCUM, code: "{score}", unit: "{score}" },
  };
}

/** The range the engine reads the analyte against (its first therapeutic range, or its reference range), when two-sided. */
function readingRange(entry: AnalyteEntry): { low: number; high: number } | null {
  const measure = entry.measure;
  const range = measure?.rangeKind === "therapeutic" ? measure.therapeutic?.[0] : measure?.reference;
  if (!range || range.low === null || range.high === null) return null;
  return { low: range.low, high: range.high };
}

/** A value inside that range. */
function inRangeValue(entry: AnalyteEntry): number | null {
  const range = readingRange(entry);
  return range ? Math.round(((range.low + range.high) / 2) * 100) / 100 : null;
}

/** A final laboratory result in the analyte's canonical unit with the LOINC code that unit implies. */
function labObservation(
  id: string,
  entry: AnalyteEntry,
  value: number,
  when: string,
  /** The laboratory's flag (v3 ObservationInterpretation "H": above the range). */
  flaggedHigh = false,
): FhirJson | null {
  const unit = entry.measure?.canonicalUnit;
  const loinc = chooseLoinc(entry, unit);
  if (!unit || !loinc) return null;
  return {
    resourceType: "Observation",
    id,
    status: "final",
    category: category("laboratory"),
    code: { coding: [{ system: LOINC, code: loinc.code, display: loinc.display }], text: loinc.display },
    subject: { reference: `Patient/${BENCH_PATIENT_ID}` },
    effectiveDateTime: when,
    issued: when,
    valueQuantity: { value, unit, system: UCUM, code: unit },
    ...(flaggedHigh ? { interpretation: [{ coding: [{ system: INTERPRETATION, code: "H" }] }] } : {}),
  };
}

/** A MedicationRequest for an ingredient of the knowledge model: its RxNorm code when verified, else its name as text. */
function medicationRequest(
  id: string,
  ingredient: string,
  status: "active" | "draft",
  authoredOn: string,
): FhirJson {
  const known = INGREDIENTS.find((entry) => entry.ingredient === ingredient);
  if (!known) throw new Error(`${ingredient} is not in the knowledge model`);
  return {
    resourceType: "MedicationRequest",
    id,
    status,
    intent: "order",
    medicationCodeableConcept: known.rxcui
      ? { coding: [{ system: RXNORM, code: known.rxcui, display: ingredient }], text: ingredient }
      : { text: ingredient },
    subject: { reference: `Patient/${BENCH_PATIENT_ID}` },
    authoredOn: authoredOn.slice(0, 10),
  };
}

export function searchset(resources: FhirJson[]): FhirJson {
  return {
    resourceType: "Bundle",
    type: "searchset",
    total: resources.length,
    entry: resources.map((resource) => ({
      fullUrl: `https://ehr.bench.test/fhir/${resource.resourceType}/${resource.id}`,
      resource,
      search: { mode: "match" },
    })),
  };
}

/**
 * Ten instrument totals over ten months, PHQ-9 and GAD-7 alternately: anxiety steady and mild,
 * depression rising over the last three (so the relapse engine has something to say).
 */
export function benchScores(now: Date): FhirJson[] {
  const totals = [6, 6, 7, 7, 6, 6, 10, 8, 14, 7];
  return totals.map((score, i) =>
    scoreObservation(`score-${i}`, i % 2 ? "gad7" : "phq9", score, dateDaysAgo(now, 300 - i * 30)),
  );
}

/**
 * Twenty laboratory results: five lithium levels (the patient is on lithium), the newest a little
 * above the range, and one result each of the first fifteen other analytes that have a verified
 * LOINC code for their canonical unit and a two-sided range, inside that range.
 */
export function benchLabs(now: Date): FhirJson[] {
  const labs: FhirJson[] = [];
  const lithium = ANALYTES.find((entry) => entry.key === "lithium");
  const range = lithium ? readingRange(lithium) : null;
  const lithiumValue = lithium ? inRangeValue(lithium) : null;
  if (!lithium || !range || lithiumValue === null)
    throw new Error("lithium has no therapeutic range in the knowledge model");
  // The newest level a little above the range and flagged by the laboratory (a laboratory card),
  // the four before it inside the range.
  for (let i = 0; i < 5; i++) {
    const value = i === 0 ? Math.round((range.high + 0.1) * 100) / 100 : lithiumValue;
    const observation = labObservation(
      `lab-lithium-${i}`,
      lithium,
      value,
      dateDaysAgo(now, 5 + i * 45),
      i === 0,
    );
    if (observation) labs.push(observation);
  }
  for (const entry of ANALYTES) {
    if (labs.length >= 20) break;
    if (entry.key === "lithium") continue;
    const value = inRangeValue(entry);
    const observation =
      value === null
        ? null
        : labObservation(`lab-${entry.key}`, entry, value, dateDaysAgo(now, 5 + labs.length));
    if (observation) labs.push(observation);
  }
  return labs;
}

/** Active medicines of a patient on lithium (five for patient-view; ten for order-sign). */
const ACTIVE = [
  "lithium",
  "sertraline",
  "quetiapine",
  "lamotrigine",
  "metformin",
  "omeprazole",
  "ramipril",
  "mirtazapine",
  "zopiclone",
  "metoprolol",
];

export function benchActiveMedications(now: Date, count: number): FhirJson[] {
  return ACTIVE.slice(0, count).map((ingredient, i) =>
    medicationRequest(`active-${ingredient}`, ingredient, "active", dateDaysAgo(now, 90 + i * 20)),
  );
}

/** Two draft orders being signed: an NSAID and an opioid, each of which meets one of the active medicines. */
export function benchDraftOrders(now: Date): FhirJson {
  return {
    resourceType: "Bundle",
    type: "collection",
    entry: [
      { resource: medicationRequest("draft-ibuprofen", "ibuprofen", "draft", dateDaysAgo(now, 0)) },
      { resource: medicationRequest("draft-tramadol", "tramadol", "draft", dateDaysAgo(now, 0)) },
    ],
  };
}
