import type { ErrorEnvelope } from "@svc/http";
import type { PingResponse } from "@svc/intelligence-api";
import { call, runSvcCli } from "@svc/testkit";
import { useTestService } from "@svc/testkit/vitest";
import { describe, expect, it } from "vitest";

const svc = useTestService();

function svcCli(...args: string[]) {
  return runSvcCli(svc.db.url, args);
}

function json(out: string) {
  const lines = out.trim().split("\n");
  expect(lines).toHaveLength(1);
  return JSON.parse(lines[0] as string);
}

describe("pnpm svc (operator CLI contract)", () => {
  it("creates accounts, keys and organizations, printing one JSON object each", async () => {
    const account = json(
      svcCli("accounts", "create", "--name", "Acme Clinic", "--plan", "launch", "--json").stdout,
    );
    expect(account).toEqual({
      id: expect.stringMatching(/^acct_/),
      name: "Acme Clinic",
      plan: "launch",
      production: false,
    });

    const secret = json(
      svcCli("keys", "create", "--account", account.id, "--kind", "secret_test", "--json").stdout,
    );
    expect(secret).toEqual({
      id: expect.stringMatching(/^key_/),
      key: expect.stringMatching(/^svc_sk_test_[0-9A-Za-z]{38}$/),
      kind: "secret_test",
      prefix: secret.key.slice(0, 16),
      accountId: account.id,
    });
    const ping = await call<PingResponse>(svc.url, "/v1/ping", { key: secret.key });
    expect(ping.json.data).toMatchObject({ plan: "launch", accountId: account.id });

    const pk = json(
      svcCli(
        "keys",
        "create",
        "--account",
        account.id,
        "--kind",
        "publishable",
        "--origins",
        "https://app.example.com,http://localhost:*",
        "--json",
      ).stdout,
    );
    expect(pk).toMatchObject({
      kind: "publishable",
      origins: ["https://app.example.com", "http://localhost:*"],
    });
    expect(pk.key).toMatch(/^svc_pk_/);

    const org = json(svcCli("orgs", "create", "--name", "North Clinic", "--json").stdout);
    expect(org).toEqual({ id: expect.stringMatching(/^org_/), name: "North Clinic" });
    const orgKey = json(
      svcCli(
        "keys",
        "create",
        "--org",
        org.id,
        "--kind",
        "organization",
        "--scopes",
        "mse:read,mse:write",
        "--json",
      ).stdout,
    );
    expect(orgKey).toMatchObject({ kind: "organization", orgId: org.id, scopes: ["mse:read", "mse:write"] });
    expect(orgKey.key).toMatch(/^mse_live_/);

    const revoked = json(svcCli("keys", "revoke", "--id", secret.id, "--json").stdout);
    expect(revoked).toEqual({ id: secret.id, revokedAt: expect.any(String) });
    expect((await call<ErrorEnvelope>(svc.url, "/v1/ping", { key: secret.key })).json.error.code).toBe(
      "invalid_token",
    );
  });

  it("creates a production enterprise account with its own limits", () => {
    const account = json(
      svcCli(
        "accounts",
        "create",
        "--name",
        "Big",
        "--plan",
        "enterprise",
        "--production",
        "--rate",
        "300",
        "--burst",
        "600",
        "--json",
      ).stdout,
    );
    expect(account).toMatchObject({ plan: "enterprise", production: true });
  });

  it.each([
    ["unknown account", ["keys", "create", "--account", "acct_nope", "--kind", "secret_test"], /No account/],
    ["bad kind", ["keys", "create", "--account", "acct_nope", "--kind", "secret_prod"], /Unknown key kind/],
    [
      "bad scope",
      ["keys", "create", "--org", "org_x", "--kind", "organization", "--scopes", "mse:delete"],
      /Unknown scope/,
    ],
    ["unknown plan", ["accounts", "create", "--name", "X", "--plan", "gold"], /Unknown plan/],
    ["missing name", ["accounts", "create"], /Missing --name/],
    ["unknown key id", ["keys", "revoke", "--id", "key_nope"], /No key/],
    ["unknown command", ["accounts", "delete"], /Unknown command/],
  ])("refuses %s with exit 1 and one JSON { error } on stderr", (_name, args, message) => {
    const result = svcCli(...args, "--json");
    expect(result.code).toBe(1);
    expect(result.stdout).toBe("");
    const error = json(result.stderr);
    expect(Object.keys(error)).toEqual(["error"]);
    expect(error.error).toMatch(message);
  });
});
