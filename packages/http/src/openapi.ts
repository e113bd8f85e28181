import { createRoute, z } from "@hono/zod-openapi";
import { ERROR_CODES, ERROR_DESCRIPTIONS, ErrorEnvelopeSchema, FlatErrorSchema } from "./errors.js";

/** Error responses every authenticated Intelligence API route can give, spread into `responses`. */
export function errorResponses(...extra: (400 | 402 | 404 | 409 | 413 | 422 | 503)[]) {
  const json = { "application/json": { schema: ErrorEnvelopeSchema } };
  const base: Record<string, { description: string; content: typeof json }> = {
    401: { description: "unauthorized or invalid_token", content: json },
    403: { description: "forbidden", content: json },
    429: { description: "rate_limited (Retry-After sent)", content: json },
    500: { description: "server_error", content: json },
  };
  const names: Record<number, string> = {
    400: "invalid_request",
    402: "payment_required",
    404: "not_found",
    409: "conflict",
    413: "invalid_request (body over 1 MB)",
    422: "idempotency_key_reused",
    503: "service_unavailable",
  };
  for (const status of extra) base[status] = { description: names[status] ?? "error", content: json };
  return base;
}

/** Flat error responses of the MSE Record API. */
export function flatErrorResponses(...extra: (400 | 404 | 409 | 422 | 503)[]) {
  const json = { "application/json": { schema: FlatErrorSchema } };
  const out: Record<string, { description: string; content: typeof json }> = {
    401: { description: "unauthorized or invalid_token", content: json },
    403: { description: "forbidden", content: json },
    429: { description: "rate_limited", content: json },
    500: { description: "server_error", content: json },
  };
  for (const status of extra) out[status] = { description: "error", content: json };
  return out;
}

export const rateLimitHeaders = {
  "X-Request-Id": { schema: { type: "string" as const }, description: "Our request id (`req_...`)." },
  "X-RateLimit-Limit": { schema: { type: "integer" as const } },
  "X-RateLimit-Remaining": { schema: { type: "integer" as const } },
  "X-RateLimit-Reset": { schema: { type: "integer" as const }, description: "Unix seconds." },
};

export const HealthSchema = z
  .object({
    ok: z.boolean(),
    status: z.enum(["alive", "ready", "not_ready"]),
    database: z.enum(["ready", "down"]).optional(),
    redis: z.enum(["ready", "down", "disabled"]).optional(),
  })
  .openapi("Health");

export const healthzRoute = createRoute({
  method: "get",
  path: "/healthz",
  tags: ["Operations"],
  summary: "Process is alive (no key needed)",
  responses: { 200: { description: "alive", content: { "application/json": { schema: HealthSchema } } } },
});

export const readyzRoute = createRoute({
  method: "get",
  path: "/readyz",
  tags: ["Operations"],
  summary: "Database reachable; Redis state reported (no key needed)",
  responses: {
    200: { description: "ready", content: { "application/json": { schema: HealthSchema } } },
    503: { description: "database unreachable", content: { "application/json": { schema: HealthSchema } } },
  },
});

export const OPENAPI_INFO = {
  openapi: "3.1.0",
  info: {
    title: "Clinical Intelligence Service",
    version: "1",
    description:
      "Deterministic, explainable decision support for clinician review, the MSE Record API, lab orders, wearable connections and signed events. Authenticate with `Authorization: Bearer <key>`.",
  },
} as const;

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

/**
 * A self-contained API reference page rendered from the OpenAPI document (no CDN: this service
 * may run where the internet is not reachable).
 */
export function renderReferencePage(
  doc: {
    info?: { title?: string; description?: string };
    paths?: Record<string, Record<string, unknown>>;
  },
  /** The CSP nonce of this response, allowing the page's one style element. */
  styleNonce?: string,
): string {
  const ops: string[] = [];
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const [method, raw] of Object.entries(item)) {
      const op = raw as {
        summary?: string;
        description?: string;
        requestBody?: unknown;
        responses?: Record<string, { description?: string }>;
        parameters?: unknown[];
      };
      const responses = Object.entries(op.responses ?? {})
        .map(([status, r]) => `<li><code>${status}</code> ${escapeHtml(r.description ?? "")}</li>`)
        .join("");
      const body = op.requestBody
        ? `<details><summary>Request body schema</summary><pre>${escapeHtml(JSON.stringify(op.requestBody, null, 2))}</pre></details>`
        : "";
      const params = op.parameters?.length
        ? `<details><summary>Parameters</summary><pre>${escapeHtml(JSON.stringify(op.parameters, null, 2))}</pre></details>`
        : "";
      ops.push(
        `<section><h3><span class="m">${method.toUpperCase()}</span> <code>${escapeHtml(path)}</code></h3><p>${escapeHtml(op.summary ?? "")}</p>${op.description ? `<p>${escapeHtml(op.description)}</p>` : ""}${params}${body}<ul>${responses}</ul></section>`,
      );
    }
  }
  const errors = ERROR_CODES.map(
    (code) =>
      `<tr id="error-${code}"><td><code>${code}</code></td><td>${escapeHtml(ERROR_DESCRIPTIONS[code])}</td></tr>`,
  ).join("");
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(doc.info?.title ?? "API")} reference</title>
<style${styleNonce ? ` nonce="${styleNonce}"` : ""}>body{font:15px/1.5 system-ui,sans-serif;max-width:960px;margin:2rem auto;padding:0 1rem;color:#1b1f23}code,pre{font-family:ui-monospace,monospace}pre{background:#f6f8fa;padding:.75rem;overflow:auto}.m{display:inline-block;min-width:4.5rem;color:#0b5cad}section{border-top:1px solid #ddd;padding:.5rem 0}table{border-collapse:collapse}td{border-top:1px solid #eee;padding:.25rem .5rem;vertical-align:top}</style></head>
<body><h1>${escapeHtml(doc.info?.title ?? "API")}</h1><p>${escapeHtml(doc.info?.description ?? "")}</p>
<p>Machine-readable document: <a href="/v1/openapi.json">/v1/openapi.json</a> (OpenAPI 3.1).</p>
<h2>Operations</h2>${ops.join("\n")}
<h2 id="errors">Error codes</h2><table>${errors}</table></body></html>`;
}
