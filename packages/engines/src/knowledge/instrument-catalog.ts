/**
 * The outcome instruments the agent tools can score, as the agents see them: a copy of each entry
 * of the knowledge table (knowledge/instruments.ts), where every figure is written once. Sources
 * and how far each was checked: docs/engines/instruments.md.
 */

import {
  INSTRUMENT_IDS,
  INSTRUMENTS,
  type InstrumentBand,
  type InstrumentId,
  type InstrumentRiskItem,
  recogniseInstrument,
  type ScaleDirection,
} from "./instruments.js";

export type { InstrumentBand, InstrumentId, InstrumentRiskItem } from "./instruments.js";

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
  /** Which way a worse state moves the total. */
  direction: ScaleDirection;
  /** False on higher-is-better scales (WHO-5, WEMWBS, SWEMWBS): the same fact as `direction`. */
  higherIsWorse: boolean;
  /** Totals are whole numbers (every item is scored in whole numbers). */
  wholeNumberTotals: boolean;
  /** Lowest first, covering totalMin..totalMax without gaps. */
  bands: InstrumentBand[];
  /** Smallest change in total, either way, that counts as reliable; null when none is sourced. */
  reliableChangePoints: number | null;
  riskItems: InstrumentRiskItem[];
  /** A risk the parent form screens and this short form leaves out (PHQ-8, PHQ-2: suicide risk). */
  riskNotScreened?: { screens: string; note: string };
  /** Items scored together, the highest of each group counting once (QIDS-SR16 domains). */
  domains?: number[][];
  /** Short citation for items, bands and reliable change. */
  source: string;
  /** How the numbers sent as responses must already be scored (reverse keying, etc.). */
  itemScoring: string;
  /** WHO-5 only: the raw total times this is the published percentage score. */
  percentPerPoint?: number;
  /** LOINC code of the total score, only when verified in a public LOINC source. */
  loinc?: string;
}

function definitionOf(id: InstrumentId): InstrumentDefinition {
  const k = INSTRUMENTS[id];
  return {
    id,
    display: k.display,
    itemCount: k.itemCount,
    itemMin: k.itemMin,
    itemMax: k.itemMax,
    ...(k.allowedItemValues
      ? {
          allowedItemValues: Object.fromEntries(
            Object.entries(k.allowedItemValues).map(([item, values]) => [item, [...values]]),
          ),
        }
      : {}),
    totalMin: k.totalMin,
    totalMax: k.totalMax,
    direction: k.direction,
    higherIsWorse: k.direction === "higher_is_worse",
    wholeNumberTotals: k.wholeNumberTotals,
    bands: k.bands.map((band) => ({ ...band })),
    reliableChangePoints: k.reliableChangePoints,
    riskItems: k.riskItems.map((riskItem) => ({ ...riskItem })),
    ...(k.riskNotScreened ? { riskNotScreened: { ...k.riskNotScreened } } : {}),
    ...(k.domains ? { domains: k.domains.map((domain) => [...domain]) } : {}),
    source: k.source,
    itemScoring: k.itemScoring,
    ...(k.percentPerPoint !== undefined ? { percentPerPoint: k.percentPerPoint } : {}),
    ...(k.loinc ? { loinc: k.loinc.total.code } : {}),
  };
}

/** Every instrument the tools can score (copies: callers cannot change the table). */
export function getInstruments(): InstrumentDefinition[] {
  return INSTRUMENT_IDS.map(definitionOf);
}

/**
 * The instrument a caller's name means, ignoring case, spaces and punctuation ("PHQ-9", "phq9",
 * "Patient Health Questionnaire-9", "EPDS", "Edinburgh Postnatal Depression Scale"), else null.
 */
export function findInstrument(name: string): InstrumentDefinition | null {
  const id = recogniseInstrument(name, name);
  return id === null ? null : definitionOf(id);
}
