import {
  and,
  asc,
  type Db,
  type DbOrTx,
  desc,
  eq,
  gt,
  gte,
  lt,
  lte,
  mseSignatures,
  mseVersions,
  mseVisits,
  recordSafetyEvent,
  sql,
} from "@svc/db";
import type { DomainKey, RiskAssessment } from "@svc/mse-catalog";
import { noRecord, recordedForAnotherPatient, versionLimitReached } from "../errors.js";
import { chainHashOf, contentHashValid, type LinkCheck, verifyLinks } from "../hash-chain.js";
import { type Change, deriveVersion, nextSelection } from "../version-content.js";
import type { SignatureRow, VersionRow } from "./rows.js";

/**
 * Visits and their versions. Every query is scoped to the caller's organization; versions are
 * immutable, append-only rows whose content is hashed and chained to the previous version.
 */

/**
 * The most versions one visit may hold (decision 86). A visit is one encounter's examination and
 * its amendments: real ones hold a handful. The bound keeps every read of a visit (the chain
 * check reads each version's hash columns) bounded; the next write or patch is 409, nothing stored.
 */
export const MAX_VERSIONS_PER_VISIT = 1000;

/** The versions of one organization's visit. */
const visitScope = (orgId: string, visitId: string) =>
  and(eq(mseVersions.orgId, orgId), eq(mseVersions.visitId, visitId));

// ---------------------------------------------------------------------------------------------
// Writes

export interface WriteInput {
  orgId: string;
  keyId: string;
  visitId: string;
  patientId: string;
  clinicianId?: string | undefined;
}

export interface WriteResult {
  version: number;
  risk: RiskAssessment;
  safetyEventId: string | null;
  patchedDomains: DomainKey[];
}

/**
 * Append a version: a full write (POST) or a patch merged over the latest version (PATCH).
 * Refusals (404 no record to patch, 409 another patient, 422 a patch leaving an invalid
 * selection) are thrown as API errors and roll the transaction back.
 */
export async function appendVersion(db: Db, input: WriteInput, change: Change): Promise<WriteResult> {
  return db.transaction(async (tx) => {
    const now = new Date();
    const version = await claimNextVersion(tx, input, change.kind, now);
    const previous = version > 1 ? await previousVersion(tx, input, version - 1) : undefined;
    const { selection, patchedDomains } = nextSelection(change, previous?.selection);
    const { content, risk, contentHash } = deriveVersion(
      { visitId: input.visitId, patientId: input.patientId, version },
      selection,
    );
    // The safety event commits with the version that raised it (the version row references it);
    // its deliveries go to the queue after commit through the HTTP layer's outbox scope.
    const safetyEvent = risk.flag
      ? await recordSafetyEvent(tx, {
          orgId: input.orgId,
          visitId: input.visitId,
          patientId: input.patientId,
          version,
          risk,
          now,
        })
      : undefined;
    const prevHash = previous?.chainHash ?? null;
    await tx.insert(mseVersions).values({
      orgId: input.orgId,
      ...content,
      operation: change.kind,
      patchedDomains: change.kind === "patch" ? patchedDomains : null,
      clinicianId: input.clinicianId ?? null,
      keyId: input.keyId,
      safetyEventId: safetyEvent?.event.id ?? null,
      contentHash,
      prevHash,
      chainHash: chainHashOf(prevHash, contentHash),
      savedAt: now,
    });
    return {
      version,
      risk,
      safetyEventId: safetyEvent?.event.id ?? null,
      patchedDomains,
    };
  });
}

/**
 * Take the visit row first (upsert for a write, update for a patch; both `current_version + 1`):
 * that numbers the new version and holds the row lock until commit. Concurrent writers therefore
 * queue on the row, get consecutive numbers, and each patch merges over the version committed
 * just before it, so no update is lost. A refusal rolls the increment back.
 */
async function claimNextVersion(
  tx: DbOrTx,
  input: WriteInput,
  kind: Change["kind"],
  now: Date,
): Promise<number> {
  const next = sql`${mseVisits.currentVersion} + 1`;
  const returning = { currentVersion: mseVisits.currentVersion, patientId: mseVisits.patientId };
  const [visit] =
    kind === "write"
      ? await tx
          .insert(mseVisits)
          .values({
            orgId: input.orgId,
            visitId: input.visitId,
            patientId: input.patientId,
            currentVersion: 1,
            createdAt: now,
            updatedAt: now,
          })
          .onConflictDoUpdate({
            target: [mseVisits.orgId, mseVisits.visitId],
            set: { currentVersion: next, updatedAt: now },
          })
          .returning(returning)
      : await tx
          .update(mseVisits)
          .set({ currentVersion: next, updatedAt: now })
          .where(and(eq(mseVisits.orgId, input.orgId), eq(mseVisits.visitId, input.visitId)))
          .returning(returning);
  if (!visit) throw noRecord();
  if (visit.patientId !== input.patientId) throw recordedForAnotherPatient();
  // Thrown inside the transaction: the increment rolls back with it.
  if (visit.currentVersion > MAX_VERSIONS_PER_VISIT) throw versionLimitReached(MAX_VERSIONS_PER_VISIT);
  return visit.currentVersion;
}

/** The selection and chain hash of the version before the one being written (read under the lock). */
async function previousVersion(
  tx: DbOrTx,
  input: WriteInput,
  version: number,
): Promise<{ selection: unknown; chainHash: string }> {
  const [previous] = await tx
    .select({ selection: mseVersions.selection, chainHash: mseVersions.chainHash })
    .from(mseVersions)
    .where(and(visitScope(input.orgId, input.visitId), eq(mseVersions.version, version)));
  if (!previous) throw new Error("mse store: the previous version is missing");
  return previous;
}

// ---------------------------------------------------------------------------------------------
// Reads: every one is bounded (decision 87). None loads all versions' content or all signatures.

export interface LatestVersion {
  row: VersionRow;
  /** The latest signature of this version, if any. */
  signature: SignatureRow | undefined;
}

/** The latest version of an organization's visit and its latest signature, or undefined. */
export async function latestVersion(
  db: DbOrTx,
  orgId: string,
  visitId: string,
): Promise<LatestVersion | undefined> {
  const [row] = await db
    .select()
    .from(mseVersions)
    .where(visitScope(orgId, visitId))
    .orderBy(desc(mseVersions.version))
    .limit(1);
  if (!row) return undefined;
  const [signature] = await db
    .select()
    .from(mseSignatures)
    .where(
      and(
        eq(mseSignatures.orgId, orgId),
        eq(mseSignatures.visitId, visitId),
        eq(mseSignatures.version, row.version),
      ),
    )
    .orderBy(desc(mseSignatures.signedAt), desc(mseSignatures.id))
    .limit(1);
  return { row, signature };
}

export interface VersionPageQuery {
  /** Newest first (history) or oldest first (audit, chain order). */
  order: "newest" | "oldest";
  /** At most this many versions. */
  limit: number;
  /** Continue after this version (exclusive): below it newest first, above it oldest first. */
  after?: number | undefined;
}

export interface VersionPage {
  patientId: string;
  currentVersion: number;
  /** The highest stored version number (0 when none is stored). */
  latestStored: number;
  /** Up to `limit` versions in the requested order. */
  rows: VersionRow[];
  /** More versions follow the last row in this order. */
  hasMore: boolean;
  /** Signatures of the page's versions, oldest first. */
  signatures: SignatureRow[];
  /**
   * Every link of the whole chain recomputes, and so does the content hash of each of `versions`
   * (the rows the page finally returns).
   */
  chainValid(versions: readonly number[]): boolean;
  /** Per row on this page: its content hash, previous link and chain hash all recompute. */
  rowValid(version: number): boolean;
}

/**
 * One page of an organization's visit, read in one snapshot (a write committing between the
 * reads must not look like a broken chain); undefined when the visit has no MSE. What it reads
 * is bounded: the visit row, the hash columns of every version (at most MAX_VERSIONS_PER_VISIT),
 * `limit + 1` versions, and the signatures of the page's versions (at most
 * MAX_SIGNATURES_PER_VERSION each).
 */
export async function versionPage(
  db: Db,
  orgId: string,
  visitId: string,
  query: VersionPageQuery,
): Promise<VersionPage | undefined> {
  return db.transaction((tx) => readVersionPage(tx, orgId, visitId, query), {
    isolationLevel: "repeatable read",
    accessMode: "read only",
  });
}

async function readVersionPage(
  db: DbOrTx,
  orgId: string,
  visitId: string,
  query: VersionPageQuery,
): Promise<VersionPage | undefined> {
  const [visit] = await db
    .select({ patientId: mseVisits.patientId, currentVersion: mseVisits.currentVersion })
    .from(mseVisits)
    .where(and(eq(mseVisits.orgId, orgId), eq(mseVisits.visitId, visitId)));
  if (!visit) return undefined;
  const links = await db
    .select({
      version: mseVersions.version,
      contentHash: mseVersions.contentHash,
      prevHash: mseVersions.prevHash,
      chainHash: mseVersions.chainHash,
    })
    .from(mseVersions)
    .where(visitScope(orgId, visitId))
    .orderBy(asc(mseVersions.version));
  if (links.length === 0) return undefined;
  const newest = query.order === "newest";
  const position =
    query.after === undefined
      ? undefined
      : newest
        ? lt(mseVersions.version, query.after)
        : gt(mseVersions.version, query.after);
  const fetched = await db
    .select()
    .from(mseVersions)
    .where(and(visitScope(orgId, visitId), position))
    .orderBy(newest ? desc(mseVersions.version) : asc(mseVersions.version))
    .limit(query.limit + 1);
  const rows = fetched.slice(0, query.limit);
  const numbers = rows.map((r) => r.version);
  const signatures =
    rows.length === 0
      ? []
      : await db
          .select()
          .from(mseSignatures)
          .where(
            and(
              eq(mseSignatures.orgId, orgId),
              eq(mseSignatures.visitId, visitId),
              gte(mseSignatures.version, Math.min(...numbers)),
              lte(mseSignatures.version, Math.max(...numbers)),
            ),
          )
          .orderBy(asc(mseSignatures.signedAt), asc(mseSignatures.id));
  const linkCheck: LinkCheck = verifyLinks(links, visit.currentVersion);
  const contentOk = new Map(rows.map((r) => [r.version, contentHashValid(r)]));
  return {
    patientId: visit.patientId,
    currentVersion: visit.currentVersion,
    latestStored: links[links.length - 1]?.version ?? 0,
    rows,
    hasMore: fetched.length > query.limit,
    signatures,
    chainValid: (versions) => linkCheck.valid && versions.every((v) => contentOk.get(v) === true),
    rowValid: (version) => linkCheck.byVersion.get(version) === true && contentOk.get(version) === true,
  };
}
