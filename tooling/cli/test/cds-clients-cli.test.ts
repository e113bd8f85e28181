import { generateKeyPairSync } from "node:crypto";
import { rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { cliJsonAnswer, cliJsonRefusal, runSvcCli } from "@svc/testkit";
import { useTestDatabase } from "@svc/testkit/vitest";
import { afterAll, describe, expect, it } from "vitest";

/** `pnpm svc cds-clients ...` with --json, as the operator CLI contract prints it (decision 121). */
const db = useTestDatabase();
const files: string[] = [];

afterAll(() => {
  for (const file of files) rmSync(file, { force: true });
});

function jsonFile(name: string, value: unknown): string {
  const file = path.join(tmpdir(), `svc-cds-${process.pid}-${name}.json`);
  writeFileSync(file, JSON.stringify(value));
  files.push(file);
  return file;
}

function svcCli(...args: string[]) {
  return runSvcCli(db.url, [...args, "--json"], {
    REDIS_URL: "redis://127.0.0.1:1",
    ALLOW_LOOPBACK_WEBHOOKS: "false",
  });
}

// biome-ignore lint/suspicious/noExplicitAny: the tests read the answers' fields as they need.
function ok(...args: string[]): any {
  return cliJsonAnswer(svcCli(...args));
}

function refused(...args: string[]): string {
  return cliJsonRefusal(svcCli(...args));
}

/** The arguments of `cds-clients add` for an account and issuer, then the key source and options. */
function addClient(accountId: string, iss: string, ...rest: string[]): string[] {
  return ["cds-clients", "add", "--account", accountId, "--iss", iss, ...rest];
}

const { publicKey, privateKey } = generateKeyPairSync("ec", { namedCurve: "P-384" });

describe("pnpm svc cds-clients", { timeout: 120_000 }, () => {
  it("adds with an inline JWKS or a jku, lists, and revokes, each printing one JSON object", async () => {
    const account = await db.seed.account();
    const jwks = jsonFile("public", {
      keys: [{ ...publicKey.export({ format: "jwk" }), kid: "k1", alg: "ES384" }],
    });
    const inline = ok(...addClient(account.id, "https://ehr-a.example.org", "--jwks", jwks));
    expect(inline).toMatchObject({
      id: expect.stringMatching(/^cdscl_/),
      accountId: account.id,
      iss: "https://ehr-a.example.org",
      mode: "test",
      jkus: [],
      keyIds: ["k1"],
      allowPrivate: false,
      revokedAt: null,
      cdsHooksBaseUrl: expect.stringMatching(new RegExp(`^https?://[^/]+/cds-hooks/${account.id}$`)),
    });
    // Another account registers the same EHR: its own client, nothing said of the first (decision 147).
    const other = await db.seed.account();
    const again = ok(...addClient(other.id, "https://ehr-a.example.org", "--jwks", jwks));
    expect(again).toMatchObject({ accountId: other.id, iss: "https://ehr-a.example.org" });
    expect(JSON.stringify(again)).not.toContain(inline.id);
    expect(JSON.stringify(again)).not.toContain(account.id);
    expect(refused(...addClient(other.id, "https://ehr-a.example.org", "--jwks", jwks))).not.toContain(
      inline.id,
    );
    const byJku = ok(
      ...addClient(
        account.id,
        "https://ehr-b.example.org",
        "--jku",
        "https://ehr-b.example.org/.well-known/jwks.json",
        "--mode",
        "live",
      ),
    );
    expect(byJku).toMatchObject({
      mode: "live",
      jkus: ["https://ehr-b.example.org/.well-known/jwks.json"],
      keyIds: [],
    });
    const listed = ok("cds-clients", "list", "--account", account.id);
    expect(listed.clients.map((c: { id: string }) => c.id).sort()).toEqual([inline.id, byJku.id].sort());
    const revoked = ok("cds-clients", "revoke", "--id", inline.id);
    expect(revoked).toEqual({ id: inline.id, revokedAt: expect.stringMatching(/^\d{4}-/) });
    // Revoking again answers the first revocation.
    expect(ok("cds-clients", "revoke", "--id", inline.id)).toEqual(revoked);
  });

  it("refuses a private key, a symmetric key, both or neither key source, a loopback jku here, an unknown account", async () => {
    const account = await db.seed.account();
    const leaked = jsonFile("private", { keys: [{ ...privateKey.export({ format: "jwk" }), kid: "k1" }] });
    expect(refused(...addClient(account.id, "https://e.example", "--jwks", leaked))).toMatch(
      /private key material/,
    );
    const oct = jsonFile("oct", { keys: [{ kty: "oct", k: "c2VjcmV0", kid: "k1" }] });
    expect(refused(...addClient(account.id, "https://e.example", "--jwks", oct))).toMatch(/symmetric/);
    // A file over a JWK Set's 64 kB is refused before it is read (decision 149).
    const huge = jsonFile("huge", { keys: [], pad: "x".repeat(70_000) });
    expect(refused(...addClient(account.id, "https://e.example", "--jwks", huge))).toMatch(
      /is over 65536 bytes/,
    );
    expect(refused(...addClient(account.id, "https://e.example"))).toMatch(/exactly one of --jku/);
    expect(
      refused(...addClient(account.id, "https://e.example", "--jku", "http://127.0.0.1:9/jwks")),
    ).toMatch(/loopback/);
    expect(
      refused(
        "cds-clients",
        "add",
        "--account",
        "acct_nope",
        "--iss",
        "https://e.example",
        "--jku",
        "https://e.example/j",
      ),
    ).toMatch(/No account/);
    expect(refused(...addClient(account.id, "not a url", "--jku", "https://e.example/j"))).toMatch(/--iss/);
    expect(refused("cds-clients", "revoke", "--id", "cdscl_nope")).toMatch(/No CDS client/);
  });
});
