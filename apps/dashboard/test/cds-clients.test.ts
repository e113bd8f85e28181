import { generateKeyPairSync } from "node:crypto";
import {
  createInvite,
  listAudit,
  listCdsClients,
  recordCdsFeedback,
  registerCdsClient,
  rememberIssuedCards,
} from "@svc/records";
import { useTestService } from "@svc/testkit/vitest";
import { describe, expect, it } from "vitest";
import { DashboardClient, PASSWORD } from "./session-client.js";

/** The CDS Hooks page: an account's clients and feedback; revoke for owners and developers only. */
const service = useTestService();

async function signedIn(accountId: string, email: string, role: "owner" | "developer" | "viewer") {
  const invite = await createInvite(
    service.db.handle.db,
    { workspace: { accountId }, email, role },
    service.url,
  );
  const client = new DashboardClient(service.url);
  expect((await client.acceptInvite(invite.url, PASSWORD)).status).toBe(303);
  return client;
}

const jwks = () => {
  const { publicKey } = generateKeyPairSync("ec", { namedCurve: "P-384" });
  return { keys: [{ ...publicKey.export({ format: "jwk" }), kid: "ehr-key-1" }] };
};

describe("dashboard CDS Hooks page", { timeout: 60_000 }, () => {
  it("lists the account's clients and feedback, revokes, and keeps other accounts and viewers out", async () => {
    const db = service.db.handle.db;
    const accountId = (await service.seed.account({ name: "CDS", plan: "launch" })).id;
    const otherId = (await service.seed.account({ name: "Other" })).id;
    const client = await registerCdsClient(db, {
      accountId,
      iss: "https://ehr.cds-page.example",
      jwks: jwks(),
    });
    const foreign = await registerCdsClient(db, {
      accountId: otherId,
      iss: "https://ehr.other.example",
      jwks: jwks(),
    });
    await rememberIssuedCards(db, { clientId: client.id, serviceId: "svc-a", cardUuids: ["card-123"] });
    await recordCdsFeedback(db, { clientId: client.id, accountId, mode: "test" }, "svc-a", [
      {
        card: "card-123",
        outcome: "overridden",
        outcomeTimestamp: new Date("2026-11-26T10:00:00Z"),
        overrideReason: {
          reason: { code: "not-relevant", system: "https://example.org/reasons" },
          userComment: "<b>seen</b>",
        },
      },
    ]);

    const viewer = await signedIn(accountId, "cds-viewer@example.com", "viewer");
    const seen = await viewer.get("/dashboard/cds-clients");
    expect(seen.status).toBe(200);
    expect(seen.text).toContain(client.id);
    expect(seen.text).toContain("https://ehr.cds-page.example");
    expect(seen.text).toContain("kid: ehr-key-1");
    expect(seen.text).toContain("card-123");
    expect(seen.text).toContain("not-relevant");
    // The clinician's words are text, never markup.
    expect(seen.text).toContain("&lt;b&gt;seen&lt;/b&gt;");
    expect(seen.text).not.toContain(foreign.id);
    expect(seen.text).not.toContain(`/dashboard/cds-clients/${client.id}/revoke`);
    expect(
      (await viewer.post(`/dashboard/cds-clients/${client.id}/revoke`, { _csrf: await viewer.csrf() }))
        .status,
    ).toBe(403);

    const developer = await signedIn(accountId, "cds-dev@example.com", "developer");
    const csrf = await developer.csrf();
    // Another account's client is not found here, and stays active.
    expect(
      (await developer.post(`/dashboard/cds-clients/${foreign.id}/revoke`, { _csrf: csrf })).status,
    ).toBe(404);
    expect((await listCdsClients(db, otherId)).clients[0]?.revokedAt).toBeNull();
    expect((await developer.post(`/dashboard/cds-clients/${client.id}/revoke`, { _csrf: csrf })).status).toBe(
      303,
    );
    expect((await listCdsClients(db, accountId)).clients[0]?.revokedAt).not.toBeNull();
    expect((await developer.get("/dashboard/cds-clients")).text).toContain("revoked ");
    // Register from the dashboard: a pasted public JWK Set; a bad one changes nothing.
    const form = {
      _csrf: csrf,
      iss: "https://ehr2.cds-page.example",
      mode: "test",
      jku: "",
      jwks: JSON.stringify(jwks()),
    };
    expect((await developer.post("/dashboard/cds-clients", { ...form, jwks: "{not json" })).status).toBe(400);
    const { privateKey } = generateKeyPairSync("ec", { namedCurve: "P-384" });
    const leaked = await developer.post("/dashboard/cds-clients", {
      ...form,
      jwks: JSON.stringify({ keys: [{ ...privateKey.export({ format: "jwk" }), kid: "k" }] }),
    });
    expect(leaked.status).toBe(400);
    expect(leaked.text).toContain("private key material");
    expect(
      (await viewer.post("/dashboard/cds-clients", { ...form, _csrf: await viewer.csrf() })).status,
    ).toBe(403);
    expect((await listCdsClients(db, accountId)).clients).toHaveLength(1);
    expect((await developer.post("/dashboard/cds-clients", form)).status).toBe(303);
    const registered = (await listCdsClients(db, accountId)).clients.find(
      (c) => c.iss === "https://ehr2.cds-page.example",
    );
    expect(registered).toMatchObject({
      mode: "test",
      keyIds: ["ehr-key-1"],
      allowPrivate: false,
      revokedAt: null,
    });
    // The page names the account's own CDS Hooks base (decision 147).
    expect((await developer.get("/dashboard/cds-clients")).text).toContain(
      `/cds-hooks/${accountId}/cds-services`,
    );
    // The other account's issuer registers here too, and the answer names nothing of that account.
    const same = await developer.post("/dashboard/cds-clients", {
      ...form,
      iss: "https://ehr.other.example",
    });
    expect(same.status).toBe(303);
    const followed = await developer.get("/dashboard/cds-clients");
    expect(followed.text).not.toContain(foreign.id);
    expect(followed.text).not.toContain(otherId);
    // A second active client for one issuer in this account is refused, naming this account's own only.
    const twice = await developer.post("/dashboard/cds-clients", {
      ...form,
      iss: "https://ehr.other.example",
    });
    expect(twice.status).toBe(400);
    expect(twice.text).toContain("already has an active CDS client");
    expect(twice.text).not.toContain(foreign.id);
    const actions = (await listAudit(db, { accountId })).map((r) => r.action);
    expect(actions).toContain("cds_client.revoked");
    expect(actions).toContain("cds_client.created");
  });

  it("pages the feedback 50 at a time, newest first, with a link to the older page (decision 151)", async () => {
    const db = service.db.handle.db;
    const accountId = (await service.seed.account({ name: "CDS paging" })).id;
    const client = await registerCdsClient(db, {
      accountId,
      iss: "https://ehr.paging.example",
      jwks: jwks(),
    });
    const cards = Array.from({ length: 75 }, (_, i) => `page-card-${String(i).padStart(3, "0")}`);
    await rememberIssuedCards(db, { clientId: client.id, serviceId: "svc-a", cardUuids: cards });
    // One POST's worth at a time, in card order: the newest report is the last card.
    for (const card of cards) {
      const result = await recordCdsFeedback(db, { clientId: client.id, accountId, mode: "test" }, "svc-a", [
        { card, outcome: "accepted", outcomeTimestamp: new Date(), acceptedSuggestions: ["s"] },
      ]);
      expect(result).toEqual({ ok: true, stored: 1, repeated: 0 });
    }
    const viewer = await signedIn(accountId, "cds-pager@example.com", "viewer");
    const first = await viewer.get("/dashboard/cds-clients");
    expect(first.status).toBe(200);
    const shown = (text: string) => cards.filter((card) => text.includes(card));
    expect(shown(first.text)).toEqual(cards.slice(25));
    const next = /href="(\/dashboard\/cds-clients\?before=[^"]+)"/.exec(first.text)?.[1];
    expect(next).toBeDefined();
    const second = await viewer.get((next as string).replaceAll("&amp;", "&"));
    expect(second.status).toBe(200);
    expect(shown(second.text)).toEqual(cards.slice(0, 25));
    expect(second.text).not.toContain("Older feedback");
    expect((await viewer.get("/dashboard/cds-clients?before=not-an-id")).status).toBe(400);
  });
});
