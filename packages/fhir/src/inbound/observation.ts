/**
 * One Observation -> an instrument total score, a laboratory reading, or a named "not used"
 * entry. Codes come from the knowledge model only: instrument totals from `INSTRUMENTS[id].loinc`
 * and analytes from the analyte table (`findAnalyteByLoinc`), units from the analyte's accepted
 * units (`resolveUnit`). Rules: docs/fhir.md, "FHIR in"; decision 112.
 */
import {
  type AnalyteEntry,
  findAnalyteByLoinc,
  INSTRUMENTS,
  type InstrumentId,
  type InstrumentKnowledge,
  isPublishedTotal,
  resolveUnit,
} from "@svc/engines";
import {
  array,
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
  UCUM,
  V3_INTERPRETATION,
} from "./read-common.js";
import type { InstrumentReading, LabFlag, LabReading, NotUsed, ReadOptions } from "./types.js";

/** Observation statuses whose value counts (R4 ObservationStatus). */
export const COUNTED_OBSERVATION_STATUSES: readonly string[] = ["final", "amended", "corrected"];

/** Instrument by the LOINC code of its total score, from the instrument table. */
const INSTRUMENT_BY_TOTAL_LOINC: ReadonlyMap<string, InstrumentKnowledge> = new Map(
  (Object.values(INSTRUMENTS) as InstrumentKnowledge[]).flatMap((k) =>
    k.loinc ? [[k.loinc.total.code, k] as const] : [],
  ),
);

/** Every instrument total LOINC code the model knows, with its instrument id. */
export function instrumentTotalLoincCodes(): { code: string; instrumentId: InstrumentId }[] {
  return [...INSTRUMENT_BY_TOTAL_LOINC.entries()].map(([code, k]) => ({ code, instrumentId: k.id }));
}

/**
 * Units a symptom-scale total may carry: none, or the UCUM annotation `{score}` (any case), or
 * the UCUM unity `1`. Anything else is not a score.
 */
function isScoreUnit(quantity: Json): boolean {
  const system = text(quantity.system);
  if (system !== null && system !== UCUM) return false;
  const unit = text(quantity.code) ?? text(quantity.unit);
  return unit === null || unit.toLowerCase() === "{score}" || unit === "1";
}

/**
 * v3 ObservationInterpretation -> the engines' flag (codes and meanings: docs/fhir.md, "FHIR in").
 * H high, L low, HH (critical high), LL (critical low) and AA (critical abnormal) critical, N
 * normal; A (abnormal, no direction) and every other code give no flag, and the value is read
 * against the analyte table alone. Several codes: a critical one wins; otherwise they must agree,
 * or no flag is read.
 */
const INTERPRETATION: Readonly<Record<string, LabFlag>> = {
  H: "high",
  L: "low",
  HH: "critical",
  LL: "critical",
  AA: "critical",
  N: "normal",
};

export function interpretationFlag(interpretation: unknown): LabFlag | null {
  const flags = array(interpretation).flatMap((concept) =>
    codingsOf(concept, V3_INTERPRETATION).flatMap((c) => {
      const flag = INTERPRETATION[c.code];
      return flag === undefined ? [] : [flag];
    }),
  );
  if (flags.includes("critical")) return "critical";
  const distinct = [...new Set(flags)];
  return distinct.length === 1 ? (distinct[0] ?? null) : null;
}

/**
 * The effective time: effectiveDateTime, effectiveInstant, else the end of effectivePeriod (its
 * start when it has no end). `issued` (when the result was released) is never used as the time
 * of observation.
 */
export function effectiveTime(resource: Json): { ms: number; iso: string } | null {
  const period = isObject(resource.effectivePeriod) ? resource.effectivePeriod : {};
  for (const value of [resource.effectiveDateTime, resource.effectiveInstant, period.end, period.start]) {
    if (value === undefined) continue;
    const ms = fhirTime(value);
    return ms === null ? null : { ms, iso: new Date(ms).toISOString() };
  }
  return null;
}

interface Checked {
  resource: Json;
  label: string;
  time: { ms: number; iso: string };
}

/** Status, subject and time checks every Observation passes before its code is read. */
function checkObservation(resource: unknown, options: ReadOptions): Checked | NotUsed {
  if (!isObject(resource) || resource.resourceType !== "Observation")
    return notUsed(resource, "unsupported_resource", "Not an Observation.");
  const label = labelOf(resource);
  const status = text(resource.status);
  if (status === null || !COUNTED_OBSERVATION_STATUSES.includes(status))
    return notUsed(
      resource,
      "wrong_status",
      `${label} has status ${status ?? "(none)"}; only final, amended and corrected results are read.`,
    );
  if (isOtherPatient(resource.subject, options.patientId))
    return notUsed(resource, "other_patient", `${label} belongs to another patient than the one in context.`);
  const time = effectiveTime(resource);
  if (time === null)
    return notUsed(resource, "no_date", `${label} has no readable effective time, so its age is unknown.`);
  if (time.ms > options.now.getTime() + FUTURE_TOLERANCE_MS)
    return notUsed(resource, "no_date", `${label} is dated in the future (${time.iso}).`);
  return { resource, label, time };
}

function readInstrument(c: Checked, k: InstrumentKnowledge, code: string): InstrumentReading | NotUsed {
  const { resource, label } = c;
  let score: number | null = null;
  if (typeof resource.valueInteger === "number") score = resource.valueInteger;
  else if (isObject(resource.valueQuantity)) {
    if (!isScoreUnit(resource.valueQuantity))
      return notUsed(
        resource,
        "unknown_unit",
        `${label} (${k.display} total) has a unit that is not a score ("{score}" or none).`,
      );
    if (resource.valueQuantity.comparator !== undefined)
      return notUsed(
        resource,
        "invalid_value",
        `${label} (${k.display} total) is a censored value, not a score.`,
      );
    score = typeof resource.valueQuantity.value === "number" ? resource.valueQuantity.value : null;
  }
  if (score === null || !Number.isFinite(score))
    return notUsed(resource, "no_value", `${label} (${k.display} total) has no numeric value.`);
  if (!isPublishedTotal(k.id, score, k.totalMax))
    return notUsed(
      resource,
      "invalid_value",
      `${label}: ${score} is not a ${k.display} total (${k.totalMin}-${k.totalMax}${k.wholeNumberTotals ? ", whole numbers" : ""}).`,
    );
  return {
    kind: "instrument",
    resourceId: text(resource.id),
    loinc: code,
    assessment: {
      instrumentId: k.id,
      instrumentName: k.display,
      score,
      maxScore: k.totalMax,
      createdAt: c.time.iso,
    },
  };
}

/**
 * A questionnaire panel (for example the PHQ-9 panel 44249-1) that carries its total score as a
 * component coded with the instrument's total LOINC: read as that total, with the panel's status,
 * subject and time. Only instrument totals are read from components.
 */
function totalInComponent(c: Checked): InstrumentReading | NotUsed | null {
  for (const component of array(c.resource.component)) {
    if (!isObject(component)) continue;
    for (const { code } of codingsOf(component.code, LOINC)) {
      const instrument = INSTRUMENT_BY_TOTAL_LOINC.get(code);
      if (instrument === undefined) continue;
      const { valueInteger, valueQuantity } = component;
      const resource = { ...c.resource, valueInteger, valueQuantity };
      return readInstrument({ ...c, resource }, instrument, code);
    }
  }
  return null;
}

const COMPARATORS = new Set(["<", "<=", ">=", ">"]);

function readLab(c: Checked, entry: AnalyteEntry, code: string): LabReading | NotUsed {
  const { resource, label } = c;
  const quantity = resource.valueQuantity;
  if (!isObject(quantity) || typeof quantity.value !== "number" || !Number.isFinite(quantity.value))
    return notUsed(resource, "no_value", `${label} (${entry.display}) has no numeric valueQuantity.`);
  const system = text(quantity.system);
  if (system !== null && system !== UCUM)
    return notUsed(
      resource,
      "unknown_unit",
      `${label} (${entry.display}) gives its unit in ${system}, not UCUM.`,
    );
  const given = text(quantity.code) ?? text(quantity.unit) ?? undefined;
  const unit = resolveUnit(entry, given);
  // No unit at all (neither code nor unit): the value goes to the one judgement, which reads it
  // by the unit-less rule or refuses it as ambiguous (decision 180), as every other door does.
  // A unit that is given but not accepted stays unread here.
  if (unit.kind !== "resolved" && unit.kind !== "missing")
    return notUsed(resource, "unknown_unit", `${label}: ${unit.reason}; the value was not read.`);
  const comparator = quantity.comparator;
  if (comparator !== undefined && (typeof comparator !== "string" || !COMPARATORS.has(comparator)))
    return notUsed(resource, "invalid_value", `${label} (${entry.display}) has an unknown comparator.`);
  return {
    kind: "lab",
    resourceId: text(resource.id),
    loinc: code,
    analyteKey: entry.key,
    value: quantity.value,
    comparator: (comparator as LabReading["comparator"] | undefined) ?? null,
    unit: unit.kind === "resolved" ? unit.unit.ucum : null,
    flag: interpretationFlag(resource.interpretation),
    observedAt: c.time.iso,
  };
}

/**
 * Reads one Observation. Only `final`, `amended` and `corrected` count; the code is the first
 * LOINC coding that is an instrument total or a known analyte; a value is read only in an accepted
 * unit, or without any unit (then judged by the unit-less rule, decision 180). Anything else is a NotUsed entry naming the reason.
 */
export function readObservation(
  resource: unknown,
  options: ReadOptions,
): InstrumentReading | LabReading | NotUsed {
  const checked = checkObservation(resource, options);
  if ("reason" in checked) return checked;
  const codes = codingsOf(checked.resource.code, LOINC).map((c) => c.code);
  for (const code of codes) {
    const instrument = INSTRUMENT_BY_TOTAL_LOINC.get(code);
    if (instrument) return readInstrument(checked, instrument, code);
    const analyte = findAnalyteByLoinc(code);
    if (analyte) return readLab(checked, analyte, code);
  }
  const fromComponent = totalInComponent(checked);
  if (fromComponent !== null) return fromComponent;
  return notUsed(
    checked.resource,
    "unknown_code",
    codes.length === 0
      ? `${checked.label} has no LOINC code.`
      : `${checked.label} has LOINC ${codes.join(", ")}, which is not an instrument total or analyte the service knows.`,
  );
}
