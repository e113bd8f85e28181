import { apiKeys, dashboardMembers, dashboardUsers, eq } from "@svc/db";
import type { Workspace } from "@svc/records";
import { createInvite } from "@svc/records";
import { useTestService } from "@svc/testkit/vitest";
import { describe, expect, it } from "vitest";
import { DashboardClient, PASSWORD } from "./session-client.js";

/**
 * Several workspaces per person (decisions 83 and 84): invitations claimed at once, joining
 * another workspace with one's own sign-in, the session's workspace and its switcher, and
 * removal from one workspace, over real HTTP against real PostgreSQL and Redis.
 */
const service = useTestService();

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** An operator's link (no actor), accepted: the client is signed in. */
async function signedIn(workspace: Workspace, email: string, role: "owner" | "developer" | "viewer") {
  const invite = await createInvite(service.db.handle.db, { workspace, email, role }, service.url);
  const client = new DashboardClient(service.url);
  expect((await client.acceptInvite(invite.url, PASSWORD)).status).toBe(303);
  return client;
}

/** An owner's invitation from the users page; the link it shows. */
async function ownerInvites(owner: DashboardClient, email: string, role: string) {
  const page = await owner.post("/dashboard/users", { email, role, _csrf: await owner.csrf() });
  expect(page.status).toBe(200);
  return {
    page,
    link: /https?:\/\/[^<"\s]+\/dashboard\/invite\/[A-Za-z0-9_-]{43}/.exec(page.text)?.[0] as string,
  };
}

/** The user's role in each account they work in, by account id. */
async function rolesOf(email: string): Promise<Record<string, string>> {
  const rows = await service.db.handle.db
    .select({ accountId: dashboardMembers.accountId, role: dashboardMembers.role })
    .from(dashboardMembers)
    .innerJoin(dashboardUsers, eq(dashboardUsers.id, dashboardMembers.userId))
    .where(eq(dashboardUsers.email, email));
  return Object.fromEntries(rows.map((r) => [r.accountId, r.role]));
}

describe("invitations claimed at once", () => {
  it.each([
    ["owners' links from the users page", "owners"],
    ["operator's links", "operator"],
  ])(
    "a viewer link of A and an owner link of B for one email (%s), claimed together, never make the user owner of A",
    async (_, by) => {
      const a = (await service.seed.account({ name: "Race A" })).id;
      const b = (await service.seed.account({ name: "Race B" })).id;
      const ownerA = await signedIn({ accountId: a }, `race-owner-a-${by}@example.com`, "owner");
      const ownerB = await signedIn({ accountId: b }, `race-owner-b-${by}@example.com`, "owner");
      const linkFor = async (
        owner: DashboardClient,
        accountId: string,
        email: string,
        role: "viewer" | "owner",
      ) =>
        by === "owners"
          ? (await ownerInvites(owner, email, role)).link
          : (await createInvite(service.db.handle.db, { workspace: { accountId }, email, role }, service.url))
              .url;
      const rounds: Array<{
        email: string;
        links: string[];
        statuses: number[];
        roleInA: string | undefined;
      }> = [];
      for (const [i, delay] of [0, 50, 100, 150, 200].entries()) {
        const email = `racer-${by}-${i}@example.com`;
        const viewerLink = await linkFor(ownerA, a, email, "viewer");
        const ownerLink = await linkFor(ownerB, b, email, "owner");
        const [first, second] = await Promise.all([
          new DashboardClient(service.url).acceptInvite(viewerLink, PASSWORD),
          sleep(delay).then(() => new DashboardClient(service.url).acceptInvite(ownerLink, PASSWORD)),
        ]);
        rounds.push({
          email,
          links: [viewerLink, ownerLink],
          statuses: [first.status, second.status],
          roleInA: (await rolesOf(email))[a],
        });
      }
      // Never owner of A, whatever the order the two claims ran in.
      expect(rounds.filter((r) => r.roleInA === "owner").map((r) => r.email)).toEqual([]);
      // Each claim either succeeded or was refused cleanly with the link left unused; tried again,
      // it succeeds, and the user is viewer of A and owner of B.
      for (const round of rounds) {
        for (const [i, status] of round.statuses.entries()) {
          expect([303, 409]).toContain(status);
          if (status === 409)
            expect(
              (await new DashboardClient(service.url).acceptInvite(round.links[i] as string, PASSWORD))
                .status,
            ).toBe(303);
        }
        expect(await rolesOf(round.email)).toEqual({ [a]: "viewer", [b]: "owner" });
      }
    },
    60_000,
  );
});

describe("several workspaces", () => {
  it("an owner invites an email of another workspace: it joins with its own password, keeps the other, and learns nothing of it", async () => {
    const home = (await service.seed.account({ name: "Home clinic" })).id;
    const other = (await service.seed.account({ name: "Other clinic" })).id;
    const alice = await signedIn({ accountId: home }, "alice@example.com", "developer");
    const ownerOther = await signedIn({ accountId: other }, "other-owner@example.com", "owner");
    // Inviting works and says nothing of where else the email works.
    const { page, link } = await ownerInvites(ownerOther, "Alice@Example.com", "viewer");
    for (const text of [
      page.text,
      (await new DashboardClient(service.url).get(new URL(link).pathname)).text,
    ]) {
      expect(text).not.toContain(home);
      expect(text).not.toContain("Home clinic");
      expect(text).not.toContain("developer");
      expect(text).not.toMatch(/another account|belongs/);
    }
    // The link's holder cannot choose a new password for the email: only its own sign-in joins.
    const holder = new DashboardClient(service.url);
    const hijack = await holder.acceptInvite(link, "a password of the link's holder");
    expect(hijack.status).toBe(400);
    expect(hijack.text).toContain("does not match");
    expect(hijack.text).not.toContain(home);
    expect((await holder.get("/dashboard/keys")).location).toBe("/dashboard/sign-in");
    const stale = new DashboardClient(service.url);
    expect(
      (
        await stale.post("/dashboard/sign-in", {
          email: "alice@example.com",
          password: "a password of the link's holder",
        })
      ).status,
    ).toBe(401);
    // Alice joins with her password; her first session still works.
    const joined = new DashboardClient(service.url);
    expect((await joined.acceptInvite(link, PASSWORD)).status).toBe(303);
    expect(await rolesOf("alice@example.com")).toEqual({ [home]: "developer", [other]: "viewer" });
    expect((await alice.get("/dashboard/keys")).status).toBe(200);
    // The link is spent.
    expect((await new DashboardClient(service.url).acceptInvite(link, PASSWORD)).status).toBe(410);
  });

  it("a session works in one chosen workspace at a time, only among the user's own, and removal from one leaves the others", async () => {
    const db = service.db.handle.db;
    const first = await service.seed.caller();
    const second = await service.seed.caller();
    const stranger = await service.seed.caller();
    const email = "switcher@example.com";
    const firstOwner = await signedIn({ accountId: first.account.id }, "first-owner@example.com", "owner");
    const secondOwner = await signedIn({ accountId: second.account.id }, "second-owner@example.com", "owner");
    await signedIn({ accountId: first.account.id }, email, "developer");
    const { link } = await ownerInvites(secondOwner, email, "viewer");
    const user = new DashboardClient(service.url);
    expect((await user.acceptInvite(link, PASSWORD)).status).toBe(303);

    // The most recently joined workspace first; the switcher lists both.
    let keys = await user.get("/dashboard/keys");
    expect(keys.text).toContain(`(viewer, account ${second.account.id})`);
    expect(keys.text).toContain(second.key.slice(0, 16));
    expect(keys.text).not.toContain(first.key.slice(0, 16));
    expect(keys.text).toContain('id="workspace-switch"');
    expect(keys.text).toContain(`value="${first.account.id}"`);
    expect((await secondOwner.get("/dashboard/keys")).text).not.toContain('id="workspace-switch"');
    const csrf = await user.csrf();
    // A viewer here: no change here, nor to the other workspace's key from here.
    expect(
      (await user.post("/dashboard/keys", { kind: "secret_test", origins: "", _csrf: csrf })).status,
    ).toBe(403);
    // Not a member of the stranger's account: refused, and the session stays where it was.
    const refused = await user.post("/dashboard/workspace", { workspace: stranger.account.id, _csrf: csrf });
    expect(refused.status).toBe(404);
    expect((await user.get("/dashboard/keys")).text).toContain(`account ${second.account.id}`);

    // Switch to the first workspace: a developer there, only its keys.
    const switched = await user.post("/dashboard/workspace", { workspace: first.account.id, _csrf: csrf });
    expect(switched.status).toBe(303);
    expect(switched.location).toBe("/dashboard/keys?done=switched");
    keys = await user.get("/dashboard/keys");
    expect(keys.text).toContain(`(developer, account ${first.account.id})`);
    expect(keys.text).toContain(first.key.slice(0, 16));
    expect(keys.text).not.toContain(second.key.slice(0, 16));
    expect(
      (await user.post("/dashboard/keys", { kind: "secret_test", origins: "", _csrf: csrf })).status,
    ).toBe(200);
    // Acting on another workspace's resources from here is a 404, even the user's other one.
    expect((await user.post(`/dashboard/keys/${second.keyId}/revoke`, { _csrf: csrf })).status).toBe(404);
    expect((await user.post(`/dashboard/keys/${stranger.keyId}/revoke`, { _csrf: csrf })).status).toBe(404);
    const [secondKey] = await db.select().from(apiKeys).where(eq(apiKeys.id, second.keyId));
    expect(secondKey?.revokedAt ?? null).toBeNull();
    // Another session of the same user has its own choice.
    const elsewhere = new DashboardClient(service.url);
    expect((await elsewhere.post("/dashboard/sign-in", { email, password: PASSWORD })).status).toBe(303);
    expect((await elsewhere.get("/dashboard/keys")).text).toContain(`account ${second.account.id}`);

    // The first workspace's owner removes the user there: the second workspace keeps them, and
    // the session that worked in the first moves to it.
    const [row] = await db
      .select({ id: dashboardUsers.id })
      .from(dashboardUsers)
      .where(eq(dashboardUsers.email, email));
    expect((await firstOwner.get("/dashboard/users")).text).toContain(`/dashboard/users/${row?.id}/role`);
    // A role changed in one workspace is that workspace's only.
    const promoted = await firstOwner.post(`/dashboard/users/${row?.id}/role`, {
      role: "owner",
      _csrf: await firstOwner.csrf(),
    });
    expect(promoted.status).toBe(303);
    expect(await rolesOf(email)).toEqual({ [first.account.id]: "owner", [second.account.id]: "viewer" });
    const removed = await firstOwner.post(`/dashboard/users/${row?.id}/remove`, {
      _csrf: await firstOwner.csrf(),
    });
    expect(removed.status).toBe(303);
    expect(await rolesOf(email)).toEqual({ [second.account.id]: "viewer" });
    keys = await user.get("/dashboard/keys");
    expect(keys.status).toBe(200);
    expect(keys.text).toContain(`(viewer, account ${second.account.id})`);
    expect(keys.text).not.toContain('id="workspace-switch"');
    expect(
      (await user.post("/dashboard/workspace", { workspace: first.account.id, _csrf: csrf })).status,
    ).toBe(404);
    // Removed from the last workspace, the user is gone and so are their sessions.
    const removedLast = await secondOwner.post(`/dashboard/users/${row?.id}/remove`, {
      _csrf: await secondOwner.csrf(),
    });
    expect(removedLast.status).toBe(303);
    expect((await user.get("/dashboard/keys")).location).toBe("/dashboard/sign-in");
    expect(
      await db
        .select()
        .from(dashboardMembers)
        .where(eq(dashboardMembers.userId, row?.id as string)),
    ).toEqual([]);
  });
});
