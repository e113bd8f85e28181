/**
 * The relapse signal model's tables (decisions 76 and 78): the early-warning indicators with their
 * expert-set weights, review thresholds, aliases and sources, and the combination rules that set a
 * floor on the composite. Read by the agent tools `getSignalModel` and `scoreRelapse`
 * (tools/relapse-signals.ts); documented in docs/engines/relapse-signals.md.
 */

import type { RelapseLevel } from "../relapse.js";
import type { Evidence } from "./parameter-evidence.js";
import { MANIA_CLUSTERS, safetyConcept } from "./safety-concepts.js";
/**
 * Severities from which one indicator calls for clinician review by itself (decision 76). Both
 * apply only above severity 0: an indicator sent at 0 reports an absence.
 */
export interface RelapseReviewThresholds {
  /** At or above this severity: band and risk `high`, "Immediate clinician review". */
  immediate?: number;
  /** At or above this severity: at least band `elevated` and risk `moderate`, "Clinician review". */
  clinician?: number;
}

export interface RelapseIndicator {
  /** Key, e.g. "sleep_disruption". */
  indicator: string;
  label: string;
  aliases: string[];
  weight: number;
  description: string;
  source: string;
  /** Present on safety-critical indicators: the severities that call for review by themselves. */
  review?: RelapseReviewThresholds;
}

/**
 * A combination of indicators that sets a floor on the composite (decision 78): each group must be
 * met by a different supplied indicator at or above `minSeverity`.
 */
export interface RelapseCombinationRule {
  rule: string;
  label: string;
  groups: string[][];
  minSeverity: number;
  /** The band the composite is raised to at least. */
  band: RelapseLevel;
  source: string;
}

// ---------------------------------------------------------------------------------------------
// Indicators (weights expert-set; the order follows the strength of the cited evidence)

const BIRCHWOOD_2000 = "Birchwood, Spencer & McGovern 2000, Adv Psychiatr Treat 6:93-101";
const JACKSON_2003 = "Jackson, Cavanagh & Scott 2003, J Affect Disord 74:209-217";
const ANDRADE_2020 = "Andrade-Gonzalez et al. 2020, Eur Psychiatry 63:e12";

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
    indicator: "mood_stabiliser_discontinuation",
    label: "Stopped mood stabiliser or antipsychotic",
    aliases: [
      "stopped lithium",
      "lithium discontinuation",
      "stopped mood stabiliser",
      "stopped antipsychotic",
      "antipsychotic discontinuation",
    ],
    // Suppes et al. 1991: over half of new episodes within 10 weeks of stopping lithium, mania first.
    weight: 1.0,
    description:
      "Stopped, missed or reduced lithium, valproate, lamotrigine, carbamazepine or an antipsychotic (named, or as a class).",
    source:
      "Suppes et al. 1991, Arch Gen Psychiatry 48:1082-1088 (after stopping lithium, 50 % of remissions failed by 5 months; 25 % recurrence of mania by 2.7 months); Faedda et al. 1993, Arch Gen Psychiatry 50:448-455 (rapid stopping, 5-year HR 2.8 for mania)",
  },
  {
    indicator: "suicidality",
    label: "Suicidal ideation or self-harm",
    aliases: [
      "suicidal ideation",
      "suicidal thoughts",
      "thoughts of suicide",
      "suicidal intent",
      "suicide plan",
      "suicide attempt",
      "suicidal behaviour",
      "self-harm",
      "deliberate self-harm",
      "self-injury",
      "wish to be dead",
      "death wish",
      "si",
    ],
    // A safety finding, not only a weighted signal (decision 76).
    weight: 1.0,
    description: "Thoughts of suicide or of being dead, a plan or intent, self-harm.",
    source:
      "Safety rule, expert-set (decision 76); NICE CG185 (bipolar disorder) asks for a risk assessment at every review; C-SSRS screener items (the MSE catalog)",
    review: { immediate: 0 },
  },
  {
    indicator: "harm_to_others",
    label: "Thoughts of harming others",
    aliases: ["homicidal ideation", "homicidal thoughts", "violent thoughts", "hi"],
    // A safety finding like suicidality: never only a weighted signal (decision 76).
    weight: 1.0,
    description: "Thoughts, intent or threats of harming another person.",
    source: "Safety rule, expert-set (decision 76); no published weight exists for it as an early sign",
    review: { immediate: 0 },
  },
  {
    indicator: "command_hallucinations",
    label: "Command hallucinations",
    aliases: ["command hallucination", "command voices", "commanding voices", "imperative hallucinations"],
    weight: 1.0,
    description: "Voices that tell the person to do something, notably to harm self or others.",
    source: `Safety rule, expert-set (decision 76); psychotic early signs come late, close to relapse (${BIRCHWOOD_2000})`,
    review: { immediate: 0 },
  },
  {
    indicator: "psychotic_symptoms",
    label: "Psychotic symptoms",
    aliases: [
      "psychosis",
      "hallucinations",
      "hearing voices",
      "hearing things",
      "auditory hallucinations",
      "visual hallucinations",
      "voices",
      "delusions",
      "delusional beliefs",
      "unusual beliefs",
      "thought disorder",
      "positive symptoms",
    ],
    // Re-emerging psychotic experiences are the last early signs before relapse.
    weight: 0.9,
    description: "Hallucinations, delusions or thought disorder returning or increasing.",
    source: `${BIRCHWOOD_2000} (psychotic-like signs come late, close to relapse); review thresholds expert-set (decision 76)`,
    review: { clinician: 0, immediate: 0.5 },
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
    indicator: "decreased_need_for_sleep",
    label: "Decreased need for sleep",
    aliases: [
      "reduced need for sleep",
      "less need for sleep",
      "no need for sleep",
      "needing less sleep",
      "not needing sleep",
    ],
    // Sleep change is the most robust early symptom of mania (median prevalence 77 %).
    weight: 0.9,
    description: "Sleeping less without feeling tired: a manic or hypomanic early sign.",
    source: `${JACKSON_2003} (sleep disturbance, the most robust early symptom of mania, median 77 %)`,
  },
  {
    indicator: "sleep_disruption",
    label: "Sleep disruption",
    aliases: [
      "sleep disturbance",
      "insomnia",
      "reduced sleep",
      "short sleep",
      "sleep",
      "not sleeping",
      "sleeping less",
      "no sleep",
      "can't sleep",
    ],
    // Jackson et al. 2003: the most robust early symptom of mania (median prevalence 77 %).
    weight: 0.8,
    description: "Less, broken or irregular sleep.",
    source: `${JACKSON_2003}; Eisner et al. 2013, Clin Psychol Rev 33:637-653 (insomnia)`,
  },
  {
    indicator: "elevated_mood",
    label: "Elevated mood",
    aliases: [
      "euphoria",
      "euphoric mood",
      "elation",
      "elated mood",
      "expansive mood",
      "feeling high",
      "hypomania",
      "mania",
      "manic symptoms",
      "hypomanic symptoms",
      "grandiosity",
      "inflated self-esteem",
    ],
    weight: 0.8,
    description: "Elevated, expansive or euphoric mood; increased self-esteem or grandiosity.",
    source: `${ANDRADE_2020} (increased self-esteem among prodromes seen only before mania or hypomania); ${JACKSON_2003}`,
  },
  {
    indicator: "hopelessness",
    label: "Hopelessness",
    aliases: ["hopeless", "feeling hopeless", "pessimism", "no hope"],
    // Hopelessness predicts eventual suicide; in psychosis, even modest levels.
    weight: 0.7,
    description: "Feeling that things will not get better; pessimism about the future.",
    source: `${BIRCHWOOD_2000} (dysphoric early signs); Beck et al. 1985, Am J Psychiatry 142:559-563 (hopelessness predicted eventual suicide); Klonsky et al. 2012, Suicide Life Threat Behav 42:1-10 (in psychosis); review threshold expert-set (decision 76)`,
    review: { clinician: 0.5 },
  },
  {
    indicator: "suspiciousness",
    label: "Suspiciousness",
    aliases: ["paranoia", "paranoid", "paranoid ideation", "suspicion", "feeling watched"],
    // Psychotic-like early signs are less frequent but come late, close to relapse.
    weight: 0.7,
    description: "Feeling watched, laughed at or talked about; mistrust.",
    source: `Birchwood et al. 1989, Psychol Med 19:649-656; ${BIRCHWOOD_2000}`,
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
    indicator: "racing_thoughts",
    label: "Racing thoughts or pressured speech",
    aliases: [
      "flight of ideas",
      "pressured speech",
      "pressure of speech",
      "more talkative",
      "talkativeness",
      "talking fast",
    ],
    weight: 0.6,
    description: "Thoughts racing, talking more or faster than usual.",
    source: `${ANDRADE_2020} (more talkative, thoughts starting to race: seen only before mania or hypomania)`,
  },
  {
    indicator: "increased_activity",
    label: "Increased goal-directed activity",
    aliases: [
      "increased energy",
      "goal-directed activity",
      "overactivity",
      "excessive spending",
      "spending sprees",
    ],
    weight: 0.6,
    description: "More energy, activity, plans or spending than usual.",
    source: `${ANDRADE_2020} (increased energy or goal-directed behaviour, more activity, spending too much: seen only before mania or hypomania)`,
  },
  {
    indicator: "low_mood",
    label: "Low mood",
    aliases: ["depressed mood", "depression", "feeling down", "sadness", "anhedonia", "loss of interest"],
    weight: 0.6,
    description: "Low or depressed mood, loss of interest.",
    source: `${BIRCHWOOD_2000} (dysphoric signs the most commonly reported early signs); ${JACKSON_2003} (depressive prodromes less consistent than manic ones); ${ANDRADE_2020} (loss of interest before depression)`,
  },
  {
    indicator: "social_withdrawal",
    label: "Social withdrawal",
    aliases: ["isolation", "social isolation", "reduced social contact"],
    // Dysphoric signs, withdrawal among them, are the most commonly reported early signs.
    weight: 0.6,
    description: "Less contact with people; staying in.",
    source: `${BIRCHWOOD_2000}; Birchwood et al. 1989`,
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

/**
 * Combinations that raise the composite to at least a band (decision 78). The severity cut 0.5 is
 * expert-set: at least half the scale's severity on each side.
 */
export const RELAPSE_COMBINATION_RULES: readonly RelapseCombinationRule[] = [
  {
    rule: "mood_stabiliser_stopped_with_sleep_loss",
    label:
      "Stopped mood stabiliser or maintenance medication with reduced sleep or elevated mood: early recurrence of mania after stopping is common",
    groups: [
      ["mood_stabiliser_discontinuation", "medication_nonadherence"],
      ["decreased_need_for_sleep", "sleep_disruption", "elevated_mood"],
    ],
    minSeverity: 0.5,
    band: "high",
    source: `Suppes et al. 1991, Arch Gen Psychiatry 48:1082-1088; Faedda et al. 1993, Arch Gen Psychiatry 50:448-455; ${JACKSON_2003}; rule and cut expert-set (decision 78)`,
  },
  {
    rule: "manic_prodrome",
    label: "Possible manic or hypomanic prodrome",
    groups: indicatorGroups(MANIA_CLUSTERS[0]),
    minSeverity: 0.5,
    band: "elevated",
    source: `${JACKSON_2003}; ${ANDRADE_2020}; rule and cut expert-set (decision 78)`,
  },
  {
    rule: "sleep_loss_with_mania_signs",
    label: "Possible manic or hypomanic prodrome: sleep loss with pressured speech and increased activity",
    groups: indicatorGroups(MANIA_CLUSTERS[1]),
    minSeverity: 0.5,
    band: "elevated",
    source: `${JACKSON_2003}; NICE CG185 (early warning signs); rule and cut expert-set (decision 186)`,
  },
];

/** A mania cluster of the safety concepts, as relapse indicators (one definition, decision 186). */
function indicatorGroups(cluster: (typeof MANIA_CLUSTERS)[number] | undefined): string[][] {
  return (cluster ?? []).map((group) => [...new Set(group.map((key) => safetyConcept(key).indicator))]);
}

/**
 * The evidence level of each indicator's weight and review cuts, as docs/engines/relapse-signals.md
 * ("Indicators", generated, decision 217) prints it; the sources are the indicators' own. Kept
 * beside the table, not in it, because `getSignalModel` answers the indicators as they are. A test
 * keeps the keys and the indicators one to one.
 */
export const RELAPSE_INDICATOR_EVIDENCE_LEVELS: Readonly<Record<string, string>> = {
  medication_nonadherence: "expert-set (ordering from a published HR)",
  mood_stabiliser_discontinuation: "expert-set (ordering from published recurrence data)",
  suicidality: "expert-set safety rule",
  harm_to_others: "expert-set safety rule",
  command_hallucinations: "expert-set safety rule",
  psychotic_symptoms: "expert-set; review cuts expert-set",
  symptom_worsening: "expert-set",
  decreased_need_for_sleep: "expert-set (ordering from a systematic review)",
  sleep_disruption: "expert-set (ordering from a systematic review)",
  elevated_mood: "expert-set",
  hopelessness: "expert-set; review cut expert-set",
  suspiciousness: "expert-set",
  substance_use: "expert-set",
  racing_thoughts: "expert-set",
  increased_activity: "expert-set",
  low_mood: "expert-set",
  social_withdrawal: "expert-set",
  anxiety: "expert-set",
  irritability: "expert-set, not checked",
  reduced_activity: "expert-set",
  missed_appointments: "expert-set",
  stressful_life_events: "expert-set, no source checked",
  speech_latency_increase: "expert-set",
};

/**
 * The evidence of the signal model's cuts and floors (the tool's constants, each indicator's review
 * cuts, each combination rule's minimum severity), by the name docs/engines/evidence.md ("Agent
 * tool `scoreRelapse`", generated, decision 217) prints them under. Beside the tables, not in them,
 * because `getSignalModel` answers the indicators and rules as they are; the generator throws on a
 * printed value without an entry here, and a test keeps the keys and the values one to one.
 */
export const RELAPSE_RULE_EVIDENCE: Readonly<Record<string, Evidence>> = {
  RELAPSE_STRONGEST_SIGNAL_POINTS: {
    level: "expert-set",
    source:
      "The relapse engine's `levelHighMin`: one weight-1 indicator at full severity reaches the high band.",
  },
  RELAPSE_TOP_TIER_WEIGHT: {
    level: "expert-set",
    source:
      "Top tier = the indicators with the strongest cited evidence (non-adherence, a stopped mood stabiliser, sleep, the safety-critical ones).",
  },
  RELAPSE_SEVERE_SIGNAL: {
    level: "expert-set",
    source: "A top-tier indicator at this severity raises the risk to at least moderate.",
  },
  "suicidality.review.immediate": {
    level: "expert-set",
    source: "Safety rule (decision 76): any severity above 0 → high band, immediate clinician review.",
  },
  "harm_to_others.review.immediate": {
    level: "expert-set",
    source: "Safety rule (decision 76), as suicidality.",
  },
  "command_hallucinations.review.immediate": {
    level: "expert-set",
    source:
      "Safety rule (decision 76); psychotic signs come late, close to relapse (Birchwood, Spencer & McGovern 2000, _Adv Psychiatr Treat_ 6:93-101).",
  },
  "psychotic_symptoms.review.clinician": {
    level: "expert-set",
    source:
      "Re-emerging psychotic experiences are late early signs (Birchwood et al. 2000): any severity above 0 → elevated band, clinician review.",
  },
  "psychotic_symptoms.review.immediate": {
    level: "expert-set",
    source: "Half the scale or more → high band, immediate review.",
  },
  "hopelessness.review.clinician": {
    level: "expert-set",
    source:
      "Hopelessness predicted eventual suicide (Beck et al. 1985, _Am J Psychiatry_ 142:559-563; Klonsky et al. 2012, _Suicide Life Threat Behav_ 42:1-10).",
  },
  "mood_stabiliser_stopped_with_sleep_loss.minSeverity": {
    level: "expert-set",
    source:
      "Rule (decision 78) from Suppes et al. 1991, _Arch Gen Psychiatry_ 48:1082-1088, Faedda et al. 1993, 50:448-455, and Jackson et al. 2003; the cut is ours.",
  },
  "manic_prodrome.minSeverity": {
    level: "expert-set",
    source:
      "Rule (decision 78) from Jackson et al. 2003 and Andrade-González et al. 2020, _Eur Psychiatry_ 63:e12; the cut is ours.",
  },
  "sleep_loss_with_mania_signs.minSeverity": {
    level: "expert-set",
    source:
      "Rule (decision 186) from Jackson et al. 2003 (sleep disturbance the most robust early sign of mania) and NICE CG185 (early warning signs): sleep loss with both pressured speech and increased activity or spending; the cut is ours.",
  },
};
