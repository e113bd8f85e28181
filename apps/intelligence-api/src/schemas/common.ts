import { z } from "@hono/zod-openapi";
import { parseTime } from "@svc/engines";

const ISO_DATE_SHAPE = /^\d{4}-\d{2}-\d{2}([T ][0-9:.]+(Z|[+-]\d{2}:?\d{2})?)?$/;

/**
 * ISO 8601 timestamp or date (the contract's "date" inputs accept both): the shape, then a real
 * date. Read with the engines' parser (equal to Date.parse, a fraction of its cost), since a
 * request can carry 500 of them.
 */
export const IsoDate = z
  .string()
  .max(40)
  .refine((v) => ISO_DATE_SHAPE.test(v) && parseTime(v) !== null, {
    message: "must be an ISO 8601 date or timestamp",
  })
  .openapi({ example: "2026-10-01T09:30:00Z" });

export const AssessmentSchema = z
  .object({
    instrumentId: z.string().min(1).max(64),
    instrumentName: z.string().min(1).max(120),
    score: z.number().min(0).max(1000),
    maxScore: z.number().min(1).max(1000),
    severity: z.string().max(120).optional(),
    createdAt: IsoDate,
  })
  .openapi("Assessment");

export const PrescriptionSchema = z
  .object({
    id: z.string().min(1).max(256),
    medicationName: z.string().min(1).max(160),
    dosage: z.string().max(256).optional(),
    frequency: z.string().max(256).optional(),
    status: z.string().min(1).max(64),
    prescribedAt: IsoDate.optional(),
  })
  .openapi("Prescription");

export const BiomarkerSchema = z
  .object({
    name: z.string().min(1).max(120),
    value: z.union([z.number(), z.string().max(256), z.null()]),
    unit: z.string().max(64).optional(),
    flag: z.enum(["high", "low", "critical", "normal"]).optional(),
    referenceRange: z.string().max(256).optional(),
    note: z.string().max(240).optional(),
    loinc: z
      .string()
      .regex(/^\d{1,7}-\d$/, "must be a LOINC code such as 14334-7")
      .optional()
      .openapi({ description: "Optional LOINC code of the analyte (additive)." }),
  })
  .openapi("Biomarker");

export const LabPanelSchema = z
  .object({
    id: z.string().min(1).max(256),
    labName: z.string().min(1).max(160),
    observedAt: IsoDate.optional(),
    results: z.object({ biomarkers: z.array(BiomarkerSchema).max(200) }),
  })
  .openapi("LabPanel");

/**
 * `previous`: what the caller got last time; enables `intelligence.change`. `inputs` (the prior
 * inputs keyed by field name) is checked with the endpoint's own input fields, each optional and
 * with the same bounds, and any other key refused: the change explanations then only ever name
 * the endpoint's fields, and nothing in `previous` is larger than the request it mirrors.
 */
export function previousSchema<S extends z.ZodRawShape>(inputFields: S, name: string) {
  return z
    .object({
      score: z.number().min(-1000).max(1000).optional(),
      status: z.string().max(64).optional(),
      computedAt: IsoDate.optional(),
      inputs: z.object(inputFields).partial().strict().optional().openapi({
        description:
          "The prior request's inputs keyed by field name: this endpoint's own fields, each optional, with the same bounds; any other key is refused.",
      }),
    })
    .openapi(name);
}

/** Fields every analysis endpoint accepts, with `previous.inputs` mirroring `inputFields`. */
export function analysisFields<S extends z.ZodRawShape>(inputFields: S, name: string) {
  return {
    explain: z
      .boolean()
      .optional()
      .openapi({ description: "true adds intelligence.reasoning (adds latency)." }),
    previous: previousSchema(inputFields, `${name}Previous`).optional(),
    sessionRef: z.string().max(128).optional().openapi({ description: "Echoed; never stored or logged." }),
  };
}
