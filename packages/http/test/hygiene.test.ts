import { z } from "@hono/zod-openapi";
import { describe, expect, it } from "vitest";
import { decimalInteger, inspectPath, inspectQuery } from "../src/hygiene.js";

/** The screen's URL checks and query numbers (the JSON screen's own are in `@svc/json-screen`). */

describe("inspectPath and inspectQuery", () => {
  const url = (rest: string) => `http://127.0.0.1:3000${rest}`;
  it("names the route's parameter", () => {
    expect(inspectPath(url("/v1/labs/orders/labord_%00/cancel"), "/v1/labs/orders/{id}/cancel")).toEqual([
      expect.objectContaining({ path: "id", message: expect.stringMatching(/NUL/) }),
    ]);
    expect(inspectPath(url("/v1/mse/%ED%A0%80"), "/v1/mse/{visitId}")[0]?.path).toBe("visitId");
    expect(inspectPath(url("/v1/x/%zz"), undefined)[0]?.path).toBe("path");
    expect(inspectPath(url("/v1/mse/a%20b?x=%00"), "/v1/mse/{visitId}")).toEqual([]);
  });
  it("decodes query names and values as the router does", () => {
    expect(inspectQuery(url("/v1/x?patientRef=a%00b&limit=5"))).toEqual([
      expect.objectContaining({ path: "patientRef", kind: "value" }),
    ]);
    expect(inspectQuery(url("/v1/x?a%01=1"))[0]).toMatchObject({ path: "a\\u0001", kind: "key" });
    expect(inspectQuery(url("/v1/x?v=%FF"))[0]?.message).toMatch(/UTF-8/);
    expect(inspectQuery(url("/v1/x?v=a+b%20c%F0%9F%98%80"))).toEqual([]);
    expect(inspectQuery(url("/v1/x#frag%00"))).toEqual([]);
  });
});

describe("decimalInteger", () => {
  const schema = z.object({ limit: decimalInteger({ min: 1, max: 200, fallback: 50 }) });
  it.each([
    ["5", 5],
    ["007", 7],
    ["200", 200],
    [undefined, 50],
  ])("%j -> %j", (limit, expected) => {
    expect(schema.parse({ limit })).toEqual({ limit: expected });
  });
  it.each([
    "0x10",
    "1e2",
    " 5",
    "5 ",
    "+5",
    "5.0",
    "-1",
    "",
    "0",
    "201",
    "Infinity",
    "NaN",
    "1_0",
    "٣",
    "9".repeat(400),
  ])("%j is refused", (limit) => {
    expect(schema.safeParse({ limit }).success).toBe(false);
  });
});
