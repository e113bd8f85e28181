import { createRoute, z } from "@hono/zod-openapi";
import { type AppEnv, errorResponses, rateLimitHeaders, type ServiceApp } from "@svc/http";
import type { Context } from "hono";
import { LAB_CATEGORIES, listPanels } from "../labs/catalog.js";
import { LabCatalogPanelSchema } from "./v1_labs_schemas.js";

const QuerySchema = z.object({
  category: z
    .enum(LAB_CATEGORIES)
    .optional()
    .openapi({ param: { name: "category", in: "query" }, description: "Only panels of this category." }),
});

export const LabPanelListResponseSchema = z
  .object({
    ok: z.literal(true),
    data: z.object({
      object: z.literal("list"),
      resource: z.literal("lab_panel"),
      count: z.number().int(),
      panels: z.array(LabCatalogPanelSchema),
    }),
  })
  .openapi("LabPanelList");
export type LabPanelListResponse = z.infer<typeof LabPanelListResponseSchema>;

const route = createRoute({
  method: "get",
  path: "/v1/labs/panels",
  tags: ["Lab orders"],
  summary: "The lab catalog",
  description: "Panels that can be ordered, optionally filtered by `category`.",
  request: { query: QuerySchema },
  responses: {
    200: {
      description: "The catalog",
      headers: rateLimitHeaders,
      content: { "application/json": { schema: LabPanelListResponseSchema } },
    },
    ...errorResponses(400, 402),
  },
});

export function registerLabPanelsList(service: ServiceApp): void {
  service.openapi(route, (c: Context<AppEnv>) => {
    const { category } = (c.req as unknown as { valid(t: "query"): z.infer<typeof QuerySchema> }).valid(
      "query",
    );
    const panels = listPanels(category);
    const body: LabPanelListResponse = {
      ok: true,
      data: { object: "list", resource: "lab_panel", count: panels.length, panels },
    };
    return c.json(body, 200);
  });
}
