import { z } from "@hono/zod-openapi";
import { parseTime } from "@svc/engines";

/**
 * Request shapes validated on more than one surface: the Intelligence API's routes and the operator
 * CLI's `labs advance --results-file` (decision 166). One definition each, with the OpenAPI names
 * the published document uses; the HTTP layer holds them because both surfaces depend on it and
 * the CLI may import no app.
 */

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

export const LabResultsSchema = z
  .object({
    observedAt: IsoDate,
    biomarkers: z.array(BiomarkerSchema).max(200),
  })
  .openapi("LabResults", {
    description:
      "Parsed results in the Biomarker input shape: send them as a lab panel's `results` to POST /v1/biomarker/analyze.",
  });
