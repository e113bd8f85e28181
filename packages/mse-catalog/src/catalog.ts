import {
  type Catalog,
  type CatalogDomain,
  type CatalogOption,
  CONFIDENCE_VALUES,
  type Coding,
  CSSRS_RECENCY_KEY,
  type CssrsDefinition,
  type DomainKey,
  LOINC,
  type ObservationMetadata,
  PROVENANCE_VALUES,
  SNOMED_CT,
} from "./types.js";

export const CATALOG_VERSION = "1";

/**
 * SNOMED CT codings used by the catalog. Each one was checked against a public source that pairs
 * the exact code with the concept's name before it went in; the source and the date checked are
 * in `CODE_SOURCES` below (printed in docs/mse.md, "SNOMED CT codes and where each was checked"). Concepts whose code could not
 * be checked are left uncoded (`codes: []`): a wrong code is worse than none. So is a coarse parent
 * on a specific finding (e.g. "Hallucinations" on command hallucinations): it loses the meaning.
 * Displays are the name the cited source gives: the fully specified name where a SNOMED CT browser
 * page was read, otherwise the term the source pairs with the code.
 */
const sct = (code: string, display: string): Coding => ({ system: SNOMED_CT, code, display });

export const CODES = {
  depressedMood: sct("366979004", "Depressed mood (finding)"),
  anxiety: sct("48694002", "Anxiety (finding)"),
  feelingIrritable: sct("55929007", "Feeling irritable (finding)"),
  suicidalThoughts: sct("6471006", "Suicidal thoughts (finding)"),
  suicidalIntent: sct("304594002", "Suicidal intent"),
  visualHallucinations: sct("64269007", "Visual hallucinations (finding)"),
  illusion: sct("5152006", "Illusion (finding)"),
  ideasOfReference: sct("41189006", "Ideas of reference (finding)"),
  accessToPlannedMeans: sct("711561004", "Has access to planned means of suicide (finding)"),
  suicideAttempt: sct("82313006", "Suicide attempt (event)"),
  previousSuicideAttempt: sct("23233009", "Previous known suicide attempt"),
} as const;

/**
 * Where each code of `CODES` was checked (all on 2026-11-23, in stored public copies), by the same
 * keys. docs/mse.md ("SNOMED CT codes and where each was checked") prints it beside the code, its
 * display and the options that carry it, generated (decision 217). Beside the codings, not in
 * them, because a coding goes into records and FHIR resources as it is. A row's "same ..." names a
 * source given in an earlier row.
 */
export const CODE_SOURCES: { readonly [K in keyof typeof CODES]: string } = {
  depressedMood:
    'India NRCeS ABDM FHIR IG ValueSet `MentalStatus` (`gauravvaishnav17/abdm-fhir-ig-fsh`, `input/fsh/valuesets/MentalStatus.fsh`: `366979004 "Depressed mood"`); a public FHIR code-mapping note (`366979004` — Depressed mood (finding)) gives the FSN. One other public value set labels it "Low mood (finding)": check the current term at release',
  anxiety:
    'HL7 mCODE IG example Conditions (`SCT#48694002 "Anxiety (finding)"`); same ABDM `MentalStatus` value set (`48694002 "Anxiety"`)',
  feelingIrritable:
    'same ABDM `MentalStatus` value set (`55929007 "Feeling irritable"`); SNOMED browser page of 106131003 Mood finding (IPS edition 20241216) lists "Feeling irritable (finding)" as a child',
  suicidalThoughts:
    'SNOMED International MBH CRG page "Is Suicidal ideation a synonym of Suicidal thoughts?" (confluence.snomedtools.org: "|Suicidal thoughts (finding)|, SCTID 6471006"); `SPiER-Project/adoption-guide` `ig/input/fsh/suicide-related-conditions.fsh` (`6471006 "Suicidal thoughts"`, recorded as validated on tx.fhir.org)',
  suicidalIntent:
    'same SPiER value set (`304594002 "Suicidal intent"`); Te Whatu Ora CINC FHIR IG (`tewhatuora/cinc-fhir-ig`, `input/fsh/canonical/MentalHealthAssessmentQuestionnaire.fsh`: `$sct#304594002 "Suicidal intent"`). FSN not seen',
  visualHallucinations:
    "SNOMED browser pages: international edition 20240201 and tx-dev.fhir.org (editions 45991000052106-20220531, 11000146104-20240930)",
  illusion:
    "SNOMED browser pages: tx.fhir.ch (2011000195101-20250607) and tx-dev.fhir.org (731000124108-20250301)",
  ideasOfReference: "SNOMED browser page: tx-dev.fhir.org (45991000052106-20220531)",
  accessToPlannedMeans: "SNOMED browser page: tx-dev.fhir.org (11000146104-20240930)",
  suicideAttempt:
    'HL7 Portugal Terminologias IG ValueSet CPARADM Cause of Admission (hl7.pt/fhir/Terminologias/ValueSet/cparadm-cause-of-admission-vs: `82313006`, designation en "Suicide attempt (event)"); same SPiER value set (`82313006 "Suicide attempt"`)',
  previousSuicideAttempt:
    'same SPiER value set (`23233009 "Previous known suicide attempt"`, its history-of-attempt code); Te Whatu Ora `MentalHealthAssessmentQuestionnaire.fsh` (`$sct#23233009 "Previous known suicide attempt"`). FSN not seen',
};

/**
 * Panel coding of the record: LOINC 10190-7 "Mental status Narrative", the code HL7 C-CDA uses for
 * its Mental Status section. It names the section (a document-section code), not an ordered panel;
 * no SNOMED CT procedure code for "mental status examination" could be verified, so none is used.
 */
export const PANEL: Coding = { system: LOINC, code: "10190-7", display: "Mental status Narrative" };

/** Signal names accepted in `supportingSignals` (dmse telemetry and wearable metrics). */
export const SUPPORTING_SIGNALS = [
  "latency",
  "response_latency",
  "speech_rate",
  "pause_duration",
  "blink_rate",
  "gaze",
  "psychomotor",
  "sustained_attention",
  "sleep_hours",
  "resting_heart_rate",
  "heart_rate_variability",
  "step_count",
] as const;

export const OBSERVATION_METADATA: ObservationMetadata = {
  provenanceValues: [...PROVENANCE_VALUES],
  confidenceValues: [...CONFIDENCE_VALUES],
  confidenceScore: { min: 0, max: 1 },
  supportingSignals: [...SUPPORTING_SIGNALS],
};

interface OptSpec {
  risk?: boolean;
  codes?: Coding[];
  excludes?: string[];
  /** This option contradicts every other option of its domain (a "within normal limits" chip). */
  excludesAll?: boolean;
}

type DraftOption = CatalogOption & { excludesAll?: boolean };

const opt = (value: string, label: string, spec: OptSpec = {}): DraftOption => ({
  value,
  label,
  risk: spec.risk ?? false,
  codes: spec.codes ?? [],
  ...(spec.excludes ? { excludes: spec.excludes } : {}),
  ...(spec.excludesAll ? { excludesAll: true } : {}),
});

function domain(
  key: DomainKey,
  label: string,
  multi: boolean,
  hasNote: boolean,
  drafts: DraftOption[],
): CatalogDomain {
  const values = drafts.map((d) => d.value);
  const options = drafts.map((d): CatalogOption => {
    const { excludesAll, ...option } = d;
    if (excludesAll) option.excludes = values.filter((v) => v !== d.value);
    return option;
  });
  // Exclusion is symmetric: if a excludes b, b excludes a.
  for (const o of options) {
    for (const other of o.excludes ?? []) {
      const target = options.find((x) => x.value === other);
      if (target && !(target.excludes ?? []).includes(o.value)) {
        target.excludes = [...(target.excludes ?? []), o.value];
      }
    }
  }
  return { key, label, type: "chips", multi, hasNote, options };
}

export const DOMAINS: readonly CatalogDomain[] = [
  domain("appearance", "Appearance", true, true, [
    opt("well_groomed", "Well groomed", { excludes: ["disheveled", "poor_hygiene"] }),
    opt("appropriately_dressed", "Appropriately dressed", { excludes: ["inappropriately_dressed"] }),
    opt("appears_stated_age", "Appears stated age", {
      excludes: ["appears_older_than_stated_age", "appears_younger_than_stated_age"],
    }),
    opt("appears_older_than_stated_age", "Appears older than stated age"),
    opt("appears_younger_than_stated_age", "Appears younger than stated age"),
    opt("disheveled", "Disheveled"),
    opt("poor_hygiene", "Poor hygiene"),
    opt("inappropriately_dressed", "Inappropriately dressed"),
    opt("underweight", "Appears underweight"),
    opt("visible_distress", "In visible distress"),
    opt("visible_self_harm", "Visible signs of self-harm", { risk: true }),
  ]),
  domain("behavior", "Behavior", true, true, [
    opt("calm", "Calm", { excludes: ["restless", "agitated", "aggressive"] }),
    opt("restless", "Restless"),
    opt("agitated", "Agitated"),
    opt("withdrawn", "Withdrawn"),
    opt("tearful", "Tearful"),
    opt("disinhibited", "Disinhibited"),
    opt("bizarre", "Bizarre behavior"),
    opt("responding_to_internal_stimuli", "Appears to respond to internal stimuli"),
    opt("aggressive", "Aggressive or threatening", { risk: true }),
  ]),
  domain("attitude", "Attitude", true, true, [
    opt("cooperative", "Cooperative", { excludes: ["uncooperative"] }),
    opt("engaged", "Engaged"),
    opt("guarded", "Guarded"),
    opt("suspicious", "Suspicious"),
    opt("evasive", "Evasive"),
    opt("hostile", "Hostile"),
    opt("uncooperative", "Uncooperative"),
    opt("irritable", "Irritable"),
  ]),
  domain("eye_contact", "Eye contact", false, false, [
    opt("appropriate", "Appropriate"),
    opt("intermittent", "Intermittent"),
    opt("poor", "Poor"),
    opt("avoidant", "Avoidant"),
    opt("intense", "Intense or staring"),
  ]),
  domain("psychomotor", "Psychomotor activity", true, true, [
    opt("normal", "No psychomotor abnormality", { excludesAll: true }),
    opt("retardation", "Psychomotor retardation"),
    opt("agitation", "Psychomotor agitation"),
    opt("tremor", "Tremor"),
    opt("tics", "Tics"),
    opt("abnormal_involuntary_movements", "Abnormal involuntary movements"),
    opt("catatonic_features", "Catatonic features"),
  ]),
  domain("speech", "Speech", true, true, [
    opt("normal", "Normal rate, rhythm and volume", { excludesAll: true }),
    opt("slowed", "Slowed", { excludes: ["rapid", "pressured"] }),
    opt("rapid", "Rapid"),
    opt("pressured", "Pressured"),
    opt("loud", "Loud", { excludes: ["soft"] }),
    opt("soft", "Soft"),
    opt("monotonous", "Monotonous"),
    opt("poverty_of_speech", "Reduced in quantity"),
    opt("slurred", "Slurred"),
    opt("increased_latency", "Increased response latency"),
  ]),
  domain("mood", "Mood", true, true, [
    opt("euthymic", "Euthymic", {
      excludes: ["depressed", "anxious", "irritable", "elevated", "dysphoric", "angry"],
    }),
    opt("depressed", "Depressed", { codes: [CODES.depressedMood] }),
    opt("anxious", "Anxious", { codes: [CODES.anxiety] }),
    opt("irritable", "Irritable", { codes: [CODES.feelingIrritable] }),
    opt("elevated", "Elevated"),
    opt("dysphoric", "Dysphoric"),
    opt("angry", "Angry"),
  ]),
  domain("affect", "Affect", true, true, [
    opt("full_range", "Full range", { excludes: ["restricted", "blunted", "flat"] }),
    opt("reactive", "Reactive", { excludes: ["flat"] }),
    opt("restricted", "Restricted", { excludes: ["blunted", "flat", "expansive"] }),
    opt("blunted", "Blunted", { excludes: ["flat", "expansive"] }),
    opt("flat", "Flat", { excludes: ["labile", "expansive"] }),
    opt("labile", "Labile"),
    opt("expansive", "Expansive"),
    opt("congruent", "Congruent with mood", { excludes: ["incongruent"] }),
    opt("incongruent", "Incongruent with mood"),
  ]),
  domain("thought_process", "Thought process", true, true, [
    opt("linear", "Linear and goal-directed", { excludesAll: true }),
    opt("circumstantial", "Circumstantial"),
    opt("tangential", "Tangential"),
    opt("flight_of_ideas", "Flight of ideas"),
    opt("loosening_of_associations", "Loosening of associations"),
    opt("thought_blocking", "Thought blocking"),
    opt("perseveration", "Perseveration"),
    opt("concrete", "Concrete"),
    opt("disorganized", "Disorganized"),
  ]),
  domain("thought_content", "Thought content", true, true, [
    opt("unremarkable", "Unremarkable", { excludesAll: true }),
    opt("suicidal_ideation", "Suicidal ideation", { risk: true, codes: [CODES.suicidalThoughts] }),
    opt("homicidal_ideation", "Homicidal ideation", { risk: true }),
    opt("delusions", "Delusions"),
    opt("paranoid_ideation", "Paranoid ideation"),
    opt("ideas_of_reference", "Ideas of reference", { codes: [CODES.ideasOfReference] }),
    opt("obsessions", "Obsessions"),
    opt("preoccupations", "Preoccupations"),
    opt("ruminations", "Ruminations"),
    opt("hopelessness", "Hopelessness"),
    opt("excessive_guilt", "Excessive guilt"),
    opt("phobias", "Phobias"),
  ]),
  domain("perception", "Perception", true, true, [
    opt("no_abnormality", "No perceptual abnormality", { excludesAll: true }),
    // No SNOMED CT code for auditory hallucinations could be verified (45150006 was removed).
    opt("auditory_hallucinations", "Auditory hallucinations"),
    // Commands are the risk-bearing form: the voice may direct harm to self or others. Uncoded: no
    // command-hallucination concept was verified, and the parent "Hallucinations" loses the meaning.
    opt("command_hallucinations", "Command hallucinations", { risk: true }),
    opt("visual_hallucinations", "Visual hallucinations", { codes: [CODES.visualHallucinations] }),
    opt("tactile_hallucinations", "Tactile hallucinations"),
    opt("olfactory_hallucinations", "Olfactory hallucinations"),
    opt("illusions", "Illusions", { codes: [CODES.illusion] }),
    opt("depersonalization", "Depersonalization"),
    opt("derealization", "Derealization"),
  ]),
  domain("risk", "Risk", true, true, [
    opt("denies_si_hi", "Denies suicidal and homicidal ideation", {
      excludes: [
        "passive_si",
        "active_si",
        "si_with_plan",
        "si_with_intent",
        "homicidal_ideation",
        "hi_with_plan_or_intent",
      ],
    }),
    opt("passive_si", "Passive death wish", { risk: true }),
    opt("active_si", "Active suicidal ideation", { risk: true, codes: [CODES.suicidalThoughts] }),
    opt("si_with_plan", "Suicidal ideation with a plan", { risk: true }),
    opt("si_with_intent", "Suicidal ideation with intent to act", {
      risk: true,
      codes: [CODES.suicidalIntent],
    }),
    opt("recent_suicide_attempt", "Suicide attempt within the past 3 months", {
      risk: true,
      codes: [CODES.suicideAttempt],
    }),
    opt("past_suicide_attempt", "Suicide attempt more than 3 months ago", {
      risk: true,
      codes: [CODES.previousSuicideAttempt],
    }),
    opt("non_suicidal_self_injury", "Non-suicidal self-injury", { risk: true }),
    opt("homicidal_ideation", "Homicidal ideation", { risk: true }),
    opt("hi_with_plan_or_intent", "Homicidal ideation with a plan or intent", { risk: true }),
    opt("access_to_means", "Access to planned means of suicide", {
      risk: true,
      codes: [CODES.accessToPlannedMeans],
    }),
    opt("protective_factors", "Protective factors identified"),
  ]),
  domain("orientation", "Orientation", true, false, [
    opt("fully_oriented", "Oriented to person, place and time", { excludesAll: true }),
    // Uncoded: no code for disorientation in time, place or person was verified, and the parent
    // "Disorientated" (62476001) would lose which sphere is affected.
    opt("disoriented_to_time", "Disoriented to time"),
    opt("disoriented_to_place", "Disoriented to place"),
    opt("disoriented_to_person", "Disoriented to person"),
  ]),
  domain("attention", "Attention and concentration", true, true, [
    opt("intact", "Attention and concentration intact", { excludesAll: true }),
    opt("easily_distracted", "Easily distracted"),
    opt("impaired_concentration", "Impaired concentration"),
    opt("inattentive", "Inattentive"),
  ]),
  domain("memory", "Memory", true, true, [
    opt("grossly_intact", "Grossly intact", { excludesAll: true }),
    opt("impaired_immediate", "Impaired immediate recall"),
    opt("impaired_recent", "Impaired recent memory"),
    opt("impaired_remote", "Impaired remote memory"),
  ]),
  domain("insight", "Insight", false, true, [
    opt("good", "Good"),
    opt("partial", "Partial"),
    opt("poor", "Poor"),
    opt("absent", "Absent"),
  ]),
  domain("judgment", "Judgment", false, true, [
    opt("good", "Good"),
    opt("fair", "Fair"),
    opt("poor", "Poor"),
    opt("impaired", "Impaired"),
  ]),
];

/**
 * C-SSRS screener (Columbia Lighthouse Project, screen version with triage). Item texts are our own
 * paraphrases that keep each item's meaning; they are not the instrument's wording. Clinicians
 * administering the screener use the official form.
 */
export const CSSRS: CssrsDefinition = {
  appliesTo: "risk",
  questions: [
    {
      id: "q1",
      order: 1,
      text: "Over the past month, has the person wanted to no longer be alive, for example hoping not to wake up?",
      timeframe: "past_month",
    },
    {
      id: "q2",
      order: 2,
      text: "Over the past month, has the person had any thoughts of ending their own life?",
      timeframe: "past_month",
    },
    {
      id: "q3",
      order: 3,
      text: "Over the past month, has the person thought about a way they could end their life, without meaning to act on it?",
      timeframe: "past_month",
    },
    {
      id: "q4",
      order: 4,
      text: "Over the past month, have those thoughts come with some intention of acting on them, though without a worked-out plan?",
      timeframe: "past_month",
    },
    {
      id: "q5",
      order: 5,
      text: "Over the past month, has the person worked out, or started to work out, the details of how to end their life, and do they mean to carry it out?",
      timeframe: "past_month",
    },
    {
      id: "q6",
      order: 6,
      text: "At any time in their life, has the person taken a step toward ending their life, such as an attempt, an attempt that was stopped, or preparations like gathering means? Record separately whether this was within the past 3 months.",
      timeframe: "lifetime_and_past_3_months",
    },
  ],
  recency: {
    id: CSSRS_RECENCY_KEY,
    appliesTo: "q6",
    text: "If item 6 is yes: did that step happen within the past 3 months?",
    timeframe: "past_3_months",
  },
  triage: [
    {
      level: "high",
      rule: "Yes to item 4 or item 5, or yes to item 6 with the behavior within the past 3 months (or its recency not recorded).",
    },
    {
      level: "moderate",
      rule: "Yes to item 3, or yes to item 6 with the behavior more than 3 months ago; or yes to item 2 with any of items 3-5 not yet answered (they must be asked, and a yes to 4 or 5 is high).",
    },
    {
      level: "low",
      rule: "Yes to item 1 or item 2 only, with items 3-5 answered no after a yes to item 2; or an incomplete screen with no higher answer and item 2 not yes (items 1, 2 and 6 are always asked, items 3-5 after a yes to item 2, and item 6 recency after a yes to item 6). An incomplete screen is never none.",
    },
  ],
  triageSource:
    "Columbia Lighthouse Project, C-SSRS Screener (recent, with triage points) and 'Clinical triage and workflow guidelines for the C-SSRS' (cssrs.columbia.edu).",
};

export const CATALOG: Catalog = {
  version: CATALOG_VERSION,
  panel: PANEL,
  observationMetadata: OBSERVATION_METADATA,
  domains: DOMAINS as CatalogDomain[],
  cssrs: CSSRS,
};

const DOMAIN_MAP: ReadonlyMap<string, CatalogDomain> = new Map(DOMAINS.map((d) => [d.key, d]));

/** The catalog as served by GET /v1/mse/domains: a deep copy, safe to mutate. */
export function getCatalog(): Catalog {
  return structuredClone(CATALOG);
}

/** Domain definition by key; undefined for an unknown key (prototype keys included). */
export function getDomain(key: string): CatalogDomain | undefined {
  return DOMAIN_MAP.get(key);
}

/** Option definition by domain key and value; undefined when unknown. */
export function getOption(domainKey: string, value: string): CatalogOption | undefined {
  return DOMAIN_MAP.get(domainKey)?.options.find((o) => o.value === value);
}
