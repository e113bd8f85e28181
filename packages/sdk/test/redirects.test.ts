import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createBrowserClient } from "../src/browser.js";
import { createClient, RedirectError } from "../src/index.js";

/**
 * Redirects are refused (decision 152). Two servers on loopback: `api` answers every call with a
 * redirect to `elsewhere`, which records each request it gets and answers JSON that would pass
 * for the API's. The SDK must throw RedirectError naming the status and Location, make one
 * attempt only, and never reach `elsewhere` (so no body of patient data goes there).
 */
interface Seen {
  method: string;
  url: string;
  body: string;
}

let api: Server;
let elsewhere: Server;
let apiUrl: string;
let elsewhereUrl: string;
let redirectStatus = 302;
let apiSeen: Seen[] = [];
let elsewhereSeen: Seen[] = [];

function listen(server: Server): Promise<string> {
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () =>
      resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`),
    ),
  );
}

function recording(into: () => Seen[], answer: (res: import("node:http").ServerResponse) => void) {
  return createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => {
      body += chunk;
    });
    req.on("end", () => {
      into().push({ method: req.method ?? "", url: req.url ?? "", body });
      answer(res);
    });
  });
}

beforeAll(async () => {
  elsewhere = recording(
    () => elsewhereSeen,
    (res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ ok: true, data: { id: "labord_forged", status: "resulted", forged: true } }));
    },
  );
  elsewhereUrl = await listen(elsewhere);
  api = recording(
    () => apiSeen,
    (res) => {
      res.writeHead(redirectStatus, {
        location: `${elsewhereUrl}/v1/labs/orders`,
        "content-type": "text/plain",
      });
      res.end("moved");
    },
  );
  apiUrl = await listen(api);
});

afterAll(async () => {
  for (const server of [api, elsewhere]) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

beforeEach(() => {
  apiSeen = [];
  elsewhereSeen = [];
});

const patientBody = { patientRef: "pt_secret_1001", panelId: "lithium_monitoring" };

async function refusal(call: () => Promise<unknown>): Promise<RedirectError> {
  const error = await call().then(
    (value) => new Error(`answered ${JSON.stringify(value)}`),
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(RedirectError);
  return error as RedirectError;
}

describe("redirects are errors, never followed", () => {
  for (const status of [301, 302, 303, 307, 308]) {
    it(`${status} on GET and POST (Node entry): RedirectError, one attempt, the other origin never contacted`, async () => {
      redirectStatus = status;
      const svc = createClient({
        apiKey: "svc_sk_test_x",
        baseUrl: apiUrl,
        maxRetries: 2,
        retryBaseDelayMs: 1,
      });

      const onGet = await refusal(() => svc.labs.orders.retrieve("labord_1"));
      expect(onGet.status).toBe(status);
      expect(onGet.location).toBe(`${elsewhereUrl}/v1/labs/orders`);
      expect(onGet.url).toBe(`${apiUrl}/v1/labs/orders/labord_1`);
      expect(onGet.message).toContain(`HTTP ${status}`);

      const onPost = await refusal(() => svc.labs.orders.create(patientBody));
      expect(onPost.status).toBe(status);
      expect(onPost.location).toBe(`${elsewhereUrl}/v1/labs/orders`);

      // An analysis POST is retried on 5xx; a redirect is not retried either.
      await refusal(() => svc.dmse.analyze({ responseLatencySeconds: 2 }));

      expect(apiSeen.map((s) => s.method)).toEqual(["GET", "POST", "POST"]);
      expect(apiSeen[1]?.body).toContain("pt_secret_1001");
      expect(elsewhereSeen).toEqual([]);
    });

    it(`${status} on POST (browser entry): RedirectError, the other origin never contacted`, async () => {
      redirectStatus = status;
      const browser = createBrowserClient({ publishableKey: "svc_pk_x", baseUrl: apiUrl, maxRetries: 2 });
      const error = await refusal(() =>
        browser.dmse.analyze({ responseLatencySeconds: 2, speechRateWpm: 120 }),
      );
      expect(error.status).toBe(status);
      expect(error.location).toBe(`${elsewhereUrl}/v1/labs/orders`);
      expect(apiSeen).toHaveLength(1);
      expect(elsewhereSeen).toEqual([]);
    });
  }

  it("a caller's fetch that follows redirects anyway: the other origin's answer is refused, not returned", async () => {
    redirectStatus = 307;
    const following = (request: Request) => globalThis.fetch(new Request(request, { redirect: "follow" }));
    const svc = createClient({ apiKey: "svc_sk_test_x", baseUrl: apiUrl, fetch: following, maxRetries: 0 });
    const error = await refusal(() => svc.labs.orders.retrieve("labord_1"));
    expect(error.location).toBe(`${elsewhereUrl}/v1/labs/orders`);
    // The caller's fetch went there (the SDK cannot stop a fetch it does not own), but its JSON
    // never reads as the API's answer.
    expect(elsewhereSeen).toHaveLength(1);
  });

  it("a browser's opaque redirect (status 0) is refused too", async () => {
    const opaque = Object.defineProperty(new Response(null, { status: 200 }), "type", {
      value: "opaqueredirect",
    });
    const browser = createBrowserClient({
      publishableKey: "svc_pk_x",
      baseUrl: apiUrl,
      fetch: async () => opaque,
    });
    const error = await refusal(() => browser.dmse.analyze({ responseLatencySeconds: 2 }));
    expect(error.status).toBe(0);
    expect(error.message).toContain("a redirect");
  });
});
