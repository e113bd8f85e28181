import { z } from "@hono/zod-openapi";
import { ENGINE_NAMES } from "@svc/intelligence";

/** Contract: "Unified intelligence block". */
export const ConfidenceLevelSchema = z.enum(["high", "moderate", "low"]);

export const SummarySchema = z.object({
  status: z.string(),
  headline: z.string(),
  flagged: z.array(z.string()).openapi({ description: "Worst first." }),
  requiresClinicianReview: z.boolean(),
});

export const IntelligenceSchema = z
  .object({
    schema: z.literal("service.intelligence/v1"),
    engine: z.enum(ENGINE_NAMES),
    summary: SummarySchema,
    confidence: z.object({
      level: ConfidenceLevelSchema,
      score: z.number().min(0).max(1),
      reasons: z.array(z.string()),
    }),
    dataQuality: z.object({
      completeness: z.number().min(0).max(1),
      missingInputs: z.array(z.string()),
      freshness: z.object({ newestInputAt: z.string().nullable(), staleInputs: z.array(z.string()) }),
    }),
    provenance: z.object({
      generatedAt: z.string(),
      engineVersion: z
        .string()
        .openapi({ description: "`default` for shipped constants, `v<N>` calibrated." }),
      method: z.string(),
      inputs: z.array(
        z.object({
          name: z.string(),
          value: z.unknown(),
          observedAt: z.string().nullable(),
          contributed: z.boolean(),
        }),
      ),
    }),
    codes: z.array(
      z.object({
        system: z.enum([
          "http://snomed.info/sct",
          "http://loinc.org",
          "http://www.nlm.nih.gov/research/umls/rxnorm",
        ]),
        code: z.string(),
        display: z.string(),
        mapsTo: z.string().openapi({ description: "Dotted path into `data`, e.g. `signals.0`." }),
      }),
    ),
    unmapped: z
      .array(
        z.object({
          concept: z.string(),
          mapsTo: z.string().openapi({ description: "Dotted path into `data`, e.g. `signals.0`." }),
          reason: z.string(),
        }),
      )
      .optional()
      .openapi({
        description:
          "Additive: flagged concepts that have no verified code (so `codes` has no entry for them), each with the reason; absent when there are none. No code is ever invented.",
      }),
    change: z
      .object({
        direction: z.enum(["improved", "worsened", "unchanged"]),
        delta: z.number().nullable(),
        previousStatus: z.string().nullable(),
        currentStatus: z.string(),
        explanations: z.array(z.string()),
        previousComputedAt: z.string().nullable(),
      })
      .nullable(),
    interpretationScale: z.record(z.string(), z.string()),
    reasoning: z
      .object({
        narrative: z.string(),
        generatedAt: z.string(),
        narrator: z
          .enum(["template", "model"])
          .optional()
          .openapi({ description: "Which narrator wrote it." }),
      })
      .nullable(),
  })
  .openapi("Intelligence");

/** Contract: "model block". */
export const ModelSchema = z
  .object({
    key: z.string(),
    version: z.number().int().nullable(),
    source: z.enum(["default", "calibrated"]),
  })
  .openapi("Model");

/** Contract: "Signal object of medication and biomarker responses". */
export const ModuleSignalSchema = z
  .object({
    module: z.enum(["medication", "biomarker"]),
    signalKey: z.string(),
    label: z.string(),
    detail: z.string(),
    tone: z.string(),
    metricValue: z.number(),
    metricUnit: z.string(),
    confidence: ConfidenceLevelSchema,
    summaryLine: z.string(),
    sourceRef: z.string(),
    observedAt: z.string(),
  })
  .openapi("ModuleSignal");
