/**
 * When an input no longer describes the present (decision 62): the one staleness rule the
 * outcome, relapse and medication engines and the intelligence block all apply. Source and
 * evidence level: docs/engines/evidence.md ("Staleness").
 */
import type { ConfidenceLevel } from "../types.js";

/**
 * Expert-set: a symptom-scale score older than this many days is not a current picture. The
 * PHQ-9 and GAD-7 ask about the last two weeks (Kroenke et al. 2001; Spitzer et al. 2006), so an
 * older score describes a past fortnight; 90 days is a quarter without a new score, the longest
 * routine follow-up interval the relapse engine assumes (cadenceFullDays) and the intelligence
 * block's long-standing stale-input limit.
 */
export const SYMPTOM_SCORE_STALE_AFTER_DAYS = 90;

/** The highest confidence a reading resting on a stale input may have. */
export const STALE_CONFIDENCE_CAP: ConfidenceLevel = "low";

/**
 * The highest confidence score that still maps to `low` in every engine (the lowest moderate
 * cut-off of the engines is 0.45; 0.3 is the outcome engine's unanchored cap).
 */
export const STALE_CONFIDENCE_SCORE_CAP = 0.3;

const MS_PER_DAY = 86_400_000;

/** Age in days of an observation (never negative), or null without a time. */
export function ageInDays(observedAt: number | null, now: number): number | null {
  return observedAt === null ? null : Math.max(0, (now - observedAt) / MS_PER_DAY);
}

/** Older than the limit; an undated input is not stale (it is reported as undated instead). */
export function isStale(
  observedAt: number | null,
  now: number,
  limitDays: number = SYMPTOM_SCORE_STALE_AFTER_DAYS,
): boolean {
  const age = ageInDays(observedAt, now);
  return age !== null && age > limitDays;
}

const LEVEL_RANK: Readonly<Record<ConfidenceLevel, number>> = { low: 0, moderate: 1, high: 2 };

/**
 * Confidence with the staleness rule applied: a stale reading is at most `low` (score at most
 * STALE_CONFIDENCE_SCORE_CAP) with a reason naming the age; a current one is returned unchanged.
 * Ageing never raises confidence.
 */
export function capStaleConfidence<T extends { level: ConfidenceLevel; score: number; reasons: string[] }>(
  confidence: T,
  stale: boolean,
  reason: string,
): T {
  if (!stale) return confidence;
  const level =
    LEVEL_RANK[confidence.level] > LEVEL_RANK[STALE_CONFIDENCE_CAP] ? STALE_CONFIDENCE_CAP : confidence.level;
  return {
    ...confidence,
    level,
    score: Math.min(confidence.score, STALE_CONFIDENCE_SCORE_CAP),
    reasons: [reason, ...confidence.reasons],
  };
}
