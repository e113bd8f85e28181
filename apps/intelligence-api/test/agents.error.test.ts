import type { ErrorEnvelope } from "@svc/http";
import { call } from "@svc/testkit";
import { useTestService } from "@svc/testkit/vitest";
import { beforeAll, describe, expect, it } from "vitest";

/**
 * Every bound of the agent endpoints just inside (200) and just outside (400, issues naming the
 * field), input the engine cannot score (400 naming the instrument), and who may call them.
 */
const svc = useTestService();
let key: string;
let publishable: string;
let organization: string;
const ORIGIN = "https://clinic.example.com";

beforeAll(async () => {
  const caller = await svc.seed.caller("enterprise");
  key = caller.key;
  publishable = (await svc.seed.key("publishable", caller.account.id, [ORIGIN])).key;
  organization = (await svc.seed.org()).key;
});

const times = <T>(n: number, make: (i: number) => T): T[] => Array.from({ length: n }, (_, i) => make(i));
const ctx = (n: number) => "c".repeat(n);

type Case = [name: string, path: string, inside: unknown, outside: unknown, field: string];
const cases: Case[] = [
  ["1 medication", "medication", { medications: ["sertraline"] }, { medications: [] }, "medications"],
  [
    "50 medications",
    "medication",
    { medications: times(50, (i) => `drug${i}`) },
    { medications: times(51, (i) => `drug${i}`) },
    "medications",
  ],
  [
    "context 2000 chars",
    "medication",
    { medications: ["sertraline"], context: ctx(2000) },
    { medications: ["sertraline"], context: ctx(2001) },
    "context",
  ],
  [
    "50 readings",
    "biomarker",
    { panel: times(50, () => ({ analyte: "sodium", value: 140 })) },
    { panel: times(51, () => ({ analyte: "sodium", value: 140 })) },
    "panel",
  ],
  ["1 reading", "biomarker", { panel: [{ analyte: "sodium", value: 140 }] }, { panel: [] }, "panel"],
  [
    "20 instruments",
    "outcome",
    { instruments: times(20, () => ({ instrument: "GAD-7", total: 5 })) },
    { instruments: times(21, () => ({ instrument: "GAD-7", total: 5 })) },
    "instruments",
  ],
  [
    "30 responses",
    "outcome",
    { instruments: [{ instrument: "unlisted scale", responses: times(30, () => 1) }] },
    { instruments: [{ instrument: "unlisted scale", responses: times(31, () => 1) }] },
    "instruments.0.responses",
  ],
  [
    "a response of 10",
    "outcome",
    { instruments: [{ instrument: "unlisted scale", responses: [10] }] },
    { instruments: [{ instrument: "unlisted scale", responses: [11] }] },
    "instruments.0.responses.0",
  ],
  [
    "a total of 200",
    "outcome",
    { instruments: [{ instrument: "unlisted scale", total: 200 }] },
    { instruments: [{ instrument: "unlisted scale", total: 201 }] },
    "instruments.0.total",
  ],
  [
    "responses or total",
    "outcome",
    { instruments: [{ instrument: "GAD-7", total: 0 }] },
    { instruments: [{ instrument: "GAD-7", priorTotal: 3 }] },
    "instruments.0",
  ],
  [
    "30 signals",
    "relapse",
    { signals: times(30, () => ({ indicator: "sleep_disruption", severity: 0.5 })) },
    { signals: times(31, () => ({ indicator: "sleep_disruption", severity: 0.5 })) },
    "signals",
  ],
  [
    "severity 1",
    "relapse",
    { signals: [{ indicator: "sleep_disruption", severity: 1 }] },
    { signals: [{ indicator: "sleep_disruption", severity: 1.01 }] },
    "signals.0.severity",
  ],
  [
    "severity 0",
    "relapse",
    { signals: [{ indicator: "sleep_disruption", severity: 0 }] },
    { signals: [{ indicator: "sleep_disruption", severity: -0.01 }] },
    "signals.0.severity",
  ],
];

describe("bounds", () => {
  it.each(cases)("%s: just inside 200, just outside 400", async (_name, product, inside, outside, field) => {
    const ok = await call(svc.url, `/v1/${product}/pt_b/agent`, { key, body: inside });
    expect(ok.status).toBe(200);
    const bad = await call<ErrorEnvelope>(svc.url, `/v1/${product}/pt_b/agent`, { key, body: outside });
    expect(bad.status).toBe(400);
    expect(bad.json.error.code).toBe("invalid_request");
    expect(bad.json.error.issues?.map((i) => i.path)).toContain(field);
  });

  it("a patientId over 128 characters is 400", async () => {
    const res = await call<ErrorEnvelope>(svc.url, `/v1/medication/${"p".repeat(129)}/agent`, {
      key,
      body: { medications: ["sertraline"] },
    });
    expect(res.status).toBe(400);
  });
});

describe("input the engine cannot score", () => {
  it("a PHQ-9 with 8 responses is 400 naming PHQ-9 and the field", async () => {
    const res = await call<ErrorEnvelope>(svc.url, "/v1/outcome/pt_b/agent", {
      key,
      body: {
        instruments: [
          { instrument: "GAD-7", total: 3 },
          { instrument: "PHQ-9", responses: [1, 1, 1, 1, 1, 1, 1, 1] },
        ],
      },
    });
    expect(res.status).toBe(400);
    expect(res.json.error.message).toMatch(/PHQ-9/);
    expect(res.json.error.issues?.[0]?.path).toMatch(/^instruments\.1\.responses/);
    expect(res.json.error.issues?.[0]?.message).toMatch(/PHQ-9/);
  });

  it("a GAD-7 answer of 4 (items are 0-3) is 400 naming GAD-7", async () => {
    const res = await call<ErrorEnvelope>(svc.url, "/v1/outcome/pt_b/agent", {
      key,
      body: { instruments: [{ instrument: "GAD-7", responses: [4, 0, 0, 0, 0, 0, 0] }] },
    });
    expect(res.status).toBe(400);
    expect(res.json.error.issues?.[0]?.message).toMatch(/GAD-7/);
  });

  it("a body that is not JSON, or misses its list, is 400", async () => {
    const res = await fetch(`${svc.url}/v1/relapse/pt_b/agent`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: "{",
    });
    expect(res.status).toBe(400);
    const missing = await call<ErrorEnvelope>(svc.url, "/v1/relapse/pt_b/agent", {
      key,
      body: { context: "x" },
    });
    expect(missing.status).toBe(400);
    expect(missing.json.error.issues?.map((i) => i.path)).toContain("signals");
  });
});

describe("who may call", () => {
  const paths = ["medication", "biomarker", "outcome", "relapse"].map((p) => `/v1/${p}/pt_s/agent`);

  it("no key is 401", async () => {
    for (const path of paths) {
      const res = await call<ErrorEnvelope>(svc.url, path, { body: {} });
      expect(res.status).toBe(401);
    }
  });

  it("a publishable key is 403 even from its allowed origin; an organization key is refused", async () => {
    for (const path of paths) {
      const pub = await call<ErrorEnvelope>(svc.url, path, {
        key: publishable,
        body: {},
        headers: { origin: ORIGIN },
      });
      expect(pub.status).toBe(403);
      const org = await call<ErrorEnvelope>(svc.url, path, { key: organization, body: {} });
      expect([401, 403]).toContain(org.status);
    }
  });

  it("answers carry the rate-limit headers", async () => {
    const res = await call(svc.url, paths[0] as string, { key, body: { medications: ["sertraline"] } });
    expect(res.headers.get("x-ratelimit-limit")).toBeTruthy();
  });
});
