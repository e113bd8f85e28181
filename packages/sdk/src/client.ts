import { createCore, unwrap } from "./core.js";
import { analysisCall, type FormatOptions, type MseRetrieveCall, withFormat } from "./format.js";
import type { paths } from "./generated/openapi.js";
import { nextCursor, PageIterator } from "./pagination.js";
import type { RequestOptions, TransportOptions } from "./transport.js";
import { webhookEndpointsResource } from "./webhook-endpoints.js";

/** The POST operation at a path of the document (exported so callers can name the wrappers' types). */
export type PostOperation<P extends keyof paths> = paths[P] extends { post: infer O } ? O : never;
/** The PATCH operation at a path of the document. */
export type PatchOperation<P extends keyof paths> = paths[P] extends { patch: infer O } ? O : never;
/** The GET operation at a path of the document. */
export type GetOperation<P extends keyof paths> = paths[P] extends { get: infer O } ? O : never;
/** The JSON body an operation takes. */
export type BodyOf<O> = O extends { requestBody?: infer R }
  ? NonNullable<R> extends { content: { "application/json": infer B } }
    ? B
    : never
  : never;
/** The query parameters an operation takes. */
export type QueryOf<O> = O extends { parameters: { query?: infer Q } } ? NonNullable<Q> : never;
/** The 200 JSON an operation answers. */
export type ResultOf<O> = O extends { responses: { 200: { content: { "application/json": infer R } } } }
  ? R
  : O extends { responses: { 201: { content: { "application/json": infer R } } } }
    ? R
    : never;

export type ClientOptions = TransportOptions;

/**
 * The Node client: every operation of the Intelligence and MSE Record APIs, grouped by resource,
 * with retries, timeouts, idempotency keys, typed errors and cursor lists (see the README). `raw`
 * is the typed path client for anything not wrapped here.
 */
export function createClient(options: ClientOptions) {
  const core = createCore(options);
  const { raw } = core;
  const c = (call?: RequestOptions) => core.init(call);

  const labOrders = {
    create: (body: BodyOf<PostOperation<"/v1/labs/orders">>, call?: RequestOptions) =>
      unwrap(raw.POST("/v1/labs/orders", { body, ...c(call) })),
    /** Every order of the account (or of `patientRef`), page by page. */
    list: (query: Omit<QueryOf<GetOperation<"/v1/labs/orders">>, "cursor"> = {}, call?: RequestOptions) =>
      new PageIterator(
        (cursor) =>
          unwrap(raw.GET("/v1/labs/orders", { params: { query: { ...query, cursor } }, ...c(call) })),
        (page) => ({ items: page.data.orders, next: nextCursor(page.data) }),
      ),
    retrieve: (id: string, call?: RequestOptions) =>
      unwrap(raw.GET("/v1/labs/orders/{id}", { params: { path: { id } }, ...c(call) })),
    cancel: (id: string, call?: RequestOptions) =>
      unwrap(raw.POST("/v1/labs/orders/{id}/cancel", { params: { path: { id } }, ...c(call) })),
  };

  const wearableConnections = {
    /** The connections of one patient (one page of at most `limit`: the API has no cursor here). */
    list: (query: QueryOf<GetOperation<"/v1/wearables/connections">>, call?: RequestOptions) =>
      new PageIterator(
        () => unwrap(raw.GET("/v1/wearables/connections", { params: { query }, ...c(call) })),
        (page) => ({ items: page.data.connections, next: null }),
      ),
    retrieve: (id: string, call?: RequestOptions) =>
      unwrap(raw.GET("/v1/wearables/connections/{id}", { params: { path: { id } }, ...c(call) })),
    disconnect: (id: string, call?: RequestOptions) =>
      unwrap(raw.POST("/v1/wearables/connections/{id}/disconnect", { params: { path: { id } }, ...c(call) })),
    sync: (id: string, call?: RequestOptions) =>
      unwrap(raw.POST("/v1/wearables/connections/{id}/sync", { params: { path: { id } }, ...c(call) })),
    metrics: (
      id: string,
      query: QueryOf<GetOperation<"/v1/wearables/connections/{id}/metrics">> = {},
      call?: RequestOptions,
    ) =>
      unwrap(
        raw.GET("/v1/wearables/connections/{id}/metrics", { params: { path: { id }, query }, ...c(call) }),
      ),
  };

  const mse = {
    write: (visitId: string, body: BodyOf<PostOperation<"/v1/mse/{visitId}">>, call?: RequestOptions) =>
      unwrap(raw.POST("/v1/mse/{visitId}", { params: { path: { visitId } }, body, ...c(call) })),
    patch: (visitId: string, body: BodyOf<PatchOperation<"/v1/mse/{visitId}">>, call?: RequestOptions) =>
      unwrap(raw.PATCH("/v1/mse/{visitId}", { params: { path: { visitId } }, body, ...c(call) })),
    /** The latest record (`{ format: "fhir" }`: as a FHIR Bundle); `query.patientId` checks the patient. */
    retrieve: ((
      visitId: string,
      query: QueryOf<GetOperation<"/v1/mse/{visitId}">> = {},
      call?: FormatOptions,
    ) =>
      unwrap(
        raw.GET("/v1/mse/{visitId}", { params: { path: { visitId }, query }, ...c(withFormat(call)) }),
      )) as MseRetrieveCall<
      QueryOf<GetOperation<"/v1/mse/{visitId}">>,
      ResultOf<GetOperation<"/v1/mse/{visitId}">>
    >,
    sign: (visitId: string, body: BodyOf<PostOperation<"/v1/mse/{visitId}/sign">>, call?: RequestOptions) =>
      unwrap(raw.POST("/v1/mse/{visitId}/sign", { params: { path: { visitId } }, body, ...c(call) })),
    agent: (visitId: string, body: BodyOf<PostOperation<"/v1/mse/{visitId}/agent">>, call?: RequestOptions) =>
      unwrap(raw.POST("/v1/mse/{visitId}/agent", { params: { path: { visitId } }, body, ...c(call) })),
    /** Every version, newest first, page by page. */
    history: (
      visitId: string,
      query: Omit<QueryOf<GetOperation<"/v1/mse/{visitId}/history">>, "cursor"> = {},
      call?: RequestOptions,
    ) =>
      new PageIterator(
        (cursor) =>
          unwrap(
            raw.GET("/v1/mse/{visitId}/history", {
              params: { path: { visitId }, query: { ...query, cursor } },
              ...c(call),
            }),
          ),
        (page) => ({ items: page.versions, next: nextCursor(page) }),
      ),
    /** Every version in chain order, page by page (`pages()` also gives each page's signatures). */
    audit: (
      visitId: string,
      query: Omit<QueryOf<GetOperation<"/v1/mse/{visitId}/audit">>, "cursor"> = {},
      call?: RequestOptions,
    ) =>
      new PageIterator(
        (cursor) =>
          unwrap(
            raw.GET("/v1/mse/{visitId}/audit", {
              params: { path: { visitId }, query: { ...query, cursor } },
              ...c(call),
            }),
          ),
        (page) => ({ items: page.versions, next: nextCursor(page) }),
      ),
    domains: (call?: RequestOptions) => unwrap(raw.GET("/v1/mse/domains", { ...c(call) })),
    safetyEvents: {
      list: (
        query: Omit<QueryOf<GetOperation<"/v1/mse/safety_events">>, "cursor"> = {},
        call?: RequestOptions,
      ) =>
        new PageIterator(
          (cursor) =>
            unwrap(raw.GET("/v1/mse/safety_events", { params: { query: { ...query, cursor } }, ...c(call) })),
          (page) => ({ items: page.events, next: nextCursor(page) }),
        ),
    },
  };

  return {
    raw,
    ping: (call?: RequestOptions) => unwrap(raw.GET("/v1/ping", { ...c(call) })),
    health: {
      live: (call?: RequestOptions) => unwrap(raw.GET("/healthz", { ...c(call) })),
      ready: (call?: RequestOptions) => unwrap(raw.GET("/readyz", { ...c(call) })),
    },
    relapse: {
      predict: analysisCall((body: BodyOf<PostOperation<"/v1/relapse/predict">>, call?: RequestOptions) =>
        unwrap(raw.POST("/v1/relapse/predict", { body, ...c(call) })),
      ),
      agent: (
        patientId: string,
        body: BodyOf<PostOperation<"/v1/relapse/{patientId}/agent">>,
        call?: RequestOptions,
      ) =>
        unwrap(
          raw.POST("/v1/relapse/{patientId}/agent", { params: { path: { patientId } }, body, ...c(call) }),
        ),
    },
    outcome: {
      score: analysisCall((body: BodyOf<PostOperation<"/v1/outcome/score">>, call?: RequestOptions) =>
        unwrap(raw.POST("/v1/outcome/score", { body, ...c(call) })),
      ),
      agent: (
        patientId: string,
        body: BodyOf<PostOperation<"/v1/outcome/{patientId}/agent">>,
        call?: RequestOptions,
      ) =>
        unwrap(
          raw.POST("/v1/outcome/{patientId}/agent", { params: { path: { patientId } }, body, ...c(call) }),
        ),
    },
    medication: {
      analyze: analysisCall((body: BodyOf<PostOperation<"/v1/medication/analyze">>, call?: RequestOptions) =>
        unwrap(raw.POST("/v1/medication/analyze", { body, ...c(call) })),
      ),
      agent: (
        patientId: string,
        body: BodyOf<PostOperation<"/v1/medication/{patientId}/agent">>,
        call?: RequestOptions,
      ) =>
        unwrap(
          raw.POST("/v1/medication/{patientId}/agent", { params: { path: { patientId } }, body, ...c(call) }),
        ),
    },
    biomarker: {
      analyze: analysisCall((body: BodyOf<PostOperation<"/v1/biomarker/analyze">>, call?: RequestOptions) =>
        unwrap(raw.POST("/v1/biomarker/analyze", { body, ...c(call) })),
      ),
      agent: (
        patientId: string,
        body: BodyOf<PostOperation<"/v1/biomarker/{patientId}/agent">>,
        call?: RequestOptions,
      ) =>
        unwrap(
          raw.POST("/v1/biomarker/{patientId}/agent", { params: { path: { patientId } }, body, ...c(call) }),
        ),
    },
    dmse: {
      analyze: analysisCall((body: BodyOf<PostOperation<"/v1/dmse/analyze">>, call?: RequestOptions) =>
        unwrap(raw.POST("/v1/dmse/analyze", { body, ...c(call) })),
      ),
    },
    labs: {
      panels: {
        list: (query: QueryOf<GetOperation<"/v1/labs/panels">> = {}, call?: RequestOptions) =>
          unwrap(raw.GET("/v1/labs/panels", { params: { query }, ...c(call) })),
      },
      orders: labOrders,
    },
    events: {
      /** Every event from `cursor` (or the start) to now, page by page. */
      list: (query: Omit<QueryOf<GetOperation<"/v1/events">>, "cursor"> = {}, call?: RequestOptions) =>
        new PageIterator(
          (cursor) => unwrap(raw.GET("/v1/events", { params: { query: { ...query, cursor } }, ...c(call) })),
          (page) => ({ items: page.data.events, next: nextCursor(page.data) }),
        ),
    },
    wearables: {
      providers: {
        list: (call?: RequestOptions) => unwrap(raw.GET("/v1/wearables/providers", { ...c(call) })),
      },
      connect: (body: BodyOf<PostOperation<"/v1/wearables/connect">>, call?: RequestOptions) =>
        unwrap(raw.POST("/v1/wearables/connect", { body, ...c(call) })),
      connections: wearableConnections,
    },
    mse,
    webhookEndpoints: webhookEndpointsResource(core),
    /** One Model Context Protocol JSON-RPC message (an MCP client library is the usual way in). */
    mcp: (body: BodyOf<PostOperation<"/v1/mcp">>, call?: RequestOptions) =>
      unwrap(
        raw.POST("/v1/mcp", { body, headers: { accept: "application/json, text/event-stream" }, ...c(call) }),
      ),
    /** Sandbox only (test keys): move resources along as a provider or patient would. */
    testHelpers: {
      labs: {
        orders: {
          authorize: (id: string, call?: RequestOptions) =>
            unwrap(
              raw.POST("/v1/test_helpers/labs/orders/{id}/authorize", {
                params: { path: { id } },
                ...c(call),
              }),
            ),
          advance: (
            id: string,
            body: BodyOf<PostOperation<"/v1/test_helpers/labs/orders/{id}/advance">>,
            call?: RequestOptions,
          ) =>
            unwrap(
              raw.POST("/v1/test_helpers/labs/orders/{id}/advance", {
                params: { path: { id } },
                body,
                ...c(call),
              }),
            ),
        },
      },
      wearables: {
        connections: {
          complete: (
            id: string,
            body: BodyOf<PostOperation<"/v1/test_helpers/wearables/connections/{id}/complete">>,
            call?: RequestOptions,
          ) =>
            unwrap(
              raw.POST("/v1/test_helpers/wearables/connections/{id}/complete", {
                params: { path: { id } },
                body,
                ...c(call),
              }),
            ),
        },
      },
    },
  };
}

export type SvcClient = ReturnType<typeof createClient>;
