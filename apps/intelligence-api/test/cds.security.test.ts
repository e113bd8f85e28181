import { randomUUID } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { cdsClients, eq } from "@svc/db";
import { type AppDeps, MemoryRateLimiter } from "@svc/http";
import { type RunningServer, startServer } from "@svc/http/runtime";
import { registerCdsClient, revokeCdsClient } from "@svc/records";
import { captureLogger, createTestDatabase, Seeder, type TestDatabase } from "@svc/testkit";
import { exportJWK, generateKeyPair, type JWK, SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildIntelligenceApi } from "../src/index.js";
import { CDS_JWT_REFUSED_MESSAGE } from "../src/routes/cds_guard.js";

/**
 * The service acting for CDS Hooks, called over real HTTP by a test EHR that signs its own JWTs
 * with jose (keys made per test). Every bad token is 401 with its one reason; a good one passes.
 */

const PUBLIC_BASE = "https://cds.example.test";

let db: TestDatabase;
let seed: Seeder;
let server: RunningServer;
let deps: AppDeps;
let logs: string[];
let jwksServer: Server;
let jwksBase: string;
/** What the scripted EHR's JWKS endpoint serves, per path. */
const served = new Map<string, unknown>();
/** How often each path of the scripted EHR was fetched. */
const fetched = new Map<string, number>();

beforeAll(async () => {
  db = await createTestDatabase();
  seed = new Seeder(db.handle);
  const captured = captureLogger();
  logs = captured.lines;
  deps = {
    db: db.handle.db,
    limiter: new MemoryRateLimiter(),
    logger: captured.logger,
    publicBaseUrl: PUBLIC_BASE,
    allowLoopbackWebhooks: true,
  };
  const api = buildIntelligenceApi(deps, {
    cdsHooks: {
      services: [{ id: "svc-a", hook: "patient-view", title: "A", description: "Test service A" }],
    },
  });
  server = await startServer({ fetch: api.app.fetch, port: 0, hostname: "127.0.0.1" });
  jwksServer = createServer((req, res) => {
    fetched.set(req.url ?? "", (fetched.get(req.url ?? "") ?? 0) + 1);
    const body = served.get(req.url ?? "");
    res.writeHead(body ? 200 : 404, { "content-type": "application/json" });
    res.end(body ? JSON.stringify(body) : "{}");
  });
  await new Promise<void>((resolve) => jwksServer.listen(0, "127.0.0.1", resolve));
  jwksBase = `http://127.0.0.1:${(jwksServer.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await server.close(1_000);
  jwksServer.closeAllConnections();
  await new Promise((resolve) => jwksServer.close(resolve));
  await db.drop();
});

type Alg = "ES384" | "RS384";
type SigningKey = Awaited<ReturnType<typeof generateKeyPair>>["privateKey"];
interface TestEhr {
  iss: string;
  alg: Alg;
  kid: string;
  privateKey: SigningKey;
  publicJwk: JWK;
  clientId: string;
  accountId: string;
}

/** An account's CDS Hooks base path, its discovery (decision 147). */
function at(ehr: { accountId: string }): string {
  return `/cds-hooks/${ehr.accountId}/cds-services`;
}

/** The URL the EHR signs as aud for discovery. */
function audOf(ehr: { accountId: string }): string {
  return `${PUBLIC_BASE}${at(ehr)}`;
}

async function keyPair(alg: Alg) {
  const { publicKey, privateKey } = await generateKeyPair(alg, { extractable: true });
  const kid = randomUUID();
  const publicJwk = { ...(await exportJWK(publicKey)), kid, alg, use: "sig" };
  return { kid, privateKey, publicJwk };
}

/** A new EHR registered (inline JWKS unless `jkus` is given) for a new account. */
async function registeredEhr(alg: Alg = "ES384", options: { jkus?: string[] } = {}): Promise<TestEhr> {
  const account = await seed.account();
  const keys = await keyPair(alg);
  const iss = `https://ehr-${randomUUID()}.example.org`;
  const client = await registerCdsClient(db.handle.db, {
    accountId: account.id,
    iss,
    ...(options.jkus ? { jkus: options.jkus } : { jwks: { keys: [keys.publicJwk] } }),
    allowLoopback: true,
  });
  return { iss, alg, ...keys, clientId: client.id, accountId: account.id };
}

interface TokenOptions {
  claims?: Record<string, unknown>;
  header?: Record<string, unknown>;
  key?: SigningKey;
}

/** A CDS Hooks JWT as an EHR signs it: ES384/RS384, typ JWT, kid; iss, aud, exp, iat, jti. */
async function token(ehr: TestEhr, options: TokenOptions = {}): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({
    iss: ehr.iss,
    aud: audOf(ehr),
    iat: now,
    exp: now + 300,
    jti: randomUUID(),
    ...options.claims,
  })
    .setProtectedHeader({ alg: ehr.alg, typ: "JWT", kid: ehr.kid, ...options.header } as { alg: string })
    .sign(options.key ?? ehr.privateKey);
}

function b64url(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString("base64url");
}

async function get(path: string, jwt?: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${server.url}${path}`, {
    headers: { ...(jwt ? { authorization: `Bearer ${jwt}` } : {}), ...headers },
  });
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    text,
    json: text ? JSON.parse(text) : undefined,
  };
}

/**
 * The one 401 of a refused JWT (decision 147), with no key material in it; `reason` is in the
 * log line of its request id only.
 */
function expectRefused(answer: Awaited<ReturnType<typeof get>>, reason: string, ehr?: TestEhr) {
  expect(answer.status).toBe(401);
  expect(answer.json).toMatchObject({
    ok: false,
    error: { code: "invalid_token", message: CDS_JWT_REFUSED_MESSAGE },
  });
  expect(answer.text).not.toContain(reason);
  const logged = logs.filter(
    (line) => line.includes(answer.json.requestId) && line.includes("cds jwt refused"),
  );
  expect(logged).toHaveLength(1);
  expect(logged[0]).toContain(`"reason":"${reason}"`);
  if (ehr) {
    expect(answer.text).not.toContain(String(ehr.publicJwk.x ?? ehr.publicJwk.n).slice(0, 20));
  }
}

describe("CDS Hooks JWT (decision 120)", { timeout: 60_000 }, () => {
  it.each(["ES384", "RS384"] as const)("a good %s token passes discovery", async (alg) => {
    const ehr = await registeredEhr(alg);
    const answer = await get(at(ehr), await token(ehr));
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({
      services: [{ hook: "patient-view", title: "A", description: "Test service A", id: "svc-a" }],
    });
    expect(answer.headers.get("x-ratelimit-limit")).toBeTruthy();
  });

  it("aud may be an array containing the endpoint's URL", async () => {
    const ehr = await registeredEhr();
    const jwt = await token(ehr, { claims: { aud: ["https://other.example", audOf(ehr)] } });
    expect((await get(at(ehr), jwt)).status).toBe(200);
  });

  it("a token signed by another key under the registered kid: wrong_key", async () => {
    const ehr = await registeredEhr();
    const other = await keyPair("ES384");
    expectRefused(await get(at(ehr), await token(ehr, { key: other.privateKey })), "wrong_key", ehr);
  });

  it("a kid the client's set does not hold: unknown_kid", async () => {
    const ehr = await registeredEhr();
    expectRefused(await get(at(ehr), await token(ehr, { header: { kid: "not-registered" } })), "unknown_kid");
  });

  it("alg none (unsigned): alg_not_allowed", async () => {
    const ehr = await registeredEhr();
    const now = Math.floor(Date.now() / 1000);
    const unsigned = `${b64url({ alg: "none", typ: "JWT", kid: ehr.kid })}.${b64url({
      iss: ehr.iss,
      aud: audOf(ehr),
      iat: now,
      exp: now + 300,
      jti: randomUUID(),
    })}.`;
    expectRefused(await get(at(ehr), unsigned), "alg_not_allowed");
  });

  it("HS256 signed with the client's public key as the secret (the classic confusion): alg_not_allowed", async () => {
    for (const alg of ["ES384", "RS384"] as const) {
      const ehr = await registeredEhr(alg);
      const secret = new TextEncoder().encode(JSON.stringify(ehr.publicJwk));
      const now = Math.floor(Date.now() / 1000);
      const forged = await new SignJWT({
        iss: ehr.iss,
        aud: audOf(ehr),
        iat: now,
        exp: now + 300,
        jti: randomUUID(),
      })
        .setProtectedHeader({ alg: "HS256", typ: "JWT", kid: ehr.kid })
        .sign(secret);
      expectRefused(await get(at(ehr), forged), "alg_not_allowed");
    }
  });

  it("ES256 or PS384 (asymmetric but not allowed): alg_not_allowed", async () => {
    const ehr = await registeredEhr();
    const { privateKey } = await generateKeyPair("ES256");
    const now = Math.floor(Date.now() / 1000);
    const jwt = await new SignJWT({
      iss: ehr.iss,
      aud: audOf(ehr),
      iat: now,
      exp: now + 300,
      jti: randomUUID(),
    })
      .setProtectedHeader({ alg: "ES256", typ: "JWT", kid: ehr.kid })
      .sign(privateKey);
    expectRefused(await get(at(ehr), jwt), "alg_not_allowed");
  });

  it("expired: expired; issued too long ago: too_old; issued in the future: issued_in_future", async () => {
    const ehr = await registeredEhr();
    const now = Math.floor(Date.now() / 1000);
    expectRefused(
      await get(at(ehr), await token(ehr, { claims: { iat: now - 200, exp: now - 90 } })),
      "expired",
    );
    expectRefused(
      await get(at(ehr), await token(ehr, { claims: { iat: now - 900, exp: now + 60 } })),
      "too_old",
    );
    expectRefused(
      await get(at(ehr), await token(ehr, { claims: { iat: now + 600, exp: now + 900 } })),
      "issued_in_future",
    );
    // Within the 60 s skew both ways: accepted.
    expect((await get(at(ehr), await token(ehr, { claims: { iat: now + 30, exp: now + 300 } }))).status).toBe(
      200,
    );
  });

  it("wrong aud (another endpoint, another host, a Host-header guess): wrong_audience", async () => {
    const ehr = await registeredEhr();
    for (const aud of [
      `${audOf(ehr)}/svc-a`,
      `${PUBLIC_BASE}/cds-services`,
      "https://evil.example/cds-services",
      `${server.url}${at(ehr)}`,
      [`${PUBLIC_BASE}/other`],
    ])
      expectRefused(await get(at(ehr), await token(ehr, { claims: { aud } })), "wrong_audience");
  });

  it("a replayed jti: replayed_jti (the first use passes)", async () => {
    const ehr = await registeredEhr();
    const jwt = await token(ehr);
    expect((await get(at(ehr), jwt)).status).toBe(200);
    expectRefused(await get(at(ehr), jwt), "replayed_jti");
    // The same jti in a new token is still a replay.
    const jti = randomUUID();
    expect((await get(at(ehr), await token(ehr, { claims: { jti } }))).status).toBe(200);
    expectRefused(await get(at(ehr), await token(ehr, { claims: { jti } })), "replayed_jti");
  });

  it("an unknown iss: unknown_issuer; a revoked client: revoked_client, on its very next call", async () => {
    const ehr = await registeredEhr();
    expectRefused(
      await get(at(ehr), await token({ ...ehr, iss: "https://stranger.example.org" })),
      "unknown_issuer",
    );
    expect((await get(at(ehr), await token(ehr))).status).toBe(200);
    await revokeCdsClient(db.handle.db, ehr.clientId);
    expectRefused(await get(at(ehr), await token(ehr)), "revoked_client");
  });

  it("missing claims or header fields: malformed; no Authorization: 401 unauthorized", async () => {
    const ehr = await registeredEhr();
    expectRefused(await get(at(ehr), await token(ehr, { claims: { jti: undefined } })), "malformed");
    expectRefused(await get(at(ehr), await token(ehr, { header: { typ: "at+jwt" } })), "malformed");
    expectRefused(await get(at(ehr), await token(ehr, { header: { kid: undefined } })), "malformed");
    expectRefused(await get(at(ehr), "not.a.jwt"), "malformed");
    const bare = await get(at(ehr));
    expect(bare.status).toBe(401);
    expect(bare.json.error.code).toBe("unauthorized");
  });

  it("keys from a registered jku (fetched from a test-mode EHR on loopback); a jku not registered: jku_not_allowed", async () => {
    const keys = await keyPair("ES384");
    const path = `/jwks-${randomUUID()}`;
    served.set(path, { keys: [keys.publicJwk] });
    const jku = `${jwksBase}${path}`;
    const ehr = await registeredEhr("ES384", { jkus: [jku] });
    const withKeys = { ...ehr, ...keys };
    expect((await get(at(withKeys), await token(withKeys, { header: { jku } }))).status).toBe(200);
    // Without a jku header the registered one is used.
    expect((await get(at(withKeys), await token(withKeys))).status).toBe(200);
    // An attacker's set at a URL the client never registered is never fetched.
    const evil = `${jwksBase}/evil`;
    served.set("/evil", { keys: [keys.publicJwk] });
    expectRefused(
      await get(at(withKeys), await token(withKeys, { header: { jku: evil } })),
      "jku_not_allowed",
    );
    expectRefused(
      await get(at(withKeys), await token(withKeys, { header: { jku: `${jku}?x=1` } })),
      "jku_not_allowed",
    );
  });

  it("a jku that fails: 10 concurrent and 10 sequential tokens naming its issuer cost one fetch (decision 148)", async () => {
    const keys = await keyPair("ES384");
    const path = `/failing-${randomUUID()}`;
    const ehr = { ...(await registeredEhr("ES384", { jkus: [`${jwksBase}${path}`] })), ...keys };
    const concurrent = await Promise.all(
      Array.from({ length: 10 }, async () =>
        get(at(ehr), await token(ehr, { header: { kid: randomUUID() } })),
      ),
    );
    for (const answer of concurrent) expectRefused(answer, "keys_unavailable");
    for (let i = 0; i < 10; i++) expectRefused(await get(at(ehr), await token(ehr)), "keys_unavailable");
    expect(fetched.get(path)).toBe(1);
  });

  it("a jku the service cannot reach under the client's address rules: keys_unavailable", async () => {
    const keys = await keyPair("ES384");
    const account = await seed.account();
    const iss = `https://ehr-${randomUUID()}.example.org`;
    // Registered as an operator-approved private address, then the operator's setting is off.
    const client = await registerCdsClient(db.handle.db, {
      accountId: account.id,
      iss,
      jkus: [`${jwksBase}/nowhere`],
      allowLoopback: true,
    });
    const ehr = { iss, alg: "ES384" as const, ...keys, clientId: client.id, accountId: account.id };
    deps.allowLoopbackWebhooks = false;
    try {
      expectRefused(await get(at(ehr), await token(ehr)), "keys_unavailable");
    } finally {
      deps.allowLoopbackWebhooks = true;
    }
  });

  it("a live-mode client of an account without a paid, approved plan: 402", async () => {
    const account = await seed.account();
    const keys = await keyPair("ES384");
    const iss = `https://ehr-${randomUUID()}.example.org`;
    const client = await registerCdsClient(db.handle.db, {
      accountId: account.id,
      iss,
      mode: "live",
      jwks: { keys: [keys.publicJwk] },
    });
    const answer = await get(
      at({ accountId: account.id }),
      await token({ iss, alg: "ES384", ...keys, clientId: client.id, accountId: account.id }),
    );
    expect(answer.status).toBe(402);
    expect(answer.json.error.code).toBe("payment_required");
  });

  it("calls draw on the account's rate limit, shared with its API keys (decision 123): 429 with Retry-After", async () => {
    const account = await seed.account({ plan: "enterprise", production: true, ratePerSecond: 1, burst: 2 });
    const keys = await keyPair("RS384");
    const iss = `https://ehr-${randomUUID()}.example.org`;
    const client = await registerCdsClient(db.handle.db, {
      accountId: account.id,
      iss,
      mode: "live",
      jwks: { keys: [keys.publicJwk] },
    });
    const ehr = { iss, alg: "RS384" as const, ...keys, clientId: client.id, accountId: account.id };
    const first = await get(at(ehr), await token(ehr));
    expect(first.status).toBe(200);
    expect(first.headers.get("x-ratelimit-limit")).toBe("2");
    // The account's bucket is the one its keys use: one request with a key empties it here.
    await deps.limiter.consume({ kind: "bucket", subject: `acct:${account.id}`, ratePerSecond: 1, burst: 2 });
    const limited = await get(at(ehr), await token(ehr));
    expect(limited.status).toBe(429);
    expect(limited.json.error.code).toBe("rate_limited");
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
  });

  it("a stored key that is not a valid public key: keys_unavailable (401, not a 500)", async () => {
    const ehr = await registeredEhr();
    // Registration refuses such a key; one already in the table (e.g. edited by hand) still gets a 401.
    const broken = { ...ehr.publicJwk, x: Buffer.alloc(48, 1).toString("base64url") };
    await db.handle.db
      .update(cdsClients)
      .set({ jwks: { keys: [broken as unknown as Record<string, string>] } })
      .where(eq(cdsClients.id, ehr.clientId));
    expectRefused(await get(at(ehr), await token(ehr)), "keys_unavailable");
  });

  it("never logs the token", async () => {
    const ehr = await registeredEhr();
    const jwt = await token(ehr, { claims: { aud: "https://wrong.example" } });
    await get(at(ehr), jwt);
    expect(logs.join("\n")).not.toContain(jwt.split(".")[2]);
    expect(logs.some((line) => line.includes('"reason":"wrong_audience"'))).toBe(true);
    // The request line names the route, never a path with ids.
    expect(
      logs.some(
        (line) =>
          line.includes('"route":"/cds-hooks/{accountId}/cds-services"') && line.includes('"status":401'),
      ),
    ).toBe(true);
  });
});

describe("CDS client registration (decision 121)", () => {
  it("refuses a JWK Set with private key material, a symmetric key, a wrong curve", async () => {
    const account = await seed.account();
    const { privateKey } = await generateKeyPair("ES384", { extractable: true });
    const privateJwk = { ...(await exportJWK(privateKey)), kid: "k1" };
    const cases: [unknown, RegExp][] = [
      [{ keys: [privateJwk] }, /private key material \(d\)/],
      [{ keys: [{ kty: "oct", k: "c2VjcmV0", kid: "k1" }] }, /symmetric/],
      [{ keys: [{ kty: "EC", crv: "P-256", x: privateJwk.x, y: privateJwk.y, kid: "k1" }] }, /P-384/],
      [{ keys: [] }, /no keys/],
      [{ nope: true }, /keys array/],
    ];
    for (const [jwks, message] of cases)
      await expect(
        registerCdsClient(db.handle.db, {
          accountId: account.id,
          iss: `https://e-${randomUUID()}.example`,
          jwks,
        }),
      ).rejects.toThrow(message);
    const rows = await db.handle.db.select().from(cdsClients).where(eq(cdsClients.accountId, account.id));
    expect(rows).toHaveLength(0);
  });

  it("refuses a key whose members are not a point on its curve", async () => {
    const account = await seed.account();
    const { publicJwk } = await keyPair("ES384");
    const broken = { ...publicJwk, x: Buffer.alloc(48, 1).toString("base64url") };
    await expect(
      registerCdsClient(db.handle.db, {
        accountId: account.id,
        iss: `https://e-${randomUUID()}.example`,
        jwks: { keys: [broken] },
      }),
    ).rejects.toThrow(/not a valid public key/);
  });

  it("refuses an http jku for a live client, a private jku without --allow-private, two clients for one iss, and past the plan's limit", async () => {
    const account = await seed.account();
    const keys = await keyPair("ES384");
    const jwks = { keys: [keys.publicJwk] };
    await expect(
      registerCdsClient(db.handle.db, {
        accountId: account.id,
        iss: "https://a.example",
        mode: "live",
        jkus: ["http://ehr.example/jwks"],
      }),
    ).rejects.toThrow(/https/);
    await expect(
      registerCdsClient(db.handle.db, {
        accountId: account.id,
        iss: "https://a.example",
        jkus: ["https://10.0.0.5/jwks"],
      }),
    ).rejects.toThrow(/not public/);
    const iss = `https://e-${randomUUID()}.example`;
    await registerCdsClient(db.handle.db, { accountId: account.id, iss, jwks });
    await expect(registerCdsClient(db.handle.db, { accountId: account.id, iss, jwks })).rejects.toThrow(
      /already has an active CDS client for the issuer/,
    );
    await registerCdsClient(db.handle.db, {
      accountId: account.id,
      iss: `https://e-${randomUUID()}.example`,
      jwks,
    });
    // Sandbox: two active clients.
    await expect(
      registerCdsClient(db.handle.db, {
        accountId: account.id,
        iss: `https://e-${randomUUID()}.example`,
        jwks,
      }),
    ).rejects.toThrow(/sandbox plan allows 2 active CDS clients/);
  });
});
