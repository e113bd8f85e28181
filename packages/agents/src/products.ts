/**
 * Decisions this module follows (docs/decisions.md): 65, units before values; 66, clozapine
 * neutrophil categories; 76, safety-critical relapse signals call for review by themselves; 78,
 * combination rules in the relapse signal model; 198, the JSON answers, the agents and MCP carry
 * the patient review by one rule.
 */
import {
  type AgentRisk,
  BIOMARKER_MAP,
  COMBINATION_PRODUCTS,
  findRelapseIndicator,
  getInstruments,
  getPanels,
  getSignalModel,
  INGREDIENTS,
  type InstrumentScoring,
  type InteractionCheck,
  type PanelEvaluation,
  type RelapseSignalScore,
} from "@svc/engines";
import type { ChatTool } from "@svc/model";
import type { RecordAgentProduct } from "./envelope.js";
import type { GroundedEntity } from "./grounding.js";
import type { PatientContextInput, ReviewPatientToolInput } from "./patient-tools.js";
import {
  checkInteractionsTool,
  evaluatePanelTool,
  getInstrumentsTool,
  getPanelsTool,
  getSignalModelTool,
  scoreInstrumentsTool,
  scoreRelapseTool,
} from "./record-tools.js";

/**
 * What differs between the four record-level agents: their tools, the tool that assesses the
 * caller's data, how its output becomes the contract's `assessment`, what an observation may
 * name, and how the template narrator states the result. Everything else (the loop, grounding,
 * the envelope) is shared in record-agent.ts.
 */

/** One observation of an assessment: the engine's own note, or a grounded note of the model's. */
export interface AssessmentObservation {
  note: string;
  source: "engine" | "model";
}

/** What a product makes of its assessing tool's output. */
export interface GroundedAssessment<Assessment> {
  /** Null when nothing in the input could be recognised (nothing to ground). */
  assessment: Assessment | null;
  risk: AgentRisk;
  warnings: string[];
  /** False when part of the input was not recognised, so the assessment covers only the rest. */
  complete: boolean;
  /** What observations and citations may rest on. */
  entities: GroundedEntity[];
  /** Sentences of the template narrative, from engine output alone. */
  summary: string[];
}

export interface RecordAgentDefinition<Body, Output, Assessment> {
  product: RecordAgentProduct;
  /** The deterministic plan, in order; the last tool assesses the caller's data. */
  plan: readonly ChatTool[];
  assessingTool: ChatTool;
  /** The assessing tool's input for the request body (the same field names). */
  toolInput(body: Body): unknown;
  ground(output: Output): GroundedAssessment<Assessment>;
  /** Adds the model's grounded observations to the assessment (where the contract has them). */
  withObservations(
    assessment: Assessment,
    observations: { entity: GroundedEntity; note: string }[],
  ): Assessment;
  /** Every entity name the tools know, for screening the model's narrative. */
  vocabulary(): string[];
  /**
   * The patient review's input for the request body; absent: the product takes
   * no patient facts. Whether the answer carries the review is the one rule of `doorPatientReview`.
   */
  reviewInput?(body: Body): ReviewPatientToolInput;
}

function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}

function unrecognisedSentence(unrecognized: readonly string[], what: string): string[] {
  if (unrecognized.length === 0) return [];
  return [
    `${plural(unrecognized.length, `${what} was`, `${what}s were`)} not recognised and not evaluated: ${unrecognized.join(", ")}.`,
  ];
}

// Medication -------------------------------------------------------------------------------

/** A medicine's first start and last dose change, naming an entry of `medications`. */
export interface MedicationStart {
  medication: string;
  startedAt?: string;
  doseChangedAt?: string;
}

export interface MedicationAgentBody {
  medications: string[];
  /** Additive: who the patient is; its age is used by the dose check. */
  patient?: PatientContextInput;
  /** Additive: start dates of entries of `medications`, for the monitoring rules. */
  medicationStarts?: MedicationStart[];
  /** Additive: dated readings, for the patient review. */
  readings?: NonNullable<ReviewPatientToolInput["readings"]>;
}

/** How `medicationStarts[].medication` is matched to an entry of `medications`: spacing and case aside. */
export function medicationEntryKey(text: string): string {
  return text.trim().replace(/\s+/g, " ").toLowerCase();
}

/** The medication agent's medicines: each entry of `medications` with the start the caller gave for it. */
function medicinesWithStarts(body: MedicationAgentBody): NonNullable<ReviewPatientToolInput["medicines"]> {
  const starts = new Map(
    (body.medicationStarts ?? []).map((start) => [medicationEntryKey(start.medication), start]),
  );
  return body.medications.map((name) => {
    const start = starts.get(medicationEntryKey(name));
    return {
      name,
      ...(start?.startedAt === undefined ? {} : { startedAt: start.startedAt }),
      ...(start?.doseChangedAt === undefined ? {} : { doseChangedAt: start.doseChangedAt }),
    };
  });
}

export type MedicationAssessment = Pick<
  InteractionCheck,
  "interactions" | "recognized" | "unrecognized" | "medications"
> & {
  observations: ({ medication: string } & AssessmentObservation)[];
};

export const medicationAgent: RecordAgentDefinition<
  MedicationAgentBody,
  InteractionCheck,
  MedicationAssessment
> = {
  product: "medication",
  plan: [checkInteractionsTool],
  assessingTool: checkInteractionsTool,
  toolInput: (body) => ({
    medications: body.medications,
    ...(body.patient === undefined ? {} : { patient: body.patient }),
  }),
  reviewInput: (body) => ({
    ...(body.patient === undefined ? {} : { patient: body.patient }),
    medicines: medicinesWithStarts(body),
    readings: body.readings ?? [],
  }),
  ground(check) {
    const entities: GroundedEntity[] = [
      ...check.medications.map((medication) => ({
        name: medication.ingredient,
        aliases: [medication.input, ...ingredientNames(medication.ingredient)],
        citation: `checkInteractions:${medication.ingredient}`,
      })),
      ...check.interactions.map((interaction) => ({
        name: `${interaction.a} + ${interaction.b}`,
        aliases: [`${interaction.b} + ${interaction.a}`, interaction.id],
        citation: `checkInteractions:${interaction.id}`,
      })),
    ];
    const assessment =
      check.recognized.length === 0
        ? null
        : {
            interactions: check.interactions,
            recognized: check.recognized,
            unrecognized: check.unrecognized,
            medications: check.medications,
            observations: [],
          };
    return {
      assessment,
      risk: check.risk,
      warnings: check.warnings,
      complete: check.complete,
      entities,
      summary: medicationSummary(check),
    };
  },
  withObservations: (assessment, observations) => ({
    ...assessment,
    observations: [
      ...assessment.observations,
      ...observations.map(({ entity, note }) => ({
        medication: entity.name,
        note,
        source: "model" as const,
      })),
    ],
  }),
  vocabulary: () => [
    ...INGREDIENTS.flatMap((entry) => [entry.ingredient, ...entry.names, ...entry.brands]),
    ...COMBINATION_PRODUCTS.flatMap((product) => product.names),
  ],
};

/** Every name the knowledge base gives an ingredient (salts, spellings, brands, combination products holding it). */
function ingredientNames(ingredient: string): string[] {
  const entry = INGREDIENTS.find((candidate) => candidate.ingredient === ingredient);
  const combinations = COMBINATION_PRODUCTS.filter((product) => product.ingredients.includes(ingredient));
  return entry ? [...entry.names, ...entry.brands, ...combinations.flatMap((product) => product.names)] : [];
}

function medicationSummary(check: InteractionCheck): string[] {
  const sentences = [
    `Checked ${plural(check.recognized.length + check.unrecognized.length, "medication")} against the interaction knowledge base; ${check.recognized.length} recognised.`,
  ];
  if (check.interactions.length > 0) {
    const listed = check.interactions
      .slice(0, 3)
      .map((i) => `${i.a} + ${i.b} (${i.severity}): ${i.recommendation.replace(/\.$/, "")}`)
      .join("; ");
    sentences.push(
      `${plural(check.interactions.length, "interaction")} found, most severe first: ${listed}.`,
    );
  } else if (check.recognized.length > 1) {
    sentences.push(
      "No interaction in the knowledge base applies to the recognised medications; the knowledge base is not exhaustive, so this is not a statement that the combination is safe.",
    );
  }
  for (const alert of check.doseAlerts) sentences.push(`Dose above the label maximum: ${alert.label}.`);
  if (!check.complete && check.unrecognized.length === 0 && check.recognized.length > 0) {
    sentences.push(
      "Some entries were only partly recognised; the warnings name the words that were not checked.",
    );
  }
  return [...sentences, ...unrecognisedSentence(check.unrecognized, "medication")];
}

// Biomarker --------------------------------------------------------------------------------

export interface BiomarkerAgentBody {
  /** `unit` is optional and additive; so is `observedAt`. */
  panel: { analyte: string; value: number; unit?: string; observedAt?: string }[];
  /** Benign ethnic neutropenia documented by a clinician; absent: general thresholds. */
  benignEthnicNeutropenia?: boolean;
  /** Additive: who the patient is, for the patient review. */
  patient?: PatientContextInput;
  /** Additive: the medicines taken, with first start dates, for the patient review. */
  medicines?: NonNullable<ReviewPatientToolInput["medicines"]>;
}

export type BiomarkerAssessment = {
  results: PanelEvaluation["results"];
  unrecognized: string[];
  observations: ({ analyte: string } & AssessmentObservation)[];
};

export const biomarkerAgent: RecordAgentDefinition<BiomarkerAgentBody, PanelEvaluation, BiomarkerAssessment> =
  {
    product: "biomarker",
    plan: [getPanelsTool, evaluatePanelTool],
    assessingTool: evaluatePanelTool,
    toolInput: (body) => ({
      panel: body.panel,
      ...(body.benignEthnicNeutropenia === undefined
        ? {}
        : { benignEthnicNeutropenia: body.benignEthnicNeutropenia }),
    }),
    reviewInput: (body) => ({
      ...(body.patient === undefined ? {} : { patient: body.patient }),
      medicines: body.medicines ?? [],
      readings: body.panel.map((reading) => ({
        analyte: reading.analyte,
        value: reading.value,
        ...(reading.unit === undefined ? {} : { unit: reading.unit }),
        ...(reading.observedAt === undefined ? {} : { observedAt: reading.observedAt }),
      })),
    }),
    ground(evaluation) {
      const entities = evaluation.results.map((result) => ({
        name: result.analyte,
        aliases: [result.analyteKey],
        citation: `evaluatePanel:${result.analyteKey}`,
      }));
      const assessment =
        evaluation.results.length === 0
          ? null
          : {
              results: evaluation.results,
              unrecognized: evaluation.unrecognized,
              observations: evaluation.observations.map((o) => ({ ...o, source: "engine" as const })),
            };
      return {
        assessment,
        risk: evaluation.risk,
        warnings: evaluation.warnings,
        complete: evaluation.unrecognized.length === 0,
        entities,
        summary: biomarkerSummary(evaluation),
      };
    },
    withObservations: (assessment, observations) => ({
      ...assessment,
      observations: [
        ...assessment.observations,
        ...observations.map(({ entity, note }) => ({ analyte: entity.name, note, source: "model" as const })),
      ],
    }),
    // Every analyte the service knows, not only those with a sourced range: a model naming one the
    // caller did not send is still inventing it.
    vocabulary: () => [
      ...BIOMARKER_MAP.flatMap((entry) => [entry.display, entry.key, ...entry.variants]),
      ...getPanels().flatMap((panel) => panel.analytes.flatMap((a) => [a.display, a.analyte])),
    ],
  };

function biomarkerSummary(evaluation: PanelEvaluation): string[] {
  const abnormal = evaluation.results.filter((r) => r.flag !== "normal");
  const critical = abnormal.filter((r) => r.critical);
  const sentences = [
    `Evaluated ${plural(evaluation.results.length, "reading")} against the service's reference ranges: ${abnormal.length} outside the range, ${critical.length} at a critical limit.`,
  ];
  if (abnormal.length > 0) {
    const listed = [...critical, ...abnormal.filter((r) => !r.critical)]
      .slice(0, 3)
      .map(
        (r) =>
          `${r.analyte} ${r.value} ${r.unit}${r.unit === r.canonicalUnit ? "" : ` (${r.canonicalValue} ${r.canonicalUnit})`} (${r.flag.replace("_", " ")}; range ${r.range})`,
      )
      .join("; ");
    sentences.push(`Needs review: ${listed}.`);
  }
  return [...sentences, ...unrecognisedSentence(evaluation.unrecognized, "analyte")];
}

// Outcome ----------------------------------------------------------------------------------

export interface OutcomeAgentBody {
  instruments: { instrument: string; responses?: number[]; total?: number; priorTotal?: number }[];
}

export type OutcomeAssessment = {
  results: InstrumentScoring["results"];
  unrecognized: string[];
  observations: ({ instrument: string } & AssessmentObservation)[];
};

export const outcomeAgent: RecordAgentDefinition<OutcomeAgentBody, InstrumentScoring, OutcomeAssessment> = {
  product: "outcome",
  plan: [getInstrumentsTool, scoreInstrumentsTool],
  assessingTool: scoreInstrumentsTool,
  toolInput: (body) => ({ instruments: body.instruments }),
  ground(scoring) {
    const entities = scoring.results.map((result) => ({
      name: result.instrument,
      aliases: [result.instrumentId],
      citation: `scoreInstruments:${result.instrumentId}`,
    }));
    const assessment =
      scoring.results.length === 0
        ? null
        : {
            results: scoring.results,
            unrecognized: scoring.unrecognized,
            observations: scoring.observations.map((o) => ({ ...o, source: "engine" as const })),
          };
    return {
      assessment,
      risk: scoring.risk,
      warnings: scoring.warnings,
      complete: scoring.unrecognized.length === 0,
      entities,
      summary: outcomeSummary(scoring),
    };
  },
  withObservations: (assessment, observations) => ({
    ...assessment,
    observations: [
      ...assessment.observations,
      ...observations.map(({ entity, note }) => ({
        instrument: entity.name,
        note,
        source: "model" as const,
      })),
    ],
  }),
  vocabulary: () => getInstruments().flatMap((instrument) => [instrument.display, instrument.id]),
};

function outcomeSummary(scoring: InstrumentScoring): string[] {
  const lines = scoring.results.slice(0, 4).map((result) => {
    const change =
      result.change === undefined
        ? "no prior total"
        : `${result.trajectory.replace("_", " ")} by ${Math.abs(result.change)} point(s)${result.reliableChange ? ", a reliable change" : ""}`;
    return `${result.instrument} ${result.total} (${result.severity}; ${change})`;
  });
  const sentences =
    lines.length > 0 ? [`Scored ${plural(scoring.results.length, "instrument")}: ${lines.join("; ")}.`] : [];
  return [...sentences, ...unrecognisedSentence(scoring.unrecognized, "instrument")];
}

// Relapse ----------------------------------------------------------------------------------

export interface RelapseAgentBody {
  signals: { indicator: string; severity: number }[];
}

export type RelapseAssessment = Pick<
  RelapseSignalScore,
  "compositeScore" | "band" | "contributing" | "unrecognized" | "coverage"
> & {
  observations: ({ indicator: string } & AssessmentObservation)[];
};

export const relapseAgent: RecordAgentDefinition<RelapseAgentBody, RelapseSignalScore, RelapseAssessment> = {
  product: "relapse",
  plan: [getSignalModelTool, scoreRelapseTool],
  assessingTool: scoreRelapseTool,
  toolInput: (body) => ({ signals: body.signals }),
  ground(score) {
    const entities = score.contributing.map((c) => ({
      name: c.label,
      aliases: [c.indicator, ...(findRelapseIndicator(c.indicator)?.aliases ?? [])],
      citation: `scoreRelapse:${c.indicator}`,
    }));
    const assessment =
      score.contributing.length === 0
        ? null
        : {
            compositeScore: score.compositeScore,
            band: score.band,
            contributing: score.contributing,
            unrecognized: score.unrecognized,
            coverage: score.coverage,
            observations: [],
          };
    return {
      assessment,
      risk: score.risk,
      warnings: score.warnings,
      complete: score.unrecognized.length === 0,
      entities,
      summary: relapseSummary(score),
    };
  },
  withObservations: (assessment, observations) => ({
    ...assessment,
    observations: [
      ...assessment.observations,
      ...observations.map(({ entity, note }) => ({
        indicator: entity.aliases[0] ?? entity.name,
        note,
        source: "model" as const,
      })),
    ],
  }),
  vocabulary: () => getSignalModel().indicators.flatMap((i) => [i.label, i.indicator, ...i.aliases]),
};

/**
 * Review rules lead: a safety-critical indicator or a combination rule is the
 * reason for the band, so it is said before the weighted contributions that did not decide it.
 */
function relapseSummary(score: RelapseSignalScore): string[] {
  const rules = score.rules.map((rule) => `${rule.label.replace(/\.$/, "")}.`);
  if (score.contributing.length === 0)
    return [...rules, ...unrecognisedSentence(score.unrecognized, "indicator")];
  const drivers = score.contributing
    .slice(0, 3)
    .map((c) => `${c.label} (${c.contribution} points)`)
    .join(", ");
  return [
    ...rules,
    `The relapse early-warning composite is ${score.compositeScore} of 100, band ${score.band}, from ${score.coverage.supplied} of ${score.coverage.known} indicators; largest contributions: ${drivers}.`,
    ...unrecognisedSentence(score.unrecognized, "indicator"),
  ];
}

export const RECORD_AGENTS = {
  medication: medicationAgent,
  biomarker: biomarkerAgent,
  outcome: outcomeAgent,
  relapse: relapseAgent,
} as const;
