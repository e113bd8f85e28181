/**
 * Relapse agent tools `getSignalModel` and `scoreRelapse`: documented early-warning indicators of
 * relapse with expert-set weights, a 0-100 composite and a band on the relapse engine's cut-offs.
 * The weights are an expert-set ordering derived from the cited studies, not fitted to outcome
 * data; the composite is not a probability. Absent indicators are "not supplied", never zero risk.
 * Indicators, weights, formula and sources: docs/engines/relapse-signals.md.
 */

import { RELAPSE_DEFAULT_PARAMS, type RelapseLevel } from "../relapse.js";
import { clamp, round } from "../shared.js";
import {
  type AgentRisk,
  type AgentRiskLevel,
  combineRisks,
  ToolInputError,
  type ToolInputIssue,
} from "./types.js";

export interface RelapseIndicator {
  /** Key, e.g. "sleep_disruption". */
  indicator: string;
  label: string;
  aliases: string[];
  weight: number;
  description: string;
  source: string;
}

export interface RelapseSignalModel {
  indicators: RelapseIndicator[];
  /** `min` inclusive, `max` exclusive, except the top band, which includes 100. */
  bands: { band: RelapseLevel; min: number; max: number }[];
  method: string;
}

export interface RelapseContribution {
  indicator: string;
  label: string;
  severity: number;
  /** Points of the 0-100 composite's weighted sum. */
  contribution: number;
}

export interface RelapseSignalScore {
  compositeScore: number;
  band: RelapseLevel;
  /** Sorted by contribution, largest first. */
  contributing: RelapseContribution[];
  unrecognized: string[];
  risk: AgentRisk;
  warnings: string[];
  coverage: { supplied: number; known: number };
  /** False when no indicator was recognised: the score 0 then means "not assessed". */
  assessed: boolean;
  /** 100 x sum(weight x severity) / sum of all weights. */
  weightedSum: number;
  /** The strongest single indicator's floor, or null when nothing was recognised. */
  strongestSignal: { indicator: string; points: number } | null;
}

// ---------------------------------------------------------------------------------------------
// Indicators (weights expert-set; the order follows the strength of the cited evidence)

export const RELAPSE_INDICATORS: readonly RelapseIndicator[] = [
  {
    indicator: "medication_nonadherence",
    label: "Medication non-adherence",
    aliases: [
      "nonadherence",
      "poor adherence",
      "missed doses",
      "stopped medication",
      "medication discontinuation",
    ],
    // Robinson et al. 1999: stopping antipsychotics raised relapse risk almost 5-fold (HR 4.89).
    weight: 1.0,
    description: "Missed or stopped doses of maintenance medication.",
    source:
      "Robinson et al. 1999, Arch Gen Psychiatry 56:241-247 (discontinuation HR 4.89 for a first relapse)",
  },
  {
    indicator: "symptom_worsening",
    label: "Symptom scale worsening",
    aliases: ["worsening symptoms", "symptom deterioration", "symptom trajectory"],
    // The relapse engine's largest factor (35 of 100): the most direct warning sign.
    weight: 0.9,
    description: "A rise on a self-report or clinician symptom scale.",
    source:
      "Barnett et al. 2018, Neuropsychopharmacology 43:1660-1666; Cohen et al. 2023, npj Schizophrenia; relapse engine symptom factor",
  },
  {
    indicator: "sleep_disruption",
    label: "Sleep disruption",
    aliases: ["sleep disturbance", "insomnia", "reduced sleep", "short sleep", "sleep"],
    // Jackson et al. 2003: the most robust early symptom of mania (median prevalence 77 %).
    weight: 0.8,
    description: "Less, broken or irregular sleep.",
    source:
      "Jackson, Cavanagh & Scott 2003, J Affect Disord 74:209-217; Eisner et al. 2013, Clin Psychol Rev 33:637-653 (insomnia)",
  },
  {
    indicator: "suspiciousness",
    label: "Suspiciousness",
    aliases: ["paranoia", "paranoid ideation", "suspicion", "feeling watched"],
    // Psychotic-like early signs are less frequent but come late, close to relapse.
    weight: 0.7,
    description: "Feeling watched, laughed at or talked about; mistrust.",
    source:
      "Birchwood et al. 1989, Psychol Med 19:649-656; Birchwood, Spencer & McGovern 2000, Adv Psychiatr Treat 6:93-101",
  },
  {
    indicator: "substance_use",
    label: "Substance use",
    aliases: ["drug use", "alcohol use", "cannabis use", "substance misuse"],
    // Schoeler et al. 2016: continued cannabis use, more relapse than non-users (d 0.36).
    weight: 0.7,
    description: "New or increased alcohol or drug use, notably cannabis.",
    source:
      "Schoeler et al. 2016, Lancet Psychiatry 3:215-225 (continued cannabis use and relapse, d = 0.36)",
  },
  {
    indicator: "social_withdrawal",
    label: "Social withdrawal",
    aliases: ["isolation", "social isolation", "reduced social contact"],
    // Dysphoric signs, withdrawal among them, are the most commonly reported early signs.
    weight: 0.6,
    description: "Less contact with people; staying in.",
    source: "Birchwood, Spencer & McGovern 2000, Adv Psychiatr Treat 6:93-101; Birchwood et al. 1989",
  },
  {
    indicator: "anxiety",
    label: "Anxiety",
    aliases: ["anxious", "tension", "nervousness"],
    weight: 0.5,
    description: "New or increased anxiety or tension.",
    source:
      "Eisner, Drake & Barrowclough 2013, Clin Psychol Rev 33:637-653 (anxiety and insomnia as typical early signs)",
  },
  {
    indicator: "irritability",
    label: "Irritability",
    aliases: ["irritable", "anger", "short temper"],
    weight: 0.5,
    description: "Irritability or quickness to anger.",
    source: "Birchwood et al. 1989 early signs (not re-read in the primary paper this pass)",
  },
  {
    indicator: "reduced_activity",
    label: "Reduced activity or mobility",
    aliases: ["reduced mobility", "low activity", "activity reduction", "mobility"],
    // Passive-sensing mobility anomalies rise before relapse.
    weight: 0.5,
    description: "Less movement or time out of the home, e.g. from a phone or wearable.",
    source:
      "Barnett et al. 2018 (anomalies 71 % more frequent in the 2 weeks before relapse); Adler et al. 2020, JMIR mHealth uHealth 8:e19962",
  },
  {
    indicator: "missed_appointments",
    label: "Missed appointments",
    aliases: ["missed appointment", "missed visits", "visit cadence", "disengagement", "dna"],
    weight: 0.5,
    description: "Missed contacts or a long gap since the last visit.",
    source: "Relapse engine visit-cadence factor (expert-set, docs/engines/relapse.md)",
  },
  {
    indicator: "stressful_life_events",
    label: "Stressful life events",
    aliases: ["life events", "stressful events", "life stress", "stress"],
    weight: 0.4,
    description: "A recent major stressor (loss, move, conflict, legal or money trouble).",
    source: "Expert-set; no source checked this pass",
  },
  {
    indicator: "speech_latency_increase",
    label: "Increased speech latency",
    aliases: ["speech latency", "response latency", "latency increase", "dmse latency"],
    // Slower responses track depression; the relapse engine's dmse factor (15 of 100).
    weight: 0.4,
    description: "Longer response latency than the patient's own baseline (dmse).",
    source:
      "Yamamoto et al. 2020, PLoS One 15:e0238726; relapse engine dmse factor (docs/engines/relapse.md)",
  },
];

/** Indicators at or above this weight are the top tier (non-adherence, symptom worsening, sleep). */
export const RELAPSE_TOP_TIER_WEIGHT = 0.8;
/** A top-tier indicator at or above this severity raises the risk to at least moderate (expert-set). */
export const RELAPSE_SEVERE_SIGNAL = 0.8;
/**
 * Points of the strongest-signal floor for a weight-1 indicator at severity 1 (expert-set): equal
 * to the relapse engine's `levelHighMin`, so full non-adherence alone reaches the high band.
 */
export const RELAPSE_STRONGEST_SIGNAL_POINTS = RELAPSE_DEFAULT_PARAMS.levelHighMin;

const TOTAL_WEIGHT = RELAPSE_INDICATORS.reduce((sum, i) => sum + i.weight, 0);

/** Bands on the relapse engine's cut-offs (20 / 40 / 60), one definition. */
const BANDS: { band: RelapseLevel; min: number; max: number }[] = [
  { band: "low", min: 0, max: RELAPSE_DEFAULT_PARAMS.levelModerateMin },
  {
    band: "moderate",
    min: RELAPSE_DEFAULT_PARAMS.levelModerateMin,
    max: RELAPSE_DEFAULT_PARAMS.levelElevatedMin,
  },
  {
    band: "elevated",
    min: RELAPSE_DEFAULT_PARAMS.levelElevatedMin,
    max: RELAPSE_DEFAULT_PARAMS.levelHighMin,
  },
  { band: "high", min: RELAPSE_DEFAULT_PARAMS.levelHighMin, max: 100 },
];

const METHOD =
  "compositeScore = max(weighted sum, strongest-signal floor), clamped to 0-100 and rounded to 2 decimals. Weighted sum = 100 x sum(weight x severity) over the supplied indicators / sum of all indicator weights; an indicator not supplied adds nothing and is not assumed normal. Strongest-signal floor = 60 x max(weight x severity), so one severe high-weight indicator is never diluted by other low signals. Weights are expert-set (an ordering from the cited studies, not fitted to outcomes); bands use the relapse engine's cut-offs 20 / 40 / 60. Not a probability of relapse.";

/** The indicators, their weights and sources, the bands and the composite formula. */
export function getSignalModel(): RelapseSignalModel {
  return {
    indicators: RELAPSE_INDICATORS.map((i) => ({ ...i, aliases: [...i.aliases] })),
    bands: BANDS.map((b) => ({ ...b })),
    method: METHOD,
  };
}

// ---------------------------------------------------------------------------------------------
// Matching

/** Lower-case letters and digits only: "Sleep-Disruption" and "sleep disruption" match. */
function normaliseIndicator(name: string): string {
  return name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]/g, "");
}

const BY_NAME = new Map<string, RelapseIndicator>();
for (const indicator of RELAPSE_INDICATORS) {
  for (const name of [indicator.indicator, indicator.label, ...indicator.aliases]) {
    const key = normaliseIndicator(name);
    if (key !== "" && !BY_NAME.has(key)) BY_NAME.set(key, indicator);
  }
}

/** The indicator a caller's name refers to (key, label or alias), or null. */
export function findRelapseIndicator(name: string): RelapseIndicator | null {
  return BY_NAME.get(normaliseIndicator(name)) ?? null;
}

// ---------------------------------------------------------------------------------------------
// Scoring

export interface RelapseSignalInput {
  indicator: string;
  severity: number;
}

function assertScorable(signals: readonly RelapseSignalInput[]): void {
  const issues: ToolInputIssue[] = [];
  signals.forEach((signal, i) => {
    if (typeof signal.indicator !== "string")
      issues.push({ path: [i, "indicator"], message: `signal ${i}: indicator must be a string` });
    const s = signal.severity;
    if (typeof s !== "number" || !Number.isFinite(s) || s < 0 || s > 1)
      issues.push({
        path: [i, "severity"],
        message: `signal ${i} (${String(signal.indicator)}): severity must be a number from 0 to 1`,
      });
  });
  if (issues.length > 0) throw new ToolInputError(issues);
}

interface Collected {
  /** Highest severity per recognised indicator, in first-seen order. */
  severities: Map<RelapseIndicator, number>;
  counts: Map<RelapseIndicator, number>;
  unrecognized: string[];
}

/** Duplicates keep the highest severity (a warning sign is not averaged away). */
function collectSignals(signals: readonly RelapseSignalInput[]): Collected {
  const severities = new Map<RelapseIndicator, number>();
  const counts = new Map<RelapseIndicator, number>();
  const unrecognized: string[] = [];
  for (const signal of signals) {
    const indicator = findRelapseIndicator(signal.indicator);
    if (!indicator) {
      unrecognized.push(signal.indicator);
      continue;
    }
    severities.set(indicator, Math.max(severities.get(indicator) ?? 0, signal.severity));
    counts.set(indicator, (counts.get(indicator) ?? 0) + 1);
  }
  return { severities, counts, unrecognized };
}

export function relapseSignalBandOf(score: number): RelapseLevel {
  for (let i = BANDS.length - 1; i >= 0; i -= 1) {
    const band = BANDS[i] as (typeof BANDS)[number];
    if (score >= band.min) return band.band;
  }
  return "low";
}

function contributionsOf(severities: ReadonlyMap<RelapseIndicator, number>): RelapseContribution[] {
  return [...severities]
    .map(([indicator, severity], order) => ({
      order,
      row: {
        indicator: indicator.indicator,
        label: indicator.label,
        severity,
        contribution: round((100 * indicator.weight * severity) / TOTAL_WEIGHT),
      },
    }))
    .sort((a, b) => b.row.contribution - a.row.contribution || a.order - b.order)
    .map(({ row }) => row);
}

function strongestSignalOf(
  severities: ReadonlyMap<RelapseIndicator, number>,
): { indicator: string; points: number } | null {
  let best: { indicator: string; points: number } | null = null;
  for (const [indicator, severity] of severities) {
    const points = round(RELAPSE_STRONGEST_SIGNAL_POINTS * indicator.weight * severity);
    if (!best || points > best.points) best = { indicator: indicator.indicator, points };
  }
  return best;
}

/** Band to risk: high → high, elevated → moderate, moderate → low, low → none. */
const BAND_RISK: Readonly<Record<RelapseLevel, AgentRiskLevel>> = {
  low: "none",
  moderate: "low",
  elevated: "moderate",
  high: "high",
};

function bandRisk(score: number, band: RelapseLevel): AgentRisk {
  const level = BAND_RISK[band];
  return level === "none"
    ? { flag: false, level, labels: [] }
    : { flag: true, level, labels: [`Relapse signal composite ${score} (${band} band)`] };
}

/** A severe top-tier indicator raises the risk to at least moderate, whatever the composite. */
function severeSignalRisks(severities: ReadonlyMap<RelapseIndicator, number>): AgentRisk[] {
  return [...severities]
    .filter(
      ([indicator, severity]) =>
        indicator.weight >= RELAPSE_TOP_TIER_WEIGHT && severity >= RELAPSE_SEVERE_SIGNAL,
    )
    .map(([indicator, severity]) => ({
      flag: true,
      level: "moderate",
      labels: [`${indicator.label} at severity ${severity} (a top-tier relapse indicator)`],
    }));
}

function coverageWarnings(collected: Collected, supplied: number): string[] {
  const warnings: string[] = [];
  for (const signal of collected.unrecognized)
    warnings.push(`Unrecognised relapse indicator "${signal}": not scored.`);
  for (const [indicator, count] of collected.counts)
    if (count > 1)
      warnings.push(
        `${indicator.label} was supplied ${count} times; the highest severity (${collected.severities.get(indicator)}) was used.`,
      );
  const known = RELAPSE_INDICATORS.length;
  if (supplied === 0)
    warnings.push(
      "No relapse indicator was recognised: relapse signals were not assessed; the score 0 is not a low risk.",
    );
  else if (supplied < known)
    warnings.push(`${supplied} of ${known} indicators supplied; absent indicators were not assumed normal.`);
  return warnings;
}

function scoreRisk(
  score: number,
  band: RelapseLevel,
  severities: ReadonlyMap<RelapseIndicator, number>,
): AgentRisk {
  if (severities.size === 0)
    return {
      flag: false,
      level: "none",
      labels: ["Relapse signals not assessed: no indicator was recognised"],
    };
  const risk = combineRisks([bandRisk(score, band), ...severeSignalRisks(severities)]);
  if (risk.level !== "none" || severities.size === RELAPSE_INDICATORS.length) return risk;
  // A low band from a partial set of indicators is not reassurance: say what was not supplied.
  return {
    ...risk,
    labels: [
      `Low composite from ${severities.size} of ${RELAPSE_INDICATORS.length} indicators; absent indicators not assessed`,
    ],
  };
}

/**
 * Scores supplied relapse signals (severity 0-1 each). Unknown indicators go to `unrecognized`
 * and `warnings`; duplicates keep the highest severity. Throws ToolInputError for a severity
 * outside 0-1 or not finite. Raising any severity never lowers the composite.
 */
export function scoreRelapse(signals: readonly RelapseSignalInput[]): RelapseSignalScore {
  assertScorable(signals);
  const collected = collectSignals(signals);
  const { severities } = collected;
  let sum = 0;
  for (const [indicator, severity] of severities) sum += indicator.weight * severity;
  const weightedSum = round((100 * sum) / TOTAL_WEIGHT);
  const strongestSignal = strongestSignalOf(severities);
  const compositeScore = round(clamp(Math.max(weightedSum, strongestSignal?.points ?? 0), 0, 100));
  const band = relapseSignalBandOf(compositeScore);
  return {
    compositeScore,
    band,
    contributing: contributionsOf(severities),
    unrecognized: collected.unrecognized,
    risk: scoreRisk(compositeScore, band, severities),
    warnings: coverageWarnings(collected, severities.size),
    coverage: { supplied: severities.size, known: RELAPSE_INDICATORS.length },
    assessed: severities.size > 0,
    weightedSum,
    strongestSignal,
  };
}
