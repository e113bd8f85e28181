import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { type PackageManifest, workspaceClosure, workspaceManifests } from "@svc/testkit/workspace";
import { describe, expect, it } from "vitest";

/**
 * The boundaries decision 103 draws, checked on the manifests and sources so that a slip fails
 * CI: no app depends on an API app except the launcher CLI (which starts them) and the bench
 * (which reads their request schemas), and `@svc/records` reaches no route framework, queue or
 * model, directly or through a package that does; nor `@svc/http` itself, whose refusal and cursor
 * format it once imported (decision 206) and whose JSON screen the EHR gateway once imported
 * (decision 219), by any path.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const API_APPS = ["@svc/intelligence-api", "@svc/mse-record-api", "@svc/webhook-worker", "@svc/dashboard"];
const MAY_DEPEND_ON_APPS = new Set(["@svc/cli", "@svc/bench", "@svc/testkit"]);
const NOT_IN_RECORDS =
  /^(hono|@hono\/|bullmq|ioredis|ai$|@ai-sdk\/|@modelcontextprotocol\/|@svc\/(http|delivery|model|agents|intelligence-api|mse-record-api|dashboard|webhook-worker|cli)$)/;

type Manifest = PackageManifest;

const manifests = workspaceManifests(root);
const byDir = new Map([...manifests.values()].map((m) => [m.dir, m]));

function manifest(dir: string): Manifest {
  const found = byDir.get(dir);
  if (!found) throw new Error(`no workspace package in ${dir}`);
  return found;
}

/** The forbidden dependencies of every package in `name`'s workspace closure, with the path to each. */
function forbiddenInClosure(name: string, manifests: Map<string, Manifest>): string[] {
  return [...workspaceClosure(name, manifests)].flatMap(([pkg, via]) =>
    Object.keys(manifests.get(pkg)?.dependencies ?? {})
      .filter((dep) => NOT_IN_RECORDS.test(dep))
      .map((dep) => `${via} > ${dep}`),
  );
}

/** The API apps a package depends on, where it is not one allowed to. */
function appDependencies(m: Manifest): string[] {
  if (MAY_DEPEND_ON_APPS.has(m.name)) return [];
  const deps = Object.keys({ ...m.dependencies, ...m.devDependencies });
  return deps.filter((dep) => API_APPS.includes(dep) && dep !== m.name);
}

/** Module specifiers in a source text that `@svc/records` must not import. */
function forbiddenImports(source: string): string[] {
  const specifiers = [...source.matchAll(/\bfrom\s+"([^"]+)"|\bimport\(\s*"([^"]+)"\s*\)/g)].map(
    (m) => (m[1] ?? m[2]) as string,
  );
  return specifiers.filter((s) => NOT_IN_RECORDS.test(s));
}

function sourcesOf(dir: string): string[] {
  return readdirSync(path.join(root, dir), { recursive: true, encoding: "utf8" })
    .filter((f) => /\.tsx?$/.test(f))
    .map((f) => path.join(dir, f));
}

/**
 * The values an app's `src/index.ts` exports (type-only exports aside): what starts the app (the
 * bench reads the analysis request schemas from the intelligence API's routes), so a data-access
 * function exported for another app fails CI. The operator CLI imports no app at all
 * (decision 166): the lab results it reads are validated by `@svc/http`'s shared schema.
 */
const APP_ENTRY_VALUES: Record<string, string[]> = {
  "apps/dashboard": ["buildDashboard"],
  "apps/mse-record-api": ["buildMseRecordApi"],
  "apps/intelligence-api": ["buildIntelligenceApi"],
};

/**
 * The package specifiers the source files reached from `entry` import, following its relative
 * imports within the same package (what that entry's bundle is made of).
 */
function importsReachedFrom(entry: string): Map<string, string> {
  const reached = new Map<string, string>();
  const seen = new Set<string>();
  const queue = [entry];
  for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
    if (seen.has(file)) continue;
    seen.add(file);
    const source = readFileSync(path.join(root, file), "utf8");
    for (const m of source.matchAll(/\bfrom\s+"([^"]+)"|\bimport\(\s*"([^"]+)"\s*\)/g)) {
      const specifier = (m[1] ?? m[2]) as string;
      if (specifier.startsWith("."))
        queue.push(path.join(path.dirname(file), specifier.replace(/\.js$/, ".ts")));
      else if (!reached.has(specifier)) reached.set(specifier, file);
    }
  }
  return reached;
}

/** Names exported as values by an entry module's source (`export type` and `type X` entries skipped). */
function valueExports(source: string): string[] {
  const names: string[] = [];
  for (const m of source.matchAll(/^export\s+(type\s+)?\{([^}]*)\}/gm)) {
    if (m[1]) continue;
    for (const entry of (m[2] as string).split(",")) {
      const name = entry.trim();
      if (name && !name.startsWith("type ")) names.push(name.split(/\s+as\s+/).pop() as string);
    }
  }
  for (const m of source.matchAll(/^export\s+(?:async\s+)?(?:function|const|class|let)\s+(\w+)/gm)) {
    names.push(m[1] as string);
  }
  if (/^export\s+\*/m.test(source)) names.push("*");
  return names.sort();
}

describe("package boundaries (decision 103)", () => {
  const workspaces = [...byDir.keys()];

  it("no package or app depends on an app, except the launcher CLI, the bench and the test kit", () => {
    expect(workspaces).toContain("apps/dashboard");
    const found = workspaces.flatMap((dir) =>
      appDependencies(manifest(dir)).map((dep) => `${dir} -> ${dep}`),
    );
    expect(found).toEqual([]);
  });

  it("@svc/records depends on no route framework, queue or model, and imports none", () => {
    const m = manifest("packages/records");
    expect(Object.keys({ ...m.dependencies }).filter((d) => NOT_IN_RECORDS.test(d))).toEqual([]);
    const files = sourcesOf("packages/records/src");
    expect(files.length).toBeGreaterThan(5);
    const found = files.flatMap((f) =>
      forbiddenImports(readFileSync(path.join(root, f), "utf8")).map((s) => `${f}: ${s}`),
    );
    expect(found).toEqual([]);
  });

  it("no package @svc/records depends on, directly or through others, depends on a route framework, queue or model", () => {
    expect(workspaceClosure("@svc/records", manifests).size).toBeGreaterThan(3);
    expect(forbiddenInClosure("@svc/records", manifests)).toEqual([]);
  });

  it("@svc/records reaches @svc/http by no path and imports none of it: its refusal is @svc/refusal's, the gateway's screen @svc/json-screen's (decisions 206 and 219)", () => {
    const m = manifest("packages/records");
    expect(Object.keys({ ...m.dependencies, ...m.devDependencies })).not.toContain("@svc/http");
    expect(Object.keys({ ...m.dependencies })).toContain("@svc/refusal");
    const closure = workspaceClosure("@svc/records", manifests);
    expect(closure.get("@svc/ehr-gateway")).toBe("@svc/records > @svc/ehr-gateway");
    expect(closure.get("@svc/json-screen")).toBe("@svc/records > @svc/ehr-gateway > @svc/json-screen");
    expect(closure.has("@svc/http")).toBe(false);
    // Nor a source of records or of a package it reaches, declared or not.
    const files = [...closure.keys()].flatMap((name) =>
      sourcesOf(path.join(manifests.get(name)?.dir as string, "src")),
    );
    expect(files).toContain("packages/ehr-gateway/src/fetcher.ts");
    const found = files.filter((f) =>
      /from\s+"@svc\/http(\/[^"]*)?"/.test(readFileSync(path.join(root, f), "utf8")),
    );
    expect(found).toEqual([]);
  });

  it("an app's entry exports only what starts it (and the API's request schemas for the CLI and bench)", () => {
    const apps = workspaces.filter((dir) => dir.startsWith("apps/"));
    const found = Object.fromEntries(
      apps
        .filter((dir) => APP_ENTRY_VALUES[dir] !== undefined)
        .map((dir) => [dir, valueExports(readFileSync(path.join(root, dir, "src/index.ts"), "utf8"))]),
    );
    expect(found).toEqual(APP_ENTRY_VALUES);
  });

  it("the operator CLI (pnpm svc) imports no app: only the launcher, which starts them, does", () => {
    const reached = importsReachedFrom("tooling/cli/src/main.ts");
    expect(reached.size).toBeGreaterThan(5);
    const apps = [...reached].filter(([specifier]) =>
      API_APPS.some((app) => specifier === app || specifier.startsWith(`${app}/`)),
    );
    expect(apps.map(([specifier, file]) => `${file}: ${specifier}`)).toEqual([]);
    // The launcher does import the apps, so the walk does find them where they are.
    expect([...importsReachedFrom("tooling/cli/src/start.ts").keys()]).toContain("@svc/intelligence-api");
  });

  it("the checks catch the mistakes they guard against", () => {
    const dashboardAsBefore: Manifest = {
      name: "@svc/dashboard",
      dependencies: { "@svc/db": "workspace:*", "@svc/intelligence-api": "workspace:*" },
    };
    expect(appDependencies(dashboardAsBefore)).toEqual(["@svc/intelligence-api"]);
    expect(appDependencies({ name: "@svc/cli", dependencies: { "@svc/intelligence-api": "1" } })).toEqual([]);
    // Records reaching a queue two packages away, as when the EHR gateway depended on delivery.
    const gatewayOnDelivery: Manifest[] = [
      {
        name: "@svc/records",
        dependencies: { "@svc/db": "workspace:*", "@svc/ehr-gateway": "workspace:*" },
      },
      { name: "@svc/db", dependencies: { "drizzle-orm": "^1" } },
      {
        name: "@svc/ehr-gateway",
        dependencies: { "@svc/db": "workspace:*", "@svc/outbound": "workspace:*" },
      },
      { name: "@svc/outbound", dependencies: { bullmq: "~6", ioredis: "^6", hono: "^4" } },
    ];
    const chain = new Map(gatewayOnDelivery.map((m) => [m.name, m]));
    expect(forbiddenInClosure("@svc/records", chain)).toEqual([
      "@svc/records > @svc/ehr-gateway > @svc/outbound > bullmq",
      "@svc/records > @svc/ehr-gateway > @svc/outbound > ioredis",
      "@svc/records > @svc/ehr-gateway > @svc/outbound > hono",
    ]);
    chain.set("@svc/outbound", { name: "@svc/outbound", dependencies: { "@svc/webhooks": "1" } });
    expect(forbiddenInClosure("@svc/records", chain)).toEqual([]);
    // The HTTP package reached by any path fails, through the gateway as well (decision 219),
    // and so does what it brings.
    chain.set("@svc/http", { name: "@svc/http", dependencies: { hono: "~4" } });
    chain.set("@svc/ehr-gateway", {
      name: "@svc/ehr-gateway",
      dependencies: { "@svc/http": "workspace:*", "@svc/json-screen": "workspace:*" },
    });
    chain.set("@svc/json-screen", { name: "@svc/json-screen" });
    expect(forbiddenInClosure("@svc/records", chain)).toEqual([
      "@svc/records > @svc/ehr-gateway > @svc/http",
      "@svc/records > @svc/ehr-gateway > @svc/http > hono",
    ]);
    const source = [
      'import { Hono } from "hono";',
      'import { Queue } from "bullmq";',
      'import { generateText } from "ai";',
      'import type { Db } from "@svc/db";',
      'import { ApiError } from "@svc/http";',
      'const m = await import("@modelcontextprotocol/sdk/server/mcp.js");',
    ].join("\n");
    expect(
      valueExports(
        'export { buildDashboard, type DashboardOptions } from "./app.js";\nexport { listAudit, recordAudit } from "./audit.js";\nexport type { X } from "./x.js";\nexport * from "./y.js";',
      ),
    ).toEqual(["*", "buildDashboard", "listAudit", "recordAudit"]);
    expect(forbiddenImports(source)).toEqual([
      "hono",
      "bullmq",
      "ai",
      "@svc/http",
      "@modelcontextprotocol/sdk/server/mcp.js",
    ]);
  });
});
