/**
 * Readers for the clinical documents the tests check against the code: markdown tables (one
 * record per row, keyed by the header cells, grouped by `## ` section) and vignette blocks
 * (fenced `json vignette` code blocks under a `### ` heading). Plain text parsing, no I/O.
 */

export interface TableRow {
  section: string;
  cells: Record<string, string>;
}

const cellsOf = (line: string): string[] =>
  line
    .trim()
    .replace(/^\|/, "")
    .replace(/\|$/, "")
    .split("|")
    .map((c) => c.trim());

/** Every row of every table, with the `## ` section it sits in; separator rows are skipped. */
export function readMarkdownTables(text: string): TableRow[] {
  const rows: TableRow[] = [];
  let section = "";
  let header: string[] | null = null;
  for (const line of text.split("\n")) {
    if (line.startsWith("## ")) section = line.slice(3).trim();
    if (!line.trim().startsWith("|")) {
      header = null;
      continue;
    }
    const cells = cellsOf(line);
    if (header === null) {
      header = cells;
      continue;
    }
    if (cells.every((c) => /^:?-+:?$/.test(c))) continue;
    const record: Record<string, string> = {};
    header.forEach((h, i) => {
      record[h] = cells[i] ?? "";
    });
    rows.push({ section, cells: record });
  }
  return rows;
}

export interface Vignette {
  /** The `### ` heading above the block, e.g. "V01 Outcome: stable severe PHQ-9". */
  title: string;
  body: unknown;
}

/** Every fenced block opened with "```json vignette", parsed as JSON, with its heading. */
export function readVignettes(text: string): Vignette[] {
  const out: Vignette[] = [];
  const lines = text.split("\n");
  let title = "";
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    if (line.startsWith("### ")) title = line.slice(4).trim();
    if (line.trim() !== "```json vignette") continue;
    const start = i + 1;
    let end = start;
    while (end < lines.length && (lines[end] as string).trim() !== "```") end++;
    const json = lines.slice(start, end).join("\n");
    try {
      out.push({ title, body: JSON.parse(json) });
    } catch (error) {
      throw new Error(`vignette "${title}" is not valid JSON: ${(error as Error).message}`);
    }
    i = end;
  }
  return out;
}

/** What the evidence check needs of an engine descriptor (the engine registry's, decision 101). */
export interface EngineEvidence {
  name: string;
  defaults: object;
  evidence: {
    section: string;
    tables?: readonly { section: string; values: Readonly<Record<string, number>> }[];
  };
}

/**
 * Every way `docs/engines/evidence.md` (read with readMarkdownTables) disagrees with the engines:
 * an engine whose section is missing or empty, a default or constant without a row, a row whose
 * value differs from the code, a row naming a constant the code does not have. Empty when they
 * agree. Each table is found by the start of its `## ` section title and keyed by `Constant`.
 */
export function engineEvidenceProblems(
  rows: readonly TableRow[],
  engines: readonly EngineEvidence[],
): string[] {
  const problems: string[] = [];
  for (const engine of engines) {
    const tables = [
      { section: engine.evidence.section, values: engine.defaults as Readonly<Record<string, unknown>> },
      ...(engine.evidence.tables ?? []),
    ];
    for (const { section, values } of tables) {
      const found =
        section.trim() === ""
          ? []
          : rows.filter((r) => r.section.startsWith(section) && r.cells.Constant !== undefined);
      if (found.length === 0) {
        problems.push(`${engine.name}: evidence.md has no table in a section titled "${section}..."`);
        continue;
      }
      const table = new Map(found.map((r) => [(r.cells.Constant ?? "").replace(/`/g, ""), r.cells]));
      for (const [key, value] of Object.entries(values)) {
        const row = table.get(key);
        if (row === undefined) problems.push(`${engine.name}: ${key} is not in evidence.md "${section}"`);
        else if (Number(row.Value) !== value)
          problems.push(
            `${engine.name}: ${key} is ${String(value)} in the code, ${row.Value} in evidence.md`,
          );
      }
      for (const key of table.keys())
        if (!Object.hasOwn(values, key))
          problems.push(
            `${engine.name}: evidence.md "${section}" lists ${key}, which the code does not have`,
          );
    }
  }
  return problems;
}
