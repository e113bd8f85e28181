/**
 * The outcome instruments the agent tools can score: item counts, item ranges, published bands,
 * reliable-change points and the items that bear on risk. The PHQ-9 and GAD-7 bands, maxima and
 * reliable-change points come from `instruments.ts` (one definition); the other four are defined
 * here. Every figure, its source and how far it was checked: docs/engines/instruments.md.
 */

import {
  INSTRUMENT_PROFILES,
  type KnownInstrument,
  normaliseInstrumentText,
  recogniseInstrument,
} from "../instruments.js";

export type InstrumentId = "phq9" | "gad7" | "pcl5" | "audit" | "who5" | "epds";

/** One published band of total scores, `min` to `max` inclusive. */
export interface InstrumentBand {
  key: string;
  label: string;
  min: number;
  max: number;
}

/** An item whose answer above 0 bears on risk whatever the total (1-based item number). */
export interface InstrumentRiskItem {
  item: number;
  label: string;
  /** What goes unscreened when the item is not available, e.g. "suicide risk". */
  screens: string;
}

export interface InstrumentDefinition {
  id: InstrumentId;
  display: string;
  itemCount: number;
  itemMin: number;
  itemMax: number;
  /** Items (1-based) whose allowed scores are not every whole number from itemMin to itemMax. */
  allowedItemValues?: Record<number, number[]>;
  totalMin: number;
  totalMax: number;
  /** False for the WHO-5, where a higher score means better wellbeing. */
  higherIsWorse: boolean;
  /** Lowest first, covering totalMin..totalMax without gaps. */
  bands: InstrumentBand[];
  /** Smallest change in total, either way, that counts as reliable; null when none is sourced. */
  reliableChangePoints: number | null;
  riskItems: InstrumentRiskItem[];
  /** Short citation for items, bands and reliable change. */
  source: string;
  /** How the numbers sent as responses must already be scored (reverse keying, etc.). */
  itemScoring: string;
  /** WHO-5 only: the raw total times this is the published percentage score. */
  percentPerPoint?: number;
  /** LOINC code of the total score, only when verified in a public LOINC source. */
  loinc?: string;
}

const fromProfile = (
  profile: KnownInstrument,
): Pick<InstrumentDefinition, "display" | "totalMax" | "bands" | "reliableChangePoints" | "source"> => {
  const published = INSTRUMENT_PROFILES[profile];
  return {
    display: published.display,
    totalMax: published.maxScore,
    bands: published.bands.map((band) => ({ ...band })),
    reliableChangePoints: published.reliableChangePoints,
    source: published.source,
  };
};

// PHQ-9: 9 items scored 0-3 (Kroenke, Spitzer & Williams 2001, J Gen Intern Med 16:606-613).
// Bands, maximum and reliable change (6 points, NHS Talking Therapies) from INSTRUMENT_PROFILES.
// Item 9 asks about thoughts of being better off dead or of self-harm; a higher answer carries a
// higher later risk of suicide attempt and death (Simon et al. 2013, Psychiatr Serv,
// doi:10.1176/appi.ps.201200587).
const PHQ9: InstrumentDefinition = {
  id: "phq9",
  ...fromProfile("phq9"),
  itemCount: 9,
  itemMin: 0,
  itemMax: 3,
  totalMin: 0,
  higherIsWorse: true,
  riskItems: [{ item: 9, label: "thoughts of death or self-harm", screens: "suicide risk" }],
  itemScoring: "0 not at all, 1 several days, 2 more than half the days, 3 nearly every day",
  // LOINC 44261-6 (verified) is held in packages/intelligence terminology (LOINC_INSTRUMENTS),
  // which the engines cannot import; not restated here.
};

// GAD-7: 7 items scored 0-3 (Spitzer, Kroenke, Williams & Löwe 2006, Arch Intern Med
// 166:1092-1097). Bands, maximum and reliable change (4 points) from INSTRUMENT_PROFILES.
const GAD7: InstrumentDefinition = {
  id: "gad7",
  ...fromProfile("gad7"),
  itemCount: 7,
  itemMin: 0,
  itemMax: 3,
  totalMin: 0,
  higherIsWorse: true,
  riskItems: [],
  itemScoring: "0 not at all, 1 several days, 2 more than half the days, 3 nearly every day",
};

// PCL-5: 20 items scored 0-4, total 0-80 (Blevins, Weathers, Davis, Witte & Domino 2015,
// J Trauma Stress 28:489-498). Provisional PTSD cut-point 31-33 (National Center for PTSD); no
// empirically derived severity ranges exist, so the bands only place a score against that range.
const PCL5_POSSIBLE_MIN = 31; // lower end of the NCPTSD 31-33 cut-point range
const PCL5_PROBABLE_MIN = 33; // upper end: positive under every cut-point in the range
// NCPTSD: 5-10 points reliable change (from PCL for DSM-IV data). The top of that range is used;
// Marx et al. 2022 (Psychol Assess 34:197-203) found 15-18 points in two veteran trial samples,
// so even 10 may call some noise reliable. Evidence level: published range, value expert-set.
const PCL5_RELIABLE_CHANGE_POINTS = 10;
const PCL5: InstrumentDefinition = {
  id: "pcl5",
  display: "PCL-5",
  itemCount: 20,
  itemMin: 0,
  itemMax: 4,
  totalMin: 0,
  totalMax: 80,
  higherIsWorse: true,
  bands: [
    {
      key: "below_threshold",
      label: "below the provisional PTSD cut-point",
      min: 0,
      max: PCL5_POSSIBLE_MIN - 1,
    },
    {
      key: "possible_ptsd",
      label: "possible PTSD (within the 31-33 cut-point range)",
      min: PCL5_POSSIBLE_MIN,
      max: PCL5_PROBABLE_MIN - 1,
    },
    { key: "probable_ptsd", label: "probable PTSD (provisional)", min: PCL5_PROBABLE_MIN, max: 80 },
  ],
  reliableChangePoints: PCL5_RELIABLE_CHANGE_POINTS,
  riskItems: [],
  source:
    "Blevins et al. 2015 (items); National Center for PTSD (31-33 cut-point, 5-10 point reliable change); Marx et al. 2022",
  itemScoring: "0 not at all, 1 a little bit, 2 moderately, 3 quite a bit, 4 extremely",
};

// AUDIT: 10 items; items 1-8 scored 0-4, items 9 and 10 scored 0, 2 or 4; total 0-40. Risk zones
// I 0-7, II 8-15, III 16-19, IV 20-40 (Babor, Higgins-Biddle, Saunders & Monteiro 2001, WHO
// AUDIT manual 2nd ed., WHO/MSD/MSB/01.6a). No sourced reliable-change figure: null.
// LOINC 75624-7 "Total score [AUDIT]" (loinc.org 75624-7; panel 72110-0 on cdn.loinc.org).
const AUDIT_YES_NO_ITEM_VALUES = [0, 2, 4];
const AUDIT: InstrumentDefinition = {
  id: "audit",
  display: "AUDIT",
  itemCount: 10,
  itemMin: 0,
  itemMax: 4,
  allowedItemValues: { 9: AUDIT_YES_NO_ITEM_VALUES, 10: AUDIT_YES_NO_ITEM_VALUES },
  totalMin: 0,
  totalMax: 40,
  higherIsWorse: true,
  bands: [
    { key: "zone_1", label: "zone I: low-risk drinking", min: 0, max: 7 },
    { key: "zone_2", label: "zone II: hazardous drinking", min: 8, max: 15 },
    { key: "zone_3", label: "zone III: harmful drinking", min: 16, max: 19 },
    { key: "zone_4", label: "zone IV: possible alcohol dependence", min: 20, max: 40 },
  ],
  reliableChangePoints: null,
  riskItems: [],
  source: "Babor et al. 2001, WHO AUDIT manual (2nd ed.)",
  itemScoring:
    "items 1-8 scored 0-4; items 9-10 scored 0 (no), 2 (yes, not in the last year), 4 (yes, last year)",
  loinc: "75624-7",
};

// WHO-5: 5 items scored 0-5, raw total 0-25 (x4 = percentage). Higher is better. Raw <= 12
// (percentage <= 50) is poor wellbeing and an indication to screen for depression; percentage
// <= 28 (raw <= 7) suggests likely depression (Topp, Østergaard, Søndergaard & Bech 2015,
// Psychother Psychosom 84:167-176; the <= 28 figure was seen only in secondary summaries).
const WHO5_PERCENT_PER_RAW_POINT = 4;
const WHO5_LIKELY_DEPRESSION_MAX_RAW = 7; // 28 % / 4
const WHO5_POOR_WELLBEING_MAX_RAW = 12; // <= 50 %, i.e. raw below 13
// "A 10 % difference indicates a significant change" (WHO-5 scoring notes, after Ware 1995):
// 10 percentage points = 2.5 raw points (derived).
const WHO5_RELIABLE_CHANGE_RAW = 10 / WHO5_PERCENT_PER_RAW_POINT;
const WHO5: InstrumentDefinition = {
  id: "who5",
  display: "WHO-5",
  itemCount: 5,
  itemMin: 0,
  itemMax: 5,
  totalMin: 0,
  totalMax: 25,
  higherIsWorse: false,
  bands: [
    {
      key: "likely_depression",
      label: "very low wellbeing (28 % or less): likely depression, assess",
      min: 0,
      max: WHO5_LIKELY_DEPRESSION_MAX_RAW,
    },
    {
      key: "poor_wellbeing",
      label: "poor wellbeing (50 % or less): screen for depression",
      min: WHO5_LIKELY_DEPRESSION_MAX_RAW + 1,
      max: WHO5_POOR_WELLBEING_MAX_RAW,
    },
    {
      key: "above_poor_wellbeing_cut",
      label: "above the poor-wellbeing cut-off",
      min: WHO5_POOR_WELLBEING_MAX_RAW + 1,
      max: 25,
    },
  ],
  reliableChangePoints: WHO5_RELIABLE_CHANGE_RAW,
  riskItems: [],
  source: "Topp et al. 2015 (cut-offs); WHO-5 scoring notes (10 percentage-point change)",
  itemScoring: "0 at no time ... 5 all of the time (raw item scores, not percentages)",
  percentPerPoint: WHO5_PERCENT_PER_RAW_POINT,
};

// EPDS: 10 items scored 0-3 after the form's reverse keying, total 0-30 (Cox, Holden & Sagovsky
// 1987, Br J Psychiatry 150:782-786). Above 12/13 probable depression; 10 or more where greater
// sensitivity is wanted; any answer above 0 on item 10 (thoughts of harming oneself) always
// prompts assessment (scale instructions). Reliable change 4 points (Matthey 2004, J Affect
// Disord 78:269-272, Jacobson-Truax RCI).
const EPDS_POSSIBLE_MIN = 10;
const EPDS_PROBABLE_MIN = 13;
const EPDS_RELIABLE_CHANGE_POINTS = 4;
const EPDS: InstrumentDefinition = {
  id: "epds",
  display: "EPDS",
  itemCount: 10,
  itemMin: 0,
  itemMax: 3,
  totalMin: 0,
  totalMax: 30,
  higherIsWorse: true,
  bands: [
    { key: "below_cut_off", label: "below the screening cut-off", min: 0, max: EPDS_POSSIBLE_MIN - 1 },
    {
      key: "possible_depression",
      label: "possible depression",
      min: EPDS_POSSIBLE_MIN,
      max: EPDS_PROBABLE_MIN - 1,
    },
    { key: "probable_depression", label: "probable depression", min: EPDS_PROBABLE_MIN, max: 30 },
  ],
  reliableChangePoints: EPDS_RELIABLE_CHANGE_POINTS,
  riskItems: [{ item: 10, label: "thoughts of harming oneself", screens: "self-harm risk" }],
  source: "Cox et al. 1987 (items, cut-offs, item 10); Matthey 2004 (reliable change)",
  itemScoring: "each item 0-3 with 3 the most symptomatic, after the form's reverse keying (items 3, 5-10)",
};

const CATALOG: readonly InstrumentDefinition[] = [PHQ9, GAD7, PCL5, AUDIT, WHO5, EPDS];

/**
 * Names (lower-case letters and digits only) that mean each instrument beyond the PHQ-9 and
 * GAD-7, which `recogniseInstrument` knows. Exact matches only: "PCL-C", "AUDIT-C" and "WHO-10"
 * are other instruments.
 */
const OTHER_INSTRUMENT_NAMES: readonly {
  id: Exclude<InstrumentId, KnownInstrument>;
  names: readonly string[];
}[] = [
  {
    id: "pcl5",
    names: [
      "pcl5",
      "pcl5total",
      "ptsdchecklist5",
      "ptsdchecklistfordsm5",
      "ptsdchecklistdsm5",
      "posttraumaticstressdisorderchecklistfordsm5",
      "posttraumaticstressdisorderchecklistdsm5",
    ],
  },
  {
    id: "audit",
    names: [
      "audit",
      "audit10",
      "audittotal",
      "alcoholusedisordersidentificationtest",
      "alcoholusedisorderidentificationtest",
    ],
  },
  {
    id: "who5",
    names: [
      "who5",
      "who5total",
      "who5wellbeingindex",
      "whofivewellbeingindex",
      "worldhealthorganization5wellbeingindex",
      "worldhealthorganisation5wellbeingindex",
      "worldhealthorganizationfivewellbeingindex",
      "worldhealthorganisationfivewellbeingindex",
      "worldhealthorganizationwellbeingindex",
      "worldhealthorganisationwellbeingindex",
    ],
  },
  {
    id: "epds",
    names: [
      "epds",
      "epdstotal",
      "edinburghpostnataldepressionscale",
      "edinburghpostnataldepressionscaleepds",
      "edinburghdepressionscale",
    ],
  },
];

/** Every instrument the tools can score (copies: callers cannot change the catalog). */
export function getInstruments(): InstrumentDefinition[] {
  return CATALOG.map(copyDefinition);
}

/**
 * The instrument a caller's name means, ignoring case, spaces and punctuation ("PHQ-9", "phq9",
 * "Patient Health Questionnaire-9", "EPDS", "Edinburgh Postnatal Depression Scale"), else null.
 */
export function findInstrument(name: string): InstrumentDefinition | null {
  const id = instrumentIdOf(name);
  const definition = id === null ? undefined : CATALOG.find((entry) => entry.id === id);
  return definition ? copyDefinition(definition) : null;
}

function instrumentIdOf(name: string): InstrumentId | null {
  const known = recogniseInstrument(name, name);
  if (known !== null) return known;
  const key = normaliseInstrumentText(name);
  return OTHER_INSTRUMENT_NAMES.find((entry) => entry.names.includes(key))?.id ?? null;
}

function copyDefinition(definition: InstrumentDefinition): InstrumentDefinition {
  return {
    ...definition,
    bands: definition.bands.map((band) => ({ ...band })),
    riskItems: definition.riskItems.map((riskItem) => ({ ...riskItem })),
    ...(definition.allowedItemValues
      ? {
          allowedItemValues: Object.fromEntries(
            Object.entries(definition.allowedItemValues).map(([item, values]) => [item, [...values]]),
          ),
        }
      : {}),
  };
}
