import { randomUUID } from "node:crypto";
import type { Card } from "@svc/cds-hooks";
import { type AppDeps, type LimitRule, MemoryRateLimiter, type RateLimiter } from "@svc/http";
import { type RunningServer, startServer } from "@svc/http/runtime";
import {
  listCdsClients,
  listCdsFeedback,
  MAX_LISTED_CDS_CLIENTS,
  registerCdsClient,
  revokeCdsClient,
} from "@svc/records";
import { captureLogger, createTestDatabase, Seeder, type TestDatabase } from "@svc/testkit";
import { exportJWK, generateKeyPair, type JWK, SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildIntelligenceApi } from "../src/index.js";

/**
 * Tenants' EHR registrations kept apart (decision 147): an EHR's issuer belongs to no account, each
 * account's CDS Hooks live under its own base (`/cds-hooks/{accountId}/cds-services`), the JWT's
 * `aud` names that base and the issuer is looked up in that account only. So two accounts register
 * the same EHR independently, neither registration tells anything of the other, and neither
 * account can lock out, impersonate or receive the other's EHR traffic. Every refused JWT gets the
 * same 401. Real HTTP on loopback, real PostgreSQL.
 */

const PUBLIC_BASE = "https://cds.example.test";
const BUCKET = { ratePerSecond: 1, burst: 50 };
/** The account each admitted call was counted on (its monthly usage), in order. */
const countedOn: string[] = [];

/** The in-memory limiter, noting whose monthly usage each call is counted on. */
function countingLimiter(): RateLimiter {
  const inner = new MemoryRateLimiter();
  return {
    backend: inner.backend,
    consume(rule: LimitRule, now?: Date) {
      if (rule.kind === "bucket" && rule.monthlyUsageOf) countedOn.push(rule.monthlyUsageOf);
      return inner.consume(rule, now);
    },
  };
}

let db: TestDatabase;
let seed: Seeder;
let server: RunningServer;
let deps: AppDeps;

beforeAll(async () => {
  db = await createTestDatabase();
  seed = new Seeder(db.handle);
  deps = {
    db: db.handle.db,
    limiter: countingLimiter(),
    logger: captureLogger().logger,
    publicBaseUrl: PUBLIC_BASE,
    allowLoopbackWebhooks: true,
  };
  server = await startServer({
    fetch: buildIntelligenceApi(deps).app.fetch,
    port: 0,
    hostname: "127.0.0.1",
  });
});
afterAll(async () => {
  await server.close(1_000);
  await db.drop();
});

type PrivateKey = Awaited<ReturnType<typeof generateKeyPair>>["privateKey"];
interface Keys {
  kid: string;
  privateKey: PrivateKey;
  publicJwk: JWK;
}

async function newKeys(): Promise<Keys> {
  const { publicKey, privateKey } = await generateKeyPair("ES384", { extractable: true });
  const kid = randomUUID();
  return { kid, privateKey, publicJwk: { ...(await exportJWK(publicKey)), kid, alg: "ES384" } };
}

/** The account's CDS Hooks base path (its discovery). */
const at = (accountId: string) => `/cds-hooks/${accountId}/cds-services`;

interface Signing {
  iss: string;
  keys: Keys;
  aud: string | string[];
  claims?: Record<string, unknown>;
  header?: Record<string, unknown>;
}

function sign({ iss, keys, aud, claims, header }: Signing): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ iss, aud, iat: now, exp: now + 120, jti: randomUUID(), ...claims })
    .setProtectedHeader({ alg: "ES384", typ: "JWT", kid: keys.kid, ...header } as { alg: string })
    .sign(keys.privateKey);
}

interface Answer {
  status: number;
  headers: Headers;
  text: string;
  // biome-ignore lint/suspicious/noExplicitAny: test reads of JSON answers.
  json: any;
}

async function call(path: string, jwt: string | undefined, body?: unknown): Promise<Answer> {
  const response = await fetch(`${server.url}${path}`, {
    method: body === undefined ? "GET" : "POST",
    headers: {
      ...(jwt ? { authorization: `Bearer ${jwt}` } : {}),
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, text, json: text ? JSON.parse(text) : null };
}

/** An order-sign request whose draft tramadol meets active sertraline: an interaction card. */
function orderSign() {
  const medication = (id: string, status: string, code: string, display: string) => ({
    resourceType: "MedicationRequest",
    id,
    status,
    intent: "order",
    subject: { reference: "Patient/pat-1" },
    authoredOn: "2026-05-01",
    medicationCodeableConcept: {
      coding: [{ system: "http://www.nlm.nih.gov/research/umls/rxnorm", code, display }],
    },
  });
  return {
    hook: "order-sign",
    hookInstance: randomUUID(),
    context: {
      userId: "Practitioner/abc",
      patientId: "pat-1",
      draftOrders: {
        resourceType: "Bundle",
        type: "collection",
        entry: [{ resource: medication("d-tramadol", "draft", "10689", "tramadol") }],
      },
    },
    prefetch: {
      medications: {
        resourceType: "Bundle",
        type: "searchset",
        entry: [{ resource: medication("m-sertraline", "active", "36437", "sertraline") }],
      },
    },
  };
}

/** Two paid accounts and one EHR issuer: A registers it first, with the EHR's real keys. */
async function twoTenants() {
  const a = await seed.account({ plan: "enterprise", production: true, ...BUCKET });
  const b = await seed.account({ plan: "enterprise", production: true, ...BUCKET });
  const iss = `https://ehr-${randomUUID()}.example.org`;
  const ehrKeys = await newKeys();
  const clientA = await registerCdsClient(db.handle.db, {
    accountId: a.id,
    iss,
    jwks: { keys: [ehrKeys.publicJwk] },
  });
  return { a, b, iss, ehrKeys, clientA };
}

describe("two accounts, one EHR issuer (decision 147)", { timeout: 60_000 }, () => {
  it("both register it; neither registration says anything of the other account", async () => {
    const { a, b, iss, clientA } = await twoTenants();
    const squatterKeys = await newKeys();
    const clientB = await registerCdsClient(db.handle.db, {
      accountId: b.id,
      iss,
      jwks: { keys: [squatterKeys.publicJwk] },
    });
    expect(clientB).toMatchObject({ accountId: b.id, iss });
    expect(JSON.stringify(clientB)).not.toContain(clientA.id);
    expect(JSON.stringify(clientB)).not.toContain(a.id);
    // A second active client for the issuer in the same account is refused, naming that account's own.
    const again = registerCdsClient(db.handle.db, {
      accountId: b.id,
      iss,
      jwks: { keys: [squatterKeys.publicJwk] },
    });
    await expect(again).rejects.toThrow(clientB.id);
    await expect(again).rejects.not.toThrow(clientA.id);
  });

  it("B's registration of A's EHR neither locks A out nor lets B impersonate, receive or read A's traffic", async () => {
    const { a, b, iss, ehrKeys, clientA } = await twoTenants();
    const squatterKeys = await newKeys();
    const clientB = await registerCdsClient(db.handle.db, {
      accountId: b.id,
      iss,
      jwks: { keys: [squatterKeys.publicJwk] },
    });
    const audA = `${PUBLIC_BASE}${at(a.id)}`;
    const audB = `${PUBLIC_BASE}${at(b.id)}`;

    // Not locked out: the EHR's own token to A's base passes, B's registration notwithstanding.
    const discovery = await call(at(a.id), await sign({ iss, keys: ehrKeys, aud: audA }));
    expect(discovery.status).toBe(200);
    expect(discovery.json.services.length).toBeGreaterThan(0);

    // No impersonation: B's key under the EHR's issuer, aimed at A's base.
    expect((await call(at(a.id), await sign({ iss, keys: squatterKeys, aud: audA }))).status).toBe(401);
    // No receiving: the EHR's token for A, sent (or redirected) to B's base, is refused there;
    // and a token for B's base signed with the EHR's key is not B's client's key.
    expect((await call(at(b.id), await sign({ iss, keys: ehrKeys, aud: audA }))).status).toBe(401);
    expect((await call(at(b.id), await sign({ iss, keys: ehrKeys, aud: [audA, audB] }))).status).toBe(401);
    expect((await call(at(b.id), await sign({ iss, keys: ehrKeys, aud: audB }))).status).toBe(401);

    // A hook call and its feedback land on A: the card, the feedback, the calls counted.
    countedOn.length = 0;
    const serviceId = "psych-interactions-sign";
    const hook = await call(
      `${at(a.id)}/${serviceId}`,
      await sign({ iss, keys: ehrKeys, aud: `${audA}/${serviceId}` }),
      orderSign(),
    );
    expect(hook.status).toBe(200);
    const card = (hook.json.cards as Card[])[0];
    expect(card?.uuid).toBeTruthy();
    const feedback = await call(
      `${at(a.id)}/${serviceId}/feedback`,
      await sign({ iss, keys: ehrKeys, aud: `${audA}/${serviceId}/feedback` }),
      {
        feedback: [
          {
            card: card?.uuid,
            outcome: "overridden",
            overrideReason: { userComment: "Already monitored." },
            outcomeTimestamp: new Date().toISOString(),
          },
        ],
      },
    );
    expect(feedback.status).toBe(200);
    const ofA = await listCdsFeedback(db.handle.db, { accountId: a.id });
    const ofB = await listCdsFeedback(db.handle.db, { accountId: b.id });
    expect(ofA.feedback.map((f) => f.clientId)).toEqual([clientA.id]);
    expect(ofB.feedback).toEqual([]);
    expect(countedOn).toEqual([a.id, a.id]);

    // B can neither revoke A's client nor, by revoking its own, touch A's.
    await expect(revokeCdsClient(db.handle.db, clientA.id, { accountId: b.id })).rejects.toThrow(
      /No CDS client/,
    );
    await revokeCdsClient(db.handle.db, clientB.id, { accountId: b.id });
    expect((await call(at(a.id), await sign({ iss, keys: ehrKeys, aud: audA }))).status).toBe(200);
  });

  it("the unscoped /cds-services paths answer a 404 saying where the services are, with no JWT read", async () => {
    const { a, iss, ehrKeys } = await twoTenants();
    for (const [path, body] of [
      ["/cds-services", undefined],
      ["/cds-services/psych-interactions-sign", orderSign()],
      ["/cds-services/psych-interactions-sign/feedback", { feedback: [] }],
    ] as const) {
      const jwt = await sign({ iss, keys: ehrKeys, aud: `${PUBLIC_BASE}${path}` });
      const answer = await call(path, jwt, body);
      expect(answer.status, path).toBe(404);
      expect(answer.json.error.message).toContain("/cds-hooks/{accountId}/cds-services");
      expect(answer.text).not.toContain(a.id);
    }
  });
});

describe("an account's client listing (decision 149)", { timeout: 120_000 }, () => {
  it("shows the newest MAX_LISTED_CDS_CLIENTS, however many revoked ones accumulate", async () => {
    const account = await seed.account({ plan: "enterprise", production: true });
    const { publicJwk } = await newKeys();
    let newest = "";
    for (let i = 0; i <= MAX_LISTED_CDS_CLIENTS; i++) {
      const client = await registerCdsClient(db.handle.db, {
        accountId: account.id,
        iss: "https://churn.example.org",
        jwks: { keys: [publicJwk] },
      });
      await revokeCdsClient(db.handle.db, client.id);
      newest = client.id;
    }
    const { clients } = await listCdsClients(db.handle.db, account.id);
    expect(clients).toHaveLength(MAX_LISTED_CDS_CLIENTS);
    expect(clients[0]?.id).toBe(newest);
  });
});

describe("one 401 for every refused JWT (decision 147)", { timeout: 60_000 }, () => {
  it("unknown issuer or account, revoked client, unknown kid, bad signature, expired, wrong aud, replay, alg none, malformed: the same status, body and headers", async () => {
    const { a, iss, ehrKeys } = await twoTenants();
    const aud = `${PUBLIC_BASE}${at(a.id)}`;
    const now = Math.floor(Date.now() / 1000);
    const revokedIss = `https://ehr-${randomUUID()}.example.org`;
    const revoked = await registerCdsClient(db.handle.db, {
      accountId: a.id,
      iss: revokedIss,
      jwks: { keys: [ehrKeys.publicJwk] },
    });
    await revokeCdsClient(db.handle.db, revoked.id);
    const replayed = await sign({ iss, keys: ehrKeys, aud });
    expect((await call(at(a.id), replayed)).status).toBe(200);
    const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
    const unknownAccount = `acct_${"0".repeat(26)}`;
    const refusals: [string, string, string][] = [
      ["unknown issuer", at(a.id), await sign({ iss: "https://stranger.example.org", keys: ehrKeys, aud })],
      [
        "an account that does not exist",
        at(unknownAccount),
        await sign({ iss, keys: ehrKeys, aud: `${PUBLIC_BASE}${at(unknownAccount)}` }),
      ],
      [
        "not an account id",
        at("nobody"),
        await sign({ iss, keys: ehrKeys, aud: `${PUBLIC_BASE}${at("nobody")}` }),
      ],
      ["revoked client", at(a.id), await sign({ iss: revokedIss, keys: ehrKeys, aud })],
      ["unknown kid", at(a.id), await sign({ iss, keys: ehrKeys, aud, header: { kid: "nope" } })],
      ["bad signature", at(a.id), await sign({ iss, keys: { ...(await newKeys()), kid: ehrKeys.kid }, aud })],
      [
        "expired",
        at(a.id),
        await sign({ iss, keys: ehrKeys, aud, claims: { iat: now - 200, exp: now - 90 } }),
      ],
      ["wrong aud", at(a.id), await sign({ iss, keys: ehrKeys, aud: `${PUBLIC_BASE}/cds-services` })],
      ["replayed jti", at(a.id), replayed],
      [
        "alg none",
        at(a.id),
        `${b64({ alg: "none", typ: "JWT", kid: ehrKeys.kid })}.${b64({ iss, aud, iat: now, exp: now + 60, jti: randomUUID() })}.`,
      ],
      ["malformed", at(a.id), "not.a.jwt"],
    ];
    const answers: [string, Answer][] = [];
    for (const [name, path, jwt] of refusals) answers.push([name, await call(path, jwt)]);
    // What may differ between two answers of one address: the request id, the date, the bucket's count.
    const perRequest = new Set(["x-request-id", "date", "x-ratelimit-remaining", "x-ratelimit-reset"]);
    const shape = (answer: Answer) => ({
      status: answer.status,
      body: { ...answer.json, requestId: "-" },
      headers: [...answer.headers.entries()].filter(([name]) => !perRequest.has(name)),
      headerNames: [...answer.headers.keys()],
    });
    const first = shape((answers[0] as [string, Answer])[1]);
    expect(first.status).toBe(401);
    expect(first.body.error.code).toBe("invalid_token");
    for (const [name, answer] of answers) {
      expect(shape(answer), name).toEqual(first);
      expect(answer.json.requestId, name).toMatch(/^req_/);
    }
  });
});
