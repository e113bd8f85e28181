import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { cdsFeedback, createAccount, createDb, eq } from "@svc/db";
import { type AppDeps, MemoryRateLimiter } from "@svc/http";
import { type RunningServer, startServer } from "@svc/http/runtime";
import {
  listCdsFeedback,
  pgJtiStore,
  recordCdsFeedback,
  registerCdsClient,
  rememberIssuedCards,
} from "@svc/records";
import { captureLogger, createTestDatabase, Seeder, type TestDatabase } from "@svc/testkit";
import { exportJWK, generateKeyPair, SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildIntelligenceApi } from "../src/index.js";

/**
 * Discovery, feedback (stored once however often the same card is reported) and CORS on an
 * account's CDS Hooks base, called over real HTTP by a test EHR that signs its own JWTs.
 */

const PUBLIC_BASE = "https://cds.example.test";

let db: TestDatabase;
let server: RunningServer;
let ehr: { iss: string; kid: string; privateKey: Awaited<ReturnType<typeof generateKeyPair>>["privateKey"] };
let accountId: string;
let clientId: string;
/** The account's CDS Hooks base path (decision 147). */
const base = () => `/cds-hooks/${accountId}/cds-services`;

beforeAll(async () => {
  db = await createTestDatabase();
  const deps: AppDeps = {
    db: db.handle.db,
    limiter: new MemoryRateLimiter(),
    logger: captureLogger().logger,
    publicBaseUrl: PUBLIC_BASE,
  };
  const api = buildIntelligenceApi(deps, {
    cdsHooks: {
      services: [
        {
          id: "svc-a",
          hook: "order-sign",
          description: "Service A",
          prefetch: { patient: "Patient/{{context.patientId}}" },
          usageRequirements: "",
        },
      ],
    },
  });
  server = await startServer({ fetch: api.app.fetch, port: 0, hostname: "127.0.0.1" });
  const account = await new Seeder(db.handle).account();
  accountId = account.id;
  const { publicKey, privateKey } = await generateKeyPair("ES384");
  const kid = randomUUID();
  const iss = `https://ehr-${randomUUID()}.example.org`;
  const client = await registerCdsClient(db.handle.db, {
    accountId,
    iss,
    jwks: { keys: [{ ...(await exportJWK(publicKey)), kid, alg: "ES384" }] },
  });
  clientId = client.id;
  ehr = { iss, kid, privateKey };
  // Feedback is taken on issued cards only (decision 151); cds.feedback-bounds.test.ts issues them by hook calls.
  await rememberIssuedCards(db.handle.db, {
    clientId,
    serviceId: "svc-a",
    cardUuids: [overridden.card, accepted.card],
  });
});
afterAll(async () => {
  await server.close(1_000);
  await db.drop();
});

async function jwt(aud: string): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ iss: ehr.iss, aud, iat: now, exp: now + 120, jti: randomUUID() })
    .setProtectedHeader({ alg: "ES384", typ: "JWT", kid: ehr.kid })
    .sign(ehr.privateKey);
}

async function postFeedback(
  serviceId: string,
  body: unknown,
  aud = `${PUBLIC_BASE}${base()}/${serviceId}/feedback`,
) {
  const response = await fetch(`${server.url}${base()}/${serviceId}/feedback`, {
    method: "POST",
    headers: { authorization: `Bearer ${await jwt(aud)}`, "content-type": "application/json" },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  return { status: response.status, text: await response.text() };
}

const overridden = {
  card: "9368d37b-283f-44a0-93ea-547cebab93ed",
  outcome: "overridden",
  overrideReason: {
    reason: { code: "d7ecf885", system: "https://example.com/cds-hooks/override-reason-system" },
    userComment: "A comment entered by the clinician.",
  },
  outcomeTimestamp: "2020-12-11T00:00:00Z",
};
const accepted = {
  card: "0f0e3f2a-8d4b-4c1e-9a43-5b2f0c9e7d11",
  outcome: "accepted",
  acceptedSuggestions: [{ id: "e56e1945-20b3-4393-8503-a1a20fd73152" }],
  outcomeTimestamp: "2020-12-11T00:00:00.520Z",
};

async function storedRows() {
  return db.handle.db.select().from(cdsFeedback).where(eq(cdsFeedback.clientId, clientId));
}

describe("GET /cds-services", () => {
  it("lists the given services with the spec's fields only, empty ones left out", async () => {
    const response = await fetch(`${server.url}${base()}`, {
      headers: { authorization: `Bearer ${await jwt(`${PUBLIC_BASE}${base()}`)}` },
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      services: [
        {
          hook: "order-sign",
          description: "Service A",
          id: "svc-a",
          prefetch: { patient: "Patient/{{context.patientId}}" },
        },
      ],
    });
  });
});

describe("POST /cds-services/{id}/feedback (decision 124)", () => {
  it("stores the spec's examples once, however often they are sent; answers 200 with an empty body", async () => {
    const first = await postFeedback("svc-a", { feedback: [overridden, accepted] });
    expect(first).toEqual({ status: 200, text: "" });
    const again = await postFeedback("svc-a", { feedback: [accepted, overridden, overridden] });
    expect(again).toEqual({ status: 200, text: "" });
    const rows = await storedRows();
    expect(rows).toHaveLength(2);
    const listed = await listCdsFeedback(db.handle.db, { accountId });
    expect(listed.feedback.map((f) => f.outcome).sort()).toEqual(["accepted", "overridden"]);
    const override = listed.feedback.find((f) => f.outcome === "overridden");
    expect(override).toMatchObject({
      serviceId: "svc-a",
      card: overridden.card,
      overrideReason: { code: "d7ecf885", system: "https://example.com/cds-hooks/override-reason-system" },
      userComment: "A comment entered by the clinician.",
      outcomeTimestamp: "2020-12-11T00:00:00.000Z",
    });
    expect(listed.feedback.find((f) => f.outcome === "accepted")?.acceptedSuggestions).toEqual([
      "e56e1945-20b3-4393-8503-a1a20fd73152",
    ]);
  });

  it("the same card and outcome at another outcome time is the same report (decision 151)", async () => {
    const before = (await storedRows()).length;
    expect(
      (
        await postFeedback("svc-a", {
          feedback: [{ ...overridden, outcomeTimestamp: "2020-12-12T00:00:00Z" }],
        })
      ).status,
    ).toBe(200);
    expect((await storedRows()).length).toBe(before);
  });

  it("accepts the service's own URL as aud", async () => {
    expect(
      (await postFeedback("svc-a", { feedback: [accepted] }, `${PUBLIC_BASE}${base()}/svc-a`)).status,
    ).toBe(200);
    expect(
      (await postFeedback("svc-a", { feedback: [accepted] }, `${PUBLIC_BASE}${base()}/other`)).status,
    ).toBe(401);
  });

  it("an unknown service id is 404; a bad body is 400 with issues; nothing is stored", async () => {
    const before = (await storedRows()).length;
    const unknown = await postFeedback("svc-zzz", { feedback: [accepted] });
    expect(unknown.status).toBe(404);
    expect(JSON.parse(unknown.text).error.code).toBe("not_found");
    const bad: unknown[] = [
      { feedback: [] },
      { feedback: [{ ...accepted, acceptedSuggestions: undefined }] },
      { feedback: [{ ...overridden, outcome: "ignored" }] },
      { feedback: [{ ...overridden, outcomeTimestamp: "yesterday" }] },
      { feedback: [{ ...overridden, card: "" }] },
      { feedback: [{ ...accepted, overrideReason: overridden.overrideReason }] },
      "{not json",
      [],
    ];
    for (const body of bad) {
      const answer = await postFeedback("svc-a", body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(JSON.parse(answer.text).error.code).toBe("invalid_request");
    }
    expect((await storedRows()).length).toBe(before);
  });

  it("a body over 1 MB is 413, a body that is not JSON by its type is 400, nothing stored", async () => {
    const before = (await storedRows()).length;
    const huge = await postFeedback("svc-a", {
      feedback: [{ ...overridden, overrideReason: { userComment: "x".repeat(1_100_000) } }],
    });
    expect(huge.status).toBe(413);
    const response = await fetch(`${server.url}${base()}/svc-a/feedback`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${await jwt(`${PUBLIC_BASE}${base()}/svc-a/feedback`)}`,
        "content-type": "text/plain",
      },
      body: JSON.stringify({ feedback: [accepted] }),
    });
    expect(response.status).toBe(400);
    expect((await storedRows()).length).toBe(before);
  });

  it("needs the EHR's JWT like every CDS call", async () => {
    const response = await fetch(`${server.url}${base()}/svc-a/feedback`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ feedback: [accepted] }),
    });
    expect(response.status).toBe(401);
  });
});

describe("CORS on /cds-services (browser-based EHRs)", () => {
  it("answers a preflight without a JWT, allowing Authorization and Content-Type", async () => {
    for (const path of [base(), `${base()}/svc-a/feedback`, `${base()}/svc-a`]) {
      const response = await fetch(`${server.url}${path}`, {
        method: "OPTIONS",
        headers: {
          origin: "https://ehr.example.org",
          "access-control-request-method": "POST",
          "access-control-request-headers": "authorization, content-type",
        },
      });
      expect(response.status).toBe(204);
      expect(response.headers.get("access-control-allow-origin")).toBe("*");
      expect(response.headers.get("access-control-allow-headers")?.toLowerCase()).toContain("authorization");
      expect(response.headers.get("access-control-allow-headers")?.toLowerCase()).toContain("content-type");
      expect(response.headers.get("access-control-allow-methods")).toContain("POST");
      expect(response.headers.get("access-control-allow-credentials")).toBeNull();
    }
  });

  it("a browser can read the answers, refusals included", async () => {
    const refused = await fetch(`${server.url}${base()}`, {
      headers: { origin: "https://ehr.example.org" },
    });
    expect(refused.status).toBe(401);
    expect(refused.headers.get("access-control-allow-origin")).toBe("*");
    const ok = await fetch(`${server.url}${base()}`, {
      headers: {
        origin: "https://ehr.example.org",
        authorization: `Bearer ${await jwt(`${PUBLIC_BASE}${base()}`)}`,
      },
    });
    expect(ok.status).toBe(200);
    expect(ok.headers.get("access-control-allow-origin")).toBe("*");
    expect(ok.headers.get("access-control-expose-headers")).toContain("X-RateLimit-Remaining");
  });
});

describe("embedded PGlite (no PostgreSQL server, no Redis)", { timeout: 60_000 }, () => {
  it("the replay store and idempotent feedback work there too", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "cds-pglite-"));
    const handle = createDb({ dataDir: dir });
    try {
      await handle.migrate();
      const account = await createAccount(handle.db, { name: "Embedded" });
      const { publicKey } = await generateKeyPair("ES384");
      const client = await registerCdsClient(handle.db, {
        accountId: account.id,
        iss: "https://ehr.example.org",
        jwks: { keys: [{ ...(await exportJWK(publicKey)), kid: "k1" }] },
      });
      const store = pgJtiStore(handle.db);
      const now = new Date();
      const until = new Date(now.getTime() + 60_000);
      expect(await store.remember(client.id, "j1", until, now)).toBe(true);
      expect(await store.remember(client.id, "j1", until, now)).toBe(false);
      // Once the first token could no longer be accepted, its jti may be used again.
      const later = new Date(until.getTime() + 1);
      expect(await store.remember(client.id, "j1", new Date(later.getTime() + 60_000), later)).toBe(true);
      const sender = { clientId: client.id, accountId: account.id, mode: "test" as const };
      await rememberIssuedCards(handle.db, { clientId: client.id, serviceId: "svc-a", cardUuids: ["c1"] });
      const item = {
        card: "c1",
        outcome: "accepted" as const,
        outcomeTimestamp: now,
        acceptedSuggestions: ["s1"],
      };
      expect(await recordCdsFeedback(handle.db, sender, "svc-a", [item, item])).toEqual({
        ok: true,
        stored: 1,
        repeated: 1,
      });
      expect(await recordCdsFeedback(handle.db, sender, "svc-a", [item])).toEqual({
        ok: true,
        stored: 0,
        repeated: 1,
      });
      expect(await recordCdsFeedback(handle.db, sender, "svc-a", [{ ...item, card: "c2" }])).toEqual({
        ok: false,
        unknownCards: [0],
      });
    } finally {
      await handle.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
