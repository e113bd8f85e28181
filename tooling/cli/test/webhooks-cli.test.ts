import { eq, recordEvent, webhookDeliveries } from "@svc/db";
import { cliJsonAnswer, cliJsonRefusal, runSvcCli } from "@svc/testkit";
import { useTestDatabase } from "@svc/testkit/vitest";
import { describe, expect, it } from "vitest";

const db = useTestDatabase();

// A developer's setup: loopback webhooks allowed (with DATABASE_URL they are off unless set).
let loopbackSetting: "true" | "false" | undefined = "true";

function svcCli(...args: string[]) {
  return runSvcCli(db.url, [...args, "--json"], {
    REDIS_URL: process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:1",
    ...(loopbackSetting ? { ALLOW_LOOPBACK_WEBHOOKS: loopbackSetting } : {}),
  });
}

// biome-ignore lint/suspicious/noExplicitAny: the tests read the answers' fields as they need.
function ok(...args: string[]): any {
  return cliJsonAnswer(svcCli(...args));
}

function refused(...args: string[]): string {
  return cliJsonRefusal(svcCli(...args));
}

/** The arguments of `webhooks add` for an account and URL, then the options. */
function webhooksAdd(accountId: string, url: string, ...rest: string[]): string[] {
  return ["webhooks", "add", "--account", accountId, "--url", url, ...rest];
}

describe("pnpm svc webhooks", { timeout: 90_000 }, () => {
  it("adds a test-mode endpoint on 127.0.0.1, printing { id, url, secret } once; list never shows it", async () => {
    const account = await db.seed.account();
    const added = ok(...webhooksAdd(account.id, "http://127.0.0.1:9/hook"));
    expect(added).toEqual({
      id: expect.stringMatching(/^we_/),
      url: "http://127.0.0.1:9/hook",
      secret: expect.stringMatching(/^whsec_[0-9A-Za-z]{32,}$/),
    });
    const listed = ok("webhooks", "list", "--account", account.id);
    expect(listed.endpoints).toHaveLength(1);
    expect(listed.endpoints[0]).toMatchObject({ id: added.id, mode: "test", allowPrivate: false });
    expect(JSON.stringify(listed)).not.toContain(added.secret);
  });

  it("with DATABASE_URL, a test-mode loopback endpoint is refused unless ALLOW_LOOPBACK_WEBHOOKS=true; --allow-private is unchanged", async () => {
    const account = await db.seed.account();
    try {
      for (const setting of [undefined, "false"] as const) {
        loopbackSetting = setting;
        const reason = refused(...webhooksAdd(account.id, "http://127.0.0.1:9/hook"));
        expect(reason).toMatch(/is loopback/);
        expect(reason).toMatch(/ALLOW_LOOPBACK_WEBHOOKS/);
        expect(refused(...webhooksAdd(account.id, "http://localhost:9/hook"))).toMatch(/is loopback/);
      }
      expect(ok(...webhooksAdd(account.id, "http://127.0.0.1:9/op", "--allow-private"))).toMatchObject({
        url: "http://127.0.0.1:9/op",
      });
    } finally {
      loopbackSetting = "true";
    }
    expect(ok("webhooks", "list", "--account", account.id).endpoints).toEqual([
      expect.objectContaining({ url: "http://127.0.0.1:9/op", allowPrivate: true }),
    ]);
  });

  it("refuses an unknown account or organization, a bad URL and a missing owner", async () => {
    expect(refused("webhooks", "add", "--account", "acct_nope", "--url", "https://example.com/h")).toMatch(
      /No account/,
    );
    expect(refused("webhooks", "add", "--org", "org_nope", "--url", "https://example.com/h")).toMatch(
      /No organization/,
    );
    const account = await db.seed.account();
    expect(refused(...webhooksAdd(account.id, "not a url"))).toMatch(/not valid/);
    expect(refused(...webhooksAdd(account.id, "ftp://example.com/h"))).toMatch(/https/);
    expect(refused(...webhooksAdd(account.id, "https://user:pw@example.com/h"))).toMatch(/credentials/);
    expect(refused("webhooks", "add", "--url", "https://example.com/h")).toMatch(/exactly one/);
    expect(refused(...webhooksAdd(account.id, "https://example.com", "--mode", "prod"))).toMatch(/--mode/);
  });

  it("live endpoints: https only, and no private or loopback address without --allow-private", async () => {
    const account = await db.seed.account();
    expect(refused(...webhooksAdd(account.id, "http://127.0.0.1:9/h", "--mode", "live"))).toMatch(/https/);
    expect(refused(...webhooksAdd(account.id, "https://127.0.0.1:9/h", "--mode", "live"))).toMatch(
      /not public/,
    );
    expect(refused(...webhooksAdd(account.id, "https://10.0.0.7/h", "--mode", "live"))).toMatch(/not public/);
    expect(refused(...webhooksAdd(account.id, "https://169.254.169.254/", "--mode", "live"))).toMatch(
      /metadata/,
    );
    expect(refused(...webhooksAdd(account.id, "https://localhost/h", "--mode", "live"))).toMatch(
      /localhost|not public/,
    );
    // Test mode allows loopback, not other private ranges.
    expect(refused(...webhooksAdd(account.id, "http://10.0.0.7/h"))).toMatch(/not public/);
    // The operator's --allow-private opens them, metadata excepted.
    const allowed = ok(
      ...webhooksAdd(account.id, "https://127.0.0.1:9/h", "--mode", "live", "--allow-private"),
    );
    expect(allowed.id).toMatch(/^we_/);
    expect(
      refused(...webhooksAdd(account.id, "https://169.254.169.254/", "--mode", "live", "--allow-private")),
    ).toMatch(/metadata/);
    const listed = ok("webhooks", "list", "--account", account.id);
    expect(listed.endpoints).toEqual([expect.objectContaining({ mode: "live", allowPrivate: true })]);
  });

  it("adds an organization endpoint for safety events: always live, under the live URL rules", async () => {
    const { org } = await db.seed.org();
    expect(refused("webhooks", "add", "--org", org.id, "--url", "http://localhost:9/safety")).toMatch(
      /https/,
    );
    expect(
      refused("webhooks", "add", "--org", org.id, "--url", "https://localhost:9/safety", "--mode", "test"),
    ).toMatch(/must be live/);
    const added = ok(
      "webhooks",
      "add",
      "--org",
      org.id,
      "--url",
      "https://127.0.0.1:9/safety",
      "--allow-private",
    );
    expect(added.id).toMatch(/^we_/);
    expect(ok("webhooks", "list", "--org", org.id).endpoints).toEqual([
      expect.objectContaining({ mode: "live", allowPrivate: true }),
    ]);
  });

  it("lists deliveries, redelivers one, and removing the endpoint cancels its pending deliveries", async () => {
    const account = await db.seed.account();
    const endpoint = ok(...webhooksAdd(account.id, "http://127.0.0.1:9/h"));
    const recorded = await db.handle.db.transaction((tx) =>
      recordEvent(tx, {
        accountId: account.id,
        mode: "test",
        type: "wearable.connected",
        data: { id: "wear_1" },
      }),
    );
    const deliveryId = recorded.deliveryIds[0] as string;
    const byEndpoint = ok("webhooks", "deliveries", "--endpoint", endpoint.id, "--limit", "10");
    expect(byEndpoint.deliveries).toEqual([
      expect.objectContaining({ id: deliveryId, eventId: recorded.event.id, status: "pending", attempts: 0 }),
    ]);
    const byEvent = ok("webhooks", "deliveries", "--event", recorded.event.id);
    expect(byEvent.deliveries.map((d: { id: string }) => d.id)).toEqual([deliveryId]);
    expect(refused("webhooks", "deliveries", "--endpoint", endpoint.id, "--limit", "0")).toMatch(/limit/);

    // A failed delivery is sent again: pending, due now, attempts kept.
    await db.handle.db
      .update(webhookDeliveries)
      .set({ status: "failed", attempts: 12, firstAttemptAt: new Date(Date.now() - 86_400_000) })
      .where(eq(webhookDeliveries.id, deliveryId));
    const again = ok("webhooks", "redeliver", "--id", deliveryId);
    expect(again).toMatchObject({ id: deliveryId, status: "pending", attempts: 12 });
    expect(typeof again.enqueued).toBe("boolean");
    const [row] = await db.handle.db
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.id, deliveryId));
    expect(row).toMatchObject({ status: "pending", firstAttemptAt: null });

    const removed = ok("webhooks", "remove", "--id", endpoint.id);
    expect(removed).toMatchObject({ id: endpoint.id, cancelledDeliveries: 1 });
    expect(ok("webhooks", "list", "--account", account.id).endpoints).toEqual([]);
    expect(refused("webhooks", "remove", "--id", endpoint.id)).toMatch(/already removed|No webhook endpoint/);
    expect(refused("webhooks", "redeliver", "--id", deliveryId)).toMatch(/removed/);
    expect(refused("webhooks", "redeliver", "--id", "whd_nope")).toMatch(/No webhook delivery/);
  });
});
