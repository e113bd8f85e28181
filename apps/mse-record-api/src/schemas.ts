import { z } from "@hono/zod-openapi";
import { cursorQuery, decimalInteger } from "@svc/http";
import {
  CONFIDENCE_VALUES,
  CSSRS_ITEM_IDS,
  CSSRS_RECENCY_KEY,
  DOMAIN_KEYS,
  DOMAINS,
  PROVENANCE_VALUES,
  RISK_LEVELS,
  SUPPORTING_SIGNALS,
} from "@svc/mse-catalog";

/**
 * The request and response shapes of the MSE Record API: one zod schema each, shared by request
 * validation, the OpenAPI document and the tests' expectations.
 */

// ---------------------------------------------------------------------------------------------
// Path and query parameters

/** Path segments that are fixed routes under /v1/mse, so they can never be a visit id. */
export const RESERVED_VISIT_IDS: readonly string[] = ["domains", "safety_events"];

export const VisitIdParamSchema = z.object({
  visitId: z
    .string()
    .min(1)
    .max(128)
    .regex(/^[A-Za-z0-9._:-]+$/, "visitId may hold only letters, digits and . _ : -")
    .refine((v) => !RESERVED_VISIT_IDS.includes(v), "This visitId is reserved by the API.")
    .openapi({
      param: { name: "visitId", in: "path" },
      description: "Your visit identifier: 1-128 characters of A-Z a-z 0-9 . _ : -",
      example: "visit_2026_06_01_a",
    }),
});

/**
 * Free text. NUL, other control characters and unpaired surrogates (PostgreSQL cannot store them,
 * and a stored hash would no longer recompute) never reach these schemas: the input hygiene
 * screen of @svc/http refuses them in every body string first (decision 29).
 */
const text = (min: number, max: number) => z.string().min(min).max(max);

const PatientId = text(1, 128).openapi({ description: "Your patient identifier." });
const ClinicianId = text(1, 128).openapi({ description: "Who recorded this version." });

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * The selection is passed through untouched (the catalog validator checks it and answers 422
 * with one entry per problem); the schema only insists on an object.
 */
const ENTRY_REF = { $ref: "#/components/schemas/MseSelectionEntry" };

/**
 * What the catalog validator refuses before it reads an entry or a value (decision 169), stated in
 * the document: more keys than domains, more values than the largest domain has options, more
 * supporting signals than the catalog names; a longer string is no option or signal (422).
 */
const MOST_OPTIONS = Math.max(...DOMAINS.map((d) => d.options.length));
const LONGEST_OPTION = Math.max(...DOMAINS.flatMap((d) => d.options.map((o) => o.value.length)));
const LONGEST_SIGNAL = Math.max(...SUPPORTING_SIGNALS.map((s) => s.length));
const SelectionInput = (description: string, nullable: boolean) =>
  z
    .custom<Record<string, unknown>>(isPlainObject, {
      message: "The selection must be an object keyed by domain.",
    })
    .openapi({
      type: "object",
      description,
      maxProperties: DOMAIN_KEYS.length,
      additionalProperties: nullable ? { anyOf: [ENTRY_REF, { type: "null" }] } : ENTRY_REF,
      example: { mood: { values: ["depressed", "anxious"] }, risk: { values: ["denies_si_hi"] } },
    });

// ---------------------------------------------------------------------------------------------
// Shared pieces

export const CodingSchema = z
  .object({ system: z.string(), code: z.string(), display: z.string() })
  .openapi("Coding");

const YesNo = z.enum(["yes", "no"]);

export const CssrsAnswersSchema = z
  .object({
    q1: YesNo.optional(),
    q2: YesNo.optional(),
    q3: YesNo.optional(),
    q4: YesNo.optional(),
    q5: YesNo.optional(),
    q6: YesNo.optional(),
    q6_recent: YesNo.optional().openapi({
      description: "Additive: q6 behavior within the past 3 months; only when q6 is yes.",
    }),
  })
  .openapi("MseCssrsAnswers");

export const SelectionEntrySchema = z
  .object({
    values: z
      .array(z.string().max(LONGEST_OPTION))
      .max(MOST_OPTIONS)
      .openapi({ description: "Option values of the domain (see the catalog), at most one per option." }),
    text: z.string().max(2000).optional().openapi({ description: "Free-text note (domains with hasNote)." }),
    provenance: z.enum(PROVENANCE_VALUES).optional(),
    confidence: z.enum(CONFIDENCE_VALUES).optional(),
    confidenceScore: z.number().min(0).max(1).optional(),
    supportingSignals: z.array(z.string().max(LONGEST_SIGNAL)).max(SUPPORTING_SIGNALS.length).optional(),
    cssrs: CssrsAnswersSchema.optional().openapi({ description: "Only on the risk domain." }),
  })
  .openapi("MseSelectionEntry");

export const SelectionSchema = z
  .partialRecord(z.enum(DOMAIN_KEYS), SelectionEntrySchema)
  .openapi("MseSelection", { description: "Stored selection keyed by domain, in catalog order." });

export const LineSchema = z
  .object({
    key: z.enum(DOMAIN_KEYS),
    label: z.string(),
    line: z.string(),
    provenance: z.enum(PROVENANCE_VALUES).optional(),
    confidence: z.enum(CONFIDENCE_VALUES).optional(),
    confidenceScore: z.number().optional(),
    supportingSignals: z.array(z.string()).optional(),
    codes: z.array(CodingSchema),
  })
  .openapi("MseLine");

export const RiskLevelSchema = z.enum(RISK_LEVELS);

export const CssrsStatusSchema = z
  .object({
    complete: z.boolean().openapi({
      description:
        "True when every item the screener's skip rule asks was answered: items 1, 2 and 6 always, 3-5 after a yes to item 2, and q6_recent after a yes to item 6.",
    }),
    missingItems: z
      .array(z.enum([...CSSRS_ITEM_IDS, CSSRS_RECENCY_KEY]))
      .openapi({ description: "Required answers not recorded, in item order." }),
    triageLevel: RiskLevelSchema.openapi({
      description: "The screen's own triage level; never `none` when the screen is incomplete.",
    }),
  })
  .openapi("MseCssrsStatus", {
    description:
      "Additive: completeness and triage of the C-SSRS screen, present when the version records C-SSRS answers. An incomplete screen is never a negative one.",
  });

export const RiskSchema = z
  .object({
    flag: z.boolean(),
    level: RiskLevelSchema,
    labels: z.array(z.string()),
    // No field-level description: on a registered schema it would overwrite the component's own.
    cssrs: CssrsStatusSchema.optional(),
    safetyEventId: z
      .string()
      .nullable()
      .openapi({ description: "The safety event written for this version (`sev_...`), or null." }),
  })
  .openapi("MseRisk");

// ---------------------------------------------------------------------------------------------
// Requests

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

export const SafetyEventsQuerySchema = z.object({
  limit: decimalInteger({ min: 1, max: 200, fallback: 50 }).openapi({
    param: { name: "limit", in: "query" },
    description: "1-200, default 50.",
  }),
  cursor: cursorQuery("`nextCursor` of the previous page."),
  visitId: z
    .string()
    .min(1)
    .max(128)
    .optional()
    .openapi({ param: { name: "visitId", in: "query" }, description: "Only this visit's events." }),
});

/**
 * History and audit pages (decision 87): keyset paging on the version number, as the other lists
 * page (`limit`, `cursor` = the previous page's `nextCursor`). The defaults keep a usual visit
 * whole in one page; a page also stops before its JSON passes PAGE_BYTES.
 */
export const HISTORY_LIMIT = { min: 1, max: 100, fallback: 50 } as const;
export const AUDIT_LIMIT = { min: 1, max: 200, fallback: 100 } as const;

const pageCursor = cursorQuery("`nextCursor` of the previous page.");

export const HistoryQuerySchema = z.object({
  limit: decimalInteger(HISTORY_LIMIT).openapi({
    param: { name: "limit", in: "query" },
    description: "Versions per page, 1-100, default 50.",
  }),
  cursor: pageCursor,
});

export const AuditQuerySchema = z.object({
  limit: decimalInteger(AUDIT_LIMIT).openapi({
    param: { name: "limit", in: "query" },
    description: "Versions per page, 1-200, default 100.",
  }),
  cursor: pageCursor,
});

// ---------------------------------------------------------------------------------------------
// Responses

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

export const HistoryEntrySchema = z
  .object({
    version: z.number().int(),
    savedAt: z.string(),
    lines: z.array(z.string()),
    superseded: z.boolean(),
    signed: z.boolean(),
    signatureIds: z.array(z.string()).optional(),
    operation: z.enum(["write", "patch"]),
    patchedDomains: z.array(z.string()).optional(),
    clinicianId: z.string().nullable(),
  })
  .openapi("MseHistoryEntry");

export const HistoryResponseSchema = z
  .object({
    visitId: z.string(),
    versions: z.array(HistoryEntrySchema).openapi({ description: "Newest first (this page)." }),
    chainValid: z.boolean().openapi({
      description:
        "Additive: every link of the whole chain recomputes (versions 1..n, each previous link and chain hash), and so does the content hash of every version on this page.",
    }),
    hasMore: z.boolean().openapi({ description: "Additive: older versions follow; pass `nextCursor`." }),
    nextCursor: z
      .string()
      .nullable()
      .openapi({ description: "Additive: the `cursor` of the next (older) page, or null." }),
  })
  .openapi("MseHistory");
export type HistoryResponse = z.infer<typeof HistoryResponseSchema>;

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

export const AuditVersionSchema = z
  .object({
    version: z.number().int(),
    operation: z.enum(["write", "patch"]),
    patchedDomains: z.array(z.string()).nullable(),
    clinicianId: z.string().nullable(),
    keyId: z.string(),
    savedAt: z.string(),
    riskFlag: z.boolean(),
    riskLevel: RiskLevelSchema,
    safetyEventId: z.string().nullable(),
    contentHash: z.string(),
    prevHash: z.string().nullable(),
    chainHash: z.string(),
    hashValid: z
      .boolean()
      .openapi({ description: "This row's content hash, previous link and chain hash recompute." }),
  })
  .openapi("MseAuditVersion");

export const AuditSignatureSchema = SignatureSchema.extend({
  hashValid: z.boolean().openapi({ description: "The signed content hash is the version's stored one." }),
}).openapi("MseAuditSignature");

export const AuditResponseSchema = z
  .object({
    visitId: z.string(),
    patientId: z.string(),
    currentVersion: z.number().int(),
    chainValid: z.boolean().openapi({
      description:
        "Every link of the whole chain recomputes (versions 1..n, each previous link and chain hash), and so does the content hash of every version on this page.",
    }),
    versions: z
      .array(AuditVersionSchema)
      .openapi({ description: "Oldest first (chain order), this page's versions." }),
    signatures: z
      .array(AuditSignatureSchema)
      .openapi({ description: "Signatures of this page's versions, oldest first." }),
    hasMore: z.boolean().openapi({ description: "Additive: later versions follow; pass `nextCursor`." }),
    nextCursor: z
      .string()
      .nullable()
      .openapi({ description: "Additive: the `cursor` of the next (later) page, or null." }),
  })
  .openapi("MseAudit");
export type AuditResponse = z.infer<typeof AuditResponseSchema>;

export const SafetyEventSchema = z
  .object({
    id: z.string(),
    object: z.literal("mse.safety_event"),
    type: z.literal("mse.risk_flagged"),
    organizationId: z.string(),
    visitId: z.string(),
    patientId: z.string(),
    version: z.number().int(),
    risk: z.object({ flag: z.boolean(), level: RiskLevelSchema, labels: z.array(z.string()) }),
    createdAt: z.string(),
  })
  .openapi("MseSafetyEvent");

export const SafetyEventListSchema = z
  .object({
    object: z.literal("list"),
    resource: z.literal("mse.safety_event"),
    count: z.number().int(),
    events: z.array(SafetyEventSchema).openapi({ description: "Newest first." }),
    nextCursor: z.string().nullable(),
    hasMore: z.boolean(),
  })
  .openapi("MseSafetyEventList");
export type SafetyEventList = z.infer<typeof SafetyEventListSchema>;

export const CatalogSchema = z
  .object({
    version: z.string(),
    panel: CodingSchema,
    observationMetadata: z.object({
      provenanceValues: z.array(z.string()),
      confidenceValues: z.array(z.string()),
      confidenceScore: z.object({ min: z.number(), max: z.number() }),
      supportingSignals: z.array(z.string()),
    }),
    domains: z.array(
      z.object({
        key: z.string(),
        label: z.string(),
        type: z.string(),
        multi: z.boolean(),
        hasNote: z.boolean(),
        options: z.array(
          z.object({
            value: z.string(),
            label: z.string(),
            risk: z.boolean(),
            codes: z.array(CodingSchema),
            excludes: z.array(z.string()).optional(),
          }),
        ),
      }),
    ),
    cssrs: z.object({
      appliesTo: z.literal("risk"),
      questions: z.array(
        z.object({ id: z.string(), order: z.number().int(), text: z.string(), timeframe: z.string() }),
      ),
      recency: z.object({ id: z.string(), appliesTo: z.string(), text: z.string(), timeframe: z.string() }),
      triage: z.array(z.object({ level: z.string(), rule: z.string() })),
      triageSource: z.string(),
    }),
  })
  .openapi("MseCatalog");
