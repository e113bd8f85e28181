import { createRoute, type RouteHandler } from "@hono/zod-openapi";
import { type AppEnv, errorResponses, jsonAnswer, type ServiceApp } from "@svc/http";
import { PROVIDERS } from "@svc/records";
import { type WearableProviderList, WearableProviderListSchema } from "../schemas/wearables.js";

// The body types of this route, for clients and tests (from the schemas it declares).
export type { WearableProviderList };

const route = createRoute({
  method: "get",
  operationId: "listWearableProviders",
  path: "/v1/wearables/providers",
  tags: ["Wearables"],
  summary: "List providers",
  description: "Provider codes accepted by connect.",
  responses: {
    200: jsonAnswer("The providers", WearableProviderListSchema),
    ...errorResponses(402),
  },
});

export function registerWearableProviders(service: ServiceApp): void {
  const handler: RouteHandler<typeof route, AppEnv> = (c) => {
    const body: WearableProviderList = {
      ok: true,
      data: {
        object: "list",
        resource: "wearable_provider",
        count: PROVIDERS.length,
        providers: PROVIDERS.map((p) => p.code),
        details: PROVIDERS.map((p) => ({
          code: p.code,
          displayName: p.displayName,
          metrics: [...p.metrics],
        })),
      },
    };
    return c.json(body, 200);
  };
  service.openapi(route, handler);
}
