/**
 * The generated "What is scored" table of docs/engines/instruments.md (decision 217): each
 * instrument's items, total, bands, reliable change and risk items, printed from `INSTRUMENTS`.
 * doc-tables.ts writes the block.
 */

import { INSTRUMENT_IDS, INSTRUMENTS, type InstrumentKnowledge } from "./instruments.js";
import { markdownTable } from "./markdown-table.js";

/** Allowed scores as printed: a run as "0-4", other sets as "0, 2 or 4". */
function scoresText(values: readonly number[]): string {
  const run = values.every((v, i) => i === 0 || v === (values[i - 1] ?? v) + 1);
  if (run) return `${values[0]}-${values[values.length - 1]}`;
  return `${values.slice(0, -1).join(", ")} or ${values[values.length - 1]}`;
}

/** Each item's allowed scores (1-based items), from the table's range and exceptions. */
function itemScores(k: InstrumentKnowledge): number[][] {
  const all = Array.from({ length: k.itemMax - k.itemMin + 1 }, (_, i) => k.itemMin + i);
  return Array.from({ length: k.itemCount }, (_, i) => [...(k.allowedItemValues?.[i + 1] ?? all)]);
}

/** The items' scores: one range, or each distinct scoring with the items (a run) or count holding it. */
function itemsScoring(k: InstrumentKnowledge): string {
  const scores = itemScores(k);
  const groups = new Map<string, number[]>();
  scores.forEach((values, i) => {
    groups.set(scoresText(values), [...(groups.get(scoresText(values)) ?? []), i + 1]);
  });
  if (groups.size === 1) return `(${[...groups.keys()][0]})`;
  const runs = [...groups.values()].every((items) =>
    items.every((n, i) => i === 0 || n === (items[i - 1] ?? n) + 1),
  );
  const parts = [...groups].map(([text, items]) =>
    runs ? `items ${items[0]}-${items[items.length - 1]}: ${text}` : `${items.length} items ${text}`,
  );
  return `(${parts.join(runs ? "; " : ", ")})`;
}

function itemsCell(k: InstrumentKnowledge): string {
  const head = k.itemsAreSections
    ? `${k.itemCount} sections (${itemScores(k)
        .map((values) => Math.max(...values))
        .join(", ")} points)`
    : `${k.itemCount} ${itemsScoring(k)}`;
  return [
    head + (k.domains ? ` scored as ${k.domains.length} domains` : ""),
    ...(k.clinicianRated ? ["clinician-rated"] : []),
    ...(k.direction === "higher_is_better" ? ["higher is better"] : []),
  ].join(", ");
}

function reliableCell(k: InstrumentKnowledge): string {
  const points = k.reliableChangePoints;
  if (points === null) return "none sourced";
  if (k.percentPerPoint === undefined) return `${points} points`;
  return `${points} raw points (${points * k.percentPerPoint} %)`;
}

function riskCell(k: InstrumentKnowledge): string {
  if (k.riskItems.length > 0) return k.riskItems.map((r) => `item ${r.item} (${r.label})`).join("; ");
  return k.riskNotScreened ? `none (${k.riskNotScreened.screens} not screened: said)` : "none";
}

/** docs/engines/instruments.md, "What is scored": one row per instrument, in table order. */
export function instrumentsScoredBlock(): string {
  return markdownTable(
    ["Instrument", "Items (item score)", "Total", "Bands (total)", "Reliable change", "Risk items"],
    INSTRUMENT_IDS.map((id) => {
      const k = INSTRUMENTS[id];
      return [
        k.display,
        itemsCell(k),
        `${k.totalMin}-${k.totalMax}${k.percentPerPoint === undefined ? "" : " raw"}`,
        k.bands.length === 1
          ? "none sourced (one band)"
          : k.bands.map((b) => `${b.label} ${b.min}-${b.max}`).join(", "),
        reliableCell(k),
        riskCell(k),
      ];
    }),
  );
}
