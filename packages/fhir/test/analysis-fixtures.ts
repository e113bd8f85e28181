import { CLINICAL_LEVELS, PATIENT_FINDING_KINDS, type PatientFinding } from "@svc/engines";
import { buildEngineIntelligence, ENGINE_REGISTRY } from "@svc/intelligence";
import fc from "fast-check";
import type { AnalysisAnswer } from "../src/index.js";

/**
 * Fixtures shared by the FHIR answer's tests and the CDS Hooks tests (which depend on @svc/fhir):
 * a medication analysis as the JSON door answers it, and arbitrary patient review findings.
 */

/**
 * The medication engine's answer for active prescriptions named `texts` (`rx_1`, `rx_2`, ...,
 * prescribed on 2026-10-20), with its intelligence block built as the JSON door builds it.
 */
export function medicationAnalysis(texts: readonly string[], now: Date) {
  const body = {
    prescriptions: texts.map((text, i) => ({
      id: `rx_${i + 1}`,
      medicationName: text,
      status: "active",
      prescribedAt: "2026-10-20",
    })),
    assessments: [],
  };
  const descriptor = ENGINE_REGISTRY.medication;
  // biome-ignore lint/suspicious/noExplicitAny: the registry's run is typed per engine
  const run = (descriptor.run as any)(body, { now });
  const intelligence = buildEngineIntelligence({
    engine: "medication",
    facts: run.facts,
    model: run.model,
    now,
    // biome-ignore lint/suspicious/noExplicitAny: as above
    codes: (descriptor.codes as any)(body, run),
    currentInputs: body,
  });
  const answer = {
    engine: "medication",
    data: { ...run.data, model: run.model, intelligence },
    request: body,
  } as AnalysisAnswer;
  return { body, run, intelligence, answer };
}

/** A patient review finding of any kind, level and assessment, its texts at most these lengths. */
export function patientFindingArb(maxLength: {
  title: number;
  detail: number;
  source: number;
}): fc.Arbitrary<PatientFinding> {
  const text = (max: number) => fc.string({ minLength: 1, maxLength: max }).filter((s) => s.trim() !== "");
  return fc.record({
    kind: fc.constantFrom(...PATIENT_FINDING_KINDS),
    rule: fc.stringMatching(/^[a-z_]{1,20}$/),
    level: fc.constantFrom(...CLINICAL_LEVELS),
    assessed: fc.boolean(),
    title: text(maxLength.title),
    detail: text(maxLength.detail),
    source: text(maxLength.source),
  });
}
