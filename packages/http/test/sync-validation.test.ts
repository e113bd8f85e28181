import { createRoute, z } from "@hono/zod-openapi";
import { describe, expect, it } from "vitest";
import { preferSyncRequestParsing } from "../src/sync-validation.js";

/** Request schemas answer safeParseAsync with the synchronous parse, and nothing else changes. */
function routeWith(schema: z.ZodType) {
  return createRoute({
    method: "post",
    path: "/x",
    request: { body: { content: { "application/json": { schema } } } },
    responses: { 200: { description: "ok" } },
  });
}

describe("preferSyncRequestParsing", () => {
  it("gives the same answers as before for valid and invalid bodies", async () => {
    const schema = z.object({ n: z.number().min(0), at: z.string().refine((v) => v.startsWith("2026")) });
    const before = [
      await schema.safeParseAsync({ n: 1, at: "2026-01-01" }),
      await schema.safeParseAsync({ n: -1, at: "x" }),
    ];
    preferSyncRequestParsing(routeWith(schema));
    const after = [
      await schema.safeParseAsync({ n: 1, at: "2026-01-01" }),
      await schema.safeParseAsync({ n: -1, at: "x" }),
    ];
    expect(after).toEqual(before);
    expect(after[0]?.success).toBe(true);
    expect(after[1]?.success).toBe(false);
    expect(after[1]?.error?.issues.map((i) => i.path.join("."))).toEqual(["n", "at"]);
  });

  it("still runs an asynchronous refinement (falls back to the asynchronous parse)", async () => {
    const schema = z.object({ v: z.string().refine(async (v) => v === "ok") });
    preferSyncRequestParsing(routeWith(schema));
    expect((await schema.safeParseAsync({ v: "ok" })).success).toBe(true);
    expect((await schema.safeParseAsync({ v: "no" })).success).toBe(false);
  });
});
