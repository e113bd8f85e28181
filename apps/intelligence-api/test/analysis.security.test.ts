import type { ErrorEnvelope } from "@svc/http";
import { call, mistypedKey } from "@svc/testkit";
import { useTestService } from "@svc/testkit/vitest";
import { beforeAll, describe, expect, it } from "vitest";
import type { DmseAnalysisResponse } from "../src/index.js";
import type { AnalysisResponse } from "./analysis-bodies.js";

/** Who may call the analysis endpoints, and the browser (CORS) path of POST /v1/dmse/analyze. */
const svc = useTestService();
let secret: string;
let publishable: string;
let organization: string;
const ORIGIN = "https://clinic.example.com";

beforeAll(async () => {
  const caller = await svc.seed.caller("enterprise");
  secret = caller.key;
  publishable = (await svc.seed.key("publishable", caller.account.id, [ORIGIN])).key;
  organization = (await svc.seed.org(["mse:read", "mse:write", "mse:sign"])).key;
});

const dmse = { responseLatencySeconds: 1.2 };
const others: [string, unknown][] = [
  ["/v1/medication/analyze", { prescriptions: [], assessments: [] }],
  ["/v1/biomarker/analyze", { labs: [{ id: "l", labName: "Lab", results: { biomarkers: [] } }] }],
  ["/v1/outcome/score", { assessments: [] }],
  ["/v1/relapse/predict", { assessments: [] }],
];

describe("publishable keys", () => {
  it("may call POST /v1/dmse/analyze from an allow-listed origin, with CORS headers on the answer", async () => {
    const res = await call<DmseAnalysisResponse>(svc.url, "/v1/dmse/analyze", {
      key: publishable,
      body: dmse,
      headers: { origin: ORIGIN },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("access-control-allow-origin")).toBe(ORIGIN);
    expect(res.headers.get("access-control-expose-headers")).toContain("X-Request-Id");
  });
  it("are refused from another origin or without one", async () => {
    for (const headers of [{ origin: "https://evil.example.com" }, {}] as Record<string, string>[]) {
      const res = await call<ErrorEnvelope>(svc.url, "/v1/dmse/analyze", {
        key: publishable,
        body: dmse,
        headers,
      });
      expect(res.status).toBe(403);
      expect(res.json.error.code).toBe("forbidden");
      expect(res.headers.get("access-control-allow-origin")).toBeNull();
    }
  });
  it.each(others)("are refused on %s", async (path, body) => {
    const res = await call<ErrorEnvelope>(svc.url, path, {
      key: publishable,
      body,
      headers: { origin: ORIGIN },
    });
    expect(res.status).toBe(403);
    expect(res.json.error.code).toBe("forbidden");
  });
});

describe("refusals a browser page can read (decision 20)", () => {
  const OTHER_ORIGIN = "https://other-clinic.example.com";

  it("a publishable key used from an origin that another key allows: 403 with CORS headers, so the page reads the code", async () => {
    const other = await svc.seed.account({ plan: "enterprise" });
    await svc.seed.key("publishable", other.id, [OTHER_ORIGIN]);
    const res = await call<ErrorEnvelope>(svc.url, "/v1/dmse/analyze", {
      key: publishable,
      body: dmse,
      headers: { origin: OTHER_ORIGIN },
    });
    expect(res.status).toBe(403);
    expect(res.json.error.code).toBe("forbidden");
    expect(res.headers.get("access-control-allow-origin")).toBe(OTHER_ORIGIN);
    expect(res.headers.get("access-control-expose-headers")).toContain("X-Request-Id");
    expect(res.headers.get("vary")).toContain("Origin");
  });

  it("an unknown or mistyped key from an allowed origin: 401 readable by the page", async () => {
    const res = await call<ErrorEnvelope>(svc.url, "/v1/dmse/analyze", {
      key: mistypedKey(publishable),
      body: dmse,
      headers: { origin: ORIGIN },
    });
    expect(res.status).toBe(401);
    expect(res.headers.get("access-control-allow-origin")).toBe(ORIGIN);
  });

  it("a rate-limited browser call: 429 readable by the page, Retry-After exposed", async () => {
    const tight = await svc.seed.caller("enterprise", { ratePerSecond: 1, burst: 1 });
    const key = (await svc.seed.key("publishable", tight.account.id, [ORIGIN])).key;
    const statuses: number[] = [];
    let limited: Headers | undefined;
    for (let i = 0; i < 5 && !limited; i++) {
      const res = await call<ErrorEnvelope>(svc.url, "/v1/dmse/analyze", {
        key,
        body: dmse,
        headers: { origin: ORIGIN },
      });
      statuses.push(res.status);
      if (res.status === 429) limited = res.headers;
    }
    expect(statuses).toContain(429);
    expect(limited?.get("access-control-allow-origin")).toBe(ORIGIN);
    expect(limited?.get("access-control-expose-headers")).toContain("Retry-After");
    expect(limited?.get("retry-after")).toMatch(/^\d+$/);
  });

  it("a bad body from an allowed origin: 400 readable by the page", async () => {
    const res = await call<ErrorEnvelope>(svc.url, "/v1/dmse/analyze", {
      key: publishable,
      body: { responseLatencySeconds: -1 },
      headers: { origin: ORIGIN },
    });
    expect(res.status).toBe(400);
    expect(res.headers.get("access-control-allow-origin")).toBe(ORIGIN);
  });

  it("an origin no key allows gets no CORS headers on the refusal (the page cannot read it)", async () => {
    const res = await call<ErrorEnvelope>(svc.url, "/v1/dmse/analyze", {
      key: publishable,
      body: dmse,
      headers: { origin: "https://nobody-allows-this.example.com" },
    });
    expect(res.status).toBe(403);
    expect(res.headers.get("access-control-allow-origin")).toBeNull();
  });
});

describe("CORS preflight on /v1/dmse/analyze", () => {
  it("answers an allow-listed origin", async () => {
    const res = await fetch(`${svc.url}/v1/dmse/analyze`, {
      method: "OPTIONS",
      headers: {
        origin: ORIGIN,
        "access-control-request-method": "POST",
        "access-control-request-headers": "authorization, content-type",
      },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get("access-control-allow-origin")).toBe(ORIGIN);
    expect(res.headers.get("access-control-allow-methods")).toBe("POST");
    expect(res.headers.get("access-control-allow-headers")?.toLowerCase()).toContain("authorization");
  });
  it("refuses any other origin", async () => {
    const res = await fetch(`${svc.url}/v1/dmse/analyze`, {
      method: "OPTIONS",
      headers: { origin: "https://evil.example.com", "access-control-request-method": "POST" },
    });
    expect(res.status).toBe(403);
    expect(res.headers.get("access-control-allow-origin")).toBeNull();
  });
});

describe("other key kinds", () => {
  it.each([["/v1/dmse/analyze", dmse], ...others])("secret keys may call %s", async (path, body) => {
    const res = await call<AnalysisResponse>(svc.url, path, { key: secret, body });
    expect(res.status).toBe(200);
  });
  it.each([["/v1/dmse/analyze", dmse], ...others])(
    "organization keys are refused on %s",
    async (path, body) => {
      const res = await call<ErrorEnvelope>(svc.url, path, { key: organization, body });
      expect(res.status).toBe(403);
    },
  );
  it("no key is 401 unauthorized, an unknown key 401 invalid_token", async () => {
    expect(
      (await call<ErrorEnvelope>(svc.url, "/v1/relapse/predict", { body: { assessments: [] } })).json.error
        .code,
    ).toBe("unauthorized");
    const forged = `svc_sk_test_${"A".repeat(38)}`;
    expect(
      (await call<ErrorEnvelope>(svc.url, "/v1/relapse/predict", { key: forged, body: { assessments: [] } }))
        .status,
    ).toBe(401);
  });
  it("never logs sessionRef or body values", async () => {
    const marker = "SESSION-MARKER-91c2";
    await call<DmseAnalysisResponse>(svc.url, "/v1/dmse/analyze", {
      key: secret,
      body: { ...dmse, sessionRef: marker },
    });
    expect(svc.logs.join("\n")).not.toContain(marker);
  });
});
