import {
  and,
  asc,
  type Db,
  type DbOrTx,
  desc,
  eq,
  mseSignatures,
  mseVersions,
  mseVisits,
  recordSafetyEvent,
  sql,
} from "@svc/db";
import type { DomainKey, RiskAssessment } from "@svc/mse-catalog";
import { noRecord, recordedForAnotherPatient } from "../errors.js";
import { type ChainCheck, chainHashOf, verifyChain } from "../hash-chain.js";
import { type Change, deriveVersion, nextSelection } from "../version-content.js";
import type { SignatureRow, VersionRow } from "./rows.js";

/**
 * Visits and their versions. Every query is scoped to the caller's organization; versions are
 * immutable, append-only rows whose content is hashed and chained to the previous version.
 */

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
  /** Webhook deliveries written with the safety event; hand them to the queue after commit. */
  deliveryIds: string[];
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
    // The safety event commits with the version that raised it (the version row references it).
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
      deliveryIds: safetyEvent?.deliveryIds ?? [],
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
// Reads

export interface LatestVersion {
  row: VersionRow;
  /** Signatures of this version, newest first. */
  signatures: SignatureRow[];
}

/** The latest version of an organization's visit and its signatures, or undefined. */
export async function latestVersion(
  db: Db,
  orgId: string,
  visitId: string,
): Promise<LatestVersion | undefined> {
  // One round trip: the latest version with each of its signatures (none: one row, signature null).
  const latestNumber = db
    .select({ version: sql`max(${mseVersions.version})` })
    .from(mseVersions)
    .where(visitScope(orgId, visitId));
  const rows = await db
    .select({ row: mseVersions, signature: mseSignatures })
    .from(mseVersions)
    .leftJoin(
      mseSignatures,
      and(
        eq(mseSignatures.orgId, mseVersions.orgId),
        eq(mseSignatures.visitId, mseVersions.visitId),
        eq(mseSignatures.version, mseVersions.version),
      ),
    )
    .where(and(visitScope(orgId, visitId), eq(mseVersions.version, sql`(${latestNumber})`)))
    .orderBy(desc(mseSignatures.signedAt), desc(mseSignatures.id));
  const first = rows[0];
  if (!first) return undefined;
  const signatures = rows.flatMap(({ signature }) => (signature ? [signature] : []));
  return { row: first.row, signatures };
}

export interface FullRecord {
  patientId: string;
  currentVersion: number;
  /** Ascending by version. */
  versions: VersionRow[];
  /** Ascending by signing time. */
  signatures: SignatureRow[];
  chain: ChainCheck;
}

/** Every version and signature of an organization's visit, with the chain verified; or undefined. */
export async function fullRecord(db: Db, orgId: string, visitId: string): Promise<FullRecord | undefined> {
  // One snapshot: a write committing between the reads must not look like a broken chain.
  return db.transaction((tx) => readFullRecord(tx, orgId, visitId), {
    isolationLevel: "repeatable read",
    accessMode: "read only",
  });
}

async function readFullRecord(db: DbOrTx, orgId: string, visitId: string): Promise<FullRecord | undefined> {
  const [visit] = await db
    .select({ patientId: mseVisits.patientId, currentVersion: mseVisits.currentVersion })
    .from(mseVisits)
    .where(and(eq(mseVisits.orgId, orgId), eq(mseVisits.visitId, visitId)));
  if (!visit) return undefined;
  const versions = await db
    .select()
    .from(mseVersions)
    .where(visitScope(orgId, visitId))
    .orderBy(asc(mseVersions.version));
  const signatures = await db
    .select()
    .from(mseSignatures)
    .where(and(eq(mseSignatures.orgId, orgId), eq(mseSignatures.visitId, visitId)))
    .orderBy(asc(mseSignatures.signedAt), asc(mseSignatures.id));
  return {
    patientId: visit.patientId,
    currentVersion: visit.currentVersion,
    versions,
    signatures,
    chain: verifyChain(versions, visit.currentVersion),
  };
}
