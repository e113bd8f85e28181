import type { FlatErrorBody } from "@svc/http";
import { type CallResult, call } from "@svc/testkit";
import { describe, expect, it } from "vitest";
import { baseSelection, serviceWithOrgPerTest, visit } from "./helpers.js";

/** Every 4xx of the MSE Record API, each with a flat body and `x-mse-api-version: 1`. */
// A fresh organization per test: the per-organization rate limit (decision 43) stays out of the way.
const t = serviceWithOrgPerTest();

/** A flat error: `error` sentence, `code`, `requestId`, and the version header. */
function expectFlat(res: CallResult<FlatErrorBody>, status: number, code: string) {
  // Read as a plain object too: `ok` belongs to Intelligence bodies and must be absent here.
  const body: Record<string, unknown> = res.json;
  expect(res.status).toBe(status);
  expect(res.headers.get("x-mse-api-version")).toBe("1");
  expect(res.json.code).toBe(code);
  expect(typeof res.json.error).toBe("string");
  expect(res.json.error).toMatch(/^[A-Z].*\.$/);
  expect(String(res.json.requestId)).toMatch(/^req_/);
  expect(body.ok).toBeUndefined();
}

describe("400 invalid_request", () => {
  it("malformed JSON", async () => {
    const res = await call<FlatErrorBody>(t.svc.url, `/v1/mse/${visit()}`, {
      method: "POST",
      key: t.key,
      rawBody: "{not json",
    });
    expectFlat(res, 400, "invalid_request");
  });
  it("a body that is not JSON (content type)", async () => {
    const res = await call<FlatErrorBody>(t.svc.url, `/v1/mse/${visit()}`, {
      method: "POST",
      key: t.key,
      rawBody: "patientId=p",
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expectFlat(res, 400, "invalid_request");
  });
  it.each([
    ["missing patientId", { selection: baseSelection }, "patientId"],
    ["empty patientId", { patientId: "", selection: baseSelection }, "patientId"],
    ["patientId over 128", { patientId: "p".repeat(129), selection: baseSelection }, "patientId"],
    ["patientId with NUL", { patientId: "a\u0000b", selection: baseSelection }, "patientId"],
    ["patientId with an unpaired surrogate", { patientId: "a\udc00", selection: baseSelection }, "patientId"],
    ["missing selection", { patientId: "p" }, "selection"],
    ["selection an array", { patientId: "p", selection: [] }, "selection"],
    ["selection a string", { patientId: "p", selection: "mood" }, "selection"],
    [
      "clinicianId over 128",
      { patientId: "p", selection: baseSelection, clinicianId: "c".repeat(129) },
      "clinicianId",
    ],
  ])("POST with %s", async (_name, body, path) => {
    const id = visit();
    const res = await t.api.write<FlatErrorBody>(id, body);
    expectFlat(res, 400, "invalid_request");
    expect(res.json.issues?.map((i: { path: string }) => i.path)).toContain(path);
    expect((await t.api.get(id)).status).toBe(404);
  });
  it("the same checks apply to PATCH", async () => {
    const res = await t.api.patch<FlatErrorBody>(visit(), { selection: { mood: { values: ["euthymic"] } } });
    expectFlat(res, 400, "invalid_request");
  });
  it.each([
    ["too long", "v".repeat(129)],
    ["a space", "a%20b"],
    ["a slash-free but odd character", "a%24b"],
    ["reserved: domains (POST)", "domains"],
    ["reserved: safety_events (POST)", "safety_events"],
  ])("visitId %s", async (_name, visitId) => {
    const res = await t.api.write<FlatErrorBody>(visitId, { patientId: "p", selection: baseSelection });
    expectFlat(res, 400, "invalid_request");
  });
  it("a visitId of exactly 128 allowed characters is fine", async () => {
    const res = await t.api.write(`A-z_0.9:${"x".repeat(120)}`, { patientId: "p", selection: baseSelection });
    expect(res.status).toBe(200);
  });
  it("sign: signedByName is required, blank is refused, timezone must be IANA, attestation at most 2000", async () => {
    const id = visit();
    await t.api.write(id, { patientId: "p", selection: baseSelection });
    for (const body of [
      { patientId: "p" },
      { signedByName: "Dr. A" },
      { patientId: "p", signedByName: "   " },
      { patientId: "p", signedByName: "n".repeat(201) },
      { patientId: "p", signedByName: "Dr. A", timezone: "Mars/Olympus_Mons" },
      { patientId: "p", signedByName: "Dr. A", timezone: "" },
      { patientId: "p", signedByName: "Dr. A", attestation: "a".repeat(2001) },
    ]) {
      const res = await t.api.sign<FlatErrorBody>(id, body);
      expectFlat(res, 400, "invalid_request");
    }
    expect((await t.api.get(id)).json.mse.signed).toBe(false);
  });
  it("safety_events: limit out of 1-200 and an unknown cursor", async () => {
    for (const q of ["?limit=0", "?limit=201", "?limit=abc", "?cursor=nonsense"]) {
      expectFlat(await t.api.safetyEvents<FlatErrorBody>(q), 400, "invalid_request");
    }
    expect((await t.api.safetyEvents("?limit=200")).status).toBe(200);
    expect((await t.api.safetyEvents("?limit=1")).status).toBe(200);
  });
  it("a body over 1 MB is 413 invalid_request", async () => {
    const res = await t.api.write<FlatErrorBody>(visit(), {
      patientId: "p",
      selection: { mood: { values: ["euthymic"], text: "x".repeat(1_100_000) } },
    });
    expectFlat(res, 413, "invalid_request");
  });
});

describe("422 invalid_selection (decision 39)", () => {
  const cases: [string, Record<string, unknown>, { domain: string; value?: string; message: RegExp }][] = [
    [
      "unknown domain",
      { mood: { values: ["euthymic"] }, aura: { values: ["x"] } },
      { domain: "aura", message: /Unknown domain/ },
    ],
    [
      "unknown option",
      { mood: { values: ["ecstatic"] } },
      { domain: "mood", value: "ecstatic", message: /Unknown option/ },
    ],
    [
      "several values in a single-choice domain",
      { insight: { values: ["good", "poor"] } },
      { domain: "insight", message: /only one value/ },
    ],
    [
      "C-SSRS outside the risk domain",
      { mood: { values: ["depressed"], cssrs: { q1: "yes" } } },
      { domain: "mood", value: "cssrs", message: /only on the risk domain/ },
    ],
    [
      "bad provenance enum",
      { mood: { values: ["depressed"], provenance: "hearsay" } },
      { domain: "mood", value: "provenance", message: /Provenance must be one of/ },
    ],
    [
      "bad confidence enum",
      { mood: { values: ["depressed"], confidence: "certain" } },
      { domain: "mood", value: "confidence", message: /Confidence must be one of/ },
    ],
    [
      "confidenceScore above 1",
      { mood: { values: ["depressed"], confidenceScore: 1.5 } },
      { domain: "mood", value: "confidenceScore", message: /from 0 to 1/ },
    ],
    [
      "confidenceScore below 0",
      { mood: { values: ["depressed"], confidenceScore: -0.1 } },
      { domain: "mood", value: "confidenceScore", message: /from 0 to 1/ },
    ],
    [
      "bad C-SSRS answer",
      { risk: { values: [], cssrs: { q1: "maybe" } } },
      { domain: "risk", value: "q1", message: /"yes" or "no"/ },
    ],
    [
      "unknown C-SSRS item",
      { risk: { values: [], cssrs: { q7: "yes" } } },
      { domain: "risk", value: "q7", message: /Unknown C-SSRS item/ },
    ],
    [
      "contradictory values",
      { mood: { values: ["euthymic", "depressed"] } },
      { domain: "mood", message: /cannot be combined/ },
    ],
    [
      "note over 2000 characters",
      { mood: { values: [], text: "n".repeat(2001) } },
      { domain: "mood", value: "text", message: /at most 2000/ },
    ],
    [
      "note with a NUL",
      { mood: { values: [], text: "a\u0000b" } },
      { domain: "mood", value: "text", message: /NUL/ },
    ],
    ["no domains", {}, { domain: "selection", message: /at least one domain/ }],
    [
      "note with an unpaired surrogate",
      { mood: { values: [], text: "a\ud800b" } },
      { domain: "mood", value: "text", message: /unpaired surrogates/ },
    ],
    [
      "__proto__ as a domain",
      { ["__proto__"]: { values: [] } },
      { domain: "__proto__", message: /Unknown domain/ },
    ],
    [
      "unknown field",
      { mood: { values: ["depressed"], colour: "blue" } },
      { domain: "mood", value: "colour", message: /Unknown field/ },
    ],
  ];
  it.each(cases)("POST: %s", async (_name, selection, expected) => {
    const id = visit();
    const res = await t.api.write<FlatErrorBody>(id, { patientId: "p", selection });
    expectFlat(res, 422, "invalid_selection");
    expect(res.json.errors).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ ...expected, message: expect.stringMatching(expected.message) }),
      ]),
    );
    // Nothing was stored.
    expect((await t.api.get(id)).status).toBe(404);
  });
  it("lists several problems at once", async () => {
    const res = await t.api.write<FlatErrorBody>(visit(), {
      patientId: "p",
      selection: { aura: {}, mood: { values: ["ecstatic"] }, insight: { values: ["good", "poor"] } },
    });
    expectFlat(res, 422, "invalid_selection");
    expect(res.json.errors?.map((e: { domain: string }) => e.domain)).toEqual(["aura", "mood", "insight"]);
  });
  it("PATCH validates the patch the same way and leaves the record unchanged", async () => {
    const id = visit();
    await t.api.write(id, { patientId: "p", selection: baseSelection });
    const res = await t.api.patch<FlatErrorBody>(id, {
      patientId: "p",
      selection: { insight: { values: ["good", "poor"] } },
    });
    expectFlat(res, 422, "invalid_selection");
    expect((await t.api.get(id)).json.mse.version).toBe(1);
    // The refused patch did not use up a version number.
    const next = await t.api.patch(id, { patientId: "p", selection: { insight: { values: ["good"] } } });
    expect(next.json.version).toBe(2);
  });
  it("PATCH with no domain, or removing every domain, is 422", async () => {
    const id = visit();
    await t.api.write(id, { patientId: "p", selection: { mood: { values: ["euthymic"] } } });
    const empty = await t.api.patch<FlatErrorBody>(id, { patientId: "p", selection: {} });
    expectFlat(empty, 422, "invalid_selection");
    const wipe = await t.api.patch<FlatErrorBody>(id, { patientId: "p", selection: { mood: null } });
    expectFlat(wipe, 422, "invalid_selection");
    expect(wipe.json.errors?.[0]).toMatchObject({ domain: "selection" });
    expect((await t.api.get(id)).json.mse.version).toBe(1);
  });
  it("POST does not accept null domains (PATCH only)", async () => {
    const res = await t.api.write<FlatErrorBody>(visit(), { patientId: "p", selection: { mood: null } });
    expectFlat(res, 422, "invalid_selection");
  });
});

describe("404 not_found", () => {
  it("GET, history and audit of a visit with no MSE", async () => {
    const id = visit();
    expectFlat(await t.api.get<FlatErrorBody>(id), 404, "not_found");
    expectFlat(await t.api.history<FlatErrorBody>(id), 404, "not_found");
    expectFlat(await t.api.audit<FlatErrorBody>(id), 404, "not_found");
  });
  it("PATCH before any write", async () => {
    const id = visit();
    expectFlat(
      await t.api.patch<FlatErrorBody>(id, { patientId: "p", selection: { mood: { values: ["euthymic"] } } }),
      404,
      "not_found",
    );
    // And it created nothing: the first POST is still version 1.
    expect((await t.api.write(id, { patientId: "p", selection: baseSelection })).json.version).toBe(1);
  });
  it("an unknown route under /v1/mse", async () => {
    const res = await call<FlatErrorBody>(t.svc.url, "/v1/mse/a/b/c", { key: t.key });
    expectFlat(res, 404, "not_found");
  });
});

describe("409 conflict", () => {
  it("signing a visit with no MSE", async () => {
    const res = await t.api.sign<FlatErrorBody>(visit(), { patientId: "p", signedByName: "Dr. A" });
    expectFlat(res, 409, "conflict");
    expect(res.json.error).toBe("This visit has no MSE to sign.");
  });
  it("a write, patch or signature naming another patient than the visit's", async () => {
    const id = visit();
    await t.api.write(id, { patientId: "alice", selection: baseSelection });
    expectFlat(
      await t.api.write<FlatErrorBody>(id, { patientId: "bob", selection: baseSelection }),
      409,
      "conflict",
    );
    expectFlat(
      await t.api.patch<FlatErrorBody>(id, {
        patientId: "bob",
        selection: { mood: { values: ["euthymic"] } },
      }),
      409,
      "conflict",
    );
    expectFlat(
      await t.api.sign<FlatErrorBody>(id, { patientId: "bob", signedByName: "Dr. A" }),
      409,
      "conflict",
    );
    const record = (await t.api.get(id)).json.mse;
    expect(record).toMatchObject({ version: 1, patientId: "alice", signed: false });
    // The refused writes did not use up version numbers.
    expect((await t.api.write(id, { patientId: "alice", selection: baseSelection })).json.version).toBe(2);
  });
});

describe("405 method_not_allowed", () => {
  it("DELETE on a record route", async () => {
    const res = await call<FlatErrorBody>(t.svc.url, `/v1/mse/${visit()}`, { method: "DELETE", key: t.key });
    expectFlat(res, 405, "method_not_allowed");
    expect(res.headers.get("allow")).toContain("PATCH");
  });
  it("a trailing slash is 404, not the methods of /v1/mse/{visitId}", async () => {
    for (const path of ["/v1/mse/domains/", `/v1/mse/${visit()}/`, `/v1/mse/${visit()}/sign/`]) {
      const res = await call<FlatErrorBody>(t.svc.url, path, { key: t.key });
      expectFlat(res, 404, "not_found");
      expect(res.headers.get("allow")).toBeNull();
    }
  });
  it("PUT on the sign route", async () => {
    const res = await call<FlatErrorBody>(t.svc.url, `/v1/mse/${visit()}/sign`, {
      method: "PUT",
      key: t.key,
      body: {},
    });
    expectFlat(res, 405, "method_not_allowed");
  });
});
