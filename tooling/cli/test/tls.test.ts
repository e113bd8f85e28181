import { mkdtempSync, rmSync } from "node:fs";
import { request } from "node:https";
import { tmpdir } from "node:os";
import path from "node:path";
import { connect } from "node:tls";
import { type RunningServer, startServer } from "@svc/http/runtime";
import { writeSelfSignedCert } from "@svc/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

let dir: string;
let server: RunningServer;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), "svc-tls-"));
  const { certFile, keyFile } = writeSelfSignedCert(dir);
  server = await startServer({
    fetch: () =>
      new Response(JSON.stringify({ ok: true }), { headers: { "content-type": "application/json" } }),
    port: 0,
    hostname: "127.0.0.1",
    tls: { certFile, keyFile },
  });
});
afterAll(async () => {
  await server.close(500);
  rmSync(dir, { recursive: true, force: true });
});

describe("TLS 1.3 only (decision 51)", () => {
  it("refuses a TLS 1.2 client", async () => {
    const outcome = await new Promise<string>((resolve) => {
      const socket = connect({
        host: "127.0.0.1",
        port: server.port,
        maxVersion: "TLSv1.2",
        rejectUnauthorized: false,
      });
      socket.once("secureConnect", () => {
        socket.destroy();
        resolve("connected");
      });
      socket.once("error", (error: NodeJS.ErrnoException) => resolve(`refused:${error.code}`));
    });
    expect(outcome).toMatch(/^refused:/);
  });

  it("serves a TLS 1.3 client with Strict-Transport-Security", async () => {
    const result = await new Promise<{ status: number; hsts: string | undefined; protocol: string | null }>(
      (resolve, reject) => {
        const req = request(
          {
            host: "127.0.0.1",
            port: server.port,
            path: "/healthz",
            rejectUnauthorized: false,
            minVersion: "TLSv1.3",
          },
          (res) => {
            const protocol = (res.socket as import("node:tls").TLSSocket).getProtocol();
            res.resume();
            res.on("end", () =>
              resolve({
                status: res.statusCode ?? 0,
                hsts: res.headers["strict-transport-security"] as string | undefined,
                protocol,
              }),
            );
          },
        );
        req.on("error", reject);
        req.end();
      },
    );
    expect(result.status).toBe(200);
    expect(result.protocol).toBe("TLSv1.3");
    expect(result.hsts).toContain("max-age=");
  });
});
