import {
  assessRisk,
  buildLines,
  type DomainKey,
  mergeSelection,
  objectiveBlock,
  patchedDomains,
  type RiskAssessment,
  type Selection,
  type SelectionPatch,
  validateSelection,
} from "@svc/mse-catalog";
import { invalidSelection } from "./errors.js";
import { contentHashOf, type VersionContent } from "./hash-chain.js";

/** What a request asks of the next version: a whole selection (POST) or a patch over the latest (PATCH). */
export type Change = { kind: "write"; selection: Selection } | { kind: "patch"; patch: SelectionPatch };

export interface NextSelection {
  selection: Selection;
  /** The domains a patch replaced or removed; empty for a full write. */
  patchedDomains: DomainKey[];
}

/**
 * The selection the next version stores: a full write as given (already validated), or the patch
 * merged over the previous version's stored selection and validated whole (422 otherwise).
 */
export function nextSelection(change: Change, previousSelection: unknown): NextSelection {
  if (change.kind === "write") return { selection: change.selection, patchedDomains: [] };
  const merged = mergeSelection((previousSelection ?? {}) as Selection, change.patch);
  // Full mode: a patch must not leave the record without a domain.
  const checked = validateSelection(merged);
  if (!checked.ok) throw invalidSelection(checked.errors);
  return { selection: checked.selection, patchedDomains: patchedDomains(change.patch) };
}

export interface DerivedVersion {
  /** Exactly the stored columns the content hash covers. */
  content: VersionContent;
  risk: RiskAssessment;
  contentHash: string;
}

/** Narrative lines, objective block, risk and content hash of a version, all derived from its selection. */
export function deriveVersion(
  ids: { visitId: string; patientId: string; version: number },
  selection: Selection,
): DerivedVersion {
  const lines = buildLines(selection);
  const risk = assessRisk(selection);
  const content: VersionContent = {
    ...ids,
    selection,
    lines,
    objectiveBlock: objectiveBlock(lines),
    riskFlag: risk.flag,
    riskLevel: risk.level,
    riskLabels: risk.labels,
  };
  return { content, risk, contentHash: contentHashOf(content) };
}
