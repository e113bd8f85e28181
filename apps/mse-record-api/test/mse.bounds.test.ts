import { and, eq, mseSafetyEvents, mseVersions, mseVisits } from "@svc/db";
import type { FlatErrorBody } from "@svc/http";
import { DOMAINS, type Selection, validateSelection } from "@svc/mse-catalog";
import { call } from "@svc/testkit";
import { useTestService } from "@svc/testkit/vitest";
import { describe, expect, it } from "vitest";
import { appendVersion, MAX_VERSIONS_PER_VISIT } from "../src/data/records.js";
import { MAX_SIGNATURES_PER_VERSION } from "../src/data/signatures.js";
import type { MseAuditResponse } from "../src/routes/v1_mse_audit.js";
import type { MseHistoryResponse } from "../src/routes/v1_mse_history.js";
import { PAGE_BYTES } from "../src/version-pages.js";
import { baseSelection, mse, visit } from "./helpers.js";

/**
 * Bounded reads and bounded visits: a visit of 600 versions with long notes is read over HTTP in
 * pages whose bytes are bounded, a visit holds at most MAX_VERSIONS_PER_VISIT versions and a
 * version at most MAX_SIGNATURES_PER_VERSION signatures (decisions 86 and 87). Versions are
 * written through the records module (the write path the routes use, without 600 HTTP round
 * trips); every read goes over HTTP.
 */
const svc = useTestService();

/** A valid selection with a long note (two-byte characters included) in every note domain but risk. */
function longNoteSelection(n: number): Selection {
  const selection: Record<string, unknown> = {};
  for (const domain of DOMAINS) {
    if (!domain.hasNote || domain.key === "risk") continue;
    const option = domain.options.find((o) => !o.risk);
    if (!option) continue;
    const note = `Version ${n}, ${domain.key}: observed café scene ${"é".repeat(200)} ${"x".repeat(380)}`;
    selection[domain.key] = { values: [option.value], text: note.slice(0, 600) };
  }
  const checked = validateSelection(selection);
  if (!checked.ok) throw new Error(`test selection invalid: ${JSON.stringify(checked.errors)}`);
  return checked.selection;
}

const smallSelection = (() => {
  const checked = validateSelection(baseSelection);
  if (!checked.ok) throw new Error("base selection invalid");
  return checked.selection;
})();

/** Write `count` versions of one visit through the records module, one transaction each. */
async function writeVersions(
  seeded: { org: { id: string }; keyId: string },
  visitId: string,
  count: number,
  selectionOf: (n: number) => Selection,
): Promise<void> {
  for (let n = 1; n <= count; n += 1) {
    await appendVersion(
      svc.db.handle.db,
      { orgId: seeded.org.id, keyId: seeded.keyId, visitId, patientId: "p", clinicianId: "dr-a" },
      { kind: "write", selection: selectionOf(n) },
    );
  }
}

const bytesOf = (text: string) => Buffer.byteLength(text, "utf8");

describe("a visit of 600 versions", () => {
  it("history reads in bounded pages that join to every version, newest first, once each", async () => {
    const seeded = await svc.seed.org();
    const id = visit("many");
    await writeVersions(seeded, id, 600, longNoteSelection);
    const api = mse(svc.url, seeded.key);

    const seen: number[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const query: string = cursor ? `?cursor=${encodeURIComponent(cursor)}` : "";
      const res = await call<MseHistoryResponse>(svc.url, `/v1/mse/${id}/history${query}`, {
        key: seeded.key,
      });
      expect(res.status).toBe(200);
      // One page: at most the default 50 versions, and its bytes bounded whatever the notes hold.
      expect(res.json.versions.length).toBeGreaterThan(0);
      expect(res.json.versions.length).toBeLessThanOrEqual(50);
      expect(bytesOf(res.text)).toBeLessThanOrEqual(PAGE_BYTES + 1024);
      expect(res.json.chainValid).toBe(true);
      expect(res.json.visitId).toBe(id);
      for (const v of res.json.versions) {
        expect(v.superseded).toBe(v.version < 600);
        expect(v.lines.length).toBeGreaterThan(0);
      }
      seen.push(...res.json.versions.map((v) => v.version));
      expect(res.json.nextCursor === null).toBe(!res.json.hasMore);
      cursor = res.json.nextCursor;
      pages += 1;
    } while (cursor);
    expect(pages).toBe(12);
    expect(seen).toEqual(Array.from({ length: 600 }, (_, i) => 600 - i));
    expect(new Set(seen).size).toBe(600);

    // A larger limit is still bounded in bytes: the page stops before 1 MB and says more follow.
    const big = await api.history(id);
    const wide = await call<MseHistoryResponse>(svc.url, `/v1/mse/${id}/history?limit=100`, {
      key: seeded.key,
    });
    expect(wide.status).toBe(200);
    expect(bytesOf(wide.text)).toBeLessThanOrEqual(PAGE_BYTES + 1024);
    expect(wide.json.versions.length).toBeLessThan(100);
    expect(wide.json.versions.length).toBeGreaterThan(big.json.versions.length);
    expect(wide.json.hasMore).toBe(true);
    const next = await call<MseHistoryResponse>(
      svc.url,
      `/v1/mse/${id}/history?limit=100&cursor=${wide.json.nextCursor}`,
      { key: seeded.key },
    );
    const last = wide.json.versions[wide.json.versions.length - 1]?.version ?? 0;
    expect(next.json.versions[0]?.version).toBe(last - 1);

    // The current version reads alone.
    const current = await api.get(id);
    expect(current.json.mse.version).toBe(600);
    expect(bytesOf(current.text)).toBeLessThan(100_000);
  }, 120_000);

  it("the audit reads in pages, oldest first, every row verified", async () => {
    const seeded = await svc.seed.org();
    const id = visit("audit");
    await writeVersions(seeded, id, 600, () => smallSelection);
    const seen: number[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const query: string = cursor ? `?cursor=${encodeURIComponent(cursor)}` : "";
      const res = await call<MseAuditResponse>(svc.url, `/v1/mse/${id}/audit${query}`, { key: seeded.key });
      expect(res.status).toBe(200);
      expect(res.json.versions.length).toBeLessThanOrEqual(100);
      expect(bytesOf(res.text)).toBeLessThanOrEqual(PAGE_BYTES + 1024);
      expect(res.json).toMatchObject({ visitId: id, patientId: "p", currentVersion: 600, chainValid: true });
      expect(res.json.versions.every((v) => v.hashValid)).toBe(true);
      seen.push(...res.json.versions.map((v) => v.version));
      cursor = res.json.nextCursor;
      pages += 1;
    } while (cursor);
    expect(pages).toBe(6);
    expect(seen).toEqual(Array.from({ length: 600 }, (_, i) => i + 1));
  }, 120_000);
});

describe("paging parameters", () => {
  it("a small visit stays whole in one page, as before", async () => {
    const { key } = await svc.seed.org();
    const api = mse(svc.url, key);
    const id = visit("small");
    for (let i = 0; i < 3; i += 1) await api.write(id, { patientId: "p", selection: baseSelection });
    const history = await api.history(id);
    expect(history.json.versions.map((v) => v.version)).toEqual([3, 2, 1]);
    expect(history.json).toMatchObject({ hasMore: false, nextCursor: null, chainValid: true });
    const audit = await api.audit(id);
    expect(audit.json.versions.map((v) => v.version)).toEqual([1, 2, 3]);
    expect(audit.json).toMatchObject({ hasMore: false, nextCursor: null, chainValid: true });
  });

  it("limit pages the history; a bad limit or cursor is the flat 400", async () => {
    const { key } = await svc.seed.org();
    const api = mse(svc.url, key);
    const id = visit("params");
    for (let i = 0; i < 3; i += 1) await api.write(id, { patientId: "p", selection: baseSelection });
    const first = await call<MseHistoryResponse>(svc.url, `/v1/mse/${id}/history?limit=2`, { key });
    expect(first.json.versions.map((v) => v.version)).toEqual([3, 2]);
    expect(first.json.hasMore).toBe(true);
    const second = await call<MseHistoryResponse>(
      svc.url,
      `/v1/mse/${id}/history?limit=2&cursor=${first.json.nextCursor}`,
      { key },
    );
    expect(second.json.versions.map((v) => v.version)).toEqual([1]);
    expect(second.json).toMatchObject({ hasMore: false, nextCursor: null });

    const auditCursor = (await call<MseAuditResponse>(svc.url, `/v1/mse/${id}/audit?limit=1`, { key })).json
      .nextCursor;
    const eventsCursor = Buffer.from(
      JSON.stringify(["2026-01-01T00:00:00.000Z", `sev_${"a".repeat(26)}`]),
    ).toString("base64url");
    const bad = [
      "limit=0",
      "limit=101",
      "limit=abc",
      "limit=5.0",
      "limit=-1",
      "cursor=not-a-cursor",
      `cursor=${eventsCursor}`,
      `cursor=${auditCursor}`,
      `cursor=${Buffer.from(JSON.stringify(["mse.history", "0"])).toString("base64url")}`,
    ];
    for (const query of bad) {
      const res = await call<FlatErrorBody>(svc.url, `/v1/mse/${id}/history?${query}`, { key });
      expect(res.status, query).toBe(400);
      expect(res.json.code).toBe("invalid_request");
      expect(typeof res.json.error).toBe("string");
      expect(res.headers.get("x-mse-api-version")).toBe("1");
    }
    for (const query of ["limit=201", `cursor=${first.json.nextCursor}`]) {
      const res = await call<FlatErrorBody>(svc.url, `/v1/mse/${id}/audit?${query}`, { key });
      expect(res.status, query).toBe(400);
      expect(res.json.code).toBe("invalid_request");
    }
  });
});

describe("chainValid on a page", () => {
  it("a broken link shows on every page; an edited column on the page that holds its row", async () => {
    const seeded = await svc.seed.org();
    const api = mse(svc.url, seeded.key);
    const id = visit("pagedchain");
    for (let i = 0; i < 3; i += 1) await api.write(id, { patientId: "p", selection: baseSelection });
    const db = svc.db.handle.db;
    const row = (version: number) =>
      and(
        eq(mseVersions.orgId, seeded.org.id),
        eq(mseVersions.visitId, id),
        eq(mseVersions.version, version),
      );
    const historyPages = async () => {
      const first = await call<MseHistoryResponse>(svc.url, `/v1/mse/${id}/history?limit=2`, {
        key: seeded.key,
      });
      const second = await call<MseHistoryResponse>(
        svc.url,
        `/v1/mse/${id}/history?limit=2&cursor=${first.json.nextCursor}`,
        { key: seeded.key },
      );
      return [first.json.chainValid, second.json.chainValid];
    };
    expect(await historyPages()).toEqual([true, true]);

    // Version 1's narrative edited behind the API's back, its hashes untouched.
    await db.update(mseVersions).set({ objectiveBlock: "Edited." }).where(row(1));
    expect(await historyPages()).toEqual([true, false]);
    const auditFirst = await call<MseAuditResponse>(svc.url, `/v1/mse/${id}/audit?limit=1`, {
      key: seeded.key,
    });
    expect(auditFirst.json.chainValid).toBe(false);
    expect(auditFirst.json.versions.map((v) => v.hashValid)).toEqual([false]);

    // A rewritten chain hash breaks the links, which every page checks.
    await db
      .update(mseVersions)
      .set({ chainHash: "0".repeat(64) })
      .where(row(2));
    expect(await historyPages()).toEqual([false, false]);
  });
});

describe("per-visit bounds", () => {
  it(`a visit holds at most ${MAX_VERSIONS_PER_VISIT} versions: the next write or patch is 409, nothing stored`, async () => {
    const seeded = await svc.seed.org();
    const id = visit("full");
    await writeVersions(seeded, id, MAX_VERSIONS_PER_VISIT - 1, () => smallSelection);
    const api = mse(svc.url, seeded.key);
    const lastOne = await api.write(id, { patientId: "p", selection: baseSelection });
    expect(lastOne.status).toBe(200);
    expect(lastOne.json.version).toBe(MAX_VERSIONS_PER_VISIT);

    const risky = { mood: { values: ["depressed"] }, risk: { values: ["active_si"] } };
    const write = await api.write<FlatErrorBody>(id, { patientId: "p", selection: risky });
    expect(write.status).toBe(409);
    expect(write.json.code).toBe("conflict");
    expect(write.json.error).toContain(String(MAX_VERSIONS_PER_VISIT));
    expect(write.headers.get("x-mse-api-version")).toBe("1");
    const patch = await api.patch<FlatErrorBody>(id, { patientId: "p", selection: risky });
    expect(patch.status).toBe(409);
    expect(patch.json.code).toBe("conflict");

    const db = svc.db.handle.db;
    const [counter] = await db
      .select({ current: mseVisits.currentVersion })
      .from(mseVisits)
      .where(and(eq(mseVisits.orgId, seeded.org.id), eq(mseVisits.visitId, id)));
    expect(counter?.current).toBe(MAX_VERSIONS_PER_VISIT);
    const beyond = await db
      .select({ version: mseVersions.version })
      .from(mseVersions)
      .where(
        and(eq(mseVersions.orgId, seeded.org.id), eq(mseVersions.visitId, id), eq(mseVersions.version, 1001)),
      );
    expect(beyond).toEqual([]);
    expect(await db.select().from(mseSafetyEvents).where(eq(mseSafetyEvents.orgId, seeded.org.id))).toEqual(
      [],
    );
    expect((await api.get(id)).json.mse.version).toBe(MAX_VERSIONS_PER_VISIT);
    const history = await api.history(id);
    expect(history.json.versions[0]?.version).toBe(MAX_VERSIONS_PER_VISIT);
    expect(history.json.chainValid).toBe(true);
    // Another visit of the same organization is unaffected.
    expect((await api.write(visit("other"), { patientId: "p", selection: baseSelection })).status).toBe(200);
  }, 120_000);

  it(`a version carries at most ${MAX_SIGNATURES_PER_VERSION} signatures; a new version can be signed again`, async () => {
    const { key } = await svc.seed.org();
    const api = mse(svc.url, key);
    const id = visit("signed");
    await api.write(id, { patientId: "p", selection: baseSelection });
    const sign = (name: string) => api.sign<FlatErrorBody>(id, { patientId: "p", signedByName: name });
    for (let i = 1; i <= MAX_SIGNATURES_PER_VERSION; i += 1)
      expect((await sign(`Dr. ${i}`)).status).toBe(200);
    const refused = await sign("Dr. one too many");
    expect(refused.status).toBe(409);
    expect(refused.json.code).toBe("conflict");
    expect(refused.json.error).toContain(String(MAX_SIGNATURES_PER_VERSION));
    const current = await api.get(id);
    expect(current.json.mse.signedByName).toBe(`Dr. ${MAX_SIGNATURES_PER_VERSION}`);
    const history = await api.history(id);
    expect(history.json.versions[0]?.signatureIds).toHaveLength(MAX_SIGNATURES_PER_VERSION);
    const audit = await api.audit(id);
    expect(audit.json.signatures).toHaveLength(MAX_SIGNATURES_PER_VERSION);
    expect(audit.json.signatures.every((s) => s.hashValid)).toBe(true);

    await api.write(id, { patientId: "p", selection: baseSelection });
    expect((await sign("Dr. next")).status).toBe(200);
  });
});
