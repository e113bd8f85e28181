import {
  analyzeDmse,
  type ConfidenceLevel,
  DMSE_DEFAULT_PARAMS,
  type DmseInterpretation,
  type DmseSignal,
  type DmseSignalKey,
  dmseImplausibleValue,
} from "@svc/engines";
import {
  type Confidence,
  DOMAIN_KEYS,
  type DomainKey,
  getDomain,
  type Selection,
  type SelectionEntry,
} from "@svc/mse-catalog";

/**
 * Telemetry to proposed MSE findings (docs/mse-agent.md, "Telemetry mapping"). The dmse engine
 * reads each metric against its thresholds; a signal read outside the range used there proposes
 * one abnormal option of one domain, with `provenance: "digital_mse"`. A signal inside the range
 * proposes nothing (one metric in range is not a normal MSE domain), and telemetry never proposes
 * anything in the risk domain or the C-SSRS screen (docs/mse.md: a digital signal must not be the
 * only ground for a risk-bearing option).
 */

/** The dmse metrics the MSE agent accepts, by the dmse analysis request's names. */
export interface MseTelemetry {
  psychomotorFidgetEpisodes?: number;
  responseLatencySeconds?: number;
  speechRateWpm?: number;
  /** Share of the session with gaze on screen, 0-100. */
  sustainedAttentionPct?: number;
  sessionDurationSeconds?: number;
}

/** One proposed finding: one signal outside the range, as one option of one domain. */
export interface TelemetryFinding {
  /** The dmse signal key, also the catalog's supporting-signal name. */
  signal: DmseSignalKey;
  interpretation: Exclude<DmseInterpretation, "within_normal">;
  domain: DomainKey;
  value: string;
  confidence: Confidence;
  /** The engine's MSE line: the measured value against its threshold. */
  text: string;
}

/** A signal as the analyzeTelemetry tool reports it (the engine's reading, trimmed). */
export interface TelemetryReading {
  signal: DmseSignalKey;
  label: string;
  value: number;
  unit: string;
  interpretation: DmseInterpretation;
  referenceRange: string;
  confidence: ConfidenceLevel;
  line: string;
}

export interface TelemetryAnalysis {
  readings: TelemetryReading[];
  findings: TelemetryFinding[];
  /** The findings as a selection: one entry per domain, values and signals in catalog order. */
  proposed: Selection;
  /** Labels of the signals inside the range used here, which propose nothing. */
  notProposed: string[];
  /**
   * Signals whose sent value no human can produce (decision 73), each "<label>: <why>": a
   * capture-quality problem, so they propose nothing though the engine reads them outside its range.
   */
  implausible: string[];
}

/** The dmse engine's `moderate` is the catalog's `medium` (docs/mse.md, observationMetadata). */
const CONFIDENCE_OF: Readonly<Record<ConfidenceLevel, Confidence>> = {
  high: "high",
  moderate: "medium",
  low: "low",
};

const CONFIDENCE_RANK: Readonly<Record<Confidence, number>> = { low: 0, medium: 1, high: 2 };

/** Prefix of a telemetry finding's note: the record says it is a device measurement. */
export const TELEMETRY_NOTE_PREFIX = "Digital MSE (device measurement):";

/**
 * Which option a signal outside the range proposes (grounds in docs/mse-agent.md). Speech rate
 * goes both ways: below the engine's range is slowed, above it rapid; the raw metric decides, as
 * the engine's own reading does (its `metricValue` is rounded).
 */
function optionFor(signal: DmseSignalKey, telemetry: MseTelemetry): { domain: DomainKey; value: string } {
  switch (signal) {
    case "response_latency":
      return { domain: "speech", value: "increased_latency" };
    case "speech_rate":
      return {
        domain: "speech",
        value: (telemetry.speechRateWpm ?? 0) < DMSE_DEFAULT_PARAMS.speechNormalMinWpm ? "slowed" : "rapid",
      };
    case "psychomotor":
      return { domain: "behavior", value: "restless" };
    case "sustained_attention":
      return { domain: "attention", value: "easily_distracted" };
  }
}

function readingOf(signal: DmseSignal): TelemetryReading {
  return {
    signal: signal.signalKey,
    label: signal.label,
    value: signal.metricValue,
    unit: signal.metricUnit,
    interpretation: signal.interpretation,
    referenceRange: signal.referenceRange,
    confidence: signal.confidence,
    line: signal.mseLine,
  };
}

const METRIC_OF: Readonly<Record<DmseSignalKey, keyof MseTelemetry>> = {
  response_latency: "responseLatencySeconds",
  psychomotor: "psychomotorFidgetEpisodes",
  speech_rate: "speechRateWpm",
  sustained_attention: "sustainedAttentionPct",
};

/** Why the signal's sent value is implausible (the engine's rule), or null. */
function implausibleOf(signal: DmseSignal, telemetry: MseTelemetry): string | null {
  const value = telemetry[METRIC_OF[signal.signalKey]];
  if (value === undefined) return null;
  return dmseImplausibleValue(signal.signalKey, value, telemetry.sessionDurationSeconds);
}

function findingOf(signal: DmseSignal, telemetry: MseTelemetry): TelemetryFinding | null {
  if (signal.interpretation === "within_normal") return null;
  // A value no human can produce is a capture problem, not a finding about the patient.
  if (implausibleOf(signal, telemetry) !== null) return null;
  return {
    signal: signal.signalKey,
    interpretation: signal.interpretation,
    ...optionFor(signal.signalKey, telemetry),
    confidence: CONFIDENCE_OF[signal.confidence],
    text: signal.mseLine,
  };
}

/** One entry per domain: the lowest confidence of its findings, values in catalog order. */
function entryOf(domain: DomainKey, findings: readonly TelemetryFinding[]): SelectionEntry {
  const options = getDomain(domain)?.options.map((option) => option.value) ?? [];
  const values = [...new Set(findings.map((f) => f.value))].sort(
    (a, b) => options.indexOf(a) - options.indexOf(b),
  );
  const confidence = findings
    .map((f) => f.confidence)
    .reduce((lowest, next) => (CONFIDENCE_RANK[next] < CONFIDENCE_RANK[lowest] ? next : lowest));
  return {
    values,
    text: `${TELEMETRY_NOTE_PREFIX} ${findings.map((f) => f.text).join(" ")}`,
    provenance: "digital_mse",
    confidence,
    supportingSignals: findings.map((f) => f.signal),
  };
}

function selectionOf(findings: readonly TelemetryFinding[]): Selection {
  const selection: Selection = {};
  for (const domain of DOMAIN_KEYS) {
    const inDomain = findings.filter((f) => f.domain === domain);
    if (inDomain.length > 0) selection[domain] = entryOf(domain, inDomain);
  }
  return selection;
}

/**
 * Runs the dmse engine (shipped default parameters) on the telemetry and maps each signal read
 * outside its range to a proposed finding. Pure: the engine's clock only stamps a field not used.
 */
export function analyzeTelemetryFindings(telemetry: MseTelemetry): TelemetryAnalysis {
  const run = analyzeDmse(telemetry, { now: new Date(0) });
  const signals = run.data.signals;
  const findings = signals.flatMap((signal) => findingOf(signal, telemetry) ?? []);
  return {
    readings: signals.map(readingOf),
    findings,
    proposed: selectionOf(findings),
    notProposed: signals.filter((s) => s.interpretation === "within_normal").map((s) => s.label),
    implausible: signals.flatMap((s) => {
      const why = implausibleOf(s, telemetry);
      return why === null ? [] : [`${s.label}: ${why}`];
    }),
  };
}
