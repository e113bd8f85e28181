import { and, eq, mseVersions, sql } from "@svc/db";
import { useTestService } from "@svc/testkit/vitest";
import { describe, expect, it } from "vitest";
import { baseSelection, mse, visit } from "./helpers.js";

/** The hash chain over versions: a row changed behind the API's back is detected. */
const svc = useTestService();

async function threeVersions() {
  const { key, org } = await svc.seed.org();
  const api = mse(svc.url, key);
  const id = visit("chain");
  await api.write(id, { patientId: "p", selection: baseSelection });
  await api.patch(id, { patientId: "p", selection: { insight: { values: ["good"] } } });
  await api.patch(id, { patientId: "p", selection: { judgment: { values: ["fair"] } } });
  const where = (version: number) =>
    and(eq(mseVersions.orgId, org.id), eq(mseVersions.visitId, id), eq(mseVersions.version, version));
  return { api, id, where };
}

describe("hash chain", () => {
  it("links each version to the previous chain hash and verifies", async () => {
    const { api, id } = await threeVersions();
    const audit = (await api.audit(id)).json;
    expect(audit.chainValid).toBe(true);
    const [v1, v2, v3] = audit.versions;
    expect(v1?.prevHash).toBeNull();
    expect(v2?.prevHash).toBe(v1?.chainHash);
    expect(v3?.prevHash).toBe(v2?.chainHash);
    for (const v of audit.versions) {
      expect(v.contentHash).toMatch(/^[0-9a-f]{64}$/);
      expect(v.hashValid).toBe(true);
    }
    expect((await api.history(id)).json.chainValid).toBe(true);
  });

  it("an edited narrative (direct SQL UPDATE) makes chainValid false and names the row", async () => {
    const { api, id, where } = await threeVersions();
    await svc.db.handle.db.update(mseVersions).set({ objectiveBlock: "Mood: euthymic." }).where(where(2));
    expect((await api.history(id)).json.chainValid).toBe(false);
    const audit = (await api.audit(id)).json;
    expect(audit.chainValid).toBe(false);
    expect(audit.versions.map((v: { hashValid: boolean }) => v.hashValid)).toEqual([true, false, true]);
  });

  it("an edited selection inside the jsonb is detected", async () => {
    const { api, id, where } = await threeVersions();
    await svc.db.handle.db
      .update(mseVersions)
      .set({ selection: sql`jsonb_set(${mseVersions.selection}, '{insight,values,0}', '"poor"')` })
      .where(where(2));
    expect((await api.history(id)).json.chainValid).toBe(false);
  });

  it("a lowered risk level is detected", async () => {
    const { api, id, where } = await threeVersions();
    await svc.db.handle.db.update(mseVersions).set({ riskLevel: "high" }).where(where(1));
    expect((await api.history(id)).json.chainValid).toBe(false);
  });

  it("a row rewritten with a self-consistent content hash still breaks the chain link", async () => {
    const { api, id, where } = await threeVersions();
    // Recomputing v2's content hash is not enough: its chain hash and v3's prevHash no longer match.
    await svc.db.handle.db
      .update(mseVersions)
      .set({ contentHash: "0".repeat(64) })
      .where(where(2));
    const audit = (await api.audit(id)).json;
    expect(audit.chainValid).toBe(false);
    expect(audit.versions[1]?.hashValid).toBe(false);
  });

  it("a deleted latest version is detected", async () => {
    const { api, id, where } = await threeVersions();
    await svc.db.handle.db.delete(mseVersions).where(where(3));
    const history = (await api.history(id)).json;
    expect(history.versions).toHaveLength(2);
    expect(history.chainValid).toBe(false);
  });

  it("a signature keeps pointing at the content hash it signed", async () => {
    const { api, id } = await threeVersions();
    const signed = await api.sign(id, { patientId: "p", signedByName: "Dr. S" });
    const audit = (await api.audit(id)).json;
    expect(audit.signatures[0]).toMatchObject({
      id: signed.json.signatureId,
      version: 3,
      contentHash: audit.versions[2]?.contentHash,
      hashValid: true,
    });
  });

  it("editing a signed version invalidates its signature in the audit", async () => {
    const { api, id, where } = await threeVersions();
    const signed = await api.sign(id, { patientId: "p", signedByName: "Dr. S" });
    await svc.db.handle.db
      .update(mseVersions)
      .set({ riskLabels: ["edited"] })
      .where(where(3));
    const audit = (await api.audit(id)).json;
    expect(audit.chainValid).toBe(false);
    expect(audit.signatures[0]).toMatchObject({ id: signed.json.signatureId, hashValid: false });
  });
});
