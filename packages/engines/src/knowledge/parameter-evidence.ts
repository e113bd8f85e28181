/**
 * The evidence of every engine parameter and fixed engine constant: its evidence level and its
 * source, keyed by the parameter's name. The values stay in the engines' own tables
 * (`OUTCOME_DEFAULT_PARAMS` and the rest); each side table here is typed against them, so a
 * parameter added without its evidence fails the typecheck, and docs/engines/evidence.md prints
 * value, level and source together from both (generated, decision 217).
 */
import type { BiomarkerParams } from "../biomarker.js";
import type { DMSE_PLAUSIBLE_LIMITS, DmseParams } from "../dmse.js";
import type { MedicationParams } from "../medication.js";
import type { OutcomeParams } from "../outcome.js";
import type { OFF_MEDICATION_PRODROME, RelapseParams } from "../relapse.js";

/**
 * How strong a value's support is (docs/engines/evidence.md, "Evidence levels"): printed in the
 * source, computed from a printed figure, or chosen by us.
 */
export type EvidenceLevel = "published cut-off" | "derived" | "expert-set";

/** Where a value comes from and how strong that is. */
export interface Evidence {
  level: EvidenceLevel;
  source: string;
}

/** One `Evidence` for every key of a parameter table. */
export type EvidenceOf<T> = { readonly [K in keyof T]-?: Evidence };

/** The staleness rule's constants (knowledge/staleness.ts), by name, for their evidence. */
export interface StalenessConstants {
  SYMPTOM_SCORE_STALE_AFTER_DAYS: number;
  STALE_CONFIDENCE_CAP: string;
  STALE_CONFIDENCE_SCORE_CAP: number;
}

export const STALENESS_EVIDENCE: EvidenceOf<StalenessConstants> = {
  SYMPTOM_SCORE_STALE_AFTER_DAYS: {
    level: "expert-set",
    source:
      "The PHQ-9 and GAD-7 ask about the last two weeks (\"Over the last 2 weeks, how often have you been bothered by ...\"; Kroenke et al. 2001; Spitzer et al. 2006; the stem read on reproductions of the forms), so an older score describes a past fortnight. 90 days (a quarter without a new score) is the relapse engine's longest routine follow-up interval (`cadenceFullDays`) and the block's former stale-input limit. No source sets an age at which a score stops being current.",
  },
  STALE_CONFIDENCE_CAP: {
    level: "expert-set",
    source: "A reading resting on an old score is at most low confidence.",
  },
  STALE_CONFIDENCE_SCORE_CAP: {
    level: "expert-set",
    source:
      "The highest confidence score that maps to low in every engine (lowest moderate cut-off 0.45; the outcome engine's unanchored cap 0.3).",
  },
};

export const OUTCOME_PARAMETER_EVIDENCE: EvidenceOf<OutcomeParams> = {
  symptomsWeight: {
    level: "expert-set",
    source:
      "Largest cap: symptom scales are the validated measure of response (Kroenke et al. 2001). Caps sum to 100.",
  },
  dmseWeight: { level: "expert-set", source: "Latency is an unvalidated device measure; small cap." },
  medicationWeight: {
    level: "expert-set",
    source:
      "Only the polypharmacy penalty uses it; being on treatment contributes 0 (context, not evidence of response).",
  },
  biomarkerWeight: { level: "expert-set", source: "House rule." },
  sleepWeight: { level: "expert-set", source: "House rule." },
  symptomsFullChangePp: {
    level: "expert-set",
    source:
      "Full symptom contribution at 30 percentage points of the maximum, somewhat above the PHQ-9 reliable change (6/27 = 22 %).",
  },
  dmseFullPct: {
    level: "expert-set",
    source:
      "Three times the 10 % the medication engine counts as a latency change; no published minimal important change.",
  },
  polypharmacyMin: {
    level: "published cut-off",
    source:
      "Masnoon et al. 2017, _BMC Geriatr_ 17:230: five or more medicines is the most common definition of polypharmacy.",
  },
  biomarkerFullCount: { level: "expert-set", source: "Each watch item takes a third of the cap." },
  sleepRecommendedHours: {
    level: "published cut-off",
    source: "Watson et al. 2015, _J Clin Sleep Med_ 11:591-592: adults should sleep 7 hours or more.",
  },
  sleepLongHours: {
    level: "published cut-off",
    source:
      "Watson et al. 2015: more than 9 hours may be appropriate for some; its benefit is uncertain (no contribution).",
  },
  sleepShortFullHours: {
    level: "expert-set",
    source: "Full negative sleep contribution two hours short of the recommendation.",
  },
  sleepAdequateShare: {
    level: "expert-set",
    source:
      "Adequate sleep adds half the sleep cap, and only when it corroborates a reliable symptom improvement.",
  },
  directionThreshold: { level: "expert-set", source: "A composite within ±10 reads as no clear change." },
  confidenceAgreeHigh: {
    level: "expert-set",
    source: "The contract: confidence scales with independent agreeing sources; three agreeing = high.",
  },
  confidenceAgreeModerate: { level: "expert-set", source: "Two agreeing = moderate." },
  confidenceAgreementWeight: { level: "expert-set", source: "Blend of the 0-1 confidence score." },
  confidenceCoverageWeight: {
    level: "expert-set",
    source: "Blend of the 0-1 confidence score (history depth takes the remaining 0.2).",
  },
  confidenceDepthFullAdministrations: { level: "expert-set", source: "About six weeks of weekly scores." },
};

export const RELAPSE_PARAMETER_EVIDENCE: EvidenceOf<RelapseParams> = {
  symptomsMaxPoints: {
    level: "expert-set",
    source:
      "Largest factor: worsening self-report is the most direct warning sign (Barnett et al. 2018; Cohen et al. 2023). Maxima sum to 100.",
  },
  sleepMaxPoints: { level: "expert-set", source: "House rule." },
  dmseMaxPoints: { level: "expert-set", source: "House rule." },
  medicationRecentChangePoints: { level: "expert-set", source: "House rule." },
  medicationOffPoints: { level: "expert-set", source: "House rule." },
  cadenceMaxPoints: { level: "expert-set", source: "House rule." },
  symptomWindowDays: {
    level: "derived",
    source:
      "Adler et al. 2020, _JMIR mHealth uHealth_ 8:e19962: 30-day near-relapse window; Cohen et al. 2023 (_npj Schizophr_): anomalies 2.12x as frequent in the month before relapse.",
  },
  symptomSlopeZeroPp: { level: "expert-set", source: "Any rise counts." },
  symptomSlopeFullPp: {
    level: "expert-set",
    source:
      "Full points at 15 percentage points per 30 days, below the PHQ-9 reliable change (22 % of the maximum), so a reliable worsening within a month gets full points.",
  },
  symptomFindingShare: {
    level: "expert-set",
    source:
      "A severe latest score or a reliable deterioration gives the symptom factor its full points whatever the velocity.",
  },
  recencyFullWeightDays: {
    level: "derived",
    source:
      "Barnett et al. 2018, _Neuropsychopharmacology_ 43:1660-1666: behavioural anomalies 71 % more frequent in the 2 weeks before relapse.",
  },
  recencyMidWeightDays: { level: "derived", source: "Adler et al. 2020: 30-day window." },
  recencyMidWeight: { level: "expert-set", source: "House rule." },
  recencyStaleWeight: { level: "expert-set", source: "House rule." },
  sleepZeroHours: {
    level: "published cut-off",
    source: "Watson et al. 2015: adults should sleep 7 hours or more.",
  },
  sleepFullHours: { level: "expert-set", source: "Two hours short of the recommendation." },
  latencyZeroPct: {
    level: "expert-set",
    source: "As the medication engine; no published minimal important change for this latency measure.",
  },
  latencyFullPct: { level: "expert-set", source: "House rule." },
  medChangeWindowDays: {
    level: "derived",
    source: "Adler et al. 2020's 30-day window, applied to the period after a medication change.",
  },
  cadenceZeroDays: { level: "expert-set", source: "A visit within the 30-day window adds nothing." },
  cadenceFullDays: {
    level: "expert-set",
    source: "A quarter without contact, the longest routine follow-up assumed.",
  },
  levelModerateMin: { level: "expert-set", source: "Equal 20-point bands above low." },
  levelElevatedMin: { level: "expert-set", source: "Equal 20-point bands." },
  levelHighMin: { level: "expert-set", source: "Equal 20-point bands." },
  trendSlopePp: { level: "expert-set", source: "A third of the full-velocity slope." },
  confidenceCoverageWeight: { level: "expert-set", source: "Blend of factor coverage and history depth." },
  confidenceDepthFullAdministrations: { level: "expert-set", source: "About six weeks of weekly scores." },
  confidenceHighMin: {
    level: "expert-set",
    source: "Midpoints of evenly spaced levels, as the other engines.",
  },
  confidenceModerateMin: {
    level: "expert-set",
    source: "Midpoint of evenly spaced levels, as the other engines.",
  },
};

export const OFF_MEDICATION_PRODROME_EVIDENCE: EvidenceOf<typeof OFF_MEDICATION_PRODROME> = {
  windowDays: {
    level: "derived",
    source:
      "Suppes, Baldessarini, Faedda & Tohen 1991, _Arch Gen Psychiatry_ 48:1082-1088 (abstract): more than 50 % of new episodes came within 10 weeks of stopping lithium, mania earlier than depression.",
  },
  shortSleepHours: {
    level: "expert-set",
    source:
      "Half the sleep factor's range (7 h recommendation, Watson et al. 2015, to 5 h). Decreased need for sleep is among the commonest early signs of mania (Jackson, Cavanagh & Scott 2003, _J Affect Disord_ 74:209-217; abstract), but no source gives an hours cut-off for this use.",
  },
};

export const MEDICATION_PARAMETER_EVIDENCE: EvidenceOf<MedicationParams> = {
  phq9ReliableChangePoints: {
    level: "published cut-off",
    source: "Clark et al. 2018 (NHS Talking Therapies), see Instruments.",
  },
  gad7ReliableChangePoints: {
    level: "published cut-off",
    source: "Clark et al. 2018 (NHS Talking Therapies), see Instruments.",
  },
  improvementPctPoints: {
    level: "expert-set",
    source:
      "Recognised scales read off their published scale or without a sourced reliable change (AUDIT); equals `UNKNOWN_SCALE_CHANGE_PP`. A scale whose direction is not known is not compared (decision 60).",
  },
  worseningPctPoints: {
    level: "expert-set",
    source: "Same, symmetric; also passed to the symptom-findings reader for those scales.",
  },
  highConfidenceMinPerSide: {
    level: "expert-set",
    source: "Three administrations per side separate a baseline from one noisy score.",
  },
  moderateConfidenceMinPerSide: { level: "expert-set", source: "Two per side give a minimal comparison." },
  latencyImprovementPct: {
    level: "expert-set",
    source:
      'No published minimal important change for this latency measure; the corroboration line says "expert-set".',
  },
  latencyWorseningPct: {
    level: "expert-set",
    source: "Symmetric to `latencyImprovementPct`; no published minimal important change.",
  },
  confidencePointsHigh: { level: "expert-set", source: "Evenly spaced points." },
  confidencePointsModerate: { level: "expert-set", source: "Evenly spaced points." },
  confidencePointsLow: { level: "expert-set", source: "Evenly spaced points." },
  confidenceHighMin: { level: "expert-set", source: "Midpoint." },
  confidenceModerateMin: { level: "expert-set", source: "Midpoint." },
};

export const DMSE_PARAMETER_EVIDENCE: EvidenceOf<DmseParams> = {
  latencySubclinicalMinSeconds: {
    level: "expert-set",
    source:
      "Fixed by the interface contract (no source given). Longer response times in depression: Yamamoto et al. 2020, _PLoS One_ 15:e0238726; typical turn-taking gaps are about 200 ms (Stivers et al. 2009, _PNAS_ 106:10587-10592).",
  },
  latencyClinicalMinSeconds: {
    level: "expert-set",
    source: "Fixed by the interface contract (no source given).",
  },
  speechNormalMinWpm: {
    level: "expert-set",
    source: "About 150 wpm conversational English minus a quarter; no published clinical cut-off in wpm.",
  },
  speechNormalMaxWpm: { level: "expert-set", source: "About 150 wpm plus a quarter." },
  speechClinicalBelowWpm: {
    level: "expert-set",
    source:
      "Slower speech tracks depression severity (Cannizzaro et al. 2004; Mundt et al. 2012) but no study gives a wpm cut-off.",
  },
  speechClinicalAboveWpm: {
    level: "expert-set",
    source: "Pressured speech has no wpm threshold (DSM-5 describes it clinically).",
  },
  psychomotorReferenceSeconds: { level: "expert-set", source: "Rates per 10 minutes." },
  psychomotorMinNormaliseSeconds: {
    level: "expert-set",
    source: "Under a minute one episode would become an extreme rate.",
  },
  psychomotorSubclinicalMin: {
    level: "expert-set",
    source: "No published norm for device-counted fidget episodes.",
  },
  psychomotorClinicalMin: {
    level: "expert-set",
    source: "Same reasoning as the threshold above: no published norm for this device measure.",
  },
  attentionNormalMinPct: {
    level: "expert-set",
    source: "No published norm for share of session gaze on screen; gaze share is not a test of attention.",
  },
  attentionClinicalBelowPct: {
    level: "expert-set",
    source: "Same reasoning as the threshold above: no published norm for this device measure.",
  },
  trendSdMultiplier: {
    level: "derived",
    source:
      "Half an SD, the distribution-based minimal important difference (Norman, Sloan & Wyrwich 2003, _Med Care_ 41:582-592).",
  },
  trendRelativeMin: {
    level: "expert-set",
    source: "A 5 % floor so a near-zero SD does not turn noise into a trend.",
  },
  confidenceDurationFullSeconds: { level: "expert-set", source: "A 10-minute session." },
  confidenceHistoryFull: { level: "expert-set", source: "Five prior values." },
  confidenceDurationWeight: { level: "expert-set", source: "History depth takes the remaining 0.4." },
  confidenceHighMin: { level: "expert-set", source: "As the other engines." },
  confidenceModerateMin: { level: "expert-set", source: "As the other engines." },
};

export const DMSE_PLAUSIBLE_LIMITS_EVIDENCE: EvidenceOf<typeof DMSE_PLAUSIBLE_LIMITS> = {
  latencyMinSeconds: {
    level: "expert-set",
    source:
      "Below mean simple reaction time (about 0.16-0.19 s, Kosinski's review); under 0.1 s is a false start in athletics; Stivers et al. 2009.",
  },
  speechMaxWpm: {
    level: "derived",
    source:
      "The fastest recorded talker, Guinness World Records 1995 (secondary sources): the ceiling in a session shorter than a minute.",
  },
  psychomotorMaxPerSecond: {
    level: "expert-set",
    source: "An episode is a bout of movement; more bouts than seconds means the detector counted frames.",
  },
  speechMaxSustainedWpm: {
    level: "expert-set",
    source:
      "No one sustains more over a minute: record talkers' 586-655 wpm were recitations under a minute; debaters' fastest delivery 350-500 wpm (secondary sources).",
  },
  speechSustainedFromSeconds: {
    level: "expert-set",
    source:
      "The record bursts lasted under a minute (655 wpm in 23.8 s); from a minute on, or when the session length is not sent, the sustained ceiling applies.",
  },
  attentionMaxPct: {
    level: "derived",
    source: "Logical: gaze on screen is a share of the session (and not below 0 %).",
  },
  longestSessionSeconds: {
    level: "derived",
    source:
      "Logical: the longest session a request may describe (decision 40): the ceiling of a latency and, at one a second, of a fidget count.",
  },
};

export const BIOMARKER_PARAMETER_EVIDENCE: EvidenceOf<BiomarkerParams> = {
  confidencePointsHigh: { level: "expert-set", source: "As the medication engine." },
  confidencePointsModerate: { level: "expert-set", source: "As the medication engine." },
  confidencePointsLow: { level: "expert-set", source: "As the medication engine." },
  confidenceHighMin: { level: "expert-set", source: "As the medication engine." },
  confidenceModerateMin: { level: "expert-set", source: "As the medication engine." },
  staleAfterDays: {
    level: "expert-set",
    source: "About six months, the usual outer interval of routine psychotropic monitoring bloods.",
  },
};
