import { and, type Db, type DbOrTx, eq, mseSignatures, mseVisits, sql } from "@svc/db";
import { newId } from "@svc/ids";
import { nothingToSign, recordedForAnotherPatient, signatureLimitReached } from "../errors.js";
import { localIsoTime } from "../local-time.js";
import { latestVersion } from "./records.js";
import type { SignatureRow } from "./rows.js";

export interface SignInput {
  orgId: string;
  keyId: string;
  visitId: string;
  patientId: string;
  signedByName: string;
  credential?: string | undefined;
  license?: string | undefined;
  organization?: string | undefined;
  timezone?: string | undefined;
  attestation?: string | undefined;
}

/**
 * The most signatures one version may carry (decision 86): a signer and co-signers, never an
 * unbounded list that every read of the version would carry.
 */
export const MAX_SIGNATURES_PER_VERSION = 20;

/**
 * Sign the latest version: the signature binds to its number and content hash. Signing again
 * adds another signature (a co-signature); a later write creates a new, unsigned version.
 * 409 when the visit has no MSE in the organization, is recorded for another patient, or the
 * version already carries MAX_SIGNATURES_PER_VERSION signatures.
 */
export async function signLatest(db: Db, input: SignInput): Promise<SignatureRow> {
  return db.transaction(async (tx) => {
    // The visit row's lock (writes take it too) makes count-then-insert one step: concurrent
    // signers queue, so the bound holds, and a signature binds to the latest committed version.
    const [visit] = await tx
      .select({ visitId: mseVisits.visitId })
      .from(mseVisits)
      .where(and(eq(mseVisits.orgId, input.orgId), eq(mseVisits.visitId, input.visitId)))
      .for("update");
    if (!visit) throw nothingToSign();
    const latest = await latestVersion(tx, input.orgId, input.visitId);
    if (!latest) throw nothingToSign();
    if (latest.row.patientId !== input.patientId) throw recordedForAnotherPatient();
    const [counted] = await tx
      .select({ n: sql<number>`count(*)::int` })
      .from(mseSignatures)
      .where(
        and(
          eq(mseSignatures.orgId, input.orgId),
          eq(mseSignatures.visitId, input.visitId),
          eq(mseSignatures.version, latest.row.version),
        ),
      );
    if ((counted?.n ?? 0) >= MAX_SIGNATURES_PER_VERSION) {
      throw signatureLimitReached(MAX_SIGNATURES_PER_VERSION);
    }
    return insertSignature(tx, input, latest.row);
  });
}

async function insertSignature(
  tx: DbOrTx,
  input: SignInput,
  latest: { version: number; patientId: string; contentHash: string },
): Promise<SignatureRow> {
  const now = new Date();
  const [row] = await tx
    .insert(mseSignatures)
    .values({
      id: newId("sig"),
      orgId: input.orgId,
      visitId: input.visitId,
      version: latest.version,
      patientId: latest.patientId,
      contentHash: latest.contentHash,
      signedByName: input.signedByName,
      credential: input.credential ?? null,
      license: input.license ?? null,
      organization: input.organization ?? null,
      timezone: input.timezone ?? null,
      attestation: input.attestation ?? null,
      signedAt: now,
      signedAtLocal: input.timezone ? localIsoTime(now, input.timezone) : null,
      keyId: input.keyId,
    })
    .returning();
  if (!row) throw new Error("mse store: the signature was not written");
  return row;
}

/**
 * Every signature of one version, oldest first: at most MAX_SIGNATURES_PER_VERSION rows (decision
 * 86). The FHIR answer of GET /v1/mse/{visitId} states each as a Provenance.
 */
export async function signaturesOfVersion(
  db: DbOrTx,
  orgId: string,
  visitId: string,
  version: number,
): Promise<SignatureRow[]> {
  return db
    .select()
    .from(mseSignatures)
    .where(
      and(
        eq(mseSignatures.orgId, orgId),
        eq(mseSignatures.visitId, visitId),
        eq(mseSignatures.version, version),
      ),
    )
    .orderBy(mseSignatures.signedAt, mseSignatures.id)
    .limit(MAX_SIGNATURES_PER_VERSION);
}
