/**
 * zod schemas of what the services answer (discovery and the hook response), for the app's
 * OpenAPI document and for tests: the card rules as a schema (non-empty strings, summary under
 * 140 characters, selectionBehavior whenever suggestions are present).
 */
import { z } from "zod";
import { SUMMARY_MAX } from "./cards.js";
import { CDS_HOOKS } from "./services.js";

const text = z.string().trim().min(1);

const CodingSchema = z.object({ system: text, code: text, display: text });

const ActionSchema = z.object({
  type: z.enum(["create", "update", "delete"]),
  description: text,
  resourceId: text.optional(),
  resource: z.record(z.string(), z.unknown()).optional(),
});

const SuggestionSchema = z.object({
  label: text,
  uuid: text.optional(),
  isRecommended: z.boolean().optional(),
  actions: z.array(ActionSchema).min(1).optional(),
});

export const CardSchema = z
  .object({
    uuid: text,
    summary: text.max(SUMMARY_MAX),
    detail: text.optional(),
    indicator: z.enum(["info", "warning", "critical"]),
    source: z.object({ label: text, url: z.url(), icon: z.url().optional(), topic: CodingSchema.optional() }),
    suggestions: z.array(SuggestionSchema).min(1).optional(),
    selectionBehavior: z.enum(["at-most-one", "any"]).optional(),
    overrideReasons: z.array(CodingSchema).min(1).optional(),
    links: z
      .array(
        z.object({
          label: text,
          url: z.url(),
          type: z.enum(["absolute", "smart"]),
          appContext: text.optional(),
        }),
      )
      .min(1)
      .optional(),
  })
  .refine((card) => card.suggestions === undefined || card.selectionBehavior !== undefined, {
    message: "selectionBehavior is required when suggestions are present",
    path: ["selectionBehavior"],
  });

/** The hook response body: `{ cards }` (no systemActions are proposed). */
export const CdsResponseSchema = z.object({ cards: z.array(CardSchema) });

export const CdsServiceSchema = z.object({
  hook: z.enum(CDS_HOOKS),
  id: text,
  title: text.optional(),
  description: text,
  prefetch: z.record(z.string(), text).optional(),
  usageRequirements: text.optional(),
});

/** The discovery body (`GET /cds-services`). */
export const DiscoveryResponseSchema = z.object({ services: z.array(CdsServiceSchema) });
