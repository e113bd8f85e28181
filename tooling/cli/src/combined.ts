import { buildDashboard, type DashboardOptions } from "@svc/dashboard";
import { type AppDeps, type OpenApiDoc, openApiDocument, splitRequestUrl } from "@svc/http";
import { buildIntelligenceApi } from "@svc/intelligence-api";
import { buildMseRecordApi } from "@svc/mse-record-api";

/** Merge the two APIs' documents into the one the service publishes (`docs/openapi.json`). */
export function mergeDocuments(intelligence: OpenApiDoc, mse: OpenApiDoc): OpenApiDoc {
  const components = (doc: OpenApiDoc) => (doc.components ?? {}) as Record<string, Record<string, unknown>>;
  const merged: Record<string, Record<string, unknown>> = {};
  for (const doc of [intelligence, mse]) {
    for (const [section, entries] of Object.entries(components(doc))) {
      merged[section] = { ...(merged[section] ?? {}), ...entries };
    }
  }
  const paths = { ...(intelligence.paths ?? {}) };
  for (const [path, item] of Object.entries(mse.paths ?? {})) {
    // Operations shared by both apps (/healthz, /readyz) are the same; keep one.
    if (!paths[path]) paths[path] = item;
  }
  const sortedPaths = Object.fromEntries(Object.entries(paths).sort(([a], [b]) => a.localeCompare(b)));
  return { ...intelligence, paths: sortedPaths, components: merged };
}

/** The Intelligence API's own options (its narrator for `explain: true`); the document is shared. */
export type IntelligenceOptions = Omit<
  NonNullable<Parameters<typeof buildIntelligenceApi>[1]>,
  "documentSource"
>;

/**
 * Both APIs behind one listener (the launcher, and tests): /v1/mse/* goes to the MSE Record API,
 * everything else to the Intelligence API. The published document covers both.
 */
export function buildCombinedApp(
  deps: AppDeps,
  intelligenceOptions: IntelligenceOptions = {},
  dashboardOptions: DashboardOptions = {},
) {
  let cached: OpenApiDoc | undefined;
  const documentSource = () => {
    cached ??= mergeDocuments(
      openApiDocument(intelligence.app, deps.publicBaseUrl),
      openApiDocument(mse.app, deps.publicBaseUrl),
    );
    return cached;
  };
  const intelligence = buildIntelligenceApi(deps, { ...intelligenceOptions, documentSource });
  const mse = buildMseRecordApi(deps, {
    documentSource,
    chatModel: intelligenceOptions.chatModel,
    agentLimits: intelligenceOptions.agentLimits,
  });
  // The dashboard is private: its own app, outside /v1 and the published document.
  const dashboard = buildDashboard(deps, {
    onKeysChanged: (keyId: string) => {
      deps.keyCache?.invalidate();
      return dashboardOptions.onKeysChanged?.(keyId);
    },
  });
  // `env` is the Node server's: the guard reads the peer address from it (decision 97).
  const fetch = (request: Request, env?: unknown): Response | Promise<Response> => {
    const pathname = splitRequestUrl(request.url).path;
    if (pathname === "/v1/mse" || pathname.startsWith("/v1/mse/")) return mse.app.fetch(request, env);
    if (pathname === "/dashboard" || pathname.startsWith("/dashboard/")) return dashboard.fetch(request, env);
    return intelligence.app.fetch(request, env);
  };
  return { fetch, intelligence, mse, document: documentSource };
}

/** The document as committed in docs/openapi.json: no server URL, stable key order. */
export function publishedDocument(deps: AppDeps): OpenApiDoc {
  const { intelligence, mse } = buildCombinedApp(deps);
  const doc = mergeDocuments(openApiDocument(intelligence.app), openApiDocument(mse.app));
  return doc;
}
