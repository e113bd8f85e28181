import { randomUUID } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import fc from "fast-check";
import { exportJWK, generateKeyPair, type JWK, SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  CachedJwksFetcher,
  type CdsClientKeys,
  CdsJwtRefusal,
  checkPublicJwks,
  JWKS_CACHE_TTL_MS,
  JWKS_REFETCH_MIN_MS,
  memoryJtiStore,
  verifyCdsJwt,
} from "../src/index.js";

const AUD = "https://cds.example.test/cds-services";
let publicJwk: JWK;
let privateKey: Awaited<ReturnType<typeof generateKeyPair>>["privateKey"];
let server: Server;
let base: string;
let hits = 0;
let served: unknown;

beforeAll(async () => {
  const pair = await generateKeyPair("ES384", { extractable: true });
  privateKey = pair.privateKey;
  publicJwk = { ...(await exportJWK(pair.publicKey)), kid: "k1", alg: "ES384" };
  server = createServer((_req, res) => {
    hits++;
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify(served));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const client = (): CdsClientKeys => ({
  id: "cdscl_1",
  iss: "https://ehr.example.org",
  mode: "test",
  allowPrivate: false,
  jkus: [],
  jwks: { keys: [publicJwk] },
  revokedAt: null,
});

function b64url(value: unknown): string {
  return Buffer.from(typeof value === "string" ? value : JSON.stringify(value)).toString("base64url");
}

async function reasonOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return "accepted";
  } catch (error) {
    expect(error).toBeInstanceOf(CdsJwtRefusal);
    return (error as CdsJwtRefusal).reason;
  }
}

describe("verifyCdsJwt", () => {
  it("refuses every header alg but ES384 and RS384 before looking at a key or the issuer (property)", async () => {
    let lookups = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.constantFrom(
            "none",
            "None",
            "NONE",
            "HS256",
            "HS384",
            "HS512",
            "ES256",
            "ES512",
            "RS256",
            "PS384",
            "EdDSA",
            "es384",
            "rs384",
            "",
          ),
          fc.string(),
        ),
        fc.uint8Array({ maxLength: 96 }),
        async (alg, signature) => {
          fc.pre(alg !== "ES384" && alg !== "RS384");
          const now = Math.floor(Date.now() / 1000);
          const token = `${b64url({ alg, typ: "JWT", kid: "k1" })}.${b64url({
            iss: "https://ehr.example.org",
            aud: AUD,
            iat: now,
            exp: now + 60,
            jti: randomUUID(),
          })}.${Buffer.from(signature).toString("base64url")}`;
          const reason = await reasonOf(
            verifyCdsJwt(token, {
              expectedAudience: AUD,
              clients: async () => {
                lookups++;
                return client();
              },
              jtiStore: memoryJtiStore(),
              jwksSource: new CachedJwksFetcher(),
            }),
          );
          expect(reason).toBe("alg_not_allowed");
        },
      ),
      { numRuns: 200 },
    );
    expect(lookups).toBe(0);
  });

  it("accepts a good token and refuses its replay within one store", async () => {
    const store = memoryJtiStore();
    const now = Math.floor(Date.now() / 1000);
    const token = await new SignJWT({
      iss: client().iss,
      aud: AUD,
      iat: now,
      exp: now + 60,
      jti: "j-1",
      tenant: "t-1",
    })
      .setProtectedHeader({ alg: "ES384", typ: "JWT", kid: "k1" })
      .sign(privateKey);
    const options = {
      expectedAudience: AUD,
      clients: async () => client(),
      jtiStore: store,
      jwksSource: new CachedJwksFetcher(),
    };
    const verified = await verifyCdsJwt(token, options);
    expect(verified).toMatchObject({ kid: "k1", alg: "ES384", jti: "j-1", tenant: "t-1" });
    expect(await reasonOf(verifyCdsJwt(token, options))).toBe("replayed_jti");
  });
});

describe("verifyCdsJwt and failures that are not the token's", () => {
  it("a failing client lookup or replay store is rethrown as it is, never a refusal", async () => {
    const now = Math.floor(Date.now() / 1000);
    const token = await new SignJWT({
      iss: client().iss,
      aud: AUD,
      iat: now,
      exp: now + 60,
      jti: randomUUID(),
    })
      .setProtectedHeader({ alg: "ES384", typ: "JWT", kid: "k1" })
      .sign(privateKey);
    const outage = new Error("database down");
    const base = { expectedAudience: AUD, jwksSource: new CachedJwksFetcher() };
    await expect(
      verifyCdsJwt(token, { ...base, clients: () => Promise.reject(outage), jtiStore: memoryJtiStore() }),
    ).rejects.toBe(outage);
    await expect(
      verifyCdsJwt(token, {
        ...base,
        clients: async () => client(),
        jtiStore: { remember: () => Promise.reject(outage) },
      }),
    ).rejects.toBe(outage);
  });
});

describe("memoryJtiStore", () => {
  it("forgets a jti once its token could no longer be accepted", async () => {
    const store = memoryJtiStore();
    const now = new Date();
    const until = new Date(now.getTime() + 1_000);
    expect(await store.remember("c", "j", until, now)).toBe(true);
    expect(await store.remember("c", "j", until, now)).toBe(false);
    expect(await store.remember("other", "j", until, now)).toBe(true);
    expect(await store.remember("c", "j", until, new Date(until.getTime() + 1))).toBe(true);
  });
});

describe("checkPublicJwks (decision 121)", () => {
  const privateMembers = fc.subarray(["d", "p", "q", "dp", "dq", "qi", "oth", "k"], { minLength: 1 });

  it("refuses any key carrying a private member, whatever else it holds (property)", () => {
    fc.assert(
      fc.property(privateMembers, fc.dictionary(fc.string(), fc.string()), (members, extra) => {
        const key: Record<string, unknown> = { ...extra, ...publicJwk };
        for (const member of members) key[member] = "AAAA";
        const checked = checkPublicJwks({ keys: [publicJwk, key].map((k, i) => ({ ...k, kid: `k${i}` })) });
        expect(checked.ok).toBe(false);
      }),
    );
  });

  it("keeps only the public members of an accepted key (property)", () => {
    const allowed = new Set(["kty", "crv", "x", "y", "n", "e", "kid", "alg", "use"]);
    fc.assert(
      fc.property(
        fc.dictionary(
          fc.string().filter((k) => !["d", "p", "q", "dp", "dq", "qi", "oth", "k", "__proto__"].includes(k)),
          fc.string(),
        ),
        (extra) => {
          const checked = checkPublicJwks({ keys: [{ ...extra, ...publicJwk }] });
          expect(checked.ok).toBe(true);
          if (checked.ok)
            for (const name of Object.keys(checked.jwks.keys[0] ?? {})) expect(allowed.has(name)).toBe(true);
        },
      ),
    );
  });

  it("refuses symmetric keys, other key types and curves, duplicate kids", () => {
    expect(checkPublicJwks({ keys: [{ kty: "oct", kid: "s" }] })).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/symmetric/),
    });
    expect(checkPublicJwks({ keys: [{ kty: "OKP", crv: "Ed25519", x: "AA", kid: "o" }] })).toMatchObject({
      ok: false,
    });
    expect(checkPublicJwks({ keys: [{ ...publicJwk, crv: "P-256" }] })).toMatchObject({ ok: false });
    expect(checkPublicJwks({ keys: [{ ...publicJwk, alg: "HS256" }] })).toMatchObject({ ok: false });
    expect(checkPublicJwks({ keys: [publicJwk, publicJwk] })).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/twice/),
    });
  });
});

describe("CachedJwksFetcher", () => {
  it("reuses a fetched set for 5 minutes; a missing kid refetches at most every 30 s", async () => {
    let now = 1_000_000;
    const fetcher = new CachedJwksFetcher({}, () => now);
    const policy = { mode: "test" as const, allowPrivate: false, allowLoopback: true };
    served = { keys: [publicJwk] };
    hits = 0;
    const url = `${base}/jwks`;
    expect((await fetcher.get(url, policy))?.keys[0]?.kid).toBe("k1");
    expect(await fetcher.get(url, policy)).not.toBeNull();
    expect(hits).toBe(1);
    // A fresh fetch asked for too soon is answered from the cache.
    await fetcher.get(url, policy, { fresh: true });
    expect(hits).toBe(1);
    now += JWKS_REFETCH_MIN_MS;
    await fetcher.get(url, policy, { fresh: true });
    expect(hits).toBe(2);
    now += JWKS_CACHE_TTL_MS;
    await fetcher.get(url, policy);
    expect(hits).toBe(3);
    // Another policy is another entry (and here is refused without a fetch).
    expect(await fetcher.get(url, { ...policy, allowLoopback: false })).toBeNull();
    expect(hits).toBe(3);
    // A set with a private key is never used.
    served = { keys: [{ ...publicJwk, d: "AAAA" }] };
    expect(await new CachedJwksFetcher().get(url, policy)).toBeNull();
  });
});
