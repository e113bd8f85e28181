/**
 * FHIR sources (searchset Bundles, resource arrays, single resources, null) -> readings and
 * "not used" entries, and the readings -> engine inputs. One mapping for every caller (the CDS
 * Hooks services among them). Rules: docs/fhir.md, "FHIR in"; decision 112.
 */
import type { Assessment, BiomarkerInput, LabPanel, RelapseInput } from "@svc/engines";
import { ageInDays } from "@svc/engines";
import { readMedicationRequest } from "./medication-request.js";
import { readObservation } from "./observation.js";
import { isPatientFactObservation } from "./patient.js";
import { array, isObject, type Json, labelOf, notUsed, text } from "./read-common.js";
import type { FhirInbound, LabReading, NotUsed, ReadOptions } from "./types.js";

/**
 * How deep Bundles and arrays may nest in one source (the source itself is level 0): an array of
 * Bundles is 2 levels, a batch-response Bundle of searchset Bundles 2 as well. Anything deeper is
 * listed as not read, never walked (decision 150).
 */
export const MAX_SOURCE_NESTING = 4;

type Frame = { item: unknown; depth: number } | { nextPage: Json };

/**
 * The resources of a source, plus "not used" entries for what the source itself says: an
 * OperationOutcome (the server could not answer) and a Bundle with a `next` page that was not read.
 * A source may be a Bundle, an array of resources (or of Bundles), a single resource, or
 * null/undefined (no data). The walk is iterative (an explicit stack, in document order), so no
 * nesting can exhaust the call stack, and it stops at MAX_SOURCE_NESTING levels of Bundles and
 * arrays; its length is the number of entries, which the input screen bounds (decision 150).
 */
export function resourcesOf(source: unknown): { resources: Json[]; notUsed: NotUsed[] } {
  const resources: Json[] = [];
  const skipped: NotUsed[] = [];
  const stack: Frame[] = [{ item: source, depth: 0 }];
  // Children are pushed last-first, so they are read first-first, as a recursive walk would.
  const pushAll = (items: readonly unknown[], depth: number) => {
    for (let i = items.length - 1; i >= 0; i--) stack.push({ item: items[i], depth });
  };
  while (stack.length > 0) {
    const frame = stack.pop() as Frame;
    if ("nextPage" in frame) {
      skipped.push(
        notUsed(
          frame.nextPage,
          "incomplete",
          "The search result has further pages that were not read; the data may be partial.",
        ),
      );
      continue;
    }
    const { item, depth } = frame;
    if (item === null || item === undefined) continue;
    const container = Array.isArray(item) || (isObject(item) && item.resourceType === "Bundle");
    if (container && depth >= MAX_SOURCE_NESTING) {
      skipped.push(
        notUsed(
          item,
          "incomplete",
          `Bundles or lists nested more than ${MAX_SOURCE_NESTING} levels deep were not read.`,
        ),
      );
      continue;
    }
    if (Array.isArray(item)) {
      pushAll(item, depth + 1);
      continue;
    }
    if (!isObject(item)) {
      skipped.push(notUsed(item, "unsupported_resource", "An entry that is not a FHIR resource."));
      continue;
    }
    if (item.resourceType === "Bundle") {
      // The bundle's own note comes after its entries' notes.
      if (array(item.link).some((link) => isObject(link) && link.relation === "next"))
        stack.push({ nextPage: item });
      pushAll(
        array(item.entry).map((entry) => (isObject(entry) ? entry.resource : entry)),
        depth + 1,
      );
      continue;
    }
    if (item.resourceType === "OperationOutcome") {
      skipped.push(
        notUsed(item, "incomplete", "The EHR reported an error (OperationOutcome) instead of this data."),
      );
      continue;
    }
    resources.push(item);
  }
  return { resources, notUsed: skipped };
}

/** Same resource seen twice (two prefetch keys, two pages): read once. */
function dedupe(resources: readonly Json[]): Json[] {
  const seen = new Set<string>();
  return resources.filter((r) => {
    const id = text(r.id);
    if (id === null) return true;
    const key = `${String(r.resourceType)}/${id}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * Reads every Observation and MedicationRequest of the sources. A pregnancy-status Observation is
 * left to `readPatientReview` (patient.ts). Other resource types (Patient, Condition, ...) are
 * listed as not used. Nothing unreadable ever becomes a value.
 */
export function readFhirInputs(sources: readonly unknown[], options: ReadOptions): FhirInbound {
  const out: FhirInbound = { instruments: [], labs: [], medications: [], notUsed: [] };
  const all: Json[] = [];
  for (const source of sources) {
    const { resources, notUsed: skipped } = resourcesOf(source);
    all.push(...resources);
    out.notUsed.push(...skipped);
  }
  for (const resource of dedupe(all)) {
    // A pregnancy status is a patient fact, read by `readPatientReview`, not an engine input.
    if (isPatientFactObservation(resource)) continue;
    if (resource.resourceType === "Observation") {
      const read = readObservation(resource, options);
      if ("reason" in read) out.notUsed.push(read);
      else if (read.kind === "instrument") out.instruments.push(read);
      else out.labs.push(read);
    } else if (resource.resourceType === "MedicationRequest") {
      const read = readMedicationRequest(resource, options);
      if ("reason" in read) out.notUsed.push(read);
      else out.medications.push(read);
    } else {
      out.notUsed.push(
        notUsed(resource, "unsupported_resource", `${labelOf(resource)} is not a resource the engines read.`),
      );
    }
  }
  return out;
}

/** The instrument totals as the engines' assessments, oldest first. */
export function toAssessments(inbound: FhirInbound): Assessment[] {
  return inbound.instruments
    .map((r) => r.assessment)
    .sort((a, b) => Date.parse(a.createdAt) - Date.parse(b.createdAt));
}

const MAX_DAYS = 3650;

/**
 * The relapse engine's input. `medicationsKnown`: whether the patient's medication list was read
 * (a Bundle, even an empty one); when it was not (no data, or not fetched), `hasActiveMedication`
 * is left out so the engine treats it as unknown rather than as "off medication".
 * `daysSinceMedChange` is the age of the newest `authoredOn` of an active request (left out when
 * none is dated). Sleep is not read from FHIR: no sleep-duration code is verified (decision 112).
 */
export function toRelapseInput(inbound: FhirInbound, now: Date, medicationsKnown: boolean): RelapseInput {
  const input: RelapseInput = { assessments: toAssessments(inbound) };
  if (!medicationsKnown) return input;
  input.hasActiveMedication = inbound.medications.length > 0;
  const newest = Math.max(
    ...inbound.medications.flatMap((m) => (m.authoredOn === null ? [] : [Date.parse(m.authoredOn)])),
  );
  const days = ageInDays(Number.isFinite(newest) ? newest : null, now.getTime());
  if (days !== null) input.daysSinceMedChange = Math.min(MAX_DAYS, Math.floor(days));
  return input;
}

/** A reading as the biomarker engine's value: a censored result keeps its comparator ("<0.2"). */
function biomarkerValue(reading: LabReading): number | string {
  return reading.comparator === null ? reading.value : `${reading.comparator}${reading.value}`;
}

/**
 * The biomarker engine's input: one panel per Observation (the engine takes the newest reading of
 * each analyte), named by the analyte table's display and carrying the LOINC code and the flag
 * read from the interpretation.
 */
export function toBiomarkerInput(inbound: FhirInbound, displayOf: (key: string) => string): BiomarkerInput {
  const labs: LabPanel[] = inbound.labs.map((reading, index) => ({
    id: reading.resourceId ?? `observation-${index + 1}`,
    labName: "FHIR Observation",
    observedAt: reading.observedAt,
    results: {
      biomarkers: [
        {
          name: displayOf(reading.analyteKey),
          value: biomarkerValue(reading),
          ...(reading.unit === null ? {} : { unit: reading.unit }),
          loinc: reading.loinc,
          ...(reading.flag === null ? {} : { flag: reading.flag }),
        },
      ],
    },
  }));
  return { labs };
}

/** The texts of the medicines read, for the interaction checker. */
export function medicationTexts(inbound: FhirInbound): string[] {
  return inbound.medications.map((m) => m.text);
}
