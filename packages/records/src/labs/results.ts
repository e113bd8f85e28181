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

/** One row of the sandbox table: unit, typical range, out-of-range value, decimals, display range. */
function draw(
  unit: string,
  typical: [number, number],
  outOfRange: number,
  decimals: number,
  displayRange?: [number | null, number | null],
): SandboxDraw {
  const row: SandboxDraw = { unit, typical, outOfRange, decimals };
  if (displayRange) row.displayRange = { low: displayRange[0], high: displayRange[1] };
  return row;
}

const DRAWS: Readonly<Record<string, SandboxDraw>> = {
  lithium: draw("mmol/L", [0.6, 0.95], 1.4, 2),
  creatinine: draw("mg/dL", [0.7, 1.1], 1.7, 2),
  egfr: draw("mL/min/1.73m2", [75, 115], 52, 0),
  tsh: draw("mIU/L", [0.8, 3.2], 6.8, 2),
  free_t4: draw("ng/dL", [0.9, 1.4], 0.6, 2),
  free_t3: draw("pg/mL", [2.6, 3.9], 2.0, 1, [2.3, 4.2]),
  calcium: draw("mg/dL", [8.9, 10.0], 10.8, 1),
  sodium: draw("mmol/L", [137, 143], 131, 0),
  potassium: draw("mmol/L", [3.8, 4.8], 3.2, 1),
  wbc: draw("10^3/uL", [4.8, 9.5], 3.4, 1),
  anc: draw("10^3/uL", [2.2, 6.0], 1.7, 2),
  hemoglobin: draw("g/dL", [12.8, 16.2], 11.2, 1, [12.0, 17.5]),
  platelets: draw("10^3/uL", [180, 360], 132, 0, [150, 400]),
  mcv: draw("fL", [84, 96], 104, 0, [80, 100]),
  eosinophils: draw("10^3/uL", [0.05, 0.35], 0.9, 2, [null, 0.5]),
  glucose: draw("mg/dL", [76, 95], 112, 0),
  hba1c: draw("%", [4.8, 5.5], 6.1, 1),
  total_cholesterol: draw("mg/dL", [150, 195], 232, 0, [null, 199]),
  ldl: draw("mg/dL", [70, 120], 158, 0, [null, 129]),
  hdl: draw("mg/dL", [45, 70], 34, 0, [40, null]),
  triglycerides: draw("mg/dL", [70, 140], 210, 0, [null, 149]),
  vitamin_b12: draw("pg/mL", [300, 750], 170, 0, [200, 900]),
  folate: draw("ng/mL", [5, 16], 2.4, 1, [3.0, null]),
  vitamin_d: draw("ng/mL", [32, 60], 18, 0, [30, 100]),
  // Urea in mmol/L: urea in mg/dL is ambiguous with urea nitrogen (BUN) in the analyte table.
  urea: draw("mmol/L", [3.2, 6.2], 9.1, 1),
  albumin: draw("g/dL", [3.8, 4.8], 3.2, 1, [3.5, 5.0]),
  alt: draw("U/L", [12, 30], 78, 0),
  ast: draw("U/L", [14, 34], 66, 0, [null, 40]),
  ggt: draw("U/L", [12, 40], 96, 0, [null, 48]),
  alp: draw("U/L", [55, 120], 168, 0, [44, 147]),
  bilirubin: draw("mg/dL", [0.3, 1.0], 1.7, 1, [null, 1.2]),
  valproate: draw("ug/mL", [55, 95], 131, 0),
  carbamazepine: draw("ug/mL", [5, 10], 13.5, 1),
  lamotrigine: draw("ug/mL", [4, 11], 2.1, 1, [3, 14]),
  clozapine: draw("ng/mL", [360, 560], 290, 0),
  norclozapine: draw("ng/mL", [180, 320], 300, 0, [null, null]),
  prolactin: draw("ng/mL", [6, 20], 48, 1, [4, 23]),
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
