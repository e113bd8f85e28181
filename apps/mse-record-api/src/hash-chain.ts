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

/** The hash columns of one version: all a link check reads. */
export interface ChainLink {
  version: number;
  contentHash: string;
  prevHash: string | null;
  chainHash: string;
}

export interface LinkCheck {
  /** Versions 1..n with n = the visit's counter, and every link and chain hash recomputes. */
  valid: boolean;
  /** Per version: its number is in place, its previous link holds and its chain hash recomputes. */
  byVersion: Map<number, boolean>;
}

/**
 * Check the whole chain's links from the hash columns alone (ascending by version): a gap in the
 * numbering, a missing latest version, a broken previous link or a chain hash that no longer
 * covers the stored content hash makes it invalid. Cheap (no content is read), so every paged read
 * checks every link; the content hashes are recomputed for the rows a page returns
 * (`contentHashValid`, decision 87).
 */
export function verifyLinks(linksAsc: readonly ChainLink[], currentVersion: number): LinkCheck {
  let prevChain: string | null = null;
  const byVersion = new Map<number, boolean>();
  let valid = linksAsc.length === currentVersion;
  linksAsc.forEach((link, i) => {
    const ok =
      link.version === i + 1 &&
      link.prevHash === prevChain &&
      chainHashOf(prevChain, link.contentHash) === link.chainHash;
    byVersion.set(link.version, ok);
    if (!ok) valid = false;
    // Continue from the stored link so one bad row does not mark every later row bad.
    prevChain = link.chainHash;
  });
  return { valid, byVersion };
}

/** The stored content hash is the hash of the stored content (no column edited behind its back). */
export function contentHashValid(row: VersionRow): boolean {
  return contentHashOf(contentOf(row)) === row.contentHash;
}
