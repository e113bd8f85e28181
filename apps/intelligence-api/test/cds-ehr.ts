import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Card } from "@svc/cds-hooks";
import { type AppDeps, MemoryRateLimiter } from "@svc/http";
import { type RunningServer, startServer } from "@svc/http/runtime";
import { registerCdsClient } from "@svc/records";
import { captureLogger, createTestDatabase, Seeder, type TestDatabase } from "@svc/testkit";
import { exportJWK, generateKeyPair, SignJWT } from "jose";
import { buildIntelligenceApi } from "../src/index.js";

/**
 * What the CDS Hooks tests share: the intelligence API on loopback (its public base URL fixed, so
 * the EHR knows every `aud`), one account's CDS Hooks base (decision 147), one registered EHR that signs a fresh ES384 JWT per call, and a
 * scripted FHIR server on loopback the service fetches missing prefetch from (the operator's
 * loopback setting on, as for test-mode webhooks).
 */

export const PUBLIC_BASE = "https://cds.example.test";

/** The EHR's FHIR server: `answer` decides each reply; every request is recorded. */
export interface ScriptedFhirServer {
  url: string;
  requests: { path: string; authorization: string | undefined }[];
  answer: (path: string) => { status: number; body: string };
}

export interface HookAnswer {
  status: number;
  text: string;
  headers: Headers;
  json: {
    cards?: Card[];
    error?: { code: string; message: string; issues?: { path: string; message: string }[] };
  };
}

export interface CdsTestbed {
  url: string;
  /** The service's database (tests read what was stored). */
  db: TestDatabase;
  /** The account the EHR is registered with. */
  accountId: string;
  /** `/cds-hooks/{accountId}/cds-services`: that account's CDS Hooks base path (decision 147). */
  basePath: string;
  fhir: ScriptedFhirServer;
  /** The service's log lines (JSON), newest last. */
  logs: string[];
  /** A fresh JWT (new `jti`) for the given audience, signed by the registered EHR. */
  jwt(aud: string): Promise<string>;
  /** A JWT of the registered EHR with these claims and header fields over the usual ones. */
  sign(claims: Record<string, unknown>, header?: Record<string, unknown>): Promise<string>;
  /** POST {basePath}/{id} as the EHR (a string body is sent as it is). */
  callHook(serviceId: string, body: unknown, headers?: Record<string, string>): Promise<HookAnswer>;
  close(): Promise<void>;
}

function startFhirServer(): Promise<{ fhir: ScriptedFhirServer; server: Server }> {
  const fhir: ScriptedFhirServer = { url: "", requests: [], answer: () => ({ status: 404, body: "{}" }) };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    fhir.requests.push({ path: req.url ?? "", authorization: req.headers.authorization });
    const { status, body } = fhir.answer(req.url ?? "");
    res.writeHead(status, { "content-type": "application/fhir+json" });
    res.end(body);
  });
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () => {
      fhir.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/fhir`;
      resolve({ fhir, server });
    }),
  );
}

async function registerEhr(db: TestDatabase) {
  const account = await new Seeder(db.handle).account();
  const { publicKey, privateKey } = await generateKeyPair("ES384");
  const kid = randomUUID();
  const iss = `https://ehr-${randomUUID()}.example.org`;
  await registerCdsClient(db.handle.db, {
    accountId: account.id,
    iss,
    jwks: { keys: [{ ...(await exportJWK(publicKey)), kid, alg: "ES384" }] },
  });
  return { accountId: account.id, iss, kid, privateKey };
}

export async function startCdsTestbed(): Promise<CdsTestbed> {
  const db = await createTestDatabase();
  const captured = captureLogger();
  const deps: AppDeps = {
    db: db.handle.db,
    limiter: new MemoryRateLimiter(),
    logger: captured.logger,
    publicBaseUrl: PUBLIC_BASE,
    allowLoopbackWebhooks: true,
  };
  const api: RunningServer = await startServer({
    fetch: buildIntelligenceApi(deps).app.fetch,
    port: 0,
    hostname: "127.0.0.1",
  });
  const { fhir, server: fhirServer } = await startFhirServer();
  const ehr = await registerEhr(db);
  const sign = async (claims: Record<string, unknown>, header: Record<string, unknown> = {}) => {
    const now = Math.floor(Date.now() / 1000);
    return new SignJWT({ iss: ehr.iss, iat: now, exp: now + 120, jti: randomUUID(), ...claims })
      .setProtectedHeader({ alg: "ES384", typ: "JWT", kid: ehr.kid, ...header })
      .sign(ehr.privateKey);
  };
  const jwt = (aud: string) => sign({ aud });
  const basePath = `/cds-hooks/${ehr.accountId}/cds-services`;
  return {
    url: api.url,
    db,
    accountId: ehr.accountId,
    basePath,
    fhir,
    logs: captured.lines,
    jwt,
    sign,
    async callHook(serviceId, body, headers = {}) {
      const response = await fetch(`${api.url}${basePath}/${serviceId}`, {
        method: "POST",
        headers: {
          authorization: `Bearer ${await jwt(`${PUBLIC_BASE}${basePath}/${serviceId}`)}`,
          "content-type": "application/json",
          ...headers,
        },
        body: typeof body === "string" ? body : JSON.stringify(body),
      });
      const text = await response.text();
      return { status: response.status, text, headers: response.headers, json: JSON.parse(text) };
    },
    async close() {
      await api.close(1_000);
      await new Promise<void>((resolve) => fhirServer.close(() => resolve()));
      await db.drop();
    },
  };
}
