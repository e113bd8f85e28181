/** A markdown table of the generated knowledge docs (decisions 208, 217); cells escape `|`. */

function cell(text: string): string {
  return text.replaceAll("|", "\\|").replaceAll("\n", " ");
}

function row(cells: readonly string[]): string {
  return `| ${cells.map(cell).join(" | ")} |`;
}

/** The header, the divider and one line per row; biome aligns the columns afterwards. */
export function markdownTable(header: readonly string[], rows: readonly (readonly string[])[]): string {
  return [row(header), row(header.map(() => "---")), ...rows.map(row)].join("\n");
}
