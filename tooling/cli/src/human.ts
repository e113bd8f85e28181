/**
 * The CLI's human output (without `--json`): one `label: value` line per field. Whatever a
 * command returns is rendered readably, whatever its shape, so no command needs its own printer:
 * - a nested object is indented under its label, one field a line;
 * - a list of plain values stays on its label's line (`origins: a, b`), a list of objects is one
 *   `-` entry per object with its fields indented beneath;
 * - an empty list reads `(none)`, an empty object `(empty)`, null `-` and an empty string `""`, so
 *   no label is ever left bare;
 * - a Date prints as its ISO time (the operator endpoint sends them that way too).
 */

const INDENT = "  ";

type Plain = string | number | boolean | bigint | null | undefined | Date;

function isPlain(value: unknown): value is Plain {
  return (
    value === null || value instanceof Date || (typeof value !== "object" && typeof value !== "function")
  );
}

function scalar(value: Plain): string {
  if (value === null || value === undefined) return "-";
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? "-" : value.toISOString();
  if (typeof value === "string") return value === "" ? '""' : value;
  return String(value);
}

/** `label: value` lines of one object's fields at `depth`. */
function fieldLines(record: Record<string, unknown>, depth: number): string[] {
  const entries = Object.entries(record);
  if (entries.length === 0) return [`${INDENT.repeat(depth)}(empty)`];
  return entries.flatMap(([label, value]) => valueLines(label, value, depth));
}

function valueLines(label: string, value: unknown, depth: number): string[] {
  const pad = INDENT.repeat(depth);
  if (isPlain(value)) return [`${pad}${label}: ${scalar(value)}`];
  if (Array.isArray(value)) {
    if (value.length === 0) return [`${pad}${label}: (none)`];
    if (value.every(isPlain)) return [`${pad}${label}: ${value.map(scalar).join(", ")}`];
    return [`${pad}${label}:`, ...value.flatMap((item) => itemLines(item, depth + 1))];
  }
  const record = value as Record<string, unknown>;
  if (Object.keys(record).length === 0) return [`${pad}${label}: (empty)`];
  return [`${pad}${label}:`, ...fieldLines(record, depth + 1)];
}

/** One list entry: `- value`, or `- first: ...` with the other fields aligned beneath it. */
function itemLines(item: unknown, depth: number): string[] {
  const pad = INDENT.repeat(depth);
  if (isPlain(item)) return [`${pad}- ${scalar(item)}`];
  const lines = Array.isArray(item)
    ? item.length === 0
      ? [`${pad}${INDENT}(none)`]
      : item.flatMap((inner) => itemLines(inner, depth + 1))
    : fieldLines(item as Record<string, unknown>, depth + 1);
  const [first = "", ...rest] = lines;
  return [`${pad}- ${first.slice(pad.length + INDENT.length)}`, ...rest];
}

/** The human output of one command's result. */
export function humanOutput(result: Record<string, unknown>): string {
  const lines = fieldLines(result, 0);
  if (typeof result.key === "string") lines.push("", "The key is shown this once; store it now.");
  if (typeof result.secret === "string")
    lines.push("", "The signing secret is shown this once; store it now.");
  return lines.join("\n");
}
