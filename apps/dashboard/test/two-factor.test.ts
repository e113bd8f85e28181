import { createHmac } from "node:crypto";
import { dashboardAuditLog, dashboardTwoFactors, dashboardUsedTotpCodes, eq } from "@svc/db";
import { createInvite } from "@svc/records";
import { useTestService } from "@svc/testkit/vitest";
import { beforeAll, describe, expect, it } from "vitest";
import { DashboardClient, PASSWORD } from "./session-client.js";

/**
 * The TOTP second factor over real HTTP: codes are computed here by RFC 6238 from the key the
 * setup page shows, as any authenticator app would, not by the library under test.
 */
const service = useTestService();
let accountId: string;

beforeAll(async () => {
  accountId = (await service.seed.account({ name: "Two-factor clinic" })).id;
});

function base32Decode(text: string): Buffer {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
  let bits = "";
  for (const char of text.replace(/=+$/, "").toUpperCase())
    bits += alphabet.indexOf(char).toString(2).padStart(5, "0");
  const bytes: number[] = [];
  for (let i = 0; i + 8 <= bits.length; i += 8) bytes.push(Number.parseInt(bits.slice(i, i + 8), 2));
  return Buffer.from(bytes);
}

/** RFC 6238 TOTP: HMAC-SHA1 over the 30 s step counter, dynamic truncation, 6 digits. */
function totp(base32Key: string, at = Date.now(), stepOffset = 0): string {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(at / 30_000) + stepOffset));
  const mac = createHmac("sha1", base32Decode(base32Key)).update(counter).digest();
  const offset = (mac[mac.length - 1] as number) & 0xf;
  const value = mac.readUInt32BE(offset) & 0x7fffffff;
  return String(value % 1_000_000).padStart(6, "0");
}

async function signedIn(email: string, role: "owner" | "viewer") {
  const invite = await createInvite(
    service.db.handle.db,
    { workspace: { accountId }, email, role },
    service.url,
  );
  const client = new DashboardClient(service.url);
  expect((await client.acceptInvite(invite.url, PASSWORD)).status).toBe(303);
  return client;
}

/** Turn the second factor on for a signed-in client; returns the key and the backup codes. */
async function turnOn(client: DashboardClient) {
  const csrf = await client.csrf();
  expect(
    (await client.post("/dashboard/security/enable", { password: "wrong password!!", _csrf: csrf })).status,
  ).toBe(400);
  const setup = await client.post("/dashboard/security/enable", { password: PASSWORD, _csrf: csrf });
  expect(setup.status).toBe(200);
  const key = /data-testid="totp-secret">([A-Z2-7]+)</.exec(setup.text)?.[1] as string;
  expect(key).toMatch(/^[A-Z2-7]{16,}$/);
  expect(setup.text).toContain("otpauth://totp/");
  const backupCodes = [
    ...(/data-testid="backup-codes">([\s\S]*?)<\/ul>/.exec(setup.text)?.[1] ?? "").matchAll(
      /<code>([^<]+)<\/code>/g,
    ),
  ].map((m) => m[1] as string);
  expect(backupCodes.length).toBeGreaterThanOrEqual(5);
  // Not on until a code confirms the app: a wrong code leaves it off.
  const wrong = totp(key, Date.now(), 1000);
  expect((await client.post("/dashboard/security/confirm", { code: wrong, _csrf: csrf })).status).toBe(400);
  expect((await client.get("/dashboard/security")).text).toMatch(/two-factor-status">[\s\S]*<strong>off</);
  const confirmCode = totp(key);
  const confirmed = await client.post("/dashboard/security/confirm", { code: confirmCode, _csrf: csrf });
  expect(confirmed.status).toBe(303);
  expect((await client.get("/dashboard/security")).text).toMatch(/two-factor-status">[\s\S]*<strong>on</);
  return { key, backupCodes, confirmCode };
}

async function passwordStep(email: string) {
  const client = new DashboardClient(service.url);
  const step = await client.post("/dashboard/sign-in", { email, password: PASSWORD });
  return { client, step };
}

describe("two-factor sign-in (TOTP)", () => {
  it("is turned on with the password and a code; then sign-in needs a code or a one-time backup code", async () => {
    const owner = await signedIn("totp-owner@example.com", "owner");
    expect((await owner.get("/dashboard/security")).text).toMatch(/two-factor-status">[\s\S]*<strong>off</);
    const { key, backupCodes } = await turnOn(owner);
    const [secretRow] = await service.db.handle.db.select().from(dashboardTwoFactors);
    expect(secretRow?.secret).not.toContain(key);

    // The password alone gives no session, only the code step.
    const { client, step } = await passwordStep("totp-owner@example.com");
    expect(step.status).toBe(303);
    expect(step.location).toBe("/dashboard/sign-in/code");
    expect((await client.get("/dashboard/keys")).status).toBe(303);
    expect((await client.post("/dashboard/sign-in/code", { code: totp(key, Date.now(), 1000) })).status).toBe(
      401,
    );
    // The confirming code was used; the next step's code (already accepted) signs in.
    const verified = await client.post("/dashboard/sign-in/code", { code: totp(key, Date.now(), 1) });
    expect(verified.status).toBe(303);
    expect(verified.location).toBe("/dashboard/keys");
    expect((await client.get("/dashboard/keys")).status).toBe(200);

    // A backup code works once.
    const first = await passwordStep("totp-owner@example.com");
    expect(
      (await first.client.post("/dashboard/sign-in/code", { code: backupCodes[0] as string })).status,
    ).toBe(303);
    expect((await first.client.get("/dashboard/keys")).status).toBe(200);
    const again = await passwordStep("totp-owner@example.com");
    expect(
      (await again.client.post("/dashboard/sign-in/code", { code: backupCodes[0] as string })).status,
    ).toBe(401);
    // A code with no password step before it is refused.
    const cold = new DashboardClient(service.url);
    expect((await cold.post("/dashboard/sign-in/code", { code: totp(key) })).status).toBe(401);

    // Turning it off needs the password; then the password alone signs in again.
    const csrf = await client.csrf();
    expect(
      (await client.post("/dashboard/security/disable", { password: "not my password", _csrf: csrf })).status,
    ).toBe(400);
    expect(
      (await client.post("/dashboard/security/disable", { password: PASSWORD, _csrf: csrf })).status,
    ).toBe(303);
    const plain = await passwordStep("totp-owner@example.com");
    expect(plain.step.location).toBe("/dashboard/keys");
    const actions = (
      await service.db.handle.db
        .select()
        .from(dashboardAuditLog)
        .where(eq(dashboardAuditLog.accountId, accountId))
    ).map((row) => row.action);
    expect(actions).toEqual(expect.arrayContaining(["user.two_factor_enabled", "user.two_factor_disabled"]));
  });

  it("is each user's own: a viewer may turn it on; the code step needs our Origin", async () => {
    const viewer = await signedIn("totp-viewer@example.com", "viewer");
    const { key } = await turnOn(viewer);
    const { client } = await passwordStep("totp-viewer@example.com");
    const foreign = new DashboardClient(service.url, "https://evil.example");
    for (const [name, value] of client.cookies) foreign.cookies.set(name, value);
    expect((await foreign.post("/dashboard/sign-in/code", { code: totp(key) })).status).toBe(403);
    expect((await client.post("/dashboard/sign-in/code", { code: totp(key, Date.now(), 1) })).status).toBe(
      303,
    );
    // Still a viewer: workspace changes stay refused.
    const csrf = await client.csrf();
    expect(
      (await client.post("/dashboard/keys", { kind: "secret_test", origins: "", _csrf: csrf })).status,
    ).toBe(403);
  });

  it("accepts a code once: the same code is refused afterwards, the confirming one too", async () => {
    const owner = await signedIn("totp-replay@example.com", "owner");
    const { key, confirmCode } = await turnOn(owner);
    // The code that confirmed the app is spent: it cannot sign in (it still verifies for 30 s+).
    const afterConfirm = await passwordStep("totp-replay@example.com");
    expect((await afterConfirm.client.post("/dashboard/sign-in/code", { code: confirmCode })).status).toBe(
      401,
    );
    // The next step's code: accepted now and for the next minute, never the confirming code.
    const code = totp(key, Date.now(), 1);
    const first = await passwordStep("totp-replay@example.com");
    expect((await first.client.post("/dashboard/sign-in/code", { code })).status).toBe(303);
    expect((await first.client.get("/dashboard/keys")).status).toBe(200);
    const replay = await passwordStep("totp-replay@example.com");
    expect(replay.step.location).toBe("/dashboard/sign-in/code");
    const refused = await replay.client.post("/dashboard/sign-in/code", { code });
    expect(refused.status).toBe(401);
    expect(replay.client.cookies.has("svc_dashboard.session_token")).toBe(false);
    expect((await replay.client.get("/dashboard/keys")).status).toBe(303);
    // The first session is untouched.
    expect((await first.client.get("/dashboard/keys")).status).toBe(200);
    const rows = await service.db.handle.db.select().from(dashboardUsedTotpCodes);
    expect(rows.every((row) => row.expiresAt.getTime() <= Date.now() + 90_000)).toBe(true);
  });

  it("admits at most one of concurrent sign-ins with one code", async () => {
    const owner = await signedIn("totp-race@example.com", "owner");
    const { key } = await turnOn(owner);
    const code = totp(key, Date.now(), 1);
    const steps = await Promise.all(Array.from({ length: 5 }, () => passwordStep("totp-race@example.com")));
    const answers = await Promise.all(
      steps.map(({ client }) => client.post("/dashboard/sign-in/code", { code })),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([303, 401, 401, 401, 401]);
    const pages = await Promise.all(steps.map(({ client }) => client.get("/dashboard/keys")));
    expect(pages.filter((page) => page.status === 200)).toHaveLength(1);
  });
});
