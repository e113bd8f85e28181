import { readFileSync } from "node:fs";
import { createServer as createHttpsServer } from "node:https";
import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";

export interface ServeOptions {
  /** `env` is the Node server's (`{ incoming, outgoing }`): the guard reads the peer address. */
  fetch: (request: Request, env?: unknown) => Response | Promise<Response>;
  port: number;
  hostname?: string;
  /** Serve HTTPS with TLS 1.3 only (decision 51). */
  tls?: { certFile: string; keyFile: string };
  /** Node's own limit on receiving a whole request (contract: 30 s). */
  requestTimeoutMs?: number;
}

export interface RunningServer {
  port: number;
  url: string;
  /** Stop accepting, let in-flight requests finish (up to `graceMs`), then resolve. */
  close(graceMs?: number): Promise<void>;
}

const HSTS = "max-age=31536000; includeSubDomains";
const KEEP_ALIVE_TIMEOUT_MS = 65_000;

export function startServer(options: ServeOptions): Promise<RunningServer> {
  const tls = options.tls;
  const fetch = tls
    ? async (request: Request, env?: unknown) => {
        const response = await options.fetch(request, env);
        const headers = new Headers(response.headers);
        headers.set("Strict-Transport-Security", HSTS);
        return new Response(response.body, {
          status: response.status,
          statusText: response.statusText,
          headers,
        });
      }
    : options.fetch;
  return new Promise((resolve, reject) => {
    const server = serve(
      {
        fetch,
        port: options.port,
        hostname: options.hostname ?? "0.0.0.0",
        ...(tls
          ? {
              createServer: createHttpsServer,
              serverOptions: {
                cert: readFileSync(tls.certFile),
                key: readFileSync(tls.keyFile),
                minVersion: "TLSv1.3" as const,
              },
            }
          : {}),
      },
      (info: AddressInfo) => {
        const scheme = tls ? "https" : "http";
        const host = options.hostname && options.hostname !== "0.0.0.0" ? options.hostname : "127.0.0.1";
        resolve({
          port: info.port,
          url: `${scheme}://${host}:${info.port}`,
          close: (graceMs = 10_000) =>
            new Promise<void>((done) => {
              const force = setTimeout(() => {
                if ("closeAllConnections" in server) server.closeAllConnections();
              }, graceMs);
              server.close(() => {
                clearTimeout(force);
                done();
              });
              // Idle keep-alive sockets would hold close() open; in-flight ones finish first.
              if ("closeIdleConnections" in server) server.closeIdleConnections();
            }),
        });
      },
    );
    const timeout = options.requestTimeoutMs ?? 30_000;
    // An HTTP/1.1 server (node:http or node:https) is what `serve` builds here.
    if ("requestTimeout" in server) {
      server.requestTimeout = timeout;
      server.headersTimeout = Math.min(timeout, 20_000);
      // Idle keep-alive connections stay open longer than the balancer's (nginx: 60 s) and client
      // pools' idle timeouts: with Node's 5 s, a pooled connection the service has just closed gets
      // reused for the next request, which then fails (a 502 behind nginx for a POST).
      server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
    }
    server.once("error", reject);
  });
}
