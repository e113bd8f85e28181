import type { OpenAPIHono } from "@hono/zod-openapi";
import type { ServiceApp } from "./app.js";
import { healthzRoute, OPENAPI_INFO, readyzRoute, renderReferencePage } from "./openapi.js";

/** /healthz, /readyz, /v1/openapi.json and /docs on a service app. */
export function registerStandardRoutes(
  service: ServiceApp,
  options: { documentSource?: () => OpenApiDoc } = {},
): void {
  const { deps } = service;
  service.openapi(
    healthzRoute,
    (c: { json: (b: unknown, s?: number) => Response }) => c.json({ ok: true, status: "alive" }),
    null,
  );
  service.openapi(
    readyzRoute,
    async (c: { json: (b: unknown, s?: number) => Response }) => {
      const redis = deps.redisState?.() ?? "disabled";
      try {
        await deps.db.execute("select 1");
        return c.json({ ok: true, status: "ready", database: "ready", redis }, 200);
      } catch {
        return c.json({ ok: false, status: "not_ready", database: "down", redis }, 503);
      }
    },
    null,
  );
  const document = options.documentSource ?? (() => openApiDocument(service.app, deps.publicBaseUrl));
  service.plain("GET", "/v1/openapi.json", (c) => c.json(document()), null);
  service.plain("GET", "/docs", (c) => c.html(renderReferencePage(document())), null);
}

export type OpenApiDoc = { paths?: Record<string, Record<string, unknown>>; [key: string]: unknown };

const withSecurityScheme = new WeakSet<object>();

// biome-ignore lint/suspicious/noExplicitAny: any app env.
export function openApiDocument(app: OpenAPIHono<any>, serverUrl?: string): OpenApiDoc {
  if (!withSecurityScheme.has(app)) {
    app.openAPIRegistry.registerComponent("securitySchemes", "bearerAuth", {
      type: "http",
      scheme: "bearer",
    });
    withSecurityScheme.add(app);
  }
  return app.getOpenAPI31Document({
    ...OPENAPI_INFO,
    servers: serverUrl ? [{ url: serverUrl }] : [],
    security: [{ bearerAuth: [] }],
  }) as unknown as OpenApiDoc;
}
