import { eq, mseSafetyEvents, mseVersions, webhookDeliveries, webhookEndpoints } from "@svc/db";
import type { FlatErrorBody } from "@svc/http";
import { newId } from "@svc/ids";
import { buildLines, DOMAIN_KEYS, objectiveBlock } from "@svc/mse-catalog";
import { useTestService } from "@svc/testkit/vitest";
import { beforeAll, describe, expect, it } from "vitest";
import { baseSelection, mse, riskySelection, visit } from "./helpers.js";

/** Every route's happy path, over real HTTP against PostgreSQL. */
const svc = useTestService();
let api: ReturnType<typeof mse>;
let orgId: string;
let keyId: string;
const enqueued: string[][] = [];

beforeAll(async () => {
  svc.deps.deliveries = {
    async enqueue(ids) {
      enqueued.push(ids);
    },
  };
  const seeded = await svc.seed.org();
  orgId = seeded.org.id;
  keyId = seeded.keyId;
  api = mse(svc.url, seeded.key);
});

describe("GET /v1/mse/domains", () => {
  it("returns the catalog, version 1, with 17 domains and the six C-SSRS items", async () => {
    const res = await api.domains();
    expect(res.status).toBe(200);
    expect(res.headers.get("x-mse-api-version")).toBe("1");
    expect(res.json.version).toBe("1");
    expect(res.json.domains.map((d: { key: string }) => d.key)).toEqual([...DOMAIN_KEYS]);
    expect(res.json.cssrs.appliesTo).toBe("risk");
    expect(res.json.cssrs.questions).toHaveLength(6);
    expect(res.json.panel.code).toBe("10190-7");
  });
});

describe("POST then GET /v1/mse/{visitId}", () => {
  it("writes version 1 and reads it back with lines, narrative and risk", async () => {
    const id = visit();
    const res = await api.write(id, { patientId: "pat-1", selection: baseSelection, clinicianId: "dr-a" });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      ok: true,
      version: 1,
      risk: { flag: false, level: "none", labels: [], safetyEventId: null },
    });
    expect(res.headers.get("x-mse-api-version")).toBe("1");

    const got = await api.get(id);
    expect(got.status).toBe(200);
    const record = got.json.mse;
    const expectedLines = buildLines(baseSelection as never);
    expect(record).toMatchObject({
      visitId: id,
      patientId: "pat-1",
      version: 1,
      riskFlag: false,
      riskLevel: "none",
      riskLabels: [],
      signed: false,
      signedAt: null,
      signedByName: null,
      signedByCredential: null,
      signedByLicense: null,
      signedByOrganization: null,
      signature: null,
      clinicianId: "dr-a",
      safetyEventId: null,
    });
    expect(record.lines).toEqual(expectedLines);
    expect(record.objectiveBlock).toBe(objectiveBlock(expectedLines));
    expect(record.objectiveBlock).toContain("Mood: depressed and anxious. Worse in the mornings.");
    // Stored selection: the validated copy, domains in catalog order.
    expect(Object.keys(record.selection)).toEqual(["speech", "mood", "affect", "risk", "insight"]);
    expect(record.selection.mood).toEqual(baseSelection.mood);
    expect(new Date(record.savedAt as string).toISOString()).toBe(record.savedAt);
    expect(record.contentHash).toMatch(/^[0-9a-f]{64}$/);
  });

  it("a second POST is version 2 and replaces the whole selection; history keeps version 1", async () => {
    const id = visit();
    await api.write(id, { patientId: "pat-2", selection: baseSelection });
    const second = await api.write(id, { patientId: "pat-2", selection: { mood: { values: ["euthymic"] } } });
    expect(second.json.version).toBe(2);
    const got = await api.get(id);
    expect(Object.keys(got.json.mse.selection)).toEqual(["mood"]);
    const history = await api.history(id);
    expect(history.json.versions.map((v: { version: number }) => v.version)).toEqual([2, 1]);
    expect(history.json.versions[1]?.superseded).toBe(true);
    expect(history.json.versions[0]?.superseded).toBe(false);
  });

  it("GET with the matching patientId works; a different one is 404", async () => {
    const id = visit();
    await api.write(id, { patientId: "pat-3", selection: baseSelection });
    expect((await api.get(id, "?patientId=pat-3")).status).toBe(200);
    const other = await api.get<FlatErrorBody>(id, "?patientId=someone-else");
    expect(other.status).toBe(404);
    expect(other.json.code).toBe("not_found");
  });
});

describe("PATCH /v1/mse/{visitId}", () => {
  it("replaces only the supplied domains, keeps the rest and returns patchedDomains", async () => {
    const id = visit();
    await api.write(id, { patientId: "pat-p", selection: baseSelection });
    const res = await api.patch(id, {
      patientId: "pat-p",
      selection: { insight: { values: ["good"] }, affect: null },
      clinicianId: "dr-b",
    });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ ok: true, version: 2, patchedDomains: ["affect", "insight"] });
    const record = (await api.get(id)).json.mse;
    expect(record.selection.insight).toEqual({ values: ["good"] });
    expect(record.selection.affect).toBeUndefined();
    expect(record.selection.mood).toEqual(baseSelection.mood);
    expect(record.selection.speech).toEqual(baseSelection.speech);
    expect(record.clinicianId).toBe("dr-b");
    const history = await api.history(id);
    expect(history.json.versions[0]).toMatchObject({
      version: 2,
      operation: "patch",
      patchedDomains: ["affect", "insight"],
      clinicianId: "dr-b",
    });
    expect(history.json.versions[1]).toMatchObject({ version: 1, operation: "write", clinicianId: null });
    expect(history.json.versions[1]?.patchedDomains).toBeUndefined();
  });

  it("recomputes risk over the merged record: removing the risk option clears the flag", async () => {
    const id = visit();
    const first = await api.write(id, {
      patientId: "pat-r",
      selection: { ...baseSelection, risk: { values: ["passive_si"] } },
    });
    expect(first.json.risk).toMatchObject({ flag: true, level: "low", labels: ["Risk: Passive death wish"] });
    expect(first.json.risk.safetyEventId).toMatch(/^sev_/);
    const cleared = await api.patch(id, {
      patientId: "pat-r",
      selection: { risk: { values: ["denies_si_hi"] } },
    });
    expect(cleared.json.risk).toEqual({ flag: false, level: "none", labels: [], safetyEventId: null });
    const record = (await api.get(id)).json.mse;
    expect(record.riskFlag).toBe(false);
    expect(record.riskLevel).toBe("none");
  });

  it("a patch adding a positive C-SSRS raises the flag and writes a safety event", async () => {
    const id = visit();
    await api.write(id, { patientId: "pat-c", selection: baseSelection });
    const res = await api.patch(id, {
      patientId: "pat-c",
      selection: { risk: { values: [], cssrs: { q1: "yes", q2: "yes", q3: "yes" } } },
    });
    expect(res.status).toBe(200);
    expect(res.json.risk.flag).toBe(true);
    expect(res.json.risk.level).toBe("moderate");
    expect(res.json.risk.safetyEventId).toMatch(/^sev_/);
    const [row] = await svc.db.handle.db
      .select()
      .from(mseSafetyEvents)
      .where(eq(mseSafetyEvents.id, res.json.risk.safetyEventId as string));
    expect(row).toMatchObject({ orgId, visitId: id, patientId: "pat-c", version: 2 });
    // Untouched domains survive the patch.
    const record = (await api.get(id)).json.mse;
    expect(record.selection.mood).toEqual(baseSelection.mood);
    expect(record.safetyEventId).toBe(res.json.risk.safetyEventId);
  });
});

describe("safety events", () => {
  it("a risk-bearing write stores the event and one pending delivery per active live org endpoint, then enqueues it", async () => {
    const seeded = await svc.seed.org();
    const other = mse(svc.url, seeded.key);
    const db = svc.db.handle.db;
    const active = newId("we");
    const testMode = newId("we");
    const disabled = newId("we");
    const removed = newId("we");
    await db.insert(webhookEndpoints).values([
      {
        id: active,
        orgId: seeded.org.id,
        url: "https://hooks.example.com/mse",
        mode: "live",
        secret: "whsec_x",
      },
      // Live patient data never goes to a test-mode endpoint (decision 28).
      { id: testMode, orgId: seeded.org.id, url: "http://127.0.0.1:9/hook", mode: "test", secret: "whsec_t" },
      {
        id: disabled,
        orgId: seeded.org.id,
        url: "http://127.0.0.1:9/off",
        mode: "test",
        secret: "whsec_y",
        disabledAt: new Date(),
      },
      {
        id: removed,
        orgId: seeded.org.id,
        url: "http://127.0.0.1:9/gone",
        mode: "live",
        secret: "whsec_z",
        removedAt: new Date(),
      },
    ]);
    const id = visit("sev");
    const before = enqueued.length;
    const res = await other.write(id, { patientId: "pat-s", selection: riskySelection });
    expect(res.status).toBe(200);
    const sevId = res.json.risk.safetyEventId as string;
    expect(sevId).toMatch(/^sev_/);
    expect(res.json.risk).toMatchObject({ flag: true, level: "moderate" });

    const [event] = await db.select().from(mseSafetyEvents).where(eq(mseSafetyEvents.id, sevId));
    expect(event?.payload).toEqual({
      id: sevId,
      object: "mse.safety_event",
      type: "mse.risk_flagged",
      organizationId: seeded.org.id,
      visitId: id,
      patientId: "pat-s",
      version: 1,
      risk: { flag: true, level: "moderate", labels: res.json.risk.labels },
      createdAt: event?.createdAt.toISOString(),
    });
    // No free text in the payload: the note never leaves the record.
    expect(JSON.stringify(event?.payload)).not.toContain("mornings");

    const deliveries = await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.eventId, sevId));
    expect(deliveries).toHaveLength(1);
    expect(deliveries[0]).toMatchObject({ endpointId: active, source: "safety_event", status: "pending" });
    expect(enqueued.slice(before)).toEqual([[deliveries[0]?.id]]);

    const [version] = await db.select().from(mseVersions).where(eq(mseVersions.visitId, id));
    expect(version?.safetyEventId).toBe(sevId);
  });

  it("a failing queue never fails the write (the outbox keeps the delivery)", async () => {
    const seeded = await svc.seed.org();
    await svc.db.handle.db.insert(webhookEndpoints).values({
      id: newId("we"),
      orgId: seeded.org.id,
      url: "http://127.0.0.1:9/hook",
      mode: "live",
      secret: "whsec_q",
    });
    const saved = svc.deps.deliveries;
    svc.deps.deliveries = {
      async enqueue() {
        throw new Error("redis down");
      },
    };
    try {
      const res = await mse(svc.url, seeded.key).write(visit(), {
        patientId: "p",
        selection: riskySelection,
      });
      expect(res.status).toBe(200);
      const sevId = res.json.risk.safetyEventId as string;
      const rows = await svc.db.handle.db
        .select()
        .from(webhookDeliveries)
        .where(eq(webhookDeliveries.eventId, sevId));
      expect(rows).toHaveLength(1);
      expect(svc.logs.some((l) => l.includes("not enqueued"))).toBe(true);
    } finally {
      svc.deps.deliveries = saved;
    }
  });

  it("GET /v1/mse/safety_events lists the org's events newest first with keyset paging", async () => {
    const seeded = await svc.seed.org();
    const other = mse(svc.url, seeded.key);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await other.write(visit("list"), { patientId: `p${i}`, selection: riskySelection });
      ids.push(res.json.risk.safetyEventId as string);
    }
    await other.write(visit("list"), { patientId: "calm", selection: baseSelection });
    const first = await other.safetyEvents("?limit=2");
    expect(first.status).toBe(200);
    expect(first.json).toMatchObject({
      object: "list",
      resource: "mse.safety_event",
      count: 2,
      hasMore: true,
    });
    const seen = [...first.json.events.map((e: { id: string }) => e.id)];
    let cursor: string | null = first.json.nextCursor;
    while (cursor) {
      const page = await other.safetyEvents(`?limit=2&cursor=${encodeURIComponent(cursor)}`);
      expect(page.status).toBe(200);
      seen.push(...page.json.events.map((e: { id: string }) => e.id));
      cursor = page.json.nextCursor;
    }
    expect(seen).toEqual([...ids].reverse());
    const all = await other.safetyEvents();
    expect(all.json.count).toBe(5);
    expect(all.json.hasMore).toBe(false);
    expect(all.json.nextCursor).toBeNull();
    expect(all.json.events[0]).toMatchObject({ object: "mse.safety_event", type: "mse.risk_flagged" });
    const byVisit = await other.safetyEvents(`?visitId=${all.json.events[0]?.visitId}`);
    expect(byVisit.json.count).toBe(1);
  });
});

describe("POST /v1/mse/{visitId}/sign", () => {
  it("binds the signature to the latest version and its hash; a later write is a new unsigned version", async () => {
    const id = visit("sign");
    await api.write(id, { patientId: "pat-g", selection: baseSelection });
    await api.patch(id, { patientId: "pat-g", selection: { insight: { values: ["good"] } } });
    const before = (await api.get(id)).json.mse;
    const signed = await api.sign(id, {
      patientId: "pat-g",
      signedByName: "Dr. Ada Lovelace",
      credential: "MD",
      license: "NY-12345",
      organization: "Clinic One",
      timezone: "Asia/Kolkata",
      attestation: "I examined the patient.",
    });
    expect(signed.status).toBe(200);
    expect(signed.json).toMatchObject({ ok: true, version: 2, contentHash: before.contentHash });
    expect(signed.json.signatureId).toMatch(/^sig_/);

    const record = (await api.get(id)).json.mse;
    expect(record).toMatchObject({
      version: 2,
      signed: true,
      signedAt: signed.json.signedAt,
      signedByName: "Dr. Ada Lovelace",
      signedByCredential: "MD",
      signedByLicense: "NY-12345",
      signedByOrganization: "Clinic One",
    });
    expect(record.signature).toMatchObject({
      id: signed.json.signatureId,
      version: 2,
      contentHash: before.contentHash,
      timezone: "Asia/Kolkata",
      attestation: "I examined the patient.",
      keyId,
    });
    // Local time in the signer's zone: same instant, +05:30 offset.
    expect(record.signature?.signedAtLocal).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+05:30$/);
    expect(new Date(record.signature?.signedAtLocal as string).getTime()).toBe(
      new Date(signed.json.signedAt).getTime(),
    );

    const later = await api.patch(id, { patientId: "pat-g", selection: { judgment: { values: ["fair"] } } });
    expect(later.json.version).toBe(3);
    const after = (await api.get(id)).json.mse;
    expect(after.signed).toBe(false);
    expect(after.signature).toBeNull();
    const history = (await api.history(id)).json;
    expect(history.versions.map((v: { version: number; signed: boolean }) => [v.version, v.signed])).toEqual([
      [3, false],
      [2, true],
      [1, false],
    ]);
    expect(history.versions[1]?.signatureIds).toEqual([signed.json.signatureId]);
    expect(history.versions[0]?.signatureIds).toBeUndefined();
    expect(history.chainValid).toBe(true);
  });

  it("a co-signature on the same version: GET shows the newest signer once, history lists both", async () => {
    const id = visit("sign");
    await api.write(id, { patientId: "pat-h2", selection: baseSelection });
    const first = await api.sign(id, { patientId: "pat-h2", signedByName: "Dr. First" });
    const second = await api.sign(id, { patientId: "pat-h2", signedByName: "Dr. Second", credential: "DO" });
    expect([first.status, second.status]).toEqual([200, 200]);
    const res = await api.get(id);
    expect(res.status).toBe(200);
    expect(res.json.mse).toMatchObject({
      version: 1,
      signed: true,
      signedByName: "Dr. Second",
      signedByCredential: "DO",
      signedAt: second.json.signedAt,
    });
    expect(res.json.mse.signature?.id).toBe(second.json.signatureId);
    const history = (await api.history(id)).json;
    expect(history.versions).toHaveLength(1);
    expect(history.versions[0]?.signatureIds).toEqual([first.json.signatureId, second.json.signatureId]);
  });

  it("works with only the required fields (no timezone: no local time)", async () => {
    const id = visit("sign");
    await api.write(id, { patientId: "pat-h", selection: baseSelection });
    const signed = await api.sign(id, { patientId: "pat-h", signedByName: "Dr. B" });
    expect(signed.status).toBe(200);
    const record = (await api.get(id)).json.mse;
    expect(record.signature).toMatchObject({
      credential: null,
      license: null,
      organization: null,
      timezone: null,
      signedAtLocal: null,
      attestation: null,
    });
  });
});

describe("history and audit", () => {
  it("history lists every version newest first with plain-text lines and a valid chain", async () => {
    const id = visit("hist");
    await api.write(id, { patientId: "pat-i", selection: baseSelection, clinicianId: "dr-a" });
    await api.patch(id, { patientId: "pat-i", selection: { mood: { values: ["euthymic"] } } });
    const res = await api.history(id);
    expect(res.status).toBe(200);
    expect(res.json.visitId).toBe(id);
    expect(res.json.chainValid).toBe(true);
    expect(res.json.versions).toHaveLength(2);
    const [v2, v1] = res.json.versions;
    expect(v2?.lines).toContain("Mood: euthymic.");
    expect(v1?.lines).toContain("Mood: depressed and anxious. Worse in the mornings.");
    expect(v1).toMatchObject({ superseded: true, signed: false, operation: "write", clinicianId: "dr-a" });
  });

  it("audit shows who, when, the hashes linking each version, and the signatures", async () => {
    const id = visit("audit");
    await api.write(id, { patientId: "pat-j", selection: baseSelection, clinicianId: "dr-a" });
    await api.patch(id, { patientId: "pat-j", selection: { risk: { values: ["passive_si"] } } });
    const sig = await api.sign(id, { patientId: "pat-j", signedByName: "Dr. C" });
    const res = await api.audit(id);
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ visitId: id, patientId: "pat-j", currentVersion: 2, chainValid: true });
    const [v1, v2] = res.json.versions;
    expect(v1).toMatchObject({ version: 1, operation: "write", clinicianId: "dr-a", keyId, prevHash: null });
    expect(v2).toMatchObject({
      version: 2,
      operation: "patch",
      patchedDomains: ["risk"],
      keyId,
      prevHash: v1?.chainHash,
      riskFlag: true,
      riskLevel: "low",
      hashValid: true,
    });
    expect(v2?.safetyEventId).toMatch(/^sev_/);
    expect(res.json.signatures).toEqual([
      expect.objectContaining({
        id: sig.json.signatureId,
        version: 2,
        contentHash: v2?.contentHash,
        hashValid: true,
      }),
    ]);
  });
});
