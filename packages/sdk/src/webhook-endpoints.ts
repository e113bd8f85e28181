import type { BodyOf, QueryOf, ResultOf } from "./client.js";
import { type Core, unwrap } from "./core.js";
import type { paths } from "./generated/openapi.js";
import { nextCursor, PageIterator } from "./pagination.js";
import type { RequestOptions } from "./transport.js";

/** `svc.webhookEndpoints`: what each call takes and answers (the operations' own types). */
export interface WebhookEndpointsResource {
  create(
    body: BodyOf<paths["/v1/webhook_endpoints"]["post"]>,
    call?: RequestOptions,
  ): Promise<ResultOf<paths["/v1/webhook_endpoints"]["post"]>>;
  list(
    query?: Omit<QueryOf<paths["/v1/webhook_endpoints"]["get"]>, "cursor">,
    call?: RequestOptions,
  ): PageIterator<
    ResultOf<paths["/v1/webhook_endpoints"]["get"]>["data"]["endpoints"][number],
    ResultOf<paths["/v1/webhook_endpoints"]["get"]>
  >;
  retrieve(id: string, call?: RequestOptions): Promise<ResultOf<paths["/v1/webhook_endpoints/{id}"]["get"]>>;
  update(
    id: string,
    body: BodyOf<paths["/v1/webhook_endpoints/{id}"]["patch"]>,
    call?: RequestOptions,
  ): Promise<ResultOf<paths["/v1/webhook_endpoints/{id}"]["patch"]>>;
  rotateSecret(
    id: string,
    call?: RequestOptions,
  ): Promise<ResultOf<paths["/v1/webhook_endpoints/{id}/rotate_secret"]["post"]>>;
  del(id: string, call?: RequestOptions): Promise<ResultOf<paths["/v1/webhook_endpoints/{id}"]["delete"]>>;
}

/**
 * Your account's webhook endpoints, in the key's mode (a test key manages test-mode endpoints, a
 * live key live ones). `create` and `rotateSecret` answer the signing secret (`whsec_...`) once:
 * store it then. `create` sends an Idempotency-Key (kept across its retries), so a retried create
 * adds one endpoint and answers the same secret.
 */
export function webhookEndpointsResource(core: Core): WebhookEndpointsResource {
  const { raw } = core;
  const c = (call?: RequestOptions) => core.init(call);
  const at = (id: string) => ({ params: { path: { id } } });
  return {
    create: (body: BodyOf<paths["/v1/webhook_endpoints"]["post"]>, call?: RequestOptions) =>
      unwrap(raw.POST("/v1/webhook_endpoints", { body, ...c(call) })),
    /** Every endpoint of the key's mode, oldest first, page by page. */
    list: (
      query: Omit<QueryOf<paths["/v1/webhook_endpoints"]["get"]>, "cursor"> = {},
      call?: RequestOptions,
    ) =>
      new PageIterator(
        (cursor) =>
          unwrap(raw.GET("/v1/webhook_endpoints", { params: { query: { ...query, cursor } }, ...c(call) })),
        (page) => ({ items: page.data.endpoints, next: nextCursor(page.data) }),
      ),
    retrieve: (id: string, call?: RequestOptions) =>
      unwrap(raw.GET("/v1/webhook_endpoints/{id}", { ...at(id), ...c(call) })),
    /** Change the URL (the same address rules as a new endpoint), the status, or both. */
    update: (id: string, body: BodyOf<paths["/v1/webhook_endpoints/{id}"]["patch"]>, call?: RequestOptions) =>
      unwrap(raw.PATCH("/v1/webhook_endpoints/{id}", { ...at(id), body, ...c(call) })),
    /** A new signing secret, answered once; the old one stops at once. */
    rotateSecret: (id: string, call?: RequestOptions) =>
      unwrap(raw.POST("/v1/webhook_endpoints/{id}/rotate_secret", { ...at(id), ...c(call) })),
    /** Delete the endpoint; its pending deliveries are cancelled. */
    del: (id: string, call?: RequestOptions) =>
      unwrap(raw.DELETE("/v1/webhook_endpoints/{id}", { ...at(id), ...c(call) })),
  };
}
