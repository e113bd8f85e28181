import { z } from "@hono/zod-openapi";
import { RISK_LEVELS } from "@svc/mse-catalog";

/**
 * Pieces every MSE Record API shape shares: the visit id path parameter, the free-text bounds and
 * the identifiers a request carries, the FHIR coding and the risk level. Each feature's request and
 * response shapes stand beside this file (one zod schema each, shared by request validation, the
 * OpenAPI document and the tests' expectations).
 */

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
export const text = (min: number, max: number) => z.string().min(min).max(max);

export const PatientId = text(1, 128).openapi({ description: "Your patient identifier." });
export const ClinicianId = text(1, 128).openapi({ description: "Who recorded this version." });

export const CodingSchema = z
  .object({ system: z.string(), code: z.string(), display: z.string() })
  .openapi("Coding");

export const RiskLevelSchema = z.enum(RISK_LEVELS);
