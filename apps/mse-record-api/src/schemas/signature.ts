import { z } from "@hono/zod-openapi";
import { PatientId, text } from "./common.js";

/** Signing a version (POST /v1/mse/{visitId}/sign) and the signature it records. */

/** True when the runtime knows the IANA time zone name. */
export function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

export const SignRequestSchema = z
  .object({
    patientId: PatientId,
    signedByName: text(1, 200).refine((v) => v.trim() !== "", "signedByName must not be blank."),
    credential: text(0, 200).optional().openapi({ example: "MD" }),
    license: text(0, 200).optional(),
    organization: text(0, 200).optional(),
    timezone: z
      .string()
      .max(64)
      .refine(isTimeZone, "timezone must be an IANA time zone name, e.g. Europe/Berlin.")
      .optional()
      .openapi({
        description: "IANA name; the local signing time is recorded in it.",
        example: "America/New_York",
      }),
    attestation: text(0, 2000).optional(),
  })
  .openapi("MseSignRequest");
export type SignRequest = z.infer<typeof SignRequestSchema>;

export const SignatureSchema = z
  .object({
    id: z.string(),
    version: z.number().int(),
    contentHash: z.string(),
    signedByName: z.string(),
    credential: z.string().nullable(),
    license: z.string().nullable(),
    organization: z.string().nullable(),
    timezone: z.string().nullable(),
    signedAt: z.string(),
    signedAtLocal: z
      .string()
      .nullable()
      .openapi({ description: "Signing time on the signer's clock in `timezone` (ISO with offset)." }),
    attestation: z.string().nullable(),
    keyId: z.string(),
  })
  .openapi("MseSignature");
export type Signature = z.infer<typeof SignatureSchema>;

export const SignResponseSchema = z
  .object({
    ok: z.literal(true),
    signatureId: z.string(),
    version: z.number().int(),
    contentHash: z.string(),
    signedAt: z.string(),
  })
  .openapi("MseSignResponse");
export type SignResponse = z.infer<typeof SignResponseSchema>;
