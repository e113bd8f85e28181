import { generateKey, revokeApiKey } from "@svc/db";
import type { FlatErrorBody } from "@svc/http";
import { call } from "@svc/testkit";
import { useTestService } from "@svc/testkit/vitest";
import { describe, expect, it } from "vitest";
import { baseSelection, mse, riskySelection, visit } from "./helpers.js";

/** Who may call the MSE Record API: key kinds, scopes, and one organization never seeing another's. */
const svc = useTestService();

type Op = { name: string; scope: string; method: string; path: (v: string) => string; body?: unknown };
const write = { patientId: "p", selection: baseSelection };
const OPS: Op[] = [
  { name: "GET domains", scope: "mse:read", method: "GET", path: () => "/v1/mse/domains" },
  { name: "GET safety_events", scope: "mse:read", method: "GET", path: () => "/v1/mse/safety_events" },
  { name: "POST write", scope: "mse:write", method: "POST", path: (v) => `/v1/mse/${v}`, body: write },
  {
    name: "PATCH",
    scope: "mse:write",
    method: "PATCH",
    path: (v) => `/v1/mse/${v}`,
    body: { patientId: "p", selection: { mood: { values: ["euthymic"] } } },
  },
  { name: "GET record", scope: "mse:read", method: "GET", path: (v) => `/v1/mse/${v}` },
  { name: "GET history", scope: "mse:read", method: "GET", path: (v) => `/v1/mse/${v}/history` },
  { name: "GET audit", scope: "mse:read", method: "GET", path: (v) => `/v1/mse/${v}/audit` },
  {
    name: "POST sign",
    scope: "mse:sign",
    method: "POST",
    path: (v) => `/v1/mse/${v}/sign`,
    body: { patientId: "p", signedByName: "Dr. A" },
  },
];

const send = (op: Op, visitId: string, headers: Record<string, string>) =>
  call<FlatErrorBody>(svc.url, op.path(visitId), { method: op.method, body: op.body, headers });

describe("authentication", () => {
  it.each(OPS)("$name: no Authorization header is 401 unauthorized", async (op) => {
    const res = await send(op, visit(), {});
    expect(res.status).toBe(401);
    expect(res.json.code).toBe("unauthorized");
    expect(res.headers.get("x-mse-api-version")).toBe("1");
  });
  it.each(OPS)("$name: a malformed header is 401 unauthorized", async (op) => {
    const res = await send(op, visit(), { authorization: "Token abc" });
    expect(res.status).toBe(401);
    expect(res.json.code).toBe("unauthorized");
  });
  it.each(OPS)("$name: an unknown, mistyped or revoked key is 401 invalid_token", async (op) => {
    const seeded = await svc.seed.org();
    await revokeApiKey(svc.db.handle.db, seeded.keyId);
    const unknown = generateKey("organization").key;
    const mistyped = `${seeded.key.slice(0, -1)}${seeded.key.endsWith("a") ? "b" : "a"}`;
    for (const key of [unknown, mistyped, seeded.key]) {
      const res = await send(op, visit(), { authorization: `Bearer ${key}` });
      expect(res.status).toBe(401);
      expect(res.json.code).toBe("invalid_token");
      expect(res.headers.get("x-mse-api-version")).toBe("1");
    }
  });
});

describe("authorization", () => {
  it.each(OPS)("$name: secret and publishable keys are 403 forbidden", async (op) => {
    const caller = await svc.seed.caller("enterprise");
    const publishable = await svc.seed.key("publishable", caller.account.id);
    for (const key of [caller.key, publishable.key]) {
      const res = await send(op, visit(), {
        authorization: `Bearer ${key}`,
        origin: "http://localhost:3000",
      });
      expect(res.status).toBe(403);
      expect(res.json.code).toBe("forbidden");
      expect(res.headers.get("x-mse-api-version")).toBe("1");
    }
  });
  it.each(OPS)("$name: an organization key without its scope is 403 forbidden", async (op) => {
    const others = ["mse:read", "mse:write", "mse:sign"].filter((s) => s !== op.scope);
    const { key } = await svc.seed.org(others);
    const res = await send(op, visit(), { authorization: `Bearer ${key}` });
    expect(res.status).toBe(403);
    expect(res.json.code).toBe("forbidden");
    expect(res.json.error).toContain(op.scope);
  });
  it("an organization key with the scope alone is enough", async () => {
    const reader = (await svc.seed.org(["mse:read"])).key;
    const id = visit();
    const writerOrg = await svc.seed.org(["mse:write"]);
    expect((await mse(svc.url, writerOrg.key).write(id, write)).status).toBe(200);
    expect((await mse(svc.url, reader).domains()).status).toBe(200);
    expect((await mse(svc.url, reader).get(id)).status).toBe(404); // another organization's visit
  });
});

describe("organization isolation", () => {
  it("another organization's visit is 404 on read, patch, history and audit, 409 on sign (like no MSE), and unchanged", async () => {
    const a = await svc.seed.org();
    const b = await svc.seed.org();
    const apiA = mse(svc.url, a.key);
    const apiB = mse(svc.url, b.key);
    const id = visit("iso");
    await apiA.write(id, { patientId: "alice", selection: riskySelection });

    const unknownId = visit("nobody");
    for (const [res, unknown] of [
      [await apiB.get<FlatErrorBody>(id), await apiB.get<FlatErrorBody>(unknownId)],
      [
        await apiB.get<FlatErrorBody>(id, "?patientId=alice"),
        await apiB.get<FlatErrorBody>(unknownId, "?patientId=alice"),
      ],
      [await apiB.history<FlatErrorBody>(id), await apiB.history<FlatErrorBody>(unknownId)],
      [await apiB.audit<FlatErrorBody>(id), await apiB.audit<FlatErrorBody>(unknownId)],
      [
        await apiB.patch<FlatErrorBody>(id, {
          patientId: "alice",
          selection: { mood: { values: ["euthymic"] } },
        }),
        await apiB.patch<FlatErrorBody>(unknownId, {
          patientId: "alice",
          selection: { mood: { values: ["euthymic"] } },
        }),
      ],
    ] as const) {
      expect(res.status).toBe(404);
      expect(res.json.code).toBe("not_found");
      // Indistinguishable from a visit that does not exist anywhere.
      expect({ ...res.json, requestId: "" }).toEqual({ ...unknown.json, requestId: "" });
    }
    const sign = await apiB.sign<FlatErrorBody>(id, { patientId: "alice", signedByName: "Dr. B" });
    const signUnknown = await apiB.sign<FlatErrorBody>(unknownId, {
      patientId: "alice",
      signedByName: "Dr. B",
    });
    expect(sign.status).toBe(409);
    expect({ ...sign.json, requestId: "" }).toEqual({ ...signUnknown.json, requestId: "" });

    // B writing the same visitId creates B's own record; A's is untouched.
    const own = await apiB.write(id, { patientId: "bob", selection: baseSelection });
    expect(own.json.version).toBe(1);
    const recordA = (await apiA.get(id)).json.mse;
    expect(recordA).toMatchObject({ version: 1, patientId: "alice", signed: false, riskFlag: true });
    expect((await apiA.history(id)).json.versions).toHaveLength(1);
    expect((await apiB.get(id)).json.mse.patientId).toBe("bob");

    // Safety events are per organization too.
    const eventsA = (await apiA.safetyEvents()).json;
    const eventsB = (await apiB.safetyEvents()).json;
    expect(eventsA.count).toBe(1);
    expect(eventsA.events[0]?.organizationId).toBe(a.org.id);
    expect(eventsB.count).toBe(0);
  });
});

describe("logging", () => {
  it("request logs carry no patientId, selection or note", async () => {
    const { key } = await svc.seed.org();
    const api = mse(svc.url, key);
    const id = visit("log");
    const marker = "SecretPatient-7f3a";
    const note = "SecretNote-91bc";
    await api.write(id, {
      patientId: marker,
      selection: { mood: { values: ["depressed"], text: note }, risk: { values: ["si_with_plan"] } },
    });
    await api.patch(id, { patientId: marker, selection: { affect: { values: ["flat"], text: note } } });
    await api.get(id, `?patientId=${marker}`);
    await api.write(id, { patientId: marker, selection: { aura: { values: [note] } } });
    await api.sign(id, { patientId: marker, signedByName: "Dr. Z", attestation: note });
    const logs = svc.logs.join("\n");
    expect(logs).toContain("/v1/mse/{visitId}");
    expect(logs).not.toContain(marker);
    expect(logs).not.toContain(note);
    expect(logs).not.toContain("depressed");
    expect(logs).not.toContain("si_with_plan");
  });
});
