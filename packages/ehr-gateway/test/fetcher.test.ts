import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import type { AddressInfo } from "node:net";
import { selfSignedLoopbackCert } from "@svc/testkit";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type EhrAddressPolicy, ehrGetJson, fetchFhir, fhirQueryUrl } from "../src/index.js";

/** A scripted EHR on loopback: each path answers its own way. */
let server: Server;
let base: string;
const seen: { url: string; headers: IncomingHttpHeaders }[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    seen.push({ url: req.url ?? "", headers: req.headers });
    const path = (req.url ?? "").split("?")[0];
    if (path === "/fhir/Patient/p1") {
      res.writeHead(200, { "content-type": "application/fhir+json" });
      res.end(JSON.stringify({ resourceType: "Patient", id: "p1" }));
    } else if (path === "/big") {
      res.writeHead(200, { "content-type": "application/json", "content-length": String(2_000_000) });
      res.end("x".repeat(2_000_000));
    } else if (path === "/big-chunked") {
      res.writeHead(200, { "content-type": "application/json" });
      for (let i = 0; i < 100; i++) res.write("x".repeat(20_000));
      res.end();
    } else if (path === "/slow") {
      setTimeout(() => res.end("{}"), 2_000);
    } else if (path === "/redirect") {
      res.writeHead(302, { location: "http://10.0.0.1/fhir/Patient/p1" });
      res.end();
    } else if (path === "/not-json") {
      res.end("<html>");
    } else if (path === "/deep") {
      res.end(`{"resourceType":"Bundle","entry":${"[".repeat(100_000)}${"]".repeat(100_000)}}`);
    } else if (path === "/nul") {
      res.end('{"resourceType":"Patient","id":"a\\u0000b"}');
    } else if (path === "/surrogate") {
      res.end('{"resourceType":"Patient","id":"\\udc00"}');
    } else if (path === "/latin1") {
      res.end(Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xe9, 0x22, 0x7d]));
    } else {
      res.writeHead(404);
      res.end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const testLoopback: EhrAddressPolicy = { mode: "test", allowPrivate: false, allowLoopback: true };
const live: EhrAddressPolicy = { mode: "live", allowPrivate: false, allowLoopback: true };

describe("the EHR fetcher (webhook address rules)", () => {
  it("a test-mode client allowed loopback gets the FHIR resource, sending its bearer token and Accept fhir+json", async () => {
    const result = await fetchFhir(`${base}/fhir`, "Patient/p1", "tok-123", testLoopback);
    expect(result).toEqual({ ok: true, status: 200, json: { resourceType: "Patient", id: "p1" } });
    const request = seen.at(-1);
    expect(request?.headers.authorization).toBe("Bearer tok-123");
    expect(request?.headers.accept).toBe("application/fhir+json");
  });

  it("refuses loopback for a test-mode client when the operator does not allow it, and always in live mode", async () => {
    const before = seen.length;
    expect(
      await fetchFhir(`${base}/fhir`, "Patient/p1", "t", { ...testLoopback, allowLoopback: false }),
    ).toEqual({
      ok: false,
      reason: "refused_address",
    });
    // Live mode: http is refused outright, https on loopback by address.
    expect(await fetchFhir(`${base}/fhir`, "Patient/p1", "t", live)).toMatchObject({ ok: false });
    const port = new URL(base).port;
    expect(await fetchFhir(`https://127.0.0.1:${port}/fhir`, "Patient/p1", "t", live)).toEqual({
      ok: false,
      reason: "refused_address",
    });
    expect(
      await ehrGetJson("https://169.254.169.254/latest", { ...live, allowPrivate: true }, undefined),
    ).toEqual({
      ok: false,
      reason: "refused_address",
    });
    expect(seen.length).toBe(before);
  });

  it("a live-mode client the operator allowed private addresses is served over https only", async () => {
    const { cert, key } = selfSignedLoopbackCert();
    const tls = createHttpsServer({ cert, key }, (_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end('{"keys":[]}');
    });
    await new Promise<void>((resolve) => tls.listen(0, "127.0.0.1", resolve));
    const port = (tls.address() as AddressInfo).port;
    try {
      const operatorAllowed: EhrAddressPolicy = { mode: "live", allowPrivate: true, allowLoopback: false };
      expect(
        await ehrGetJson(`https://127.0.0.1:${port}/jwks`, operatorAllowed, undefined, { trustedCa: cert }),
      ).toEqual({
        ok: true,
        status: 200,
        json: { keys: [] },
      });
      expect(await ehrGetJson(`http://127.0.0.1:${port}/jwks`, operatorAllowed, undefined)).toEqual({
        ok: false,
        reason: "invalid_url",
      });
    } finally {
      tls.closeAllConnections();
      await new Promise((resolve) => tls.close(resolve));
    }
  });

  it("refuses a name that resolves to a private address (checked before connecting, then pinned)", async () => {
    const result = await ehrGetJson("https://ehr.example.test/jwks", live, undefined, {
      resolve: async () => [{ address: "10.1.2.3", family: 4 }],
    });
    expect(result).toEqual({ ok: false, reason: "refused_address" });
  });

  it("refuses an oversized answer, declared or chunked", async () => {
    expect(await ehrGetJson(`${base}/big`, testLoopback, undefined, { maxBytes: 1_000_000 })).toEqual({
      ok: false,
      reason: "too_large",
    });
    expect(await ehrGetJson(`${base}/big-chunked`, testLoopback, undefined, { maxBytes: 1_000_000 })).toEqual(
      {
        ok: false,
        reason: "too_large",
      },
    );
  });

  it("gives up on a slow EHR at the time limit", async () => {
    const started = Date.now();
    expect(await ehrGetJson(`${base}/slow`, testLoopback, undefined, { timeoutMs: 200 })).toEqual({
      ok: false,
      reason: "timeout",
    });
    expect(Date.now() - started).toBeLessThan(1_500);
  });

  it("never follows a redirect (here to a private address)", async () => {
    expect(await ehrGetJson(`${base}/redirect`, testLoopback, "t")).toEqual({
      ok: false,
      reason: "redirect",
      status: 302,
    });
  });

  it("says what went wrong with an answer that is not usable", async () => {
    expect(await ehrGetJson(`${base}/not-json`, testLoopback, undefined)).toEqual({
      ok: false,
      reason: "not_json",
      status: 200,
    });
    // The input screen of every request body (decision 150), here on what the EHR sent.
    for (const path of ["deep", "nul", "surrogate", "latin1"])
      expect(await ehrGetJson(`${base}/${path}`, testLoopback, undefined), path).toEqual({
        ok: false,
        reason: "unreadable",
        status: 200,
      });
    expect(await ehrGetJson(`${base}/missing`, testLoopback, undefined)).toEqual({
      ok: false,
      reason: "http_status",
      status: 404,
    });
  });
});

describe("fhirQueryUrl", () => {
  it("puts a relative query under the server's base", () => {
    expect(fhirQueryUrl("https://ehr.example/fhir", "MedicationRequest?patient=p1&status=active")).toBe(
      "https://ehr.example/fhir/MedicationRequest?patient=p1&status=active",
    );
    expect(fhirQueryUrl("https://ehr.example/fhir/", "Patient/p1")).toBe(
      "https://ehr.example/fhir/Patient/p1",
    );
  });

  it("never names a URL outside the FHIR server's base, whatever the query (property)", () => {
    const base = "https://ehr.example/fhir/r4";
    const pieces = fc.constantFrom(
      "/",
      "?",
      "#",
      "..",
      ".",
      "//",
      "%2e%2e",
      "\\",
      "@",
      ":",
      "Patient",
      "evil.example",
      "%2F",
      " ",
      "\t",
    );
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.array(pieces).map((p) => p.join("")),
        ),
        (query) => {
          const url = fhirQueryUrl(base, query);
          if (url === null) return;
          const parsed = new URL(url);
          expect(parsed.origin).toBe("https://ehr.example");
          expect(parsed.pathname.startsWith("/fhir/r4/")).toBe(true);
          expect(parsed.pathname.split("/")).not.toContain("..");
        },
      ),
      { numRuns: 2000 },
    );
  });

  it("refuses a query that would leave the FHIR server", () => {
    for (const query of [
      "//evil.example/Patient",
      "/Patient/p1",
      "https://evil.example/Patient",
      "Patient/../../admin",
      "Patient/%2e%2e/%2e%2e/admin",
      "Patient/%2E%2E/%2e%2E/%2e%2e/admin",
      "patient/p1",
      "",
      "Patient/p1 x",
    ])
      expect(fhirQueryUrl("https://ehr.example/fhir", query)).toBeNull();
    expect(fhirQueryUrl("not a url", "Patient/p1")).toBeNull();
  });
});
