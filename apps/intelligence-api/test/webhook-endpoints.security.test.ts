import { eq, webhookEndpoints } from "@svc/db";
import { addWebhookEndpoint } from "@svc/delivery";
import type { ErrorEnvelope } from "@svc/http";
import { call, mistypedKey } from "@svc/testkit";
import { useTestService } from "@svc/testkit/vitest";
import { beforeAll, describe, expect, it } from "vitest";
import type {
  WebhookEndpointListResponse,
  WebhookEndpointResponse,
  WebhookEndpointSecretResponse,
} from "../src/index.js";

/**
 * Who may manage webhook endpoints: an account's secret keys, each in its own mode; publishable
 * and organization keys are refused; another account's endpoint is 404 on every route and is
 * left as it was.
 */
const svc = useTestService({ allowLoopbackWebhooks: true });
let secret: string;
let live: string;
let publishable: string;
let organization: string;
let stranger: string;
let endpoint: WebhookEndpointSecretResponse["data"];
const ORIGIN = "https://clinic.example.com";

beforeAll(async () => {
  const caller = await svc.seed.caller("enterprise", { production: true });
  secret = caller.key;
  live = (await svc.seed.key("secret_live", caller.account.id)).key;
  publishable = (await svc.seed.key("publishable", caller.account.id, [ORIGIN])).key;
  organization = (await svc.seed.org()).key;
  stranger = (await svc.seed.caller("enterprise")).key;
  endpoint = (
    await call<WebhookEndpointSecretResponse>(svc.url, "/v1/webhook_endpoints", {
      key: secret,
      body: { url: "https://93.184.215.14/mine" },
    })
  ).json.data;
});

const routes = (): [string, string, unknown][] => [
  ["POST", "/v1/webhook_endpoints", { url: "https://93.184.215.14/other" }],
  ["GET", "/v1/webhook_endpoints", undefined],
  ["GET", `/v1/webhook_endpoints/${endpoint.id}`, undefined],
  ["PATCH", `/v1/webhook_endpoints/${endpoint.id}`, { status: "disabled" }],
  ["POST", `/v1/webhook_endpoints/${endpoint.id}/rotate_secret`, undefined],
  ["DELETE", `/v1/webhook_endpoints/${endpoint.id}`, undefined],
];

const send = <Res = ErrorEnvelope>(
  key: string | undefined,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
) => call<Res>(svc.url, path, { key, method, headers, ...(body === undefined ? {} : { body }) });

/** The endpoint's row as stored: what a refused call must not have changed. */
async function stored(id: string) {
  const [row] = await svc.db.handle.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, id));
  return row;
}

describe("authentication and key kinds", () => {
  it("no key is 401 unauthorized and a mistyped one 401 invalid_token, on every route", async () => {
    for (const [method, path, body] of routes()) {
      const none = await send(undefined, method, path, body);
      expect(none.status, `${method} ${path}`).toBe(401);
      expect(none.json.error.code).toBe("unauthorized");
      const wrong = await send(mistypedKey(secret), method, path, body);
      expect(wrong.status, `${method} ${path}`).toBe(401);
      expect(wrong.json.error.code).toBe("invalid_token");
    }
  });
  it("publishable keys (even from their allowed origin) and organization keys are 403 on every route", async () => {
    const before = await stored(endpoint.id);
    for (const [method, path, body] of routes()) {
      const pk = await send(publishable, method, path, body, { origin: ORIGIN });
      expect(pk.status, `${method} ${path}`).toBe(403);
      expect(pk.json.error.code).toBe("forbidden");
      const org = await send(organization, method, path, body);
      expect(org.status, `${method} ${path}`).toBe(403);
    }
    expect(await stored(endpoint.id)).toEqual(before);
  });
});

describe("tenancy and modes", () => {
  it("another account's endpoint is 404 on every route, absent from its list, and unchanged", async () => {
    const before = await stored(endpoint.id);
    for (const [method, path, body] of routes().filter(([, p]) => p.includes(endpoint.id))) {
      const res = await send(stranger, method, path, body);
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.json.error.code).toBe("not_found");
      expect(res.text).not.toContain("93.184.215.14/mine");
    }
    const list = await send<WebhookEndpointListResponse>(stranger, "GET", "/v1/webhook_endpoints");
    expect(list.json.data.endpoints.map((e) => e.id)).not.toContain(endpoint.id);
    expect(await stored(endpoint.id)).toEqual(before);
  });

  it("a live key manages live endpoints only and a test key test ones; neither sees the other's", async () => {
    const liveEndpoint = await send<WebhookEndpointSecretResponse>(live, "POST", "/v1/webhook_endpoints", {
      url: "https://93.184.215.14/live",
    });
    expect(liveEndpoint.status).toBe(201);
    expect(liveEndpoint.json.data.mode).toBe("live");
    const liveId = liveEndpoint.json.data.id;
    for (const [key, id] of [
      [secret, liveId],
      [live, endpoint.id],
    ] as const) {
      expect((await send(key, "GET", `/v1/webhook_endpoints/${id}`)).status).toBe(404);
      expect((await send(key, "POST", `/v1/webhook_endpoints/${id}/rotate_secret`)).status).toBe(404);
    }
    const liveList = await send<WebhookEndpointListResponse>(live, "GET", "/v1/webhook_endpoints");
    expect(liveList.json.data.endpoints.map((e) => e.mode)).toEqual(["live"]);
    const testList = await send<WebhookEndpointListResponse>(secret, "GET", "/v1/webhook_endpoints");
    expect(new Set(testList.json.data.endpoints.map((e) => e.mode))).toEqual(new Set(["test"]));
  });

  it("live endpoints need https and a public address, whatever the operator allows test mode", async () => {
    for (const url of ["http://93.184.215.14/x", "https://127.0.0.1:9/x", "https://localhost:9/x"]) {
      const res = await send(live, "POST", "/v1/webhook_endpoints", { url });
      expect(res.status, url).toBe(400);
      expect(res.json.error.issues?.[0]?.path).toBe("url");
    }
    const test = await send<WebhookEndpointSecretResponse>(secret, "POST", "/v1/webhook_endpoints", {
      url: "http://127.0.0.1:9/local",
    });
    expect(test.status).toBe(201);
  });

  it("an operator's private-address allowance does not carry over to a URL set through the API", async () => {
    const [row] = await svc.db.handle.db
      .select({ accountId: webhookEndpoints.accountId })
      .from(webhookEndpoints)
      .where(eq(webhookEndpoints.id, endpoint.id));
    const granted = await addWebhookEndpoint(svc.db.handle.db, {
      accountId: row?.accountId as string,
      url: "https://10.0.0.5/internal",
      mode: "test",
      allowPrivate: true,
    });
    const path = `/v1/webhook_endpoints/${granted.id}`;
    const moved = await send(secret, "PATCH", path, { url: "https://10.0.0.6/elsewhere" });
    expect(moved.status).toBe(400);
    expect((await stored(granted.id))?.url).toBe("https://10.0.0.5/internal");
    const toPublic = await send<WebhookEndpointResponse>(secret, "PATCH", path, {
      url: "https://93.184.215.14/p",
    });
    expect(toPublic.status).toBe(200);
    expect((await stored(granted.id))?.allowPrivate).toBe(false);
  });

  it("no secret reaches the logs", async () => {
    const rotated = await send<WebhookEndpointSecretResponse>(
      secret,
      "POST",
      `/v1/webhook_endpoints/${endpoint.id}/rotate_secret`,
    );
    expect(rotated.status).toBe(200);
    const logs = svc.logs.join("\n");
    expect(logs).not.toContain(endpoint.secret);
    expect(logs).not.toContain(rotated.json.data.secret);
    expect(logs).not.toContain("whsec_");
  });
});
