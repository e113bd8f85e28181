import { z } from "@hono/zod-openapi";
import { DOMAIN_KEYS } from "@svc/mse-catalog";
import { ClinicianId, PatientId, RiskLevelSchema } from "./common.js";
import { CssrsStatusSchema, LineSchema, RiskSchema, SelectionInput, SelectionSchema } from "./selection.js";
import { SignatureSchema } from "./signature.js";

/** Writing, patching and reading a visit's MSE record: PUT, PATCH and GET /v1/mse/{visitId}. */

export const WriteRequestSchema = z
  .object({
    patientId: PatientId,
    selection: SelectionInput(
      "The whole selection, keyed by domain; it replaces the stored one. Checked against the catalog: problems give 422 invalid_selection.",
      false,
    ),
    clinicianId: ClinicianId.optional(),
  })
  .openapi("MseWriteRequest");
export type WriteRequest = z.infer<typeof WriteRequestSchema>;

export const PatchRequestSchema = z
  .object({
    patientId: PatientId,
    selection: SelectionInput(
      "The domains to replace (at least one); a domain set to null is removed. Untouched domains are kept.",
      true,
    ),
    clinicianId: ClinicianId.optional(),
  })
  .openapi("MsePatchRequest");
export type PatchRequest = z.infer<typeof PatchRequestSchema>;

export const GetQuerySchema = z.object({
  patientId: z
    .string()
    .min(1)
    .max(128)
    .optional()
    .openapi({
      param: { name: "patientId", in: "query" },
      description: "When given and not the visit's patient: 404.",
    }),
});
export const WriteResponseSchema = z
  .object({ ok: z.literal(true), version: z.number().int(), risk: RiskSchema })
  .openapi("MseWriteResponse");
export type WriteResponse = z.infer<typeof WriteResponseSchema>;

export const PatchResponseSchema = z
  .object({
    ok: z.literal(true),
    version: z.number().int(),
    patchedDomains: z.array(z.enum(DOMAIN_KEYS)),
    risk: RiskSchema,
  })
  .openapi("MsePatchResponse");
export type PatchResponse = z.infer<typeof PatchResponseSchema>;

export const MseRecordSchema = z
  .object({
    visitId: z.string(),
    patientId: z.string(),
    selection: SelectionSchema,
    lines: z.array(LineSchema),
    objectiveBlock: z.string(),
    riskFlag: z.boolean(),
    riskLevel: RiskLevelSchema,
    riskLabels: z.array(z.string()),
    version: z.number().int(),
    savedAt: z.string().nullable(),
    signed: z.boolean().openapi({ description: "True when the current version carries a signature." }),
    signedAt: z.string().nullable(),
    signedByName: z.string().nullable(),
    signedByCredential: z.string().nullable(),
    signedByLicense: z.string().nullable(),
    signedByOrganization: z.string().nullable(),
    signature: SignatureSchema.nullable().openapi({
      description: "Additive: the latest signature of the current version, or null.",
    }),
    clinicianId: z.string().nullable().openapi({ description: "Additive." }),
    contentHash: z.string().openapi({ description: "Additive: SHA-256 of the version's canonical content." }),
    safetyEventId: z.string().nullable().openapi({ description: "Additive." }),
    // A union (not .nullable()) so the document allows null beside the $ref.
    cssrs: z.union([CssrsStatusSchema, z.null()]).openapi({
      description: "Additive: completeness and triage of the C-SSRS screen, or null when none is recorded.",
    }),
  })
  .openapi("MseRecord");
export type MseRecord = z.infer<typeof MseRecordSchema>;

export const GetResponseSchema = z.object({ mse: MseRecordSchema }).openapi("MseRecordResponse");
export type GetResponse = z.infer<typeof GetResponseSchema>;
