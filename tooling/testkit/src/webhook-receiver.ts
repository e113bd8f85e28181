import http from "node:http";
import https from "node:https";
import type { AddressInfo } from "node:net";
import { type Db, webhookEndpoints } from "@svc/db";
import { newId } from "@svc/ids";
import { newWebhookSecret } from "@svc/webhooks";

/**
 * A webhook receiver on loopback and the endpoint rows that point at it: what the delivery
 * package's tests and the worker's outage test share.
 */
export interface ReceivedRequest {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A scripted answer; `body` may be bytes (a binary or gzip-encoded answer). */
export type Reply = {
  status: number;
  body?: string | Buffer;
  headers?: Record<string, string>;
  delayMs?: number;
};

/** A webhook receiver on loopback whose answers the test scripts per request. */
export interface Receiver {
  url: string;
  requests: ReceivedRequest[];
  reply: (request: ReceivedRequest, index: number) => Reply;
  close(): Promise<void>;
}

/**
 * A webhook receiver on loopback whose answers the test scripts per request; with `tls`, an
 * https one (live endpoints need https; the deliverer must be given the cert as `trustedCa`).
 */
export async function startReceiver(
  reply: Receiver["reply"] = () => ({ status: 200 }),
  tls?: { cert: string; key: string },
): Promise<Receiver> {
  const receiver: Receiver = {
    url: "",
    requests: [],
    reply,
    close: async () => {},
  };
  const handler: http.RequestListener = (req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const request = {
        path: req.url ?? "/",
        headers: req.headers,
        body: Buffer.concat(chunks).toString("utf8"),
      };
      const index = receiver.requests.length;
      receiver.requests.push(request);
      const answer = receiver.reply(request, index);
      const send = () => {
        if (res.destroyed) return;
        res.writeHead(answer.status, answer.headers ?? {});
        res.end(answer.body ?? "");
      };
      if (answer.delayMs) setTimeout(send, answer.delayMs);
      else send();
    });
  };
  const server = tls ? https.createServer(tls, handler) : http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  receiver.url = `${tls ? "https" : "http"}://127.0.0.1:${port}`;
  receiver.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return receiver;
}

/** A webhook endpoint row for an account or an organization, e.g. pointing at a Receiver. */
export async function addEndpoint(
  db: Db,
  input: { accountId?: string; orgId?: string; url: string; mode?: "test" | "live"; allowPrivate?: boolean },
) {
  const row = {
    id: newId("we"),
    accountId: input.accountId ?? null,
    orgId: input.orgId ?? null,
    url: input.url,
    // Organization endpoints are live, as the operator command makes them (decision 28).
    mode: input.mode ?? (input.orgId ? ("live" as const) : ("test" as const)),
    secret: newWebhookSecret(),
    allowPrivate: input.allowPrivate ?? false,
  };
  await db.insert(webhookEndpoints).values(row);
  return row;
}

/** Polls `check` every 50 ms until it returns something truthy, or fails after `timeoutMs`. */
export async function waitFor<T>(
  check: () => Promise<T | undefined | null | false> | T | undefined | null | false,
  timeoutMs = 15_000,
  what = "condition",
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
