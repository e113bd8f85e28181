import {
  analyzeBiomarkers,
  analyzeDmse,
  analyzeMedication,
  BIOMARKER_DEFAULT_PARAMS,
  BIOMARKER_MODEL_KEY,
  type BiomarkerData,
  type BiomarkerInput,
  type BiomarkerParams,
  DMSE_DEFAULT_PARAMS,
  DMSE_MODEL_KEY,
  DMSE_PLAUSIBLE_LIMITS,
  type DmseData,
  type DmseInput,
  type DmseParams,
  type EngineOptions,
  type EngineRun,
  MEDICATION_DEFAULT_PARAMS,
  MEDICATION_MODEL_KEY,
  type MedicationData,
  type MedicationInput,
  type MedicationParams,
  OFF_MEDICATION_PRODROME,
  OUTCOME_DEFAULT_PARAMS,
  OUTCOME_MODEL_KEY,
  type OutcomeData,
  type OutcomeInput,
  type OutcomeParams,
  predictRelapse,
  RELAPSE_DEFAULT_PARAMS,
  RELAPSE_MODEL_KEY,
  type RelapseData,
  type RelapseInput,
  type RelapseParams,
  resolveBiomarkerParams,
  resolveDmseParams,
  resolveMedicationParams,
  resolveOutcomeParams,
  resolveRelapseParams,
  scoreOutcome,
} from "@svc/engines";
import { dmseUnmapped, engineCodes, instrumentCodes, medicationCodes } from "./engine-codes.js";
import type { TerminologyCode, UnmappedConcept } from "./types.js";

/**
 * The engine registry (decision 101): one descriptor per engine, from which every list of
 * engines derives (the `EngineName` type, the model-version store's engine check, the API's
 * `intelligence.engine` enum, the narrator's labels) and which the clinical checks iterate, so a
 * new engine is written once and cannot skip its evidence. Descriptors hold pure functions and
 * constants only: no I/O, no framework.
 */
export interface EngineDescriptor<TInput, TData, TParams, TName extends string = string> {
  /** The public name (its key in the registry): `intelligence.engine`, the model-version store's `engine`. */
  name: TName;
  /** `model.key` of a response: the engine's parameter model (decision 44). */
  modelKey: string;
  /** What the narrator calls the engine ("Relapse early-warning score"). */
  label: string;
  /** The shipped parameters (`model.source: "default"`). */
  defaults: Readonly<TParams>;
  /**
   * The parameter schema: validates a calibrated parameter row and merges it over the defaults,
   * throwing an Error that names every problem (decision 44).
   */
  resolveParams(overrides: unknown): TParams;
  /** The engine itself: deterministic, the clock passed in. */
  run(input: TInput, options: EngineOptions<TParams>): EngineRun<TData>;
  /** Terminology codes of one run (verified mappings only; docs/terminology.md). */
  codes(input: TInput, run: EngineRun<TData>): TerminologyCode[];
  /** Flagged concepts without a verified code, stated as such (decision 91); none when omitted. */
  unmapped?(input: TInput, run: EngineRun<TData>): UnmappedConcept[];
  /** A few engine lines a narrator may mention. */
  highlights(data: TData): string[];
  /**
   * Our own codes for the engine's results where no standard code is verified, beyond those the
   * FHIR package builds from the first engines' label tables: the analysis-observation CodeSystem
   * lists them after the built-in concepts, and the engine's FHIR mapping codes its resources with
   * them. None when omitted.
   */
  concepts?: readonly EngineConcept[];
  /**
   * A small in-bound input the engine accepts: the registry test runs every engine on it, and the
   * FHIR mapping test maps its answer, so a new engine is exercised without a hand entry there.
   */
  example: TInput;
  /**
   * Where `docs/engines/evidence.md` gives the source of every default: the title of the section
   * (its start) listing `defaults`, and any further constant tables of the engine. The clinical
   * checks compare each table with the code, so an engine without evidence fails CI.
   */
  evidence: {
    section: string;
    tables?: readonly { section: string; values: Readonly<Record<string, number>> }[];
  };
}

/** One code of our analysis-observation CodeSystem: code, display and what it means. */
export interface EngineConcept {
  code: string;
  display: string;
  definition: string;
}

/** Keeps each engine's own input, data and parameter types while checking the descriptor's shape. */
function defineEngine<TInput, TData, TParams, TName extends string>(
  descriptor: EngineDescriptor<TInput, TData, TParams, TName>,
): EngineDescriptor<TInput, TData, TParams, TName> {
  return Object.freeze(descriptor);
}

/**
 * The instruments' codes, pointing at the available `symptoms` item of a list of components or
 * factors (none when symptoms did not contribute), then the codes the engine resolved itself.
 */
function symptomScoreCodes(
  assessments: readonly { instrumentId: string; instrumentName: string }[],
  items: readonly { key: string; available: boolean }[],
  list: string,
  run: EngineRun<unknown>,
): TerminologyCode[] {
  const symptoms = items.findIndex((item) => item.key === "symptoms" && item.available);
  return [
    ...(symptoms >= 0 ? instrumentCodes(assessments, `${list}.${symptoms}`) : []),
    ...engineCodes(run.facts),
  ];
}

/** One PHQ-9 administration, for the examples below. */
const EXAMPLE_ASSESSMENT = {
  instrumentId: "phq9",
  instrumentName: "PHQ-9",
  score: 14,
  maxScore: 27,
  createdAt: "2026-06-30T09:00:00Z",
};

const dmse = defineEngine<DmseInput, DmseData, DmseParams, "dmse">({
  name: "dmse",
  modelKey: DMSE_MODEL_KEY,
  label: "Digital mental status signals",
  defaults: DMSE_DEFAULT_PARAMS,
  resolveParams: resolveDmseParams,
  run: analyzeDmse,
  codes: (_input, run) => engineCodes(run.facts),
  unmapped: (_input, run) => dmseUnmapped(run.data.signals),
  highlights: (data) =>
    data.signals.filter((s) => s.interpretation !== "within_normal").map((s) => s.mseLine),
  example: { responseLatencySeconds: 2.4, speechRateWpm: 95, sessionDurationSeconds: 600 },
  evidence: {
    section: "Digital MSE",
    tables: [{ section: "Implausible dmse", values: DMSE_PLAUSIBLE_LIMITS }],
  },
});

const biomarker = defineEngine<BiomarkerInput, BiomarkerData, BiomarkerParams, "biomarker">({
  name: "biomarker",
  modelKey: BIOMARKER_MODEL_KEY,
  label: "Laboratory biomarker review",
  defaults: BIOMARKER_DEFAULT_PARAMS,
  resolveParams: resolveBiomarkerParams,
  run: analyzeBiomarkers,
  codes: (_input, run) => engineCodes(run.facts),
  highlights: (data) => data.signals.map((s) => s.summaryLine),
  example: {
    labs: [
      {
        id: "lab_1",
        labName: "CMP",
        results: { biomarkers: [{ name: "Sodium", value: 128, unit: "mmol/L" }] },
      },
    ],
  },
  evidence: { section: "Biomarker" },
});

const medication = defineEngine<MedicationInput, MedicationData, MedicationParams, "medication">({
  name: "medication",
  modelKey: MEDICATION_MODEL_KEY,
  label: "Medication response review",
  defaults: MEDICATION_DEFAULT_PARAMS,
  resolveParams: resolveMedicationParams,
  run: analyzeMedication,
  codes: (input, run) => [
    ...medicationCodes(run.data.signals, input.prescriptions),
    ...(run.data.signals.length > 0 ? instrumentCodes(input.assessments, "signals") : []),
    ...engineCodes(run.facts),
  ],
  highlights: (data) => data.signals.map((s) => s.summaryLine),
  example: {
    prescriptions: [
      { id: "rx_1", medicationName: "Sertraline", status: "active", prescribedAt: "2026-05-01" },
    ],
    assessments: [EXAMPLE_ASSESSMENT],
  },
  evidence: { section: "Medication" },
});

const outcome = defineEngine<OutcomeInput, OutcomeData, OutcomeParams, "outcome">({
  name: "outcome",
  modelKey: OUTCOME_MODEL_KEY,
  label: "Treatment-response composite",
  defaults: OUTCOME_DEFAULT_PARAMS,
  resolveParams: resolveOutcomeParams,
  run: scoreOutcome,
  codes: (input, run) => symptomScoreCodes(input.assessments, run.data.components, "components", run),
  highlights: (data) => data.components.filter((c) => c.available).map((c) => c.detail),
  example: { assessments: [EXAMPLE_ASSESSMENT], avgSleepHours: 6 },
  evidence: { section: "Outcome" },
});

const relapse = defineEngine<RelapseInput, RelapseData, RelapseParams, "relapse">({
  name: "relapse",
  modelKey: RELAPSE_MODEL_KEY,
  label: "Relapse early-warning score",
  defaults: RELAPSE_DEFAULT_PARAMS,
  resolveParams: resolveRelapseParams,
  run: predictRelapse,
  codes: (input, run) => symptomScoreCodes(input.assessments, run.data.factors, "factors", run),
  highlights: (data) => data.factors.filter((f) => f.points > 0).map((f) => f.detail),
  example: { assessments: [EXAMPLE_ASSESSMENT], avgSleepHours: 5, daysSinceLastVisit: 40 },
  evidence: {
    section: "Relapse",
    tables: [{ section: "Off medication with short sleep", values: OFF_MEDICATION_PRODROME }],
  },
});

/**
 * Every engine, keyed by its name. The key order is the order of every derived list (the
 * OpenAPI `intelligence.engine` enum among them), so a new engine goes at the end.
 */
export const ENGINE_REGISTRY = Object.freeze({ dmse, biomarker, medication, outcome, relapse });

export type EngineName = keyof typeof ENGINE_REGISTRY;

/** A descriptor of any engine, for code that handles them alike (the clinical checks, the store). */
// biome-ignore lint/suspicious/noExplicitAny: each engine has its own input, data and parameter types
export type AnyEngineDescriptor = EngineDescriptor<any, any, any, EngineName>;

/** The engines' names in registry order. */
export const ENGINE_NAMES = Object.freeze(Object.keys(ENGINE_REGISTRY)) as readonly [
  EngineName,
  ...EngineName[],
];

/** Every descriptor in registry order. */
export const ENGINE_DESCRIPTORS: readonly AnyEngineDescriptor[] = Object.freeze(
  Object.values(ENGINE_REGISTRY),
);

/** Whether a string names a registered engine. */
export function isEngineName(name: string): name is EngineName {
  return Object.hasOwn(ENGINE_REGISTRY, name);
}

/** One calibrated parameter row of an engine, as the model-version store keeps it (unvalidated). */
export interface CalibrationRow {
  version: number;
  params: unknown;
}

/** A calibrated parameter set the engine's own schema accepted. */
export interface ResolvedCalibration<TParams> {
  version: number;
  params: TParams;
}

/**
 * The one reading of an engine's calibrated parameters (decision 183), for the API, CDS and FHIR
 * alike: no row, the shipped defaults (`calibration` absent); a row the engine's schema accepts,
 * that set with its version; a row it refuses, the shipped defaults and the reason in `rejected`
 * (the caller logs it; the run's `model.source` then says `default`). Never throws.
 */
export function resolveCalibration<TParams>(
  engine: Pick<EngineDescriptor<unknown, unknown, TParams, EngineName>, "resolveParams">,
  row: CalibrationRow | null | undefined,
): { calibration?: ResolvedCalibration<TParams>; rejected?: string } {
  if (!row) return {};
  try {
    return { calibration: { version: row.version, params: engine.resolveParams(row.params) } };
  } catch (error) {
    return { rejected: (error as Error).message };
  }
}

/**
 * The one way to run a registered engine with its calibrated parameters (decision 183): the
 * resolved set when given (from `resolveCalibration`), else the shipped defaults, on the given
 * clock. The JSON analysis endpoints, their FHIR answers and the CDS services all run engines
 * through it.
 */
export function runWithCalibration<TInput, TData, TParams>(
  engine: Pick<EngineDescriptor<TInput, TData, TParams, EngineName>, "run">,
  input: TInput,
  options: { now: Date; calibration?: ResolvedCalibration<TParams> },
): EngineRun<TData> {
  return engine.run(input, {
    now: options.now,
    ...(options.calibration ? { model: options.calibration } : {}),
  });
}
