import { createHash } from "node:crypto";
import { canonicalJson, type Line, type Selection } from "@svc/mse-catalog";
import type { VersionRow } from "./data/rows.js";

/**
 * The hash chain of a visit's versions: each version's content is hashed, and each chain hash
 * covers the previous one, so an edited, removed or reordered row is detectable from storage.
 */

/** The fields a version's content hash covers. */
export interface VersionContent {
  visitId: string;
  patientId: string;
  version: number;
  selection: Selection;
  lines: Line[];
  objectiveBlock: string;
  riskFlag: boolean;
  riskLevel: string;
  riskLabels: string[];
}

const sha256 = (text: string) => createHash("sha256").update(text, "utf8").digest("hex");

/** SHA-256 hex of the canonical JSON of the version's content. */
export function contentHashOf(content: VersionContent): string {
  return sha256(
    canonicalJson({
      visitId: content.visitId,
      patientId: content.patientId,
      version: content.version,
      selection: content.selection,
      lines: content.lines,
      objectiveBlock: content.objectiveBlock,
      riskFlag: content.riskFlag,
      riskLevel: content.riskLevel,
      riskLabels: content.riskLabels,
    }),
  );
}

/** SHA-256 hex of `${previous chain hash or ""}:${content hash}`. */
export function chainHashOf(prevChainHash: string | null, contentHash: string): string {
  return sha256(`${prevChainHash ?? ""}:${contentHash}`);
}

function contentOf(row: VersionRow): VersionContent {
  return {
    visitId: row.visitId,
    patientId: row.patientId,
    version: row.version,
    selection: row.selection as Selection,
    lines: row.lines as Line[],
    objectiveBlock: row.objectiveBlock,
    riskFlag: row.riskFlag,
    riskLevel: row.riskLevel,
    riskLabels: row.riskLabels,
  };
}

export interface ChainCheck {
  valid: boolean;
  /** Per row (same order as given): content hash, previous link and chain hash all recompute. */
  rows: boolean[];
}

/**
 * Recompute every version's content hash and chain hash from the stored rows (ascending by
 * version). Any edited column, a broken link, a gap in the numbering or a missing latest
 * version makes the chain invalid.
 */
export function verifyChain(rowsAsc: readonly VersionRow[], currentVersion: number): ChainCheck {
  let prevChain: string | null = null;
  const rows: boolean[] = [];
  let valid = rowsAsc.length === currentVersion;
  rowsAsc.forEach((row, i) => {
    const content = contentHashOf(contentOf(row));
    const ok =
      row.version === i + 1 &&
      content === row.contentHash &&
      row.prevHash === prevChain &&
      chainHashOf(prevChain, content) === row.chainHash;
    rows.push(ok);
    if (!ok) valid = false;
    // Continue from the stored link so one bad row does not mark every later row bad.
    prevChain = row.chainHash;
  });
  return { valid, rows };
}
