import { z } from "@hono/zod-openapi";
import { BiomarkerSchema, IsoDate } from "@svc/http";

// Defined with the lab results shape in @svc/http (shared-schemas.ts), which the operator CLI
// validates with too; used by this API's request schemas below.
export { BiomarkerSchema, IsoDate };

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
    doseChangedAt: IsoDate.optional().openapi({
      description:
        "Additive (decision 198): when the dose last changed. Read by the patient review only: lithium levels are due weekly after a dose change until stable.",
    }),
  })
  .openapi("Prescription");

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
