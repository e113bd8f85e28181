import { createRoute, type RouteHandler, z } from "@hono/zod-openapi";
import { type AppEnv, errorResponses, jsonAnswer, type ServiceApp } from "@svc/http";
import { LAB_CATEGORIES, listPanels } from "@svc/records";
import { type LabPanelListResponse, LabPanelListResponseSchema } from "../schemas/labs.js";

const QuerySchema = z.object({
  category: z
    .enum(LAB_CATEGORIES)
    .optional()
    .openapi({ param: { name: "category", in: "query" }, description: "Only panels of this category." }),
});

// The body types of this route, for clients and tests (from the schemas it declares).
export type { LabPanelListResponse };

const route = createRoute({
  method: "get",
  operationId: "listLabPanels",
  path: "/v1/labs/panels",
  tags: ["Lab orders"],
  summary: "List lab panels",
  description: "Panels that can be ordered, optionally filtered by `category`.",
  request: { query: QuerySchema },
  responses: {
    200: jsonAnswer("The catalog", LabPanelListResponseSchema),
    ...errorResponses(400, 402),
  },
});

export function registerLabPanelsList(service: ServiceApp): void {
  const handler: RouteHandler<typeof route, AppEnv> = (c) => {
    const { category } = c.req.valid("query");
    const panels = listPanels(category);
    const body: LabPanelListResponse = {
      ok: true,
      data: { object: "list", resource: "lab_panel", count: panels.length, panels },
    };
    return c.json(body, 200);
  };
  service.openapi(route, handler);
}
