import { mseSafetyEvents, mseVersions, sql } from "@svc/db";
import { type FlatErrorBody, MAX_JSON_DEPTH } from "@svc/http";
import { type CallResult, call } from "@svc/testkit";
import { describe, expect, it } from "vitest";
import { baseSelection, serviceWithOrgPerTest, visit } from "./helpers.js";

/**
 * Hostile input (decision 29) on the MSE Record API: the shared input hygiene answers with the
 * flat 400 (422 `invalid_selection` inside a selection, as documented), duplicate keys are
 * refused rather than resolved last-wins, and nothing is stored.
 */
// A fresh organization per test: its safety event list starts empty.
const t = serviceWithOrgPerTest();

/** The flat 400 whose issues name `path`. */
function expectRefused(res: CallResult<FlatErrorBody>, path: string) {
  // Read as a plain object too: `ok` belongs to Intelligence bodies and must be absent here.
  const body: Record<string, unknown> = res.json;
  expect(res.status, res.text).toBe(400);
  expect(res.headers.get("x-mse-api-version")).toBe("1");
  expect(res.json.code).toBe("invalid_request");
  expect(res.json.error).toMatch(/^[A-Z].*\.$/);
  expect(body.ok).toBeUndefined();
  const paths: string[] = res.json.issues?.map((i: { path: string }) => i.path) ?? [];
  expect(paths, paths.join(", ")).toContain(path);
}

async function rows(table: typeof mseVersions | typeof mseSafetyEvents): Promise<number> {
  const [row] = await t.svc.db.handle.db.select({ n: sql<number>`count(*)::int` }).from(table);
  return Number(row?.n ?? 0);
}

const write = (visitId: string, rawBody: string, method = "POST") =>
  call<FlatErrorBody>(t.svc.url, `/v1/mse/${visitId}`, { method, key: t.key, rawBody });

describe("finding 8: duplicate keys are refused, never last-wins", () => {
  const riskTwice = JSON.stringify({
    patientId: "p",
    selection: {
      risk: { values: ["active_si"], cssrs: { q1: "yes", q2: "yes" } },
      mood: { values: ["depressed"] },
      RISK: { values: ["denies_si_hi"] },
    },
  }).replace('"RISK"', '"risk"');

  it("the risk domain twice (first risk-bearing, then not): 400, no record, no safety event", async () => {
    const id = visit("dup");
    const [versions, events] = [await rows(mseVersions), await rows(mseSafetyEvents)];
    const res = await write(id, riskTwice);
    expectRefused(res, "selection.risk");
    expect(res.json.issues?.[0]?.message).toMatch(/more than once/);
    expect((await t.api.get(id)).status).toBe(404);
    expect((await t.api.safetyEvents()).json.events).toEqual([]);
    expect(await rows(mseVersions)).toBe(versions);
    expect(await rows(mseSafetyEvents)).toBe(events);
  });

  it("PATCH refuses it the same way and the record is unchanged", async () => {
    const id = visit("dup");
    expect((await t.api.write(id, { patientId: "p", selection: baseSelection })).status).toBe(200);
    const res = await write(id, riskTwice, "PATCH");
    expectRefused(res, "selection.risk");
    expect((await t.api.get(id)).json.mse.version).toBe(1);
  });

  it.each([
    [
      "patientId twice",
      '{"patientId":"p","patientId":"q","selection":{"mood":{"values":["euthymic"]}}}',
      "patientId",
    ],
    [
      "a key spelled with an escape",
      '{"patientId":"p","selection":{"risk":{"values":["active_si"]},"ri\\u0073k":{"values":[]}}}',
      "selection.risk",
    ],
    [
      "a field inside an entry",
      '{"patientId":"p","selection":{"mood":{"values":["depressed"],"values":[]}}}',
      "selection.mood.values",
    ],
    [
      "an array index in the path",
      '{"patientId":"p","selection":{"mood":{"values":[{"a":1,"a":2}]}}}',
      "selection.mood.values.0.a",
    ],
  ])("%s: 400 naming the path", async (_name, rawBody, path) => {
    const id = visit("dup");
    expectRefused(await write(id, rawBody), path);
    expect((await t.api.get(id)).status).toBe(404);
  });

  it("sign refuses duplicates too", async () => {
    const id = visit("dup");
    await t.api.write(id, { patientId: "p", selection: baseSelection });
    const res = await call<FlatErrorBody>(t.svc.url, `/v1/mse/${id}/sign`, {
      method: "POST",
      key: t.key,
      rawBody: '{"patientId":"p","signedByName":"Dr. A","signedByName":"Dr. B"}',
    });
    expectRefused(res, "signedByName");
    expect((await t.api.get(id)).json.mse.signed).toBe(false);
  });

  it("the same keys in different objects are fine", async () => {
    const res = await write(
      visit("dup"),
      '{"patientId":"p","selection":{"mood":{"values":["depressed"]},"affect":{"values":["restricted"]}}}',
    );
    expect(res.status).toBe(200);
  });
});

describe("finding 1 on the MSE API: NUL and controls", () => {
  it("GET /v1/mse/safety_events?visitId=%00: 400 naming visitId", async () => {
    expectRefused(await t.api.safetyEvents<FlatErrorBody>("?visitId=%00"), "visitId");
    expectRefused(await t.api.safetyEvents<FlatErrorBody>("?visitId=a%ED%A0%80"), "visitId");
  });
  it("GET /v1/mse/{visitId}?patientId=%00: 400 naming patientId", async () => {
    expectRefused(await t.api.get<FlatErrorBody>(visit(), "?patientId=a%00"), "patientId");
  });
  it("a control character in a field is the flat 400; in a note it is 422 like NUL (documented)", async () => {
    const id = visit();
    expectRefused(
      await t.api.write<FlatErrorBody>(id, { patientId: "p\u0007", selection: baseSelection }),
      "patientId",
    );
    const note = await t.api.write<FlatErrorBody>(id, {
      patientId: "p",
      selection: { mood: { values: [], text: "a\u001bb" } },
    });
    expect(note.status).toBe(422);
    expect(note.json.code).toBe("invalid_selection");
    expect(note.json.errors).toEqual([
      { domain: "mood", value: "text", message: expect.stringMatching(/NUL/) },
    ]);
    expect((await t.api.get(id)).status).toBe(404);
  });
  it("a lone surrogate in sign fields is the flat 400", async () => {
    const id = visit();
    await t.api.write(id, { patientId: "p", selection: baseSelection });
    const res = await t.api.sign<FlatErrorBody>(id, { patientId: "p", signedByName: "Dr. \ud800" });
    expectRefused(res, "signedByName");
    expect((await t.api.get(id)).json.mse.signed).toBe(false);
  });
});

describe("finding 3 and 5 on the MSE API: depth and prototype keys", () => {
  it("a selection nested past the limit is a 400 (structure), not a 422", async () => {
    const depth = 5_000;
    const rawBody = `{"patientId":"p","selection":{"mood":{"values":${"[".repeat(depth)}${"]".repeat(depth)}}}}`;
    const res = await write(visit(), rawBody);
    expectRefused(res, `selection.mood.values${".0".repeat(MAX_JSON_DEPTH - 3)}`);
  });
  it("__proto__ at the top level is a 400 naming it", async () => {
    const res = await write(
      visit(),
      `{"patientId":"p","selection":{"mood":{"values":[]}},"__proto__":{"x":1}}`,
    );
    expectRefused(res, "__proto__");
  });
  it("constructor inside an entry is 422 with the domain and field", async () => {
    const id = visit();
    const res = await write(id, `{"patientId":"p","selection":{"mood":{"values":[],"constructor":{"x":1}}}}`);
    expect(res.status).toBe(422);
    expect(res.json.errors).toEqual([
      { domain: "mood", value: "constructor", message: expect.stringMatching(/reserved/) },
    ]);
    expect((await t.api.get(id)).status).toBe(404);
  });
});

describe("finding 6 on the MSE API: query integers", () => {
  it.each(["0x10", "1e2", "%205", "%2B5", "5.0", "-5", ""])(
    "safety_events?limit=%s is 400",
    async (limit) => {
      expectRefused(await t.api.safetyEvents<FlatErrorBody>(`?limit=${limit}`), "limit");
    },
  );
});
