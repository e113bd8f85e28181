import { createRoute, type RouteHandler, z } from "@hono/zod-openapi";
import { type AppEnv, errorResponses, rateLimitHeaders, type ServiceApp } from "@svc/http";
import { PROVIDERS, WEARABLE_METRICS } from "../wearables/providers.js";

export const WearableProviderListSchema = z
  .object({
    ok: z.literal(true),
    data: z.object({
      object: z.literal("list"),
      resource: z.literal("wearable_provider"),
      count: z.number().int(),
      providers: z
        .array(z.string())
        .openapi({ description: "Uppercase provider codes accepted by connect." }),
      details: z.array(
        z.object({ code: z.string(), displayName: z.string(), metrics: z.array(z.enum(WEARABLE_METRICS)) }),
      ),
    }),
  })
  .openapi("WearableProviderList");
export type WearableProviderList = z.infer<typeof WearableProviderListSchema>;

const route = createRoute({
  method: "get",
  path: "/v1/wearables/providers",
  tags: ["Wearables"],
  summary: "Provider codes accepted by connect",
  responses: {
    200: {
      description: "The providers",
      headers: rateLimitHeaders,
      content: { "application/json": { schema: WearableProviderListSchema } },
    },
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
