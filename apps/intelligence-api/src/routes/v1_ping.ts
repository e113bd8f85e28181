import { createRoute, z } from "@hono/zod-openapi";
import { type AppEnv, authOf, errorResponses, jsonAnswer, type ServiceApp } from "@svc/http";
import type { Context } from "hono";

export const PingResponseSchema = z
  .object({
    ok: z.literal(true),
    data: z.object({
      object: z.literal("ping"),
      mode: z.enum(["test", "live"]),
      keyKind: z.enum(["secret_test", "secret_live"]),
      plan: z.string(),
      accountId: z.string(),
      time: z.string().datetime(),
    }),
  })
  .openapi("Ping");
export type PingResponse = z.infer<typeof PingResponseSchema>;

const route = createRoute({
  method: "get",
  operationId: "ping",
  path: "/v1/ping",
  tags: ["Keys"],
  summary: "Check a key",
  description: "Confirm the key, its plan and connectivity. Secret keys only; publishable keys get 403.",
  responses: {
    200: jsonAnswer("The key works", PingResponseSchema),
    ...errorResponses(402),
  },
});

export function registerPing(service: ServiceApp): void {
  service.openapi(route, (c: Context<AppEnv>) => {
    const auth = authOf(c, "api_key");
    const body: PingResponse = {
      ok: true,
      data: {
        object: "ping",
        mode: auth.mode,
        keyKind: auth.kind as "secret_test" | "secret_live",
        plan: auth.planId ?? "sandbox",
        accountId: auth.accountId as string,
        time: new Date().toISOString(),
      },
    };
    return c.json(body, 200);
  });
}
