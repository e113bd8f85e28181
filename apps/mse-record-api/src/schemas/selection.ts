import { z } from "@hono/zod-openapi";
import {
  CONFIDENCE_VALUES,
  CSSRS_ITEM_IDS,
  CSSRS_RECENCY_KEY,
  DOMAIN_KEYS,
  DOMAINS,
  PROVENANCE_VALUES,
  SUPPORTING_SIGNALS,
} from "@svc/mse-catalog";
import { CodingSchema, RiskLevelSchema } from "./common.js";

/** The selection a client records (keyed by domain), its rendered lines and the risk it yields. */

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
export const SelectionInput = (description: string, nullable: boolean) =>
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
