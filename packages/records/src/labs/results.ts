import {
  type AnalyteEntry,
  analyteByKey,
  type Biomarker,
  chooseLoinc,
  evaluateAnalyteValue,
  findPanelDefinition,
  PANEL_DEFINITIONS,
  resolveUnit,
} from "@svc/engines";
import { seededRandom } from "../seeded-random.js";

/**
 * Sandbox lab results: deterministic, plausible readings per panel, seeded by the order id, in
 * the Biomarker input shape of POST /v1/biomarker/analyze (decision 35). Live orders never get
 * generated results: an operator attaches the laboratory's own. Panel ids, analyte names,
 * ranges, flags and LOINC codes come from the analyte table in @svc/engines (decision 64).
 */

export type { Biomarker };

export interface LabResults {
  observedAt: string;
  biomarkers: Biomarker[];
}

/**
 * How the sandbox draws a value: the unit it reports in (an accepted unit of the analyte table
 * where the table has a measurement row), the values it draws from when in range, the value it
 * uses when it picks this analyte to be out of range, and its decimals. These are sandbox
 * behaviour, not clinical facts: names, ranges, flags and LOINC codes come from the analyte
 * table (decision 64).
 */
interface SandboxDraw {
  unit: string;
  typical: [number, number];
  outOfRange: number;
  decimals: number;
  /**
   * Display range for analytes the table has no sourced range for (sandbox-only; no engine reads
   * it, and the biomarker engine judges these by the flag alone).
   */
  displayRange?: { low: number | null; high: number | null };
}

const DRAWS: Readonly<Record<string, SandboxDraw>> = {
  lithium: { unit: "mmol/L", typical: [0.6, 0.95], outOfRange: 1.4, decimals: 2 },
  creatinine: { unit: "mg/dL", typical: [0.7, 1.1], outOfRange: 1.7, decimals: 2 },
  egfr: { unit: "mL/min/1.73m2", typical: [75, 115], outOfRange: 52, decimals: 0 },
  tsh: { unit: "mIU/L", typical: [0.8, 3.2], outOfRange: 6.8, decimals: 2 },
  free_t4: { unit: "ng/dL", typical: [0.9, 1.4], outOfRange: 0.6, decimals: 2 },
  free_t3: {
    unit: "pg/mL",
    typical: [2.6, 3.9],
    outOfRange: 2.0,
    decimals: 1,
    displayRange: { low: 2.3, high: 4.2 },
  },
  calcium: { unit: "mg/dL", typical: [8.9, 10.0], outOfRange: 10.8, decimals: 1 },
  sodium: { unit: "mmol/L", typical: [137, 143], outOfRange: 131, decimals: 0 },
  potassium: { unit: "mmol/L", typical: [3.8, 4.8], outOfRange: 3.2, decimals: 1 },
  wbc: { unit: "10^3/uL", typical: [4.8, 9.5], outOfRange: 3.4, decimals: 1 },
  anc: { unit: "10^3/uL", typical: [2.2, 6.0], outOfRange: 1.7, decimals: 2 },
  hemoglobin: {
    unit: "g/dL",
    typical: [12.8, 16.2],
    outOfRange: 11.2,
    decimals: 1,
    displayRange: { low: 12.0, high: 17.5 },
  },
  platelets: {
    unit: "10^3/uL",
    typical: [180, 360],
    outOfRange: 132,
    decimals: 0,
    displayRange: { low: 150, high: 400 },
  },
  mcv: { unit: "fL", typical: [84, 96], outOfRange: 104, decimals: 0, displayRange: { low: 80, high: 100 } },
  eosinophils: {
    unit: "10^3/uL",
    typical: [0.05, 0.35],
    outOfRange: 0.9,
    decimals: 2,
    displayRange: { low: null, high: 0.5 },
  },
  glucose: { unit: "mg/dL", typical: [76, 95], outOfRange: 112, decimals: 0 },
  hba1c: { unit: "%", typical: [4.8, 5.5], outOfRange: 6.1, decimals: 1 },
  total_cholesterol: {
    unit: "mg/dL",
    typical: [150, 195],
    outOfRange: 232,
    decimals: 0,
    displayRange: { low: null, high: 199 },
  },
  ldl: {
    unit: "mg/dL",
    typical: [70, 120],
    outOfRange: 158,
    decimals: 0,
    displayRange: { low: null, high: 129 },
  },
  hdl: {
    unit: "mg/dL",
    typical: [45, 70],
    outOfRange: 34,
    decimals: 0,
    displayRange: { low: 40, high: null },
  },
  triglycerides: {
    unit: "mg/dL",
    typical: [70, 140],
    outOfRange: 210,
    decimals: 0,
    displayRange: { low: null, high: 149 },
  },
  vitamin_b12: {
    unit: "pg/mL",
    typical: [300, 750],
    outOfRange: 170,
    decimals: 0,
    displayRange: { low: 200, high: 900 },
  },
  folate: {
    unit: "ng/mL",
    typical: [5, 16],
    outOfRange: 2.4,
    decimals: 1,
    displayRange: { low: 3.0, high: null },
  },
  vitamin_d: {
    unit: "ng/mL",
    typical: [32, 60],
    outOfRange: 18,
    decimals: 0,
    displayRange: { low: 30, high: 100 },
  },
  // Urea in mmol/L: urea in mg/dL is ambiguous with urea nitrogen (BUN) in the analyte table.
  urea: { unit: "mmol/L", typical: [3.2, 6.2], outOfRange: 9.1, decimals: 1 },
  albumin: {
    unit: "g/dL",
    typical: [3.8, 4.8],
    outOfRange: 3.2,
    decimals: 1,
    displayRange: { low: 3.5, high: 5.0 },
  },
  alt: { unit: "U/L", typical: [12, 30], outOfRange: 78, decimals: 0 },
  ast: { unit: "U/L", typical: [14, 34], outOfRange: 66, decimals: 0, displayRange: { low: null, high: 40 } },
  ggt: { unit: "U/L", typical: [12, 40], outOfRange: 96, decimals: 0, displayRange: { low: null, high: 48 } },
  alp: {
    unit: "U/L",
    typical: [55, 120],
    outOfRange: 168,
    decimals: 0,
    displayRange: { low: 44, high: 147 },
  },
  bilirubin: {
    unit: "mg/dL",
    typical: [0.3, 1.0],
    outOfRange: 1.7,
    decimals: 1,
    displayRange: { low: null, high: 1.2 },
  },
  valproate: { unit: "ug/mL", typical: [55, 95], outOfRange: 131, decimals: 0 },
  carbamazepine: { unit: "ug/mL", typical: [5, 10], outOfRange: 13.5, decimals: 1 },
  lamotrigine: {
    unit: "ug/mL",
    typical: [4, 11],
    outOfRange: 2.1,
    decimals: 1,
    displayRange: { low: 3, high: 14 },
  },
  clozapine: { unit: "ng/mL", typical: [360, 560], outOfRange: 290, decimals: 0 },
  norclozapine: {
    unit: "ng/mL",
    typical: [180, 320],
    outOfRange: 300,
    decimals: 0,
    displayRange: { low: null, high: null },
  },
  prolactin: {
    unit: "ng/mL",
    typical: [6, 20],
    outOfRange: 48,
    decimals: 1,
    displayRange: { low: 4, high: 23 },
  },
};

/** Qualitative sandbox items: the urine screen's table analytes, plus items the table does not hold. */
const QUALITATIVE_EXTRAS: Readonly<Record<string, readonly string[]>> = {
  urine_drug_screen: ["Methadone (urine)", "Fentanyl (urine)"],
  pregnancy_test: ["hCG (serum, qualitative)"],
};

type SandboxItem =
  | { kind: "numeric"; entry: AnalyteEntry; draw: SandboxDraw }
  | { kind: "qualitative"; name: string; loinc?: string };

function itemsOf(panelId: string): SandboxItem[] {
  const panel = findPanelDefinition(panelId);
  if (!panel) return [];
  const items: SandboxItem[] = panel.analytes.flatMap((key): SandboxItem[] => {
    const entry = analyteByKey(key);
    if (!entry) return [];
    const draw = DRAWS[key];
    return draw ? [{ kind: "numeric", entry, draw }] : [{ kind: "qualitative", name: entry.display }];
  });
  for (const name of QUALITATIVE_EXTRAS[panel.id] ?? []) items.push({ kind: "qualitative", name });
  return items;
}

/** Analytes each panel reports (every catalog panel has an entry; a test checks this). */
export const PANEL_ANALYTES: Readonly<Record<string, readonly SandboxItem[]>> = Object.fromEntries(
  PANEL_DEFINITIONS.map((panel) => [panel.id, itemsOf(panel.id)]),
);

/** The table's primary range, converted into the sandbox's reporting unit. */
function tableRangeIn(entry: AnalyteEntry, unit: string): { low: number | null; high: number | null } | null {
  const measure = entry.measure;
  if (!measure) return null;
  const resolved = resolveUnit(entry, unit);
  if (resolved.kind !== "resolved") return null;
  const primary = measure.rangeKind === "therapeutic" ? measure.therapeutic?.[0] : measure.reference;
  if (!primary) return null;
  const back = (v: number | null) =>
    v === null
      ? null
      : Number(((v - (resolved.unit.offset ?? 0)) / resolved.unit.toCanonical).toPrecision(3));
  return { low: back(primary.low), high: back(primary.high) };
}

function rangeText(
  range: { low: number | null; high: number | null } | null,
  unit: string,
): string | undefined {
  if (!range) return undefined;
  if (range.low !== null && range.high !== null) {
    // Decimals of the more precise bound, so "0.6-1.0" keeps its trailing zero.
    const decimals = Math.max(...[range.low, range.high].map((v) => (String(v).split(".")[1] ?? "").length));
    return `${range.low.toFixed(decimals)}-${range.high.toFixed(decimals)} ${unit}`;
  }
  if (range.low !== null) return `>= ${range.low} ${unit}`;
  if (range.high !== null) return `<= ${range.high} ${unit}`;
  return undefined;
}

/** The table's flag where it has a measurement row (critical limits included); else the display range. */
function flagFor(item: Extract<SandboxItem, { kind: "numeric" }>, value: number): Biomarker["flag"] {
  const evaluation = evaluateAnalyteValue(item.entry, value, item.draw.unit);
  if (evaluation?.evaluated) {
    const flag = evaluation.flag;
    return flag === "critical_high" || flag === "critical_low" ? "critical" : flag;
  }
  const range = item.draw.displayRange;
  if (range?.high != null && value > range.high) return "high";
  if (range?.low != null && value < range.low) return "low";
  return "normal";
}

/**
 * Sandbox results for an order: every analyte of the panel; about one order in three has one
 * analyte out of range, so the biomarker engine has something to flag. Same order id, same
 * results.
 */
export function sandboxResults(orderId: string, panelId: string, observedAt: Date): LabResults {
  const random = seededRandom(orderId);
  const analytes = PANEL_ANALYTES[panelId] ?? [];
  const outlierIndex = random() < 0.35 ? Math.floor(random() * analytes.length) : -1;
  const biomarkers = analytes.map((item, index): Biomarker => {
    if (item.kind === "qualitative") {
      return { name: item.name, value: "negative", flag: "normal", referenceRange: "negative" };
    }
    const [lo, hi] = item.draw.typical;
    const raw = index === outlierIndex ? item.draw.outOfRange : lo + random() * (hi - lo);
    const value = Number(raw.toFixed(item.draw.decimals));
    const range = rangeText(
      tableRangeIn(item.entry, item.draw.unit) ?? item.draw.displayRange ?? null,
      item.draw.unit,
    );
    const loinc = chooseLoinc(item.entry, item.draw.unit)?.code;
    return {
      name: item.entry.display,
      value,
      unit: item.draw.unit,
      flag: flagFor(item, value),
      ...(range ? { referenceRange: range } : {}),
      ...(loinc ? { loinc } : {}),
    };
  });
  return { observedAt: observedAt.toISOString(), biomarkers };
}
