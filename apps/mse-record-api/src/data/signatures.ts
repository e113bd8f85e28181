import { type Db, mseSignatures } from "@svc/db";
import { newId } from "@svc/ids";
import { nothingToSign, recordedForAnotherPatient } from "../errors.js";
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
 * Sign the latest version: the signature binds to its number and content hash. Signing again
 * adds another signature (a co-signature); a later write creates a new, unsigned version.
 * 409 when the visit has no MSE in the organization or is recorded for another patient.
 */
export async function signLatest(db: Db, input: SignInput): Promise<SignatureRow> {
  const latest = await latestVersion(db, input.orgId, input.visitId);
  if (!latest) throw nothingToSign();
  if (latest.row.patientId !== input.patientId) throw recordedForAnotherPatient();
  const now = new Date();
  const [row] = await db
    .insert(mseSignatures)
    .values({
      id: newId("sig"),
      orgId: input.orgId,
      visitId: input.visitId,
      version: latest.row.version,
      patientId: latest.row.patientId,
      contentHash: latest.row.contentHash,
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
