/** The Observations (and the relapse RiskAssessment) of each engine's answer, and where the engine's codes go. */
import type { Coding, Observation, ObservationComponent, RiskAssessment } from "@medplum/fhirtypes";
import type {
  BiomarkerData,
  DmseData,
  ModuleSignal,
  OutcomeData,
  Prescription,
  RelapseData,
} from "@svc/engines";
import {
  type Context,
  dateTimeOrUndefined,
  observation,
  points,
  prescriptionReference,
  text,
  UNIDENTIFIED_SUBJECT,
} from "./analysis-common.js";
import { ANALYSIS_CODES, ourCoding } from "./code-systems.js";
import { type Entry, entry, notes, ref } from "./resources.js";

// ---------------------------------------------------------------------------------------------
// Observations per engine

export function dmseObservations(ctx: Context, data: DmseData): Entry<Observation>[] {
  return data.signals.map((signal) =>
    entry(
      ctx.newId,
      observation(
        ctx,
        text(
          ourCoding(ctx.base, "analysis-observation", ANALYSIS_CODES.dmseSignal(signal.signalKey)),
          signal.label,
        ),
        {
          effectiveDateTime: ctx.answer.data.generatedAt,
          valueQuantity: { value: signal.metricValue, unit: signal.metricUnit },
          interpretation: [text(ourCoding(ctx.base, "dmse-interpretation", signal.interpretation))],
          referenceRange: [{ text: signal.referenceRange }],
          note: notes(
            signal.detail,
            signal.mseLine,
            `Signal present: ${signal.present ? "yes" : "no"}; confidence ${signal.confidence}${signal.trendDir ? `; trend ${signal.trendDir}` : ""}.`,
            signal.baseline
              ? `Baseline mean ${signal.baseline.mean}, SD ${signal.baseline.sd}, n ${signal.baseline.n}.`
              : undefined,
          ),
        },
      ),
    ),
  );
}

export function moduleSignalObservation(
  ctx: Context,
  signal: ModuleSignal,
  code: string,
  prescriptions: readonly Prescription[],
): Entry<Observation> {
  const prescription = prescriptions.find((p) => p.id === signal.sourceRef);
  const focus = prescription ? prescriptionReference(prescription) : undefined;
  return entry(
    ctx.newId,
    observation(ctx, text(ourCoding(ctx.base, "analysis-observation", code), signal.label), {
      identifier: [{ value: signal.signalKey }],
      effectiveDateTime: dateTimeOrUndefined(signal.observedAt),
      valueQuantity: { value: signal.metricValue, unit: signal.metricUnit },
      interpretation: [{ text: signal.tone }],
      focus: focus ? [focus] : undefined,
      note: notes(
        signal.summaryLine,
        signal.detail,
        `Confidence ${signal.confidence}; source ${signal.sourceRef}.`,
      ),
    }),
  );
}

export function biomarkerObservations(ctx: Context, data: BiomarkerData): Entry<Observation>[] {
  return [
    ...data.signals.map((s) => moduleSignalObservation(ctx, s, ANALYSIS_CODES.biomarkerSignal, [])),
    ...data.valueFindings.map((finding) =>
      entry(
        ctx.newId,
        observation(
          ctx,
          text(
            ourCoding(ctx.base, "analysis-observation", ANALYSIS_CODES.biomarkerValueFinding),
            finding.analyte,
          ),
          {
            effectiveDateTime: dateTimeOrUndefined(finding.observedAt),
            // The finding, and its one clinical level (decision 182) as every door reads it.
            interpretation: [
              { text: finding.finding.replace(/_/g, " ") },
              ...(finding.level === undefined ? [] : [{ text: `clinical level ${finding.level}` }]),
            ],
            note: notes(
              finding.detail,
              `Panel ${finding.panelId}; ${finding.current ? "current" : "earlier"} reading; laboratory flag ${finding.labFlag ?? "none"}.`,
            ),
          },
        ),
      ),
    ),
  ];
}

function scoreComponent(
  ctx: Context,
  code: string,
  label: string,
  available: boolean,
  value: number,
  detail: string,
): ObservationComponent {
  return available
    ? { code: text(ourCoding(ctx.base, "analysis-observation", code), label), valueQuantity: points(value) }
    : {
        code: text(ourCoding(ctx.base, "analysis-observation", code), label),
        // No value: an unavailable component is insufficient data, never a zero.
        dataAbsentReason: { text: `insufficient data: ${detail}` },
      };
}

export function outcomeObservation(ctx: Context, data: OutcomeData): Entry<Observation> {
  return entry(
    ctx.newId,
    observation(ctx, text(ourCoding(ctx.base, "analysis-observation", ANALYSIS_CODES.outcomeScore)), {
      effectiveDateTime: data.generatedAt,
      valueQuantity: points(data.score),
      interpretation: [{ text: data.direction.replace(/_/g, " ") }],
      component: data.components.map((c) =>
        scoreComponent(
          ctx,
          ANALYSIS_CODES.outcomeComponent(c.key),
          c.label,
          c.available,
          c.contribution,
          c.detail,
        ),
      ),
      note: notes(
        data.summaryLine,
        `Confidence ${data.confidence}; ${data.sourceCount} source(s).`,
        data.disclaimer,
      ),
    }),
  );
}

export function relapseObservation(ctx: Context, data: RelapseData): Entry<Observation> {
  return entry(
    ctx.newId,
    observation(ctx, text(ourCoding(ctx.base, "analysis-observation", ANALYSIS_CODES.relapseScore)), {
      effectiveDateTime: data.generatedAt,
      valueQuantity: points(data.score),
      interpretation: [text(ourCoding(ctx.base, "relapse-level", data.level))],
      component: data.factors.map((f) =>
        scoreComponent(
          ctx,
          ANALYSIS_CODES.relapseFactor(f.key),
          `${f.label} (of ${f.maxPoints} points)`,
          f.available,
          f.points,
          f.detail,
        ),
      ),
      note: notes(
        ...data.factors.map((f) => `${f.label}: ${f.detail}`),
        `Trend ${data.trend}; top driver ${data.topDriver}; confidence ${data.confidence}; ${data.sourceCount} source(s).`,
      ),
    }),
  );
}

/**
 * The relapse level as a RiskAssessment: `qualitativeRisk` with our level codes, `basis` the score
 * Observation. The 0-100 score is points, not a probability: `prediction.probability[x]` is never
 * written (R4's ras-2 would accept 0-100 there and a reader would take it for a probability).
 */
export function relapseRiskAssessment(
  ctx: Context,
  data: RelapseData,
  score: Entry<Observation>,
): Entry<RiskAssessment> {
  const resource: RiskAssessment = {
    resourceType: "RiskAssessment",
    status: "final",
    subject: UNIDENTIFIED_SUBJECT,
    occurrenceDateTime: data.generatedAt,
    method: text(ourCoding(ctx.base, "engine", "relapse")),
    basis: [ref(score)],
    prediction: [
      {
        outcome: text(ourCoding(ctx.base, "analysis-observation", ANALYSIS_CODES.relapseRisk)),
        qualitativeRisk: text(ourCoding(ctx.base, "relapse-level", data.level)),
        rationale: data.summaryLine,
      },
    ],
    mitigation: data.recommendation,
    note: notes(data.disclaimer),
  };
  return entry(ctx.newId, resource);
}

// ---------------------------------------------------------------------------------------------
// Codes the engine attached, unmapped concepts

/** The observation a `mapsTo` pointer ("signals.0", "components.2") belongs to: the item's, else the first. */
function observationFor(
  pointer: string,
  byItem: Map<string, Entry<Observation>>,
  first?: Entry<Observation>,
) {
  const [list, index] = pointer.split(".");
  return byItem.get(`${list}.${index}`) ?? first;
}

/** Adds each engine code as a `coded-concept` component of its observation; returns the ones left over. */
export function attachCodes(
  ctx: Context,
  byItem: Map<string, Entry<Observation>>,
  first: Entry<Observation> | undefined,
): Coding[] {
  const leftOver: Coding[] = [];
  const { codes, unmapped } = ctx.answer.data.intelligence;
  for (const code of codes) {
    const target = observationFor(code.mapsTo, byItem, first);
    const coding: Coding = { system: code.system, code: code.code, display: code.display };
    if (!target) {
      leftOver.push(coding);
      continue;
    }
    const component: ObservationComponent = {
      code: text(ourCoding(ctx.base, "analysis-observation", ANALYSIS_CODES.codedConcept)),
      valueCodeableConcept: { coding: [coding] },
    };
    target.resource.component = [...(target.resource.component ?? []), component];
  }
  for (const concept of unmapped ?? []) {
    const target = observationFor(concept.mapsTo, byItem, first);
    if (target)
      target.resource.note = [
        ...(target.resource.note ?? []),
        { text: `Unmapped: ${concept.concept}. ${concept.reason}` },
      ];
  }
  return leftOver;
}
