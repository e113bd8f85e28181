import { type EngineFacts, INSTRUMENTS, type InstrumentId, recogniseInstrument } from "@svc/engines";
import { LOINC_SYSTEM, matchIngredients, RXNORM_SYSTEM } from "./terminology.js";
import { CODE_SYSTEMS, type TerminologyCode, type UnmappedConcept } from "./types.js";

/**
 * Terminology codes for engine output. Codes are additive metadata: they never change a score,
 * and a concept without a verified code (docs/terminology.md) gets no entry.
 */

const KNOWN_SYSTEMS = new Set<string>(Object.values(CODE_SYSTEMS));

/** Codes an engine resolved itself (e.g. LOINC from the biomarker map), kept if the system is canonical. */
export function engineCodes(facts: EngineFacts): TerminologyCode[] {
  return (facts.codes ?? []).filter((c): c is TerminologyCode => KNOWN_SYSTEMS.has(c.system));
}

/**
 * RxNorm ingredients of each medication signal whose prescription names verified ingredients:
 * one code per verified ingredient, so a combination product is coded as each of them, never as
 * its first alone.
 */
export function medicationCodes(
  signals: readonly { sourceRef: string }[],
  prescriptions: readonly { id: string; medicationName: string }[],
): TerminologyCode[] {
  const byId = new Map(prescriptions.map((p) => [p.id, p.medicationName]));
  const codes: TerminologyCode[] = [];
  signals.forEach((signal, i) => {
    const name = byId.get(signal.sourceRef);
    for (const ingredient of name === undefined ? [] : matchIngredients(name)) {
      codes.push({
        system: RXNORM_SYSTEM,
        code: ingredient.code,
        display: ingredient.display,
        mapsTo: `signals.${i}`,
      });
    }
  });
  return codes;
}

/** The instrument recognised from an assessment's id or name, as the engines recognise them. */
export const recogniseInstrumentCode = recogniseInstrument;

/**
 * LOINC total-score codes (verified ones only, from the engines' instrument table) of the
 * instruments among the assessments, pointing at `mapsTo` (the part of the response that the
 * symptom scores feed). Instruments without a verified code get no entry.
 */
export function instrumentCodes(
  assessments: readonly { instrumentId: string; instrumentName: string }[],
  mapsTo: string,
): TerminologyCode[] {
  const seen = new Set<InstrumentId>();
  const coded = Object.values(INSTRUMENTS).filter((k) => k.loinc !== undefined).length;
  for (const a of assessments) {
    const key = recogniseInstrumentCode(a.instrumentId, a.instrumentName);
    if (key && INSTRUMENTS[key].loinc) seen.add(key);
    if (seen.size === coded) break;
  }
  return [...seen].sort().flatMap((key) => {
    const loinc = INSTRUMENTS[key].loinc;
    return loinc
      ? [{ system: LOINC_SYSTEM, code: loinc.total.code, display: loinc.total.display, mapsTo }]
      : [];
  });
}

/**
 * The dmse signals outside the range used here (subclinical or clinical attention), each stated
 * as unmapped: no SNOMED CT concept for a device measurement of response latency, fidgeting,
 * speech rate or gaze share was verified in a public source, so `codes` carries none of them
 * (decision 19) and this says so rather than leaving an empty list to be read as "nothing to
 * code" (decision 91).
 */
export function dmseUnmapped(
  signals: readonly { label: string; present: boolean; interpretation: string }[],
): UnmappedConcept[] {
  const unmapped: UnmappedConcept[] = [];
  signals.forEach((signal, i) => {
    if (!signal.present || signal.interpretation === "within_normal") return;
    unmapped.push({
      concept: signal.label,
      mapsTo: `signals.${i}`,
      reason:
        "SNOMED CT: no concept for this device measurement was verified in a public source, so no code is given.",
    });
  });
  return unmapped;
}
