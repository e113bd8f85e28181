import { and, eq, webhookDeliveries, webhookEndpoints } from "@svc/db";
import { deliver } from "@svc/delivery";
import { createLogger } from "@svc/http";
import { listAudit } from "@svc/records";
import { call, type Receiver, startReceiver } from "@svc/testkit";
import { useTestService } from "@svc/testkit/vitest";
import { verifySignature } from "@svc/webhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type {
  LabOrderResponse,
  WebhookEndpointDeletedResponse,
  WebhookEndpointListResponse,
  WebhookEndpointResponse,
  WebhookEndpointSecretResponse,
} from "../src/index.js";

/**
 * Webhook endpoints managed through the API with a secret key: create (secret once, idempotent),
 * list with cursor paging, retrieve, update, rotate the secret, delete; each change audited in the
 * account's log, and the secrets the API answers are the ones deliveries are signed with.
 */
// The operator allows loopback webhooks (the embedded default), so a test-mode endpoint may be
// this machine's receiver.
const svc = useTestService({ allowLoopbackWebhooks: true });
let key: string;
let accountId: string;
let receiver: Receiver;

beforeAll(async () => {
  const caller = await svc.seed.caller("enterprise");
  key = caller.key;
  accountId = caller.account.id;
  receiver = await startReceiver(() => ({ status: 204 }));
});
afterAll(async () => {
  await receiver.close();
});

const send = <Res>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
  call<Res>(svc.url, path, { key, method, headers, ...(body === undefined ? {} : { body }) });

/** Cancel a new lab order (one `lab_order.status_changed` event), deliver it to the endpoint, and read what arrived. */
async function deliveredTo(endpointId: string) {
  const order = await send<LabOrderResponse>("POST", "/v1/labs/orders", {
    patientRef: "pt_w",
    panelId: "cmp",
  });
  await send("POST", `/v1/labs/orders/${order.json.data.id}/cancel`);
  const [pending] = await svc.db.handle.db
    .select({ id: webhookDeliveries.id })
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.endpointId, endpointId), eq(webhookDeliveries.status, "pending")));
  expect(pending).toBeDefined();
  const before = receiver.requests.length;
  const outcome = await deliver(pending?.id as string, {
    db: svc.db.handle.db,
    logger: createLogger({ level: "silent" }),
    allowLoopbackWebhooks: true,
  });
  expect(outcome).toMatchObject({ kind: "delivered" });
  const request = receiver.requests[before];
  if (!request) throw new Error("nothing arrived");
  return { payload: request.body, header: String(request.headers["service-signature"]) };
}

describe("webhook endpoints through the API", () => {
  it("create answers 201 with the secret once; it signs the deliveries; retrieve and list never show it", async () => {
    const created = await send<WebhookEndpointSecretResponse>("POST", "/v1/webhook_endpoints", {
      url: `${receiver.url}/hooks`,
    });
    expect(created.status).toBe(201);
    const endpoint = created.json.data;
    expect(endpoint).toMatchObject({
      object: "webhook_endpoint",
      url: `${receiver.url}/hooks`,
      mode: "test",
      status: "enabled",
      disabledAt: null,
      disabledReason: null,
    });
    expect(endpoint.id).toMatch(/^we_/);
    expect(endpoint.secret).toMatch(/^whsec_/);
    const arrived = await deliveredTo(endpoint.id);
    expect(verifySignature({ secret: endpoint.secret, ...arrived }).ok).toBe(true);

    const got = await send<WebhookEndpointResponse>("GET", `/v1/webhook_endpoints/${endpoint.id}`);
    expect(got.status).toBe(200);
    const { secret: _secret, ...shown } = endpoint;
    expect(got.json.data).toEqual(shown);
    expect(got.text).not.toContain(endpoint.secret);
    const list = await send<WebhookEndpointListResponse>("GET", "/v1/webhook_endpoints");
    expect(list.json.data.endpoints.map((e) => e.id)).toContain(endpoint.id);
    expect(list.text).not.toContain("whsec_");
  });

  it("the same Idempotency-Key replays the first answer (the same endpoint and secret) and adds nothing", async () => {
    const headers = { "idempotency-key": "create-endpoint-1" };
    const body = { url: "https://93.184.215.14/replayed" };
    const first = await send<WebhookEndpointSecretResponse>("POST", "/v1/webhook_endpoints", body, headers);
    const again = await send<WebhookEndpointSecretResponse>("POST", "/v1/webhook_endpoints", body, headers);
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.json).toEqual(first.json);
    const rows = await svc.db.handle.db
      .select({ id: webhookEndpoints.id })
      .from(webhookEndpoints)
      .where(eq(webhookEndpoints.url, body.url));
    expect(rows).toHaveLength(1);
  });

  it("lists oldest first, page by page with the cursor, without skipping or repeating one", async () => {
    const other = await svc.seed.caller("enterprise");
    const own = (method: string, path: string, body?: unknown) =>
      call<WebhookEndpointSecretResponse>(svc.url, path, {
        key: other.key,
        method,
        ...(body === undefined ? {} : { body }),
      });
    const ids: string[] = [];
    for (const n of [1, 2, 3, 4, 5]) {
      ids.push(
        (await own("POST", "/v1/webhook_endpoints", { url: `https://93.184.215.14/p${n}` })).json.data.id,
      );
    }
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const query: string = cursor ? `?limit=2&cursor=${cursor}` : "?limit=2";
      const page = await call<WebhookEndpointListResponse>(svc.url, `/v1/webhook_endpoints${query}`, {
        key: other.key,
      });
      expect(page.status).toBe(200);
      expect(page.json.data).toMatchObject({ object: "list", resource: "webhook_endpoint" });
      expect(page.json.data.count).toBe(page.json.data.endpoints.length);
      seen.push(...page.json.data.endpoints.map((e) => e.id));
      cursor = page.json.data.nextCursor;
      expect(cursor !== null).toBe(page.json.data.hasMore);
      pages++;
    } while (cursor && pages < 10);
    expect(pages).toBe(3);
    expect(seen).toEqual(ids);
  });

  it("update changes the status and the URL (alone or together), and a refused URL changes nothing", async () => {
    const { id } = (
      await send<WebhookEndpointSecretResponse>("POST", "/v1/webhook_endpoints", {
        url: "https://93.184.215.14/before",
      })
    ).json.data;
    const path = `/v1/webhook_endpoints/${id}`;
    const disabled = await send<WebhookEndpointResponse>("PATCH", path, { status: "disabled" });
    expect(disabled.status).toBe(200);
    expect(disabled.json.data).toMatchObject({
      status: "disabled",
      disabledReason: "Disabled through the API.",
    });
    expect(disabled.json.data.disabledAt).not.toBeNull();
    const both = await send<WebhookEndpointResponse>("PATCH", path, {
      url: "https://93.184.215.14/after",
      status: "enabled",
    });
    expect(both.json.data).toMatchObject({
      url: "https://93.184.215.14/after",
      status: "enabled",
      disabledAt: null,
      disabledReason: null,
    });
    const refused = await send("PATCH", path, { url: "https://10.0.0.1/internal", status: "disabled" });
    expect(refused.status).toBe(400);
    const after = await send<WebhookEndpointResponse>("GET", path);
    expect(after.json.data).toMatchObject({ url: "https://93.184.215.14/after", status: "enabled" });
  });

  it("rotate_secret answers a new secret; deliveries are signed with it and no longer with the old one", async () => {
    const created = (
      await send<WebhookEndpointSecretResponse>("POST", "/v1/webhook_endpoints", {
        url: `${receiver.url}/rot`,
      })
    ).json.data;
    const rotated = await send<WebhookEndpointSecretResponse>(
      "POST",
      `/v1/webhook_endpoints/${created.id}/rotate_secret`,
    );
    expect(rotated.status).toBe(200);
    expect(rotated.json.data.id).toBe(created.id);
    expect(rotated.json.data.secret).toMatch(/^whsec_/);
    expect(rotated.json.data.secret).not.toBe(created.secret);
    const arrived = await deliveredTo(created.id);
    expect(verifySignature({ secret: rotated.json.data.secret, ...arrived }).ok).toBe(true);
    expect(verifySignature({ secret: created.secret, ...arrived })).toMatchObject({
      ok: false,
      reason: "signature_mismatch",
    });
  });

  it("delete answers deleted, cancels pending deliveries; the endpoint is then 404 and out of the list", async () => {
    const created = (
      await send<WebhookEndpointSecretResponse>("POST", "/v1/webhook_endpoints", {
        url: `${receiver.url}/gone`,
      })
    ).json.data;
    const order = await send<LabOrderResponse>("POST", "/v1/labs/orders", {
      patientRef: "pt_d",
      panelId: "cmp",
    });
    await send("POST", `/v1/labs/orders/${order.json.data.id}/cancel`);
    const deleted = await send<WebhookEndpointDeletedResponse>(
      "DELETE",
      `/v1/webhook_endpoints/${created.id}`,
    );
    expect(deleted.status).toBe(200);
    expect(deleted.json.data).toEqual({
      object: "webhook_endpoint",
      id: created.id,
      deleted: true,
      cancelledDeliveries: 1,
    });
    expect((await send("GET", `/v1/webhook_endpoints/${created.id}`)).status).toBe(404);
    const list = await send<WebhookEndpointListResponse>("GET", "/v1/webhook_endpoints?limit=200");
    expect(list.json.data.endpoints.map((e) => e.id)).not.toContain(created.id);
  });

  it("every change is in the account's audit log, naming the key and the request, never a secret", async () => {
    const rows = await listAudit(svc.db.handle.db, { accountId });
    const actions = new Set(rows.map((r) => r.action));
    for (const action of [
      "webhook_endpoint.created",
      "webhook_endpoint.disabled",
      "webhook_endpoint.enabled",
      "webhook_endpoint.url_changed",
      "webhook_endpoint.secret_rolled",
      "webhook_endpoint.removed",
    ])
      expect(actions, action).toContain(action);
    for (const row of rows) {
      expect(row.detail).toMatchObject({ mode: "test", apiKeyId: expect.stringMatching(/^key_/) });
      expect((row.detail as { requestId: string }).requestId).toMatch(/^req_/);
    }
    expect(JSON.stringify(rows)).not.toContain("whsec_");
    // The replayed create wrote one row, as it created one endpoint.
    const replayed = rows.filter(
      (r) =>
        r.action === "webhook_endpoint.created" && (r.detail as { url: string }).url.endsWith("/replayed"),
    );
    expect(replayed).toHaveLength(1);
  });
});
