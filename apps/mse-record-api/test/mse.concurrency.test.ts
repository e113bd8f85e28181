import { and, asc, eq, mseVersions } from "@svc/db";
import { DOMAIN_KEYS, mergeSelection, type Selection, type SelectionPatch } from "@svc/mse-catalog";
import { useTestService } from "@svc/testkit/vitest";
import { describe, expect, it } from "vitest";
import { mse, visit } from "./helpers.js";

/**
 * Concurrent writers on one visit: consecutive versions with no gap, duplicate or lost update.
 * Each test uses a fresh organization so the per-organization rate limit (20/s, burst 40) is
 * not what is being measured.
 */
const svc = useTestService();

/** The first option of a domain, as a one-domain selection entry. */
const FIRST_OPTION: Record<string, string> = {
  appearance: "well_groomed",
  behavior: "calm",
  attitude: "cooperative",
  eye_contact: "appropriate",
  psychomotor: "normal",
  speech: "normal",
  mood: "euthymic",
  affect: "full_range",
  thought_process: "linear",
  thought_content: "unremarkable",
  perception: "no_abnormality",
  risk: "denies_si_hi",
  orientation: "fully_oriented",
  attention: "intact",
  memory: "grossly_intact",
  insight: "good",
  judgment: "good",
};

async function storedVersions(orgId: string, visitId: string) {
  return svc.db.handle.db
    .select()
    .from(mseVersions)
    .where(and(eq(mseVersions.orgId, orgId), eq(mseVersions.visitId, visitId)))
    .orderBy(asc(mseVersions.version));
}

describe("concurrent writers", () => {
  it("20 writers (POST and PATCH mixed) get versions exactly 1..20 and no patch is lost", async () => {
    const { key, org } = await svc.seed.org();
    const api = mse(svc.url, key);
    const id = visit("race");
    const first = await api.write(id, { patientId: "p", selection: { mood: { values: ["euthymic"] } } });
    expect(first.json.version).toBe(1);

    // 19 concurrent: every 4th a full write, the rest patches of distinct domains with distinct notes.
    type Req = { kind: "write"; selection: Selection } | { kind: "patch"; patch: SelectionPatch };
    const domains = DOMAIN_KEYS.filter((d) => d !== "mood" && d !== "eye_contact" && d !== "orientation");
    const requests: Req[] = Array.from({ length: 19 }, (_, i) => {
      if (i % 4 === 3) {
        return { kind: "write", selection: { mood: { values: ["depressed"], text: `full write ${i}` } } };
      }
      const domain = domains[i % domains.length] as (typeof DOMAIN_KEYS)[number];
      return {
        kind: "patch",
        patch: { [domain]: { values: [FIRST_OPTION[domain] as string], text: `patch ${i}` } },
      };
    });
    const responses = await Promise.all(
      requests.map((r) =>
        r.kind === "write"
          ? api.write(id, { patientId: "p", selection: r.selection })
          : api.patch(id, { patientId: "p", selection: r.patch }),
      ),
    );
    for (const res of responses) expect(res.status).toBe(200);
    const versions = responses.map((r) => r.json.version as number).sort((a, b) => a - b);
    expect(versions).toEqual(Array.from({ length: 19 }, (_, i) => i + 2));

    // Replay the requests in the order the server numbered them: every stored version must be
    // exactly the request applied to the version before it (a lost update would break this).
    const byVersion = new Map(responses.map((r, i) => [r.json.version as number, requests[i] as Req]));
    const stored = await storedVersions(org.id, id);
    expect(stored.map((v) => v.version)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    let expected: Selection = { mood: { values: ["euthymic"] } };
    for (const row of stored.slice(1)) {
      const req = byVersion.get(row.version) as Req;
      expected = req.kind === "write" ? req.selection : mergeSelection(expected, req.patch);
      expect(row.selection).toEqual(expected);
      expect(row.operation).toBe(req.kind);
    }

    const history = (await api.history(id)).json;
    expect(history.versions).toHaveLength(20);
    expect(history.versions.map((v: { version: number }) => v.version)).toEqual(
      Array.from({ length: 20 }, (_, i) => 20 - i),
    );
    expect(history.chainValid).toBe(true);
    expect((await api.get(id)).json.mse.version).toBe(20);
  });

  it("16 concurrent patches of distinct domains all land in the final record", async () => {
    const { key, org } = await svc.seed.org();
    const api = mse(svc.url, key);
    const id = visit("patches");
    await api.write(id, { patientId: "p", selection: { mood: { values: ["euthymic"] } } });
    const others = DOMAIN_KEYS.filter((d) => d !== "mood");
    const responses = await Promise.all(
      others.map((domain) =>
        api.patch(id, { patientId: "p", selection: { [domain]: { values: [FIRST_OPTION[domain]] } } }),
      ),
    );
    for (const res of responses) expect(res.status).toBe(200);
    expect(responses.map((r) => r.json.version).sort((a: number, b: number) => a - b)).toEqual(
      Array.from({ length: 16 }, (_, i) => i + 2),
    );
    const record = (await api.get(id)).json.mse;
    expect(record.version).toBe(17);
    expect(Object.keys(record.selection)).toEqual([...DOMAIN_KEYS]);
    expect((await storedVersions(org.id, id)).length).toBe(17);
  });

  it("concurrent first writes on a new visit number 1..10 with no duplicate", async () => {
    const { key } = await svc.seed.org();
    const api = mse(svc.url, key);
    const id = visit("new");
    const responses = await Promise.all(
      Array.from({ length: 10 }, () =>
        api.write(id, { patientId: "p", selection: { mood: { values: ["euthymic"] } } }),
      ),
    );
    for (const res of responses) expect(res.status).toBe(200);
    expect(responses.map((r) => r.json.version).sort((a: number, b: number) => a - b)).toEqual([
      1, 2, 3, 4, 5, 6, 7, 8, 9, 10,
    ]);
    expect((await api.history(id)).json.chainValid).toBe(true);
  });

  it("a refused writer among concurrent ones leaves no gap", async () => {
    const { key } = await svc.seed.org();
    const api = mse(svc.url, key);
    const id = visit("gap");
    await api.write(id, { patientId: "p", selection: { mood: { values: ["euthymic"] } } });
    const responses = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        api.patch(id, {
          // Every third names another patient: 409, rolled back with its increment.
          patientId: i % 3 === 0 ? "someone-else" : "p",
          selection: { insight: { values: [i % 2 === 0 ? "good" : "partial"] } },
        }),
      ),
    );
    const ok = responses.filter((r) => r.status === 200);
    expect(responses.filter((r) => r.status === 409)).toHaveLength(4);
    expect(ok.map((r) => r.json.version).sort((a: number, b: number) => a - b)).toEqual([2, 3, 4, 5, 6, 7]);
    const history = (await api.history(id)).json;
    expect(history.versions).toHaveLength(7);
    expect(history.chainValid).toBe(true);
  });
});
