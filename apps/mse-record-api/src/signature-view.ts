import type { SignatureRow } from "./data/rows.js";
import type { Signature } from "./schemas/signature.js";

/** A stored signature as the API shows it (the current MSE, and the audit trail). */
export function signatureView(row: SignatureRow): Signature {
  return {
    id: row.id,
    version: row.version,
    contentHash: row.contentHash,
    signedByName: row.signedByName,
    credential: row.credential,
    license: row.license,
    organization: row.organization,
    timezone: row.timezone,
    signedAt: row.signedAt.toISOString(),
    signedAtLocal: row.signedAtLocal,
    attestation: row.attestation,
    keyId: row.keyId,
  };
}
