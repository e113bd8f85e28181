import { randomBytes } from "node:crypto";
import type { OpenAPIHono } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { AppDeps, ServiceApp } from "./app.js";
import {
  healthzRoute,
  OPENAPI_INFO,
  OPENAPI_TAGS,
  readyzRoute,
  SECURITY_SCHEMES,
  securityFor,
} from "./openapi.js";
import {
  ERROR_CODES_PATH,
  REFERENCE_PATH,
  referencePage,
  renderErrorCodesPage,
  STARTER_PATH,
  scalarAsset,
  scalarAssetPath,
  starterAsset,
} from "./reference-page.js";
import { type EndpointRegistry, endpointsOf } from "./route-policy.js";
import { addSdkSamples } from "./sdk-samples.js";

/**
 * The headers every HTML page we serve carries: a Content-Security-Policy that allows
 * only the page's own nonce-tagged style (no scripts, images, frames or foreign forms), framing
 * refused twice over (frame-ancestors and X-Frame-Options for older browsers), no referrer, and
 * no caching. Returns the nonce to put on the page's `<style>` element.
 */
export function setHtmlSecurityHeaders(
  // biome-ignore lint/suspicious/noExplicitAny: any app env.
  c: Context<any>,
  options: { allowFormsToSelf?: boolean } = {},
): string {
  const nonce = randomBytes(16).toString("base64");
  c.header(
    "Content-Security-Policy",
    `default-src 'none'; style-src 'nonce-${nonce}'; img-src 'none'; form-action ${options.allowFormsToSelf ? "'self'" : "'none'"}; frame-ancestors 'none'; base-uri 'none'`,
  );
  c.header("X-Frame-Options", "DENY");
  c.header("Referrer-Policy", "no-referrer");
  c.header("Cross-Origin-Opener-Policy", "same-origin");
  c.header("Cache-Control", "no-store");
  return nonce;
}

/** /healthz, /readyz, /v1/openapi.json, the reference at /docs and the error codes at /docs/errors. */
/** GET /readyz's answer: ready while the database answers; Redis state is reported, not required. */
export async function readiness(deps: Pick<AppDeps, "db" | "redisState">) {
  const redis = deps.redisState?.() ?? "disabled";
  try {
    await deps.db.execute("select 1");
    return {
      status: 200 as const,
      body: { ok: true, status: "ready" as const, database: "ready" as const, redis },
    };
  } catch {
    return {
      status: 503 as const,
      body: { ok: false, status: "not_ready" as const, database: "down" as const, redis },
    };
  }
}

export function registerStandardRoutes(
  service: ServiceApp,
  options: { documentSource?: () => OpenApiDoc } = {},
): void {
  const { deps } = service;
  service.openapi(healthzRoute, (c) => c.json({ ok: true, status: "alive" as const }, 200), null);
  service.openapi(
    readyzRoute,
    async (c) => {
      const { body, status } = await readiness(deps);
      return status === 200 ? c.json(body, 200) : c.json(body, 503);
    },
    null,
  );
  const document = options.documentSource ?? (() => openApiDocument(service.app, deps.publicBaseUrl));
  service.plain("GET", "/v1/openapi.json", (c) => c.json(document()), null);
  const title = OPENAPI_INFO.info.title;
  service.plain("GET", REFERENCE_PATH, (c) => referencePage(c, title), null);
  service.plain("GET", scalarAssetPath(), scalarAsset, null);
  service.plain("GET", STARTER_PATH, starterAsset, null);
  service.plain(
    "GET",
    ERROR_CODES_PATH,
    (c) => c.html(renderErrorCodesPage(title, setHtmlSecurityHeaders(c))),
    null,
  );
}

export type OpenApiDoc = { paths?: Record<string, Record<string, unknown>>; [key: string]: unknown };

const withSecurityScheme = new WeakSet<object>();

// biome-ignore lint/suspicious/noExplicitAny: any app env.
export function openApiDocument(app: OpenAPIHono<any>, serverUrl?: string): OpenApiDoc {
  if (!withSecurityScheme.has(app)) {
    for (const [name, scheme] of Object.entries(SECURITY_SCHEMES)) {
      app.openAPIRegistry.registerComponent("securitySchemes", name, scheme);
    }
    withSecurityScheme.add(app);
  }
  const doc = app.getOpenAPI31Document({
    ...OPENAPI_INFO,
    servers: serverUrl ? [{ url: serverUrl }] : [],
    tags: [...OPENAPI_TAGS],
  }) as unknown as OpenApiDoc;
  const endpoints = endpointsOf(app);
  if (endpoints) describeGuard(doc, endpoints);
  addSdkSamples(doc);
  return doc;
}

type Operation = { security?: unknown; requestBody?: unknown; responses?: Record<string, unknown> };

/**
 * What the guard in front of every operation does, written into each operation (decision 129):
 * the key kinds its policy accepts (unless the route declares its own `security`), and the
 * refusals every keyed operation can give besides its own: 405 for a method the path does not
 * serve, 413 for a body over 1 MB on a method that carries one.
 */
function describeGuard(doc: OpenApiDoc, endpoints: EndpointRegistry): void {
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const [method, value] of Object.entries(item)) {
      const operation = value as Operation;
      const policy = endpoints.policyOf(method, path);
      if (policy === undefined) continue;
      operation.security ??= securityFor(policy);
      const responses = operation.responses ?? {};
      const refusal = responses["401"] as { content?: unknown } | undefined;
      if (policy === null || !refusal?.content) continue;
      responses["405"] ??= {
        description:
          "method_not_allowed: the path exists, but not with the method sent; the Allow header lists the methods it serves",
        headers: { Allow: { schema: { type: "string" }, description: "The methods this path serves." } },
        content: refusal.content,
      };
      if (method !== "get") {
        responses["413"] ??= { description: "invalid_request (body over 1 MB)", content: refusal.content };
      }
      operation.responses = Object.fromEntries(
        Object.entries(responses).sort(([a], [b]) => a.localeCompare(b)),
      );
    }
  }
}
