/**
 * An analysis answer (the `data` of one of the five analysis endpoints) as a FHIR R4 `collection`
 * Bundle: Observations for scores and signals, a RiskAssessment for relapse, DetectedIssues for
 * interactions among the active prescriptions, a GuidanceResponse saying whether the data were
 * sufficient, and a Provenance naming the engine and the model version it ran with. Pure: the
 * public base URL and the id minting are passed in. Field-to-element map: docs/fhir.md, "FHIR out".
 */
import type {
  Bundle,
  CodeableConcept,
  Coding,
  DataRequirement,
  DetectedIssue,
  Device,
  GuidanceResponse,
  Observation,
  ObservationComponent,
  Patient,
  Provenance,
  Reference,
  RiskAssessment,
} from "@medplum/fhirtypes";
import {
  type BiomarkerData,
  checkInteractions,
  type DmseData,
  type InteractionCheck,
  MAX_MEDICATIONS,
  type MedicationData,
  type ModelRef,
  type ModuleSignal,
  type OutcomeData,
  type Prescription,
  type RelapseData,
} from "@svc/engines";
import { ENGINE_REGISTRY, type EngineName, type IntelligenceBlock } from "@svc/intelligence";
import { codeSystemUrl, identifierSystem, STANDARD_SYSTEMS } from "./canonical.js";
import { ANALYSIS_CODES, inputCoding, ourCoding } from "./code-systems.js";
import { collection, compact, type Entry, entry, type NewId, notes, randomId, ref } from "./resources.js";

/** What every analysis `data` carries beside the engine's own fields. */
interface AnswerCommon {
  generatedAt: string;
  sessionRef?: string;
  model: ModelRef;
  intelligence: IntelligenceBlock;
}

/** One analysis answer: the engine, the response `data`, and the request fields the mapping reads. */
export type AnalysisAnswer =
  | { engine: "dmse"; data: AnswerCommon & DmseData; request?: AnalysisRequestFields }
  | { engine: "biomarker"; data: AnswerCommon & BiomarkerData; request?: AnalysisRequestFields }
  | { engine: "medication"; data: AnswerCommon & MedicationData; request?: AnalysisRequestFields }
  | { engine: "outcome"; data: AnswerCommon & OutcomeData; request?: AnalysisRequestFields }
  | { engine: "relapse"; data: AnswerCommon & RelapseData; request?: AnalysisRequestFields };

/** Request fields the mapping reads: the prescriptions (interactions and `implicated`). */
export interface AnalysisRequestFields {
  prescriptions?: readonly Prescription[];
  /** The other request fields, not read here. */
  [field: string]: unknown;
}

export interface OutboundOptions {
  /** The deployment's public base URL: our canonicals live under `<it>/fhir`. */
  publicBaseUrl: string;
  /** Mints the `urn:uuid` of each entry (random UUIDs by default). */
  newId?: NewId;
}

/** The RiskAssessment subject (1..1 in R4) when the request names no patient (decision 116). */
export const UNIDENTIFIED_SUBJECT: Reference<Patient> = {
  display: "Patient of the calling system (no patient identity is sent to this service)",
};

/** DetectedIssue.severity is required-bound to high | moderate | low; the engine uses the same three. */
export const DETECTED_ISSUE_SEVERITIES = ["high", "moderate", "low"] as const;

/** The FHIR resource type each request field is about, for `dataRequirement.type` (Observation otherwise). */
const INPUT_TYPES: Readonly<Record<string, string>> = {
  prescriptions: "MedicationRequest",
  hasActiveMedication: "MedicationRequest",
  daysSinceMedChange: "MedicationRequest",
  activeMedications: "MedicationRequest",
  daysSinceLastVisit: "Encounter",
};

/** A FHIR dateTime as the validator accepts it (engine timestamps and caller dates both pass). */
const FHIR_DATE_TIME =
  /^([0-9]{4})(-(0[1-9]|1[0-2])(-(0[1-9]|[12][0-9]|3[01])(T([01][0-9]|2[0-3]):[0-5][0-9]:([0-5][0-9]|60)(\.[0-9]+)?(Z|[+-]((0[0-9]|1[0-3]):[0-5][0-9]|14:00)))?)?)?$/;
const dateTimeOrUndefined = (value: string | null | undefined): string | undefined =>
  typeof value === "string" && FHIR_DATE_TIME.test(value) ? value : undefined;

interface Context {
  base: string;
  newId: NewId;
  answer: AnalysisAnswer;
}

const text = (coding: Coding, label?: string): CodeableConcept =>
  label === undefined ? { coding: [coding] } : { coding: [coding], text: label };

function observation(
  ctx: Context,
  code: CodeableConcept,
  rest: Omit<Observation, "resourceType" | "status" | "code">,
): Observation {
  return compact({
    resourceType: "Observation",
    status: "final",
    code,
    issued: ctx.answer.data.generatedAt,
    ...rest,
  }) as Observation;
}

const points = (value: number) => ({ value, unit: "points" });

// ---------------------------------------------------------------------------------------------
// Observations per engine

function dmseObservations(ctx: Context, data: DmseData): Entry<Observation>[] {
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

function moduleSignalObservation(
  ctx: Context,
  signal: ModuleSignal,
  code: string,
  prescriptions: readonly Prescription[],
): Entry<Observation> {
  const prescription = prescriptions.find((p) => p.id === signal.sourceRef);
  return entry(
    ctx.newId,
    observation(ctx, text(ourCoding(ctx.base, "analysis-observation", code), signal.label), {
      identifier: [{ value: signal.signalKey }],
      effectiveDateTime: dateTimeOrUndefined(signal.observedAt),
      valueQuantity: { value: signal.metricValue, unit: signal.metricUnit },
      interpretation: [{ text: signal.tone }],
      focus: prescription
        ? [
            {
              type: "MedicationRequest",
              identifier: { value: prescription.id },
              display: prescription.medicationName,
            },
          ]
        : undefined,
      note: notes(
        signal.summaryLine,
        signal.detail,
        `Confidence ${signal.confidence}; source ${signal.sourceRef}.`,
      ),
    }),
  );
}

function biomarkerObservations(ctx: Context, data: BiomarkerData): Entry<Observation>[] {
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
            interpretation: [{ text: finding.finding.replace(/_/g, " ") }],
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

function outcomeObservation(ctx: Context, data: OutcomeData): Entry<Observation> {
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

function relapseObservation(ctx: Context, data: RelapseData): Entry<Observation> {
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
function relapseRiskAssessment(
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
// Interactions among the active prescriptions (medication endpoint)

interface InteractionOutcome {
  issues: Entry<DetectedIssue>[];
  /** What a reader must know about the check's reach ("not recognised", "not run"), or none. */
  caveat?: string;
}

/** The active prescriptions checked with the engines' interaction tool (decision 119). */
function interactionIssues(ctx: Context, prescriptions: readonly Prescription[]): InteractionOutcome {
  const active = prescriptions.filter((p) => p.status.trim().toLowerCase() === "active");
  if (active.length < 2) return { issues: [] };
  if (active.length > MAX_MEDICATIONS) {
    return {
      issues: [],
      caveat: `Interaction check not run: ${active.length} active prescriptions, more than the ${MAX_MEDICATIONS} one check takes. No interaction result is given; this is not an all-clear.`,
    };
  }
  const check = checkInteractions(active.map((p) => p.medicationName));
  return {
    issues: check.interactions.map((i) => detectedIssue(ctx, i, active, check)),
    caveat: interactionCaveat(check),
  };
}

function interactionCaveat(check: InteractionCheck): string | undefined {
  if (check.complete) return undefined;
  return `Interaction check incomplete: ${check.warnings.join(" ")}`.trim();
}

function detectedIssue(
  ctx: Context,
  interaction: InteractionCheck["interactions"][number],
  active: readonly Prescription[],
  check: InteractionCheck,
): Entry<DetectedIssue> {
  const inputsOf = (ingredient: string) =>
    new Set(check.medications.filter((m) => m.ingredient === ingredient).map((m) => m.input));
  const involved = new Set([...inputsOf(interaction.a), ...inputsOf(interaction.b)]);
  const implicated: Reference[] = active
    .filter((p) => involved.has(p.medicationName.trim()))
    .map((p) => ({ type: "MedicationRequest", identifier: { value: p.id }, display: p.medicationName }));
  const resource: DetectedIssue = compact({
    resourceType: "DetectedIssue",
    identifier: [{ system: identifierSystem(ctx.base, "interaction-rule"), value: interaction.id }],
    status: "final",
    code: {
      coding: [{ system: STANDARD_SYSTEMS.v3ActCode, code: "DRG", display: "Drug Interaction Alert" }],
      text: `Drug interaction: ${interaction.a} + ${interaction.b}`,
    },
    severity: interaction.severity,
    identifiedDateTime: ctx.answer.data.generatedAt,
    implicated: implicated.length > 0 ? implicated : undefined,
    detail: `${interaction.mechanism} Source: ${interaction.source}`,
    mitigation: [{ action: { text: interaction.recommendation } }],
  }) as DetectedIssue;
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
function attachCodes(
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

// ---------------------------------------------------------------------------------------------
// GuidanceResponse and Provenance

/**
 * Whether the engine had too little data to answer: its status says `insufficient_data`, or (relapse)
 * no symptom-scale trajectory could be read, so a low score is not evidence of low risk.
 */
export function dataInsufficient(answer: AnalysisAnswer): boolean {
  if (answer.data.intelligence.summary.status === "insufficient_data") return true;
  if (answer.engine === "relapse")
    return !answer.data.factors.some((f) => f.key === "symptoms" && f.available);
  return false;
}

/** The request fields to send (again): missing, stale, or sent but not used; every input when none is named. */
function requiredInputs(intelligence: IntelligenceBlock): string[] {
  const named = new Set([
    ...intelligence.dataQuality.missingInputs,
    ...intelligence.dataQuality.freshness.staleInputs,
    ...intelligence.provenance.inputs.filter((i) => !i.contributed).map((i) => i.name),
  ]);
  return named.size > 0 ? [...named] : intelligence.provenance.inputs.map((i) => i.name);
}

function dataRequirements(ctx: Context): DataRequirement[] {
  return requiredInputs(ctx.answer.data.intelligence).map((field) => ({
    type: INPUT_TYPES[field] ?? "Observation",
    codeFilter: [{ path: "code", code: [inputCoding(ctx.base, field)] }],
  }));
}

/** The engine's own summary fields that no other resource carries. */
function engineNotes(answer: AnalysisAnswer): (string | undefined)[] {
  switch (answer.engine) {
    case "dmse":
      return [
        `${answer.data.signalsPresent} signal(s) present; overall confidence ${answer.data.overallConfidence}.`,
        ...answer.data.mseNarrative,
      ];
    case "medication":
    case "biomarker":
      return [`${answer.data.signalsPresent} signal(s) present.`];
    case "outcome":
    case "relapse":
      return [];
  }
}

function guidanceNotes(ctx: Context, caveat: string | undefined): GuidanceResponse["note"] {
  const { intelligence, disclaimer } = ctx.answer.data as AnswerCommon & { disclaimer: string };
  const { summary, confidence, dataQuality, change, reasoning } = intelligence;
  const { missingInputs, freshness } = dataQuality;
  return notes(
    summary.headline,
    summary.flagged.length > 0 ? `Flagged: ${summary.flagged.join("; ")}.` : undefined,
    `Status ${summary.status}; clinician review ${summary.requiresClinicianReview ? "required" : "not required"}.`,
    `Confidence ${confidence.level} (${confidence.score}): ${confidence.reasons.join(" ")}`,
    `Data completeness ${dataQuality.completeness}${missingInputs.length > 0 ? `; missing: ${missingInputs.join(", ")}` : ""}${freshness.staleInputs.length > 0 ? `; stale: ${freshness.staleInputs.join(", ")}` : ""}; newest input ${freshness.newestInputAt ?? "undated"}.`,
    ...engineNotes(ctx.answer),
    change
      ? `Change since previous (${change.previousComputedAt ?? "undated"}): ${change.direction}${change.delta === null ? "" : ` by ${change.delta}`}, ${change.previousStatus ?? "no status"} -> ${change.currentStatus}. ${change.explanations.join(" ")}`
      : undefined,
    reasoning
      ? `Reasoning (${reasoning.narrator ?? "template"}, ${reasoning.generatedAt}): ${reasoning.narrative}`
      : undefined,
    caveat,
    disclaimer,
  );
}

function guidanceResponse(
  ctx: Context,
  caveat: string | undefined,
  leftOver: Coding[],
): Entry<GuidanceResponse> {
  const insufficient = dataInsufficient(ctx.answer);
  const resource: GuidanceResponse = compact({
    resourceType: "GuidanceResponse",
    moduleCodeableConcept: text(ourCoding(ctx.base, "engine", ctx.answer.engine)),
    status: insufficient ? "data-required" : "success",
    occurrenceDateTime: ctx.answer.data.generatedAt,
    reasonCode: leftOver.length > 0 ? [{ coding: leftOver }] : undefined,
    note: guidanceNotes(ctx, caveat),
    dataRequirement: insufficient ? dataRequirements(ctx) : undefined,
  }) as GuidanceResponse;
  return entry(ctx.newId, resource);
}

/** The engine and the model version it ran with, as a Device contained in the Provenance. */
function engineDevice(ctx: Context): Device {
  const descriptor = ENGINE_REGISTRY[ctx.answer.engine as EngineName];
  const { model, intelligence } = ctx.answer.data;
  return {
    resourceType: "Device",
    id: "engine",
    identifier: [{ system: codeSystemUrl(ctx.base, "engine"), value: ctx.answer.engine }],
    deviceName: [
      { name: descriptor.label, type: "user-friendly-name" },
      { name: model.key, type: "model-name" },
    ],
    version: [
      {
        type: { text: model.source === "calibrated" ? "calibrated model version" : "shipped default model" },
        value: intelligence.provenance.engineVersion,
      },
    ],
  };
}

function provenance(ctx: Context, targets: Entry[]): Entry<Provenance> {
  const device = engineDevice(ctx);
  const resource: Provenance = {
    resourceType: "Provenance",
    contained: [device],
    target: targets.map((t) => ref(t)),
    recorded: ctx.answer.data.intelligence.provenance.generatedAt,
    activity: { text: ctx.answer.data.intelligence.provenance.method },
    agent: [
      {
        who: {
          reference: "#engine",
          display: `${ENGINE_REGISTRY[ctx.answer.engine].label}, model ${ctx.answer.data.model.key} ${ctx.answer.data.intelligence.provenance.engineVersion}`,
        },
      },
    ],
  };
  return entry(ctx.newId, resource);
}

// ---------------------------------------------------------------------------------------------
// The Bundle

interface EngineEntries {
  observations: Entry<Observation>[];
  /** Observations keyed by the `data` item they map ("signals.0"), for the engine's codes. */
  byItem: Map<string, Entry<Observation>>;
  others: Entry[];
  caveat?: string;
}

function keyed(list: string, items: Entry<Observation>[], offset = 0): [string, Entry<Observation>][] {
  return items.map((item, i) => [`${list}.${i - offset}`, item]);
}

function engineEntries(ctx: Context): EngineEntries {
  const { answer } = ctx;
  switch (answer.engine) {
    case "dmse": {
      const observations = dmseObservations(ctx, answer.data);
      return { observations, byItem: new Map(keyed("signals", observations)), others: [] };
    }
    case "biomarker": {
      const observations = biomarkerObservations(ctx, answer.data);
      const signals = observations.slice(0, answer.data.signals.length);
      const findings = observations.slice(answer.data.signals.length);
      return {
        observations,
        byItem: new Map([...keyed("signals", signals), ...keyed("valueFindings", findings)]),
        others: [],
      };
    }
    case "medication": {
      const prescriptions = answer.request?.prescriptions ?? [];
      const observations = answer.data.signals.map((s) =>
        moduleSignalObservation(ctx, s, ANALYSIS_CODES.medicationSignal, prescriptions),
      );
      const interactions = interactionIssues(ctx, prescriptions);
      return {
        observations,
        byItem: new Map(keyed("signals", observations)),
        others: interactions.issues,
        caveat: interactions.caveat,
      };
    }
    case "outcome": {
      const score = outcomeObservation(ctx, answer.data);
      return { observations: [score], byItem: new Map(), others: [] };
    }
    case "relapse": {
      const score = relapseObservation(ctx, answer.data);
      return {
        observations: [score],
        byItem: new Map(),
        others: [relapseRiskAssessment(ctx, answer.data, score)],
      };
    }
  }
}

/**
 * The analysis answer as a FHIR R4 `collection` Bundle (decision 116). Entries: the Observations,
 * then the RiskAssessment or DetectedIssues, the GuidanceResponse, and last the Provenance whose
 * targets are all of them. `sessionRef`, when sent, is the Bundle's identifier; no patient is named.
 */
export function analysisBundle(answer: AnalysisAnswer, options: OutboundOptions): Bundle {
  const ctx: Context = { base: options.publicBaseUrl, newId: options.newId ?? randomId, answer };
  const parts = engineEntries(ctx);
  const leftOver = attachCodes(ctx, parts.byItem, parts.observations[0]);
  const guidance = guidanceResponse(ctx, parts.caveat, leftOver);
  const targets: Entry[] = [...parts.observations, ...parts.others, guidance];
  const sessionRef = answer.data.sessionRef;
  return collection(
    [...targets, provenance(ctx, targets)],
    answer.data.generatedAt,
    sessionRef === undefined
      ? undefined
      : { system: identifierSystem(ctx.base, "session-ref"), value: sessionRef },
  );
}
