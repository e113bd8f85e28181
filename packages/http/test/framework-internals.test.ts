import { readFileSync, realpathSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { z } from "@hono/zod-openapi";
import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import {
  answerJsonWith,
  CHECKED_VERSIONS,
  cacheBodyText,
  lastRegisteredRoute,
  preferSyncParse,
} from "../src/framework-internals.js";

const PACKAGE_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** The installed version of a dependency of @svc/http (or, with `beside`, of that dependency's own dependency). */
function installedVersion(name: string, beside?: string): string {
  const dir = beside
    ? path.join(realpathSync(path.join(PACKAGE_DIR, "node_modules", beside)), "..", "..", name)
    : path.join(PACKAGE_DIR, "node_modules", name);
  return (JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8")) as { version: string }).version;
}

/** Installed versions that differ from the ones `framework-internals.ts` was checked against. */
export function versionDrift(installed: Record<string, string>): string[] {
  return Object.entries(CHECKED_VERSIONS)
    .filter(([name, version]) => installed[name] !== version)
    .map(
      ([name, version]) =>
        `${name} is ${installed[name] ?? "missing"}, framework-internals.ts was checked against ${version}: ` +
        "re-check each function there (and this file's tests), then update CHECKED_VERSIONS",
    );
}

describe("framework internals, pinned to the versions they were checked against", () => {
  it("the installed Hono, zod, @hono/zod-openapi and @hono/zod-validator are the checked versions", () => {
    const installed = {
      hono: installedVersion("hono"),
      zod: installedVersion("zod"),
      "@hono/zod-openapi": installedVersion("@hono/zod-openapi"),
      "@hono/zod-validator": installedVersion("@hono/zod-validator", "@hono/zod-openapi"),
    };
    expect(versionDrift(installed)).toEqual([]);
  });

  it("the version check names a changed version", () => {
    expect(versionDrift({ ...CHECKED_VERSIONS, hono: "4.14.0" })).toEqual([
      "hono is 4.14.0, framework-internals.ts was checked against 4.13.19: re-check each function there (and this file's tests), then update CHECKED_VERSIONS",
    ]);
  });

  it("a cached body text is what c.req.text() answers, and c.req.json() answers the value given", async () => {
    const app = new Hono();
    app.post("/x", async (c) => {
      await c.req.arrayBuffer();
      cacheBodyText(c, '{"a":1}');
      answerJsonWith(c, { parsed: true });
      return c.json({ text: await c.req.text(), json: await c.req.json() });
    });
    const res = await app.request("/x", { method: "POST", body: '{"a":2}' });
    expect(await res.json()).toEqual({ text: '{"a":1}', json: { parsed: true } });
  });

  it("the route registered last is the operation's final handler", () => {
    const app = new Hono();
    const handler = () => new Response("ok");
    app.get("/a", (_c, next) => next(), handler);
    expect(lastRegisteredRoute(app.routes)).toMatchObject({ method: "GET", path: "/a", handler });
  });

  it("a schema preferring the synchronous parse answers safeParseAsync as before", async () => {
    const schema = z.object({ n: z.number() });
    let syncCalls = 0;
    const safeParse = schema.safeParse.bind(schema);
    schema.safeParse = ((data: unknown, params?: never) => {
      syncCalls++;
      return safeParse(data, params);
    }) as typeof schema.safeParse;
    preferSyncParse(schema);
    expect(await schema.safeParseAsync({ n: 1 })).toEqual({ success: true, data: { n: 1 } });
    expect(syncCalls).toBe(1);
  });
});
