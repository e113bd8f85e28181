import { z } from "@hono/zod-openapi";
import { CodingSchema } from "./common.js";

/** The MSE catalog: GET /v1/mse/domains. */

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
