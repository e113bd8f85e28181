/**
 * Relapse agent tools `getSignalModel` and `scoreRelapse`: documented early-warning indicators of
 * relapse with expert-set weights, a 0-100 composite and a band on the relapse engine's cut-offs.
 * The weights are an expert-set ordering derived from the cited studies, not fitted to outcome
 * data; the composite is not a probability. Absent indicators are "not supplied", never zero risk.
 *
 * On top of the weights (decisions 76 and 78): safety-critical indicators (suicidality, command
 * hallucinations, psychotic symptoms from a severity cut) call for clinician review by themselves,
 * and combinations (a stopped mood stabiliser with reduced sleep or elevated mood; a manic
 * prodrome) set a floor on the composite, so they are never outweighed or diluted. Names are read
 * robustly but a negated name is never read as the positive indicator (decision 77); an indicator
 * that is not scored never leaves the risk at `none`.
 * Indicators, weights, rules, formula and sources: docs/engines/relapse-signals.md.
 *
 * Decisions this module follows (docs/decisions.md): 76, safety-critical relapse signals call for
 * review by themselves; 77, reading relapse indicator names, names not scored; 78, combination
 * rules in the relapse signal model; 80, not evaluated is never `none`; 178, safety concepts, not
 * aliases; 186, negation is a word, not a stem, and sleep loss with two other mania signs is a
 * prodrome.
 */

import {
  RELAPSE_COMBINATION_RULES,
  RELAPSE_INDICATORS,
  type RelapseCombinationRule,
  type RelapseIndicator,
} from "../knowledge/relapse-signals.js";
import {
  readSafetyText,
  SAFETY_CONCEPTS,
  type SafetyConceptKey,
  safetyConcept,
} from "../knowledge/safety-concepts.js";
import { RELAPSE_DEFAULT_PARAMS, type RelapseLevel } from "../relapse.js";
import { clamp, round } from "../shared.js";
import {
  type AgentRisk,
  type AgentRiskLevel,
  type NotEvaluatedItem,
  riskWithNotEvaluated,
  ToolInputError,
  type ToolInputIssue,
} from "./types.js";

export {
  RELAPSE_COMBINATION_RULES,
  RELAPSE_INDICATORS,
  type RelapseCombinationRule,
  type RelapseIndicator,
  type RelapseReviewThresholds,
} from "../knowledge/relapse-signals.js";

export interface RelapseSignalModel {
  indicators: RelapseIndicator[];
  /** `min` inclusive, `max` exclusive, except the top band, which includes 100. */
  bands: { band: RelapseLevel; min: number; max: number }[];
  /** Combinations that raise the composite to at least a band, whatever the weights say. */
  combinationRules: RelapseCombinationRule[];
  /**
   * Additive: the safety concepts read in a phrase, each with the indicator it is
   * scored as, its SNOMED CT code where verified, and its source.
   */
  safetyConcepts: { concept: string; label: string; indicator: string; code?: string; source: string }[];
  method: string;
}

export interface RelapseContribution {
  indicator: string;
  label: string;
  severity: number;
  /** Points of the 0-100 composite's weighted sum. */
  contribution: number;
}

/** A review threshold or combination rule that fired, with the floor it set on the composite. */
export interface RelapseRuleFinding {
  /** `immediate_review`, `clinician_review` or a combination rule's id. */
  rule: string;
  indicators: string[];
  band: RelapseLevel;
  /** The composite is at least this many points. */
  floor: number;
  label: string;
}

/** A supplied indicator that was not scored, and why. */
export interface RelapseNotScored {
  indicator: string;
  reason: "unrecognised" | "negated";
  /** For a negated name: the indicator it names, when known. */
  negates?: string;
  /** Risk-lexicon words in the name that no concept explained: review at moderate. */
  riskWords?: string[];
  /**
   * The name was scored for what it reads positive, and this negated part of it was not
   * ("stopped lithium, denies SI"): flagged for review like a negated name.
   */
  partly?: true;
}

/** The safety concepts read in one supplied name, with their SNOMED CT codes. */
export interface RelapseConceptFinding {
  indicator: string;
  /** Concepts read positive, scored as the indicators they map to. */
  concepts: { concept: SafetyConceptKey; label: string; indicator: string; code?: string }[];
  /** Concepts mentioned only negated: not scored, flagged for review. */
  negated: SafetyConceptKey[];
}

export interface RelapseSignalScore {
  compositeScore: number;
  band: RelapseLevel;
  /** Sorted by contribution, largest first. */
  contributing: RelapseContribution[];
  /** Every supplied name that was not scored (unrecognised or negated), in input order. */
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
  /** Review thresholds and combination rules that fired (decisions 76 and 78). */
  rules: RelapseRuleFinding[];
  /** Why each name in `unrecognized` was not scored. */
  notScored: RelapseNotScored[];
  /** Additive: the safety concepts read in each supplied name that had any. */
  concepts: RelapseConceptFinding[];
}

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

/** The composite's lowest value in a band: a rule raising to a band sets this floor. */
function bandFloor(band: RelapseLevel): number {
  return BANDS.find((b) => b.band === band)?.min ?? 0;
}

const METHOD = `compositeScore = max(weighted sum, strongest-signal floor, rule floors), clamped to 0-100 and rounded to 2 decimals. Weighted sum = 100 x sum(weight x severity) over the supplied indicators / sum of all ${RELAPSE_INDICATORS.length} indicator weights; an indicator not supplied adds nothing and is not assumed normal. Strongest-signal floor = 60 x max(weight x severity), so one severe high-weight indicator is never diluted by other low signals. Rule floors: a safety-critical indicator at or above its immediate-review severity (suicidality, thoughts of harming others and command hallucinations at any severity above 0, psychotic symptoms from 0.5) raises the composite to the high band (60) with an immediate-review label; at or above a clinician-review severity (psychotic symptoms above 0, hopelessness from 0.5) to the elevated band (40); each combination rule met raises it to its band. Weights, cuts and rules are expert-set from the cited studies, not fitted to outcomes; bands use the relapse engine's cut-offs 20 / 40 / 60. A supplied name that is unrecognised or negated is not scored, is named in the output and keeps the risk at low or above. Not a probability of relapse.`;

/** The indicators, their weights and sources, the bands, the combination rules and the formula. */
export function getSignalModel(): RelapseSignalModel {
  return {
    indicators: RELAPSE_INDICATORS.map((i) => ({
      ...i,
      aliases: [...i.aliases],
      ...(i.review ? { review: { ...i.review } } : {}),
    })),
    bands: BANDS.map((b) => ({ ...b })),
    combinationRules: RELAPSE_COMBINATION_RULES.map((r) => ({
      ...r,
      groups: r.groups.map((g) => [...g]),
    })),
    safetyConcepts: SAFETY_CONCEPTS.map((c) => ({
      concept: c.concept,
      label: c.label,
      indicator: c.indicator,
      ...(c.code ? { code: c.code.code } : {}),
      source: c.source,
    })),
    method: METHOD,
  };
}

// ---------------------------------------------------------------------------------------------
// Matching: the exact name first, then words in any case, punctuation, plural and
// (where no other indicator shares the words) order; a negated name is never read as the positive.

/** Lower-case letters and digits only: "Sleep-Disruption" and "sleep disruption" match. */
function compactName(name: string): string {
  return name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]/g, "");
}

/** US spellings read as the UK ones the aliases use. */
const SPELLING: Readonly<Record<string, string>> = {
  stabilizer: "stabiliser",
  stabilizers: "stabiliser",
  behavior: "behaviour",
  behaviors: "behaviour",
  disorganized: "disorganised",
};

/** A plural "s" is dropped, but not from words whose singular ends in s (psychosis, anxious, stress). */
function singular(word: string): string {
  if (word.length > 4 && word.endsWith("s") && !/(ss|us|is)$/.test(word)) return word.slice(0, -1);
  return word;
}

/** Words that never change which indicator is meant (checked after plurals are folded). */
const FILLER = new Set(
  [
    "a",
    "an",
    "the",
    "of",
    "for",
    "my",
    "his",
    "her",
    "their",
    "your",
    "some",
    "any",
    "has",
    "have",
    "had",
    "having",
    "is",
    "are",
    "was",
    "reports",
    "reported",
    "reporting",
    "endorses",
    "endorsed",
    "endorsing",
    "experiencing",
  ].map(singular),
);

function wordsOf(name: string): string[] {
  return name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/['\u2019]/g, "")
    .split(/[^a-z0-9]+/)
    .filter((w) => w !== "")
    .map((w) => singular(SPELLING[w] ?? w))
    .filter((w) => !FILLER.has(w));
}

const BY_COMPACT = new Map<string, RelapseIndicator>();
const BY_WORDS = new Map<string, RelapseIndicator>();
/** Sorted words: the same words in another order. Keys two indicators share are left out. */
const BY_WORD_SET = new Map<string, RelapseIndicator | null>();
for (const indicator of RELAPSE_INDICATORS) {
  for (const name of [indicator.indicator, indicator.label, ...indicator.aliases]) {
    const compact = compactName(name);
    if (compact !== "" && !BY_COMPACT.has(compact)) BY_COMPACT.set(compact, indicator);
    const words = wordsOf(name.replace(/_/g, " "));
    const key = words.join(" ");
    if (key !== "" && !BY_WORDS.has(key)) BY_WORDS.set(key, indicator);
    const set = [...words].sort().join(" ");
    const seen = BY_WORD_SET.get(set);
    if (seen === undefined) BY_WORD_SET.set(set, indicator);
    else if (seen !== indicator) BY_WORD_SET.set(set, null);
  }
}

function indicatorByKey(key: string): RelapseIndicator {
  const found = RELAPSE_INDICATORS.find((i) => i.indicator === key);
  if (!found) throw new Error(`unknown relapse indicator ${key}`);
  return found;
}

/** Words that negate what follows or precedes them ("no", "denies", "absent", "resolved"). */
const NEGATION = new Set(
  [
    "no",
    "not",
    "nil",
    "none",
    "never",
    "without",
    "absent",
    "absence",
    "negative",
    "deny",
    "denies",
    "denied",
    "denying",
    "free",
    "resolved",
    "remitted",
    "doesnt",
    "didnt",
    "dont",
    "isnt",
    "wasnt",
    "arent",
    "hasnt",
    "havent",
  ].map(singular),
);

/** Words around a negation that name nothing ("no evidence of", "patient denies ... or ..."). */
const NEGATION_CONTEXT = new Set(["or", "and", "nor", "evidence", "patient", "sign", "current", "currently"]);

/** Phrases saying a medicine was stopped; the negations inside them are part of the phrase. */
const DISCONTINUATION_PHRASES =
  /\b(no longer taking|no longer on|not taking|not on|stopped taking|(poor|non|partial|low|reduced) (adherence|adherent|compliance|compliant))\b/g;
/**
 * Words that name psychotic symptoms or elevated mood wherever they stand in the phrase. The
 * safety concepts (knowledge/safety-concepts.ts) are read before these, by meaning.
 */
const KEYWORD_PATTERNS: readonly { pattern: RegExp; indicator: string }[] = [
  {
    pattern:
      /\bhallucinat|\bvoice\b|\bdelusion|\bpsychos[ie]|\bpsychotic\b|\bthought (disorder|broadcasting|insertion|withdrawal)\b/,
    indicator: "psychotic_symptoms",
  },
  { pattern: /\b(hypo)?mani(a|c)\b|\beuphori|\belat(ed|ion)\b|\bgrandios/, indicator: "elevated_mood" },
];

function readKeywords(phrase: string): RelapseIndicator | null {
  for (const { pattern, indicator } of KEYWORD_PATTERNS)
    if (pattern.test(phrase)) return indicatorByKey(indicator);
  return null;
}

/** Exact words, the same words in another order, then keywords. */
function readPositive(words: readonly string[]): RelapseIndicator | null {
  const phrase = words.join(" ");
  return BY_WORDS.get(phrase) ?? BY_WORD_SET.get([...words].sort().join(" ")) ?? readKeywords(phrase) ?? null;
}

export interface RelapseIndicatorReading {
  /** The indicator the name refers to, or null when unrecognised or negated. */
  indicator: RelapseIndicator | null;
  /**
   * Every indicator the name refers to: a phrase can name several safety concepts
   * ("stopped lithium, not sleeping, cut her arms"); `indicator` is the first. Empty when null.
   */
  indicators: RelapseIndicator[];
  /** True when the name negates an indicator ("no suicidal ideation", "denies voices"). */
  negated: boolean;
  /** For a negated name: the indicator it names, when known. */
  negates: RelapseIndicator | null;
  /** Safety concepts read positive in the name (knowledge/safety-concepts.ts). */
  concepts: SafetyConceptKey[];
  /** Safety concepts the name mentions only negated ("denies cutting"). */
  negatedConcepts: SafetyConceptKey[];
  /** Risk-lexicon words no concept explains ("talks about killing"): review, never `low`. */
  riskWords: string[];
}

function reading(
  indicators: RelapseIndicator[],
  rest: Partial<Omit<RelapseIndicatorReading, "indicator" | "indicators">> = {},
): RelapseIndicatorReading {
  return {
    indicator: indicators[0] ?? null,
    indicators,
    negated: false,
    negates: null,
    concepts: [],
    negatedConcepts: [],
    riskWords: [],
    ...rest,
  };
}

/**
 * Reads a caller's name: the exact key, label or alias (any case and punctuation, plurals, US
 * spellings and filler words folded) first. Then the safety concepts, by meaning:
 * self-harm and its methods, overdose, suicidal ideation, plan and behaviour, harm to others or a
 * child, command hallucinations, signs of mania and stopping any psychotropic, in any word form
 * and order; a concept found only negated makes the name negated. A name with a negation ("no",
 * "denies", "absent", "resolved", ...) outside a curated alias is otherwise negated, never
 * positive. Otherwise: the same words in another order where no other indicator has them, and
 * keywords of psychotic symptoms and elevated mood. An unrecognised name carries the risk words
 * no concept explained.
 */
export function readRelapseIndicator(name: string): RelapseIndicatorReading {
  const safety = readSafetyText(name);
  const concepts = safety.concepts.map((c) => c.concept);
  const negatedConcepts = safety.negated.map((c) => c.concept);
  const exact = BY_COMPACT.get(compactName(name)) ?? BY_WORDS.get(wordsOf(name).join(" "));
  if (exact) return reading([exact], { concepts, negatedConcepts });
  if (concepts.length > 0) {
    const indicators = [...new Set(safety.concepts.map((c) => indicatorByKey(c.indicator)))];
    return reading(indicators, { concepts, negatedConcepts });
  }
  if (negatedConcepts.length > 0)
    return reading([], {
      negated: true,
      negates: indicatorByKey(safety.negated[0]?.indicator ?? ""),
      negatedConcepts,
    });
  const riskWords = safety.unexplainedRiskWords.flatMap((s) => s.words);
  // "not taking lithium" is a discontinuation, not a negation: the phrase becomes "stopped".
  const phrase = wordsOf(name).join(" ").replace(DISCONTINUATION_PHRASES, "stopped");
  const words = phrase.split(" ").filter((w) => w !== "");
  if (words.some((w) => NEGATION.has(w))) {
    const rest = words.filter((w) => !NEGATION.has(w) && !NEGATION_CONTEXT.has(w));
    return reading([], { negated: true, negates: readPositive(rest), riskWords });
  }
  const positive = readPositive(words);
  return reading(positive ? [positive] : [], positive ? {} : { riskWords });
}

/** The indicator a caller's name refers to (key, label, alias or phrase), or null. */
export function findRelapseIndicator(name: string): RelapseIndicator | null {
  return readRelapseIndicator(name).indicator;
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
  notScored: RelapseNotScored[];
  concepts: RelapseConceptFinding[];
}

function conceptFinding(name: string, read: RelapseIndicatorReading): RelapseConceptFinding | null {
  if (read.concepts.length === 0 && read.negatedConcepts.length === 0) return null;
  return {
    indicator: name,
    concepts: read.concepts.map((key) => {
      const concept = safetyConcept(key);
      return {
        concept: key,
        label: concept.label,
        indicator: concept.indicator,
        ...(concept.code ? { code: concept.code.code } : {}),
      };
    }),
    negated: [...read.negatedConcepts],
  };
}

/** Duplicates keep the highest severity (a warning sign is not averaged away). */
function collectSignals(signals: readonly RelapseSignalInput[]): Collected {
  const severities = new Map<RelapseIndicator, number>();
  const counts = new Map<RelapseIndicator, number>();
  const notScored: RelapseNotScored[] = [];
  const concepts: RelapseConceptFinding[] = [];
  for (const signal of signals) {
    const read = readRelapseIndicator(signal.indicator);
    const finding = conceptFinding(signal.indicator, read);
    if (finding) concepts.push(finding);
    if (read.indicators.length === 0) {
      const riskWords = read.riskWords.length > 0 ? { riskWords: [...read.riskWords] } : {};
      notScored.push(
        read.negated
          ? {
              indicator: signal.indicator,
              reason: "negated",
              ...(read.negates ? { negates: read.negates.indicator } : {}),
              ...riskWords,
            }
          : { indicator: signal.indicator, reason: "unrecognised", ...riskWords },
      );
      continue;
    }
    const negatedPart = read.negatedConcepts[0];
    if (negatedPart && read.concepts.length > 0)
      notScored.push({
        indicator: signal.indicator,
        reason: "negated",
        negates: safetyConcept(negatedPart).indicator,
        partly: true,
      });
    for (const indicator of read.indicators) {
      severities.set(indicator, Math.max(severities.get(indicator) ?? 0, signal.severity));
      counts.set(indicator, (counts.get(indicator) ?? 0) + 1);
    }
  }
  return { severities, counts, notScored, concepts };
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

/** At or above the threshold, and above 0 (severity 0 reports an absence). */
function reaches(severity: number, threshold: number | undefined): boolean {
  return threshold !== undefined && severity > 0 && severity >= threshold;
}

/** Safety-critical indicators at their review severities. */
function reviewFindings(severities: ReadonlyMap<RelapseIndicator, number>): RelapseRuleFinding[] {
  const findings: RelapseRuleFinding[] = [];
  for (const [indicator, severity] of severities) {
    const review = indicator.review;
    if (!review) continue;
    if (reaches(severity, review.immediate))
      findings.push({
        rule: "immediate_review",
        indicators: [indicator.indicator],
        band: "high",
        floor: bandFloor("high"),
        label: `Immediate clinician review: ${indicator.label} at severity ${severity} (safety-critical indicator, never weighed against other signals)`,
      });
    else if (reaches(severity, review.clinician))
      findings.push({
        rule: "clinician_review",
        indicators: [indicator.indicator],
        band: "elevated",
        floor: bandFloor("elevated"),
        label: `Clinician review: ${indicator.label} at severity ${severity}`,
      });
  }
  return findings;
}

/** Distinct supplied indicators meeting each group in turn, or null (small sets: plain search). */
function meetGroups(
  groups: readonly (readonly string[])[],
  present: ReadonlySet<string>,
  used: readonly string[] = [],
): string[] | null {
  const [group, ...rest] = groups;
  if (!group) return [...used];
  for (const key of group) {
    if (!present.has(key) || used.includes(key)) continue;
    const met = meetGroups(rest, present, [...used, key]);
    if (met) return met;
  }
  return null;
}

/** Combination rules met. */
function combinationFindings(severities: ReadonlyMap<RelapseIndicator, number>): RelapseRuleFinding[] {
  const findings: RelapseRuleFinding[] = [];
  for (const rule of RELAPSE_COMBINATION_RULES) {
    const present = new Set(
      [...severities].filter(([, s]) => reaches(s, rule.minSeverity)).map(([i]) => i.indicator),
    );
    const met = meetGroups(rule.groups, present);
    if (!met) continue;
    const labels = met.map((key) => indicatorByKey(key).label).join(" + ");
    findings.push({
      rule: rule.rule,
      indicators: met,
      band: rule.band,
      floor: bandFloor(rule.band),
      label: `${rule.band === "high" ? "Prompt clinician review" : "Clinician review"}: ${rule.label} (${labels})`,
    });
  }
  return findings;
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

function isSafetyCritical(key: string | undefined): boolean {
  return key !== undefined && indicatorByKey(key).review?.immediate !== undefined;
}

/**
 * A name that was not scored is a not-evaluated item: it keeps the risk at low or
 * above and is named, in this tool's own wording. A negated safety-critical name
 * ("no suicidal ideation", "denies cutting") is not read as an absence: it asks for the
 * clinician's confirmation at moderate. So does a name with risk language that no safety concept
 * explains ("talks about killing"): never `low`.
 */
function notScoredItem(item: RelapseNotScored): NotEvaluatedItem {
  const what = `indicator "${item.indicator}"`;
  if (item.riskWords && item.riskWords.length > 0)
    return {
      what,
      why: "risk language not recognised as a concept",
      level: "moderate",
      label: `Clinician review: "${item.indicator}" has risk language (${item.riskWords.join(", ")}) that was not recognised as a safety concept and was not scored; confirm directly`,
    };
  if (item.reason === "unrecognised")
    return { what, why: "unrecognised", label: `Not scored: unrecognised indicator "${item.indicator}"` };
  if (item.partly)
    return {
      what,
      why: "negated part not scored",
      level: isSafetyCritical(item.negates) ? "moderate" : "low",
      label: `Clinician review: "${item.indicator}" also reads as a negated ${item.negates ?? "indicator"}, which was not scored; confirm directly`,
    };
  if (isSafetyCritical(item.negates))
    return {
      what,
      why: "negated safety-critical indicator",
      level: "moderate",
      label: `Clinician review: "${item.indicator}" reads as a negated safety-critical indicator and was not scored; confirm directly`,
    };
  return { what, why: "negated", label: `Not scored: negated indicator "${item.indicator}"` };
}

function notScoredWarning(item: RelapseNotScored): string {
  if (item.reason === "unrecognised")
    return `Unrecognised relapse indicator "${item.indicator}": not scored.`;
  if (item.partly)
    return `Relapse indicator "${item.indicator}" also reads as a negated ${item.negates ?? "indicator"}: that part was not scored and is not read as an absence.`;
  return `Negated relapse indicator "${item.indicator}": not scored and not read as an absence; send an absent sign as the indicator with severity 0.`;
}

function coverageWarnings(collected: Collected, supplied: number): string[] {
  const warnings = collected.notScored.map(notScoredWarning);
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
  collected: Collected,
  rules: readonly RelapseRuleFinding[],
): AgentRisk {
  const { severities, notScored } = collected;
  const notScoredItems = notScored.map(notScoredItem);
  if (severities.size === 0)
    return riskWithNotEvaluated(
      [{ flag: false, level: "none", labels: ["Relapse signals not assessed: no indicator was recognised"] }],
      notScoredItems,
    );
  const ruleRisks = rules.map(
    (r): AgentRisk => ({ flag: true, level: BAND_RISK[r.band], labels: [r.label] }),
  );
  const risk = riskWithNotEvaluated(
    [...ruleRisks, bandRisk(score, band), ...severeSignalRisks(severities)],
    notScoredItems,
  );
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
 * Scores supplied relapse signals (severity 0-1 each). Safety-critical indicators and combination
 * rules set floors on the composite (never outweighed); unknown or negated names go to
 * `unrecognized`, `notScored` and `warnings` and keep the risk at low or above; duplicates keep the
 * highest severity. Throws ToolInputError for a severity outside 0-1 or not finite. Adding a signal
 * or raising any severity never lowers the composite or the risk level.
 */
export function scoreRelapse(signals: readonly RelapseSignalInput[]): RelapseSignalScore {
  assertScorable(signals);
  const collected = collectSignals(signals);
  const { severities } = collected;
  let sum = 0;
  for (const [indicator, severity] of severities) sum += indicator.weight * severity;
  const weightedSum = round((100 * sum) / TOTAL_WEIGHT);
  const strongestSignal = strongestSignalOf(severities);
  const rules = [...reviewFindings(severities), ...combinationFindings(severities)];
  const ruleFloor = Math.max(0, ...rules.map((r) => r.floor));
  const compositeScore = round(clamp(Math.max(weightedSum, strongestSignal?.points ?? 0, ruleFloor), 0, 100));
  const band = relapseSignalBandOf(compositeScore);
  return {
    compositeScore,
    band,
    contributing: contributionsOf(severities),
    unrecognized: collected.notScored.map((n) => n.indicator),
    risk: scoreRisk(compositeScore, band, collected, rules),
    warnings: coverageWarnings(collected, severities.size),
    coverage: { supplied: severities.size, known: RELAPSE_INDICATORS.length },
    assessed: severities.size > 0,
    weightedSum,
    strongestSignal,
    rules,
    notScored: collected.notScored,
    concepts: collected.concepts,
  };
}
