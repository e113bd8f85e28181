import { dashboardAuditLog, dashboardInvites, eq } from "@svc/db";
import { createTestDatabase, runSvcCli, Seeder, type TestDatabase } from "@svc/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

let db: TestDatabase;
let seed: Seeder;
beforeAll(async () => {
  db = await createTestDatabase();
  seed = new Seeder(db.handle);
});
afterAll(async () => {
  await db.drop();
});

function svcCli(...args: string[]) {
  return runSvcCli(db.url, [...args, "--json"], {
    REDIS_URL: process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:1",
    PUBLIC_BASE_URL: "https://api.example.com",
  });
}

function refusal(...args: string[]): string {
  const out = svcCli(...args);
  expect(out.code).toBe(1);
  expect(out.stdout).toBe("");
  return (JSON.parse(out.stderr.trim()) as { error: string }).error;
}

describe("svc users invite", () => {
  it("prints one JSON object with a one-time link on the public base URL; stores only the token's hash", async () => {
    const account = await seed.account();
    const out = svcCli(
      "users",
      "invite",
      "--account",
      account.id,
      "--email",
      "Dev@Example.com",
      "--role",
      "developer",
    );
    expect(out.stderr).toBe("");
    expect(out.code).toBe(0);
    const invite = JSON.parse(out.stdout) as { inviteId: string; url: string; email: string; role: string };
    expect(invite).toMatchObject({ email: "dev@example.com", role: "developer", accountId: account.id });
    expect(invite.url).toMatch(/^https:\/\/api\.example\.com\/dashboard\/invite\/[A-Za-z0-9_-]{43}$/);
    const token = invite.url.split("/").at(-1) as string;
    const [row] = await db.handle.db
      .select()
      .from(dashboardInvites)
      .where(eq(dashboardInvites.id, invite.inviteId));
    expect(row?.tokenHash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(row)).not.toContain(token);
    const audit = await db.handle.db
      .select()
      .from(dashboardAuditLog)
      .where(eq(dashboardAuditLog.accountId, account.id));
    expect(audit.map((a) => a.action)).toEqual(["user.invited"]);
  });

  it("invites a user of an organization (--org); one of --account and --org, never both", async () => {
    const org = await seed.org();
    const out = svcCli(
      "users",
      "invite",
      "--org",
      org.org.id,
      "--email",
      "clinic@example.com",
      "--role",
      "owner",
    );
    expect(out.code).toBe(0);
    const invite = JSON.parse(out.stdout) as { orgId: string; accountId?: string; role: string };
    expect(invite).toMatchObject({ orgId: org.org.id, role: "owner" });
    expect(invite.accountId).toBeUndefined();
    const account = await seed.account();
    expect(
      refusal(
        "users",
        "invite",
        "--org",
        org.org.id,
        "--account",
        account.id,
        "--email",
        "x@example.com",
        "--role",
        "owner",
      ),
    ).toMatch(/one of them/);
    expect(refusal("users", "invite", "--email", "x@example.com", "--role", "owner")).toMatch(
      /--account ID or --org ID/,
    );
    expect(
      refusal("users", "invite", "--org", "org_nope", "--email", "x@example.com", "--role", "owner"),
    ).toMatch(/No organization org_nope/);
    const audit = await db.handle.db
      .select()
      .from(dashboardAuditLog)
      .where(eq(dashboardAuditLog.orgId, org.org.id));
    expect(audit.map((a) => a.action)).toEqual(["user.invited"]);
  });

  it("refuses an unknown role, account or malformed email, and a missing flag", async () => {
    const account = await seed.account();
    expect(
      refusal("users", "invite", "--account", account.id, "--email", "a@example.com", "--role", "admin"),
    ).toMatch(/Unknown role "admin"/);
    expect(
      refusal("users", "invite", "--account", "acct_nope", "--email", "a@example.com", "--role", "viewer"),
    ).toMatch(/No account/);
    expect(
      refusal("users", "invite", "--account", account.id, "--email", "not-an-email", "--role", "viewer"),
    ).toMatch(/Invalid invitation/);
    expect(refusal("users", "invite", "--account", account.id, "--role", "viewer")).toBe("Missing --email.");
  });
});
