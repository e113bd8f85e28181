import { randomUUID } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { exportJWK, generateKeyPair, type JWK, SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  CachedJwksFetcher,
  type CdsClientKeys,
  CdsJwtRefusal,
  type EhrAddressPolicy,
  JWKS_FAILURE_TTL_MS,
  memoryJtiStore,
  verifyCdsJwt,
} from "../src/index.js";

/**
 * A key-set URL that fails is not fetched again for every token naming its issuer, and one fetch
 * at a time runs per URL (decision 148). A scripted EHR on loopback counts the fetches of each
 * path; it answers after a short pause, so concurrent callers overlap one fetch.
 */

let server: Server;
let base: string;
let publicJwk: JWK;
let privateKey: Awaited<ReturnType<typeof generateKeyPair>>["privateKey"];
const fetches = new Map<string, number>();
/** What each path answers: a JWK Set, or an error status. */
const answers = new Map<string, { status: number; body: unknown }>();

beforeAll(async () => {
  const pair = await generateKeyPair("ES384", { extractable: true });
  privateKey = pair.privateKey;
  publicJwk = { ...(await exportJWK(pair.publicKey)), kid: "k1", alg: "ES384" };
  server = createServer((req, res) => {
    const path = req.url ?? "";
    fetches.set(path, (fetches.get(path) ?? 0) + 1);
    const answer = answers.get(path) ?? { status: 500, body: { error: "down" } };
    setTimeout(() => {
      res.writeHead(answer.status, { "content-type": "application/json" });
      res.end(JSON.stringify(answer.body));
    }, 50);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const policy: EhrAddressPolicy = { mode: "test", allowPrivate: false, allowLoopback: true };

/** A new path on the scripted EHR, answering `status` (500 by default). */
function newPath(status = 500): string {
  const path = `/jwks-${randomUUID()}`;
  answers.set(path, { status, body: status === 200 ? { keys: [publicJwk] } : { error: "down" } });
  return path;
}

describe("CachedJwksFetcher: failures remembered, one fetch in flight (decision 148)", () => {
  it("10 concurrent then 10 sequential gets of a failing URL fetch it once", async () => {
    const path = newPath(500);
    const source = new CachedJwksFetcher();
    const concurrent = await Promise.all(
      Array.from({ length: 10 }, () => source.get(`${base}${path}`, policy)),
    );
    expect(concurrent).toEqual(Array(10).fill(null));
    for (let i = 0; i < 10; i++) expect(await source.get(`${base}${path}`, policy)).toBeNull();
    expect(fetches.get(path)).toBe(1);
  });

  it("10 concurrent gets of a working URL fetch it once", async () => {
    const path = newPath(200);
    const source = new CachedJwksFetcher();
    const sets = await Promise.all(Array.from({ length: 10 }, () => source.get(`${base}${path}`, policy)));
    for (const set of sets) expect(set?.keys[0]?.kid).toBe("k1");
    expect(fetches.get(path)).toBe(1);
  });

  it("a URL that recovers is fetched again once the failure's time is over, not before", async () => {
    const path = newPath(500);
    let now = 1_000_000;
    const source = new CachedJwksFetcher({}, () => now);
    expect(await source.get(`${base}${path}`, policy)).toBeNull();
    answers.set(path, { status: 200, body: { keys: [publicJwk] } });
    now += JWKS_FAILURE_TTL_MS - 1;
    expect(await source.get(`${base}${path}`, policy)).toBeNull();
    expect(fetches.get(path)).toBe(1);
    now += 1;
    expect((await source.get(`${base}${path}`, policy))?.keys[0]?.kid).toBe("k1");
    expect(fetches.get(path)).toBe(2);
  });

  it("a set that stops answering is kept while it is within its time; the failure is not retried meanwhile", async () => {
    const path = newPath(200);
    let now = 1_000_000;
    const source = new CachedJwksFetcher({}, () => now);
    expect(await source.get(`${base}${path}`, policy)).not.toBeNull();
    answers.set(path, { status: 503, body: {} });
    // A token with a kid the set lacks asks for a fresh set (at most every 30 s): it fails, the set stays.
    now += 30_000;
    expect((await source.get(`${base}${path}`, policy, { fresh: true }))?.keys[0]?.kid).toBe("k1");
    for (let i = 0; i < 5; i++)
      expect((await source.get(`${base}${path}`, policy, { fresh: true }))?.keys[0]?.kid).toBe("k1");
    expect(fetches.get(path)).toBe(2);
  });

  it("10 concurrent and 10 sequential tokens (not valid ones) naming an issuer whose jku fails: 1 fetch", async () => {
    const path = newPath(500);
    const client: CdsClientKeys = {
      id: "cdscl_1",
      iss: "https://ehr.example.org",
      mode: "test",
      allowPrivate: false,
      jkus: [`${base}${path}`],
      jwks: null,
      revokedAt: null,
    };
    const options = {
      expectedAudience: "https://cds.example.test/cds-hooks/acct_1/cds-services",
      clients: async () => client,
      jtiStore: memoryJtiStore(),
      jwksSource: new CachedJwksFetcher(),
      allowLoopback: true,
    };
    const token = () =>
      new SignJWT({ iss: client.iss, aud: "https://elsewhere.example", jti: randomUUID() })
        .setProtectedHeader({ alg: "ES384", typ: "JWT", kid: randomUUID() })
        .setIssuedAt()
        .setExpirationTime("2m")
        .sign(privateKey);
    const reasons = await Promise.all(
      Array.from({ length: 10 }, async () =>
        verifyCdsJwt(await token(), options).then(
          () => "accepted",
          (error: unknown) => (error instanceof CdsJwtRefusal ? error.reason : String(error)),
        ),
      ),
    );
    expect(reasons).toEqual(Array(10).fill("keys_unavailable"));
    for (let i = 0; i < 10; i++)
      await expect(verifyCdsJwt(await token(), options)).rejects.toMatchObject({
        reason: "keys_unavailable",
      });
    expect(fetches.get(path)).toBe(1);
  });
});
