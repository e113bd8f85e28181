/**
 * No Docker engine or Kubernetes cluster runs where this project is developed or tested, so the
 * deployment files are checked against the code instead: environment names against the env
 * schema, probe paths against the routes, ports against each other, container commands against
 * the build's entry points, and nginx routing against the apps' own route paths.
 */
import { execFileSync } from "node:child_process";
import {
  chmodSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { healthzRoute, readyzRoute } from "@svc/http";
import { parseEnv, ServiceEnvSchema } from "@svc/http/runtime";
import { afterAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import {
  APPS,
  type AppName,
  appFolders,
  appPackageName,
  deployDir,
  dockerfile,
  dockerStages,
  instructions,
  MIGRATE_COMMAND,
  repoRoot,
  runtimeStage,
} from "./apps.js";

const chartDir = path.join(deployDir, "helm", "clinical-intelligence");
const templatesDir = path.join(chartDir, "templates");

const read = (file: string) => readFileSync(file, "utf8");
const composeText = read(path.join(deployDir, "compose.yaml"));
const nginxConf = read(path.join(deployDir, "nginx", "nginx.conf"));
const templates = Object.fromEntries(
  readdirSync(templatesDir)
    .filter((f) => f.endsWith(".yaml") || f.endsWith(".tpl"))
    .map((f) => [f, read(path.join(templatesDir, f))]),
) as Record<string, string>;
const template = (name: string): string => {
  const text = templates[name];
  if (text === undefined) throw new Error(`missing template ${name}`);
  return text;
};

type Json = Record<string, unknown>;
const compose = parse(composeText, { merge: true }) as { services: Record<string, Json> };
const values = parse(read(path.join(chartDir, "values.yaml"))) as Json;
const chart = parse(read(path.join(chartDir, "Chart.yaml"))) as Json;

const INFRA_SERVICES = new Set(["postgres", "redis", "nginx"]);
const PORT = 3000;

const schemaKeys = new Set([...Object.keys(ServiceEnvSchema.shape), "NODE_ENV"]);

/** A value at a dotted path of a parsed YAML document. */
function at(doc: unknown, dotted: string): unknown {
  let node: unknown = doc;
  for (const part of dotted.split(".")) {
    if (node === null || typeof node !== "object" || !(part in node)) return undefined;
    node = (node as Json)[part];
  }
  return node;
}

/** The lines indented under the first line matching `header` (text check for templated YAML). */
function blockUnder(text: string, header: RegExp): string {
  const lines = text.split("\n");
  const start = lines.findIndex((line) => header.test(line));
  if (start < 0) return "";
  const indent = (line: string) => line.length - line.trimStart().length;
  const base = indent(lines[start] as string);
  const body: string[] = [];
  for (const line of lines.slice(start + 1)) {
    if (line.trim() !== "" && indent(line) <= base) break;
    body.push(line);
  }
  return body.join("\n");
}

/** Compose `environment:` as a map, with `${VAR:-default}` replaced by its default. */
function composeEnv(service: Json): Record<string, string> {
  const raw = service.environment ?? {};
  const entries: [string, string][] = Array.isArray(raw)
    ? raw.map((item: string) => {
        const eq = item.indexOf("=");
        return eq < 0 ? [item, ""] : [item.slice(0, eq), item.slice(eq + 1)];
      })
    : Object.entries(raw as Json).map(([k, v]) => [k, v === null ? "" : String(v)]);
  const interpolate = (v: string) =>
    v.replace(/\$\{(\w+)(?::?-([^}]*))?\}/g, (_m, _name: string, fallback?: string) => fallback ?? "");
  return Object.fromEntries(entries.map(([k, v]) => [k, interpolate(v)]));
}

const appServices = Object.entries(compose.services).filter(([name]) => !INFRA_SERVICES.has(name));

/** Helm env entries from the shared env helper: name, and either a secret key or a values path. */
const helmEnvBlock = (() => {
  const match = template("_helpers.tpl").match(
    /\{\{-? define "clinical-intelligence\.env" -?\}\}([\s\S]*?)\{\{-? end -?\}\}/,
  );
  if (!match?.[1]) throw new Error("no clinical-intelligence.env helper");
  return match[1];
})();
const helmSecretRefs = [
  ...helmEnvBlock.matchAll(
    /- name: (\w+)\n\s+valueFrom:\n\s+secretKeyRef:\n\s+name: .*\n\s+key: (\w+)(\n\s+optional: true)?/g,
  ),
].map((m) => ({ name: m[1] as string, key: m[2] as string, optional: Boolean(m[3]) }));
const helmPlainEnv = [...helmEnvBlock.matchAll(/- name: (\w+)\n\s+value: (.*)/g)].map((m) => ({
  name: m[1] as string,
  value: (m[2] as string).trim(),
}));

const deploymentFiles = Object.keys(APPS).map((app) => `deployment-${app}.yaml`);

describe("environment variables", () => {
  it("every variable compose sets on an app is one the service reads", () => {
    expect(appServices.map(([name]) => name).sort()).toEqual(
      ["intelligence-api", "migrate", "mse-record-api", "webhook-worker", "dashboard"].sort(),
    );
    for (const [name, service] of appServices) {
      const env = composeEnv(service);
      expect(Object.keys(env).length, name).toBeGreaterThan(0);
      for (const key of Object.keys(env)) expect(schemaKeys, `${name}: ${key}`).toContain(key);
    }
  });

  it("compose's app environment passes the service's own validation", () => {
    for (const [name, service] of appServices) {
      const env = composeEnv(service);
      expect(env.DATABASE_URL, name).toBe("postgres://svc:svc@postgres:5432/svc");
      expect(env.REDIS_URL, name).toBe("redis://redis:6379");
      const parsed = parseEnv(env);
      expect(parsed.PORT, name).toBe(PORT);
      expect(parsed.PUBLIC_BASE_URL, name).toBe("http://localhost:8080");
    }
  });

  it("every variable in the Helm templates' env is one the service reads", () => {
    const names = Object.values(templates).flatMap((text) =>
      [...text.matchAll(/^\s*- name: ([A-Z][A-Z0-9_]*)\s*$/gm)].map((m) => m[1] as string),
    );
    expect(names).toEqual(expect.arrayContaining(["DATABASE_URL", "REDIS_URL", "MODEL_API_KEY", "PORT"]));
    for (const name of names) expect(schemaKeys, name).toContain(name);
  });

  it("every Helm workload takes its env from the shared helper", () => {
    for (const file of [...deploymentFiles, "migration-job.yaml"]) {
      expect(blockUnder(template(file), /^\s+env:\s*$/), file).toMatch(
        /include "clinical-intelligence\.env" \. \| nindent \d+/,
      );
    }
  });

  it("the Helm values' defaults give an environment the service accepts", () => {
    const env: Record<string, string> = {
      DATABASE_URL: "postgres://svc:svc@db.example:5432/svc",
      REDIS_URL: "redis://redis.example:6379",
    };
    for (const { name, value } of helmPlainEnv) {
      const ref = value.match(/^\{\{ \.Values\.([\w.]+) \| quote \}\}$/);
      const resolved = ref ? at(values, ref[1] as string) : JSON.parse(value);
      expect(resolved, `${name} <- ${value}`).not.toBeUndefined();
      env[name] = String(resolved);
    }
    expect(Object.keys(env)).toEqual(
      expect.arrayContaining(["PORT", "LOG_LEVEL", "PUBLIC_BASE_URL", "MODEL_BASE_URL", "MODEL_NAME"]),
    );
    expect(parseEnv(env).PORT).toBe(PORT);
  });
});

describe("secrets", () => {
  it("the chart's Secret holds exactly DATABASE_URL, REDIS_URL and MODEL_API_KEY", () => {
    const keys = [...blockUnder(template("secret.yaml"), /^stringData:\s*$/).matchAll(/^ {2}(\w+):/gm)].map(
      (m) => m[1],
    );
    expect(keys.sort()).toEqual(["DATABASE_URL", "MODEL_API_KEY", "REDIS_URL"]);
  });

  it("the env reads those keys by secretKeyRef, MODEL_API_KEY optional", () => {
    expect(helmSecretRefs.map((r) => [r.name, r.key, r.optional])).toEqual([
      ["DATABASE_URL", "DATABASE_URL", false],
      ["REDIS_URL", "REDIS_URL", false],
      ["MODEL_API_KEY", "MODEL_API_KEY", true],
    ]);
    expect(helmEnvBlock).toMatch(/name: \{\{ include "clinical-intelligence\.secretName" \. \}\}/);
    expect(template("_helpers.tpl")).toContain(".Values.secret.existingSecret");
    // A pre-install Job runs before ordinary resources exist, so the Secret must be a hook too.
    expect(template("secret.yaml")).toMatch(/helm\.sh\/hook: pre-install,pre-upgrade/);
    expect(template("secret.yaml")).toMatch(/helm\.sh\/hook-weight: "-\d+"/);
  });
});

describe("health probes", () => {
  it("the probed paths are the service's own routes", () => {
    expect(healthzRoute.path).toBe("/healthz");
    expect(readyzRoute.path).toBe("/readyz");
  });

  it("Helm: readiness on /readyz, liveness on /healthz, port http = containerPort 3000", () => {
    for (const file of deploymentFiles) {
      const text = template(file);
      const readiness = blockUnder(text, /^\s+readinessProbe:\s*$/);
      const liveness = blockUnder(text, /^\s+livenessProbe:\s*$/);
      expect(readiness, file).toMatch(new RegExp(`path: ${readyzRoute.path}\\s`));
      expect(readiness, file).toMatch(/port: http\s/);
      expect(liveness, file).toMatch(new RegExp(`path: ${healthzRoute.path}\\s`));
      expect(liveness, file).toMatch(/port: http\s/);
      expect(text, file).toMatch(new RegExp(`- name: http\\n\\s+containerPort: ${PORT}\\n`));
    }
  });

  it("compose: every long-running app is health-checked on /healthz at its PORT", () => {
    for (const [name, service] of appServices) {
      if (name === "migrate") continue;
      const test = at(service, "healthcheck.test") as string[];
      expect(Array.isArray(test), name).toBe(true);
      const script = test.join(" ");
      expect(script, name).toContain(`${healthzRoute.path}'`);
      expect(script, name).toContain(`process.env.PORT||${PORT}`);
    }
  });

  it("Dockerfile: HEALTHCHECK calls /healthz on the exposed port, with node", () => {
    const runtime = runtimeStage();
    const healthcheck = runtime.match(/^HEALTHCHECK\b(?:.*\\\n)*.*$/m)?.[0] ?? "";
    expect(healthcheck).toContain(`/healthz'`);
    expect(healthcheck).toContain(`process.env.PORT||${PORT}`);
    expect(healthcheck).toMatch(/CMD \["node", "-e"/);
  });
});

/** A stage's base image, with ARG defaults substituted into FROM. */
function resolvedFrom(stage: string): string {
  const args = Object.fromEntries(
    [...dockerfile.matchAll(/^ARG (\w+)=(\S+)$/gm)].map((m) => [m[1] as string, m[2] as string]),
  );
  const from = stage.match(/^FROM\s+(\S+)/m)?.[1] ?? "";
  return from.replace(/\$\{?(\w+)\}?/g, (_m, name: string) => args[name] ?? "");
}

describe("ports agree", () => {
  it("the schema's default PORT, Helm, compose, the Dockerfile and nginx all use 3000", () => {
    expect(parseEnv({}).PORT).toBe(PORT);
    expect(at(values, "config.port")).toBe(PORT);
    for (const [name, service] of appServices) expect(composeEnv(service).PORT, name).toBe(String(PORT));
    const runtime = runtimeStage();
    expect(runtime).toMatch(new RegExp(`^EXPOSE ${PORT}$`, "m"));
    expect(runtime).toMatch(new RegExp(`\\bPORT=${PORT}\\b`));
    const upstreamPorts = [...nginxConf.matchAll(/^\s*server\s+[\w.-]+:(\d+)/gm)].map((m) => Number(m[1]));
    expect(upstreamPorts.length).toBe(3);
    for (const port of upstreamPorts) expect(port).toBe(PORT);
  });

  it("nginx listens on the port compose publishes, which is PUBLIC_BASE_URL's", () => {
    const listen = Number(nginxConf.match(/^\s*listen\s+(\d+);/m)?.[1]);
    const ports = at(compose.services.nginx, "ports") as string[];
    expect(ports).toEqual([`${listen}:${listen}`]);
    const publicUrl = new URL(composeEnv(compose.services["intelligence-api"] as Json).PUBLIC_BASE_URL ?? "");
    expect(Number(publicUrl.port)).toBe(listen);
  });

  it("Helm Services target the named container port", () => {
    for (const app of ["intelligence-api", "mse-record-api", "dashboard"]) {
      expect(template(`service-${app}.yaml`)).toMatch(/targetPort: http\b/);
    }
  });
});

describe("container commands name real entry points", () => {
  /** `X/dist/NAME.js` -> `X/src/NAME.ts`, which must exist and be a tsup entry of package X. */
  function checkEntry(distPath: string): void {
    const m = distPath.match(/^((?:apps\/[\w-]+)|(?:tooling\/cli))\/dist\/([\w-]+)\.js$/);
    expect(m, distPath).not.toBeNull();
    const [, pkg, entry] = m as RegExpMatchArray;
    const source = path.join(repoRoot, pkg as string, "src", `${entry}.ts`);
    expect(existsSync(source), `${distPath} -> ${source}`).toBe(true);
    const manifest = JSON.parse(read(path.join(repoRoot, pkg as string, "package.json"))) as Json;
    expect(at(manifest, "scripts.build"), `${pkg} has a build script`).toBeTypeOf("string");
    const tsupConfig = path.join(repoRoot, pkg as string, "tsup.config.ts");
    if (existsSync(tsupConfig)) {
      expect(read(tsupConfig), `${pkg} builds ${entry}`).toMatch(
        new RegExp(`\\b${entry}: "src/${entry}\\.ts"`),
      );
    }
  }

  const distPaths = (text: string) => [
    ...new Set([...text.matchAll(/\b((?:apps|tooling)\/[\w-]+\/dist\/[\w-]+\.js)\b/g)].map((m) => m[1])),
  ];

  it("every dist path in the Dockerfile, compose and Helm maps to an existing source", () => {
    const all = [dockerfile, composeText, ...Object.values(templates)].flatMap(distPaths);
    expect(new Set(all)).toEqual(new Set([...Object.values(APPS), "tooling/cli/dist/main.js"]));
    for (const distPath of new Set(all)) checkEntry(distPath as string);
  });

  it("the image's default command is the intelligence API", () => {
    expect(defaultCommand("")).toEqual(["node", "--enable-source-maps", APPS["intelligence-api"]]);
  });

  it("each compose service runs its own app; migrate runs `cli migrate`", () => {
    for (const [app, entry] of Object.entries(APPS)) {
      expect(compose.services[app]?.command, app).toEqual(["node", "--enable-source-maps", entry]);
    }
    expect(compose.services.migrate?.command).toEqual(MIGRATE_COMMAND);
  });

  it("each Helm Deployment runs its own app; the migration Job runs `cli migrate`", () => {
    const commandOf = (text: string) => JSON.parse(text.match(/^\s+command: (\[.*\])$/m)?.[1] ?? "null");
    for (const [app, entry] of Object.entries(APPS)) {
      expect(commandOf(template(`deployment-${app}.yaml`)), app).toEqual([
        "node",
        "--enable-source-maps",
        entry,
      ]);
    }
    expect(commandOf(template("migration-job.yaml"))).toEqual(MIGRATE_COMMAND);
  });
});

describe("compose topology", () => {
  it("runs 2 intelligence-api, 1 mse-record-api, 2 webhook-worker and 1 dashboard replicas", () => {
    expect(at(compose.services.dashboard, "deploy.replicas")).toBe(1);
    expect(at(compose.services["intelligence-api"], "deploy.replicas")).toBe(2);
    expect(at(compose.services["mse-record-api"], "deploy.replicas")).toBe(1);
    expect(at(compose.services["webhook-worker"], "deploy.replicas")).toBe(2);
  });

  it("the migrate job runs once, after PostgreSQL is healthy, and every app waits for it", () => {
    const migrate = compose.services.migrate as Json;
    expect(migrate.restart).toBe("no");
    expect(at(migrate, "depends_on.postgres.condition")).toBe("service_healthy");
    for (const app of Object.keys(APPS)) {
      const service = compose.services[app] as Json;
      expect(at(service, "depends_on.migrate.condition"), app).toBe("service_completed_successfully");
      expect(at(service, "depends_on.postgres.condition"), app).toBe("service_healthy");
      expect(at(service, "depends_on.redis.condition"), app).toBe("service_healthy");
      expect(service.image, app).toBe(migrate.image);
    }
  });

  it("PostgreSQL and Redis have health checks; nginx fronts the APIs", () => {
    expect(String(compose.services.postgres?.image)).toMatch(/^postgres:17/);
    expect(JSON.stringify(at(compose.services.postgres, "healthcheck.test"))).toContain("pg_isready");
    expect(String(compose.services.redis?.image)).toMatch(/^redis:7/);
    expect(at(compose.services.redis, "healthcheck.test")).toBeDefined();
    expect(String(compose.services.nginx?.image)).toMatch(/^nginx:1\.27/);
    expect(at(compose.services.nginx, "volumes")).toEqual(["./nginx/nginx.conf:/etc/nginx/nginx.conf:ro"]);
  });
});

describe("Dockerfile", () => {
  it("builds on node:24 and runs as a non-root user in production mode", () => {
    const stages = dockerStages();
    expect(stages.length).toBeGreaterThanOrEqual(2);
    for (const stage of stages) expect(resolvedFrom(stage)).toMatch(/^node:24[.-]/);
    const runtime = runtimeStage();
    const user = runtime.match(/^USER\s+(\S+)$/m)?.[1];
    expect(user).toBeDefined();
    expect(["root", "0", "0:0"]).not.toContain(user);
    expect(runtime).toMatch(/\bNODE_ENV=production\b/);
    expect(runtime).toMatch(/^HEALTHCHECK\s/m);
    expect(dockerfile).toMatch(/pnpm install --frozen-lockfile/);
  });

  it("every folder under apps/ is an app the image can run, named @svc/<folder>", () => {
    expect(Object.keys(APPS).sort()).toEqual(appFolders());
    for (const folder of appFolders()) expect(appPackageName(folder), folder).toBe(`@svc/${folder}`);
  });

  it("without APP it builds everything; with APP that app and its workspace dependencies only", () => {
    expect(buildStep("")).toEqual({ status: 0, lines: ["pnpm", "build"] });
    for (const app of appFolders()) {
      expect(buildStep(app), app).toEqual({
        status: 0,
        lines: ["pnpm", "exec", "turbo", "run", "build", `--filter=@svc/${app}...`],
      });
    }
  });

  it("an APP that is not an app under apps/ fails the build", () => {
    for (const app of ["no-such-app", "db", "cli", "../tooling/cli", "dashboard/../intelligence-api"]) {
      expect(buildStep(app).status, app).not.toBe(0);
    }
  });

  it("the production install keeps APP's dependency closure only, or everything without APP", () => {
    const base = [
      "pnpm",
      "install",
      "--frozen-lockfile",
      "--prod",
      "--offline",
      "--store-dir",
      "/pnpm/store",
    ];
    expect(prodInstallStep("")).toEqual({ status: 0, lines: base });
    for (const app of appFolders()) {
      expect(prodInstallStep(app), app).toEqual({
        status: 0,
        lines: [...base, "--filter", `@svc/${app}...`],
      });
    }
  });

  it("with APP the default command is that app's entry point", () => {
    for (const app of appFolders()) {
      const command = defaultCommand(app);
      expect(command, app).toEqual(["node", "--enable-source-maps", APPS[app as AppName]]);
    }
  });
});

/** Stand-in `node` and `pnpm` that print their name and arguments, one per line. */
const standIns = mkdtempSync(path.join(tmpdir(), "deploy-test-bin-"));
afterAll(() => rmSync(standIns, { recursive: true, force: true }));
for (const name of ["node", "pnpm"]) {
  writeFileSync(path.join(standIns, name), `#!/bin/sh\nprintf '%s\\n' ${name} "$@"\n`);
  chmodSync(path.join(standIns, name), 0o755);
}

/** Runs a command at the repository root with the stand-ins first on PATH and only `env` set. */
function runWithStandIns(argv: string[], env: Record<string, string>): { status: number; lines: string[] } {
  try {
    const out = execFileSync(argv[0] as string, argv.slice(1), {
      cwd: repoRoot,
      env: { PATH: `${standIns}:/usr/bin:/bin`, ...env },
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
    });
    return { status: 0, lines: out.trimEnd().split("\n") };
  } catch (error) {
    return { status: (error as { status?: number }).status ?? -1, lines: [] };
  }
}

/** The build arguments a stage sees: APP only if the stage declares `ARG APP`, as with Docker. */
function stageArgs(stage: string, app: string): Record<string, string> {
  return instructions(stage, "ARG").some((arg) => /^APP(=|$)/.test(arg)) ? { APP: app } : {};
}

const buildStage = (): string => {
  const stage = dockerStages().find((s) => /^FROM\s+\S+\s+AS\s+build\b/i.test(s));
  if (!stage) throw new Error("no build stage");
  return stage;
};

/** The build stage's compile step (the RUN that runs `pnpm build`), run for a value of APP. */
function buildStep(app: string) {
  const runs = instructions(buildStage(), "RUN").filter((run) => /\bpnpm build\b/.test(run));
  expect(runs.length).toBe(1);
  return runWithStandIns(["/bin/sh", "-c", runs[0] as string], stageArgs(buildStage(), app));
}

/** The `pnpm install ... --prod ...` part of the build stage's last install, run for a value of APP. */
function prodInstallStep(app: string) {
  const install = instructions(buildStage(), "RUN")
    .map((run) => run.match(/pnpm install [^&;]*--prod[^&;]*/)?.[0])
    .filter((found) => found !== undefined);
  expect(install.length).toBe(1);
  return runWithStandIns(["/bin/sh", "-c", (install[0] as string).trim()], stageArgs(buildStage(), app));
}

/** The environment an image built with `--build-arg APP=<app>` runs with ("" = without APP). */
function imageEnv(app: string): Record<string, string> {
  const args = stageArgs(runtimeStage(), app);
  const env: Record<string, string> = {};
  for (const line of instructions(runtimeStage(), "ENV")) {
    for (const m of line.matchAll(/(\w+)=(\S*)/g)) {
      // Docker substitutes `$NAME` and `${NAME}` from the stage's build arguments and earlier ENVs.
      env[m[1] as string] = (m[2] as string).replace(
        /\$\{?(\w+)\}?/g,
        (_m, name: string) => args[name] ?? env[name] ?? "",
      );
    }
  }
  return env;
}

/** The arguments node gets from the image's default command (CMD, exec form, run as written). */
function defaultCommand(app: string): string[] {
  const cmds = instructions(runtimeStage(), "CMD");
  expect(cmds.length).toBe(1);
  const argv = JSON.parse(cmds[0] as string) as string[];
  const { status, lines } = runWithStandIns(argv, imageEnv(app));
  expect(status).toBe(0);
  return lines;
}

describe("nginx routing", () => {
  const upstreams = new Map(
    [...nginxConf.matchAll(/upstream\s+(\w+)\s*\{([^}]*)\}/g)].map((m) => [
      m[1] as string,
      [...(m[2] as string).matchAll(/^\s*server\s+([\w.-]+):\d+/gm)].map((s) => s[1] as string),
    ]),
  );
  const locations = [...nginxConf.matchAll(/location\s+(=\s+)?(\S+)\s*\{([^}]*)\}/g)].map((m) => ({
    exact: Boolean(m[1]),
    prefix: m[2] as string,
    upstream: (m[3] as string).match(/proxy_pass\s+http:\/\/(\w+)\s*;/)?.[1],
  }));

  /** The compose service a request path reaches: exact match first, then the longest prefix. */
  function route(requestPath: string): string | undefined {
    const exact = locations.find((l) => l.exact && l.prefix === requestPath);
    const chosen =
      exact ??
      locations
        .filter((l) => !l.exact && requestPath.startsWith(l.prefix))
        .sort((a, b) => b.prefix.length - a.prefix.length)[0];
    const servers = chosen?.upstream ? upstreams.get(chosen.upstream) : undefined;
    expect(servers?.length, requestPath).toBe(1);
    return servers?.[0];
  }

  /** The `path: "/v1/..."` route paths declared in an app's sources. */
  function routePaths(app: string): string[] {
    const files = readdirSync(path.join(repoRoot, "apps", app, "src"), { recursive: true, encoding: "utf8" });
    const found = files
      .filter((f) => f.endsWith(".ts"))
      .flatMap((f) => [
        ...read(path.join(repoRoot, "apps", app, "src", f)).matchAll(/\bpath: "(\/v1\/[^"]*)"/g),
      ])
      .map((m) => (m[1] as string).replace(/\{(\w+)\}/g, "x_$1"));
    return [...new Set(found)];
  }

  it("upstreams are the compose API services", () => {
    expect(Object.fromEntries(upstreams)).toEqual({
      intelligence_api: ["intelligence-api"],
      mse_record_api: ["mse-record-api"],
      dashboard: ["dashboard"],
    });
  });

  it("/v1/mse and /v1/mse/... go to the MSE Record API, everything else to the intelligence API", () => {
    expect(route("/v1/mse")).toBe("mse-record-api");
    expect(route("/v1/mse/domains")).toBe("mse-record-api");
    expect(route("/v1/mse/visit_1/sign")).toBe("mse-record-api");
    expect(route("/v1/dmse/analyze")).toBe("intelligence-api");
    expect(route("/v1/mses")).toBe("intelligence-api");
    expect(route("/healthz")).toBe("intelligence-api");
    expect(route("/v1/ping")).toBe("intelligence-api");
  });

  it("/dashboard and /dashboard/... go to the dashboard, which nginx waits for", () => {
    expect(route("/dashboard")).toBe("dashboard");
    expect(route("/dashboard/keys")).toBe("dashboard");
    expect(route("/dashboard/static/dashboard.css")).toBe("dashboard");
    expect(route("/dashboards")).toBe("intelligence-api");
    expect(route("/docs")).toBe("intelligence-api");
    expect(at(compose.services.nginx, "depends_on.dashboard.condition")).toBe("service_healthy");
  });

  it("every route each API declares reaches that API", () => {
    const mse = routePaths("mse-record-api");
    const intelligence = routePaths("intelligence-api");
    expect(mse.length).toBeGreaterThan(0);
    expect(intelligence.length).toBeGreaterThan(0);
    for (const p of mse) expect(route(p), p).toBe("mse-record-api");
    for (const p of intelligence) expect(route(p), p).toBe("intelligence-api");
  });

  it("routes around dead replicas and forwards the client address and request id", () => {
    const next = nginxConf.match(/^\s*proxy_next_upstream\s+([^;]+);/m)?.[1]?.split(/\s+/) ?? [];
    expect(next).toEqual(expect.arrayContaining(["error", "timeout", "http_502", "http_503"]));
    expect(next).not.toContain("non_idempotent");
    expect(nginxConf).toMatch(/proxy_set_header X-Forwarded-For \$proxy_add_x_forwarded_for;/);
    expect(nginxConf).toMatch(/proxy_set_header X-Request-Id \$\w+;/);
    expect(nginxConf).toMatch(/resolver 127\.0\.0\.11\b/);
    for (const servers of nginxConf.matchAll(/^\s*server\s+[\w.-]+:\d+([^;]*);/gm)) {
      expect(servers[1]).toMatch(/\bmax_fails=\d+/);
      expect(servers[1]).toMatch(/\bfail_timeout=\d+s/);
    }
  });
});

describe("Helm chart", () => {
  it("Chart.yaml is a v2 application chart named after its folder", () => {
    expect(chart.apiVersion).toBe("v2");
    expect(chart.name).toBe(path.basename(chartDir));
    expect(chart.version).toMatch(/^\d+\.\d+\.\d+/);
  });

  it("every .Values reference in the templates exists in values.yaml", () => {
    const refs = new Set<string>();
    for (const text of Object.values(templates)) {
      for (const m of text.matchAll(/\$?\.Values\.([\w.]+)/g)) refs.add(m[1] as string);
      // `$values := .Values.x` (deployments) or `index $.Values $key` over a dict of keys (hpa).
      const bound = text.match(/\$values := \.Values\.(\w+)/)?.[1];
      const keys = bound
        ? [bound]
        : text.includes("index $.Values $key")
          ? [...text.matchAll(/"[\w-]+" "(\w+)"/g)].map((m) => m[1] as string)
          : [];
      for (const m of text.matchAll(/\$values\.([\w.]+)/g)) for (const k of keys) refs.add(`${k}.${m[1]}`);
    }
    expect(refs.size).toBeGreaterThan(10);
    for (const ref of refs) expect(at(values, ref), ref).not.toBeUndefined();
  });

  it("HPAs (autoscaling/v2, CPU) and PDBs (policy/v1, minAvailable 1) cover the three apps", () => {
    const hpa = template("hpa.yaml");
    expect(hpa).toMatch(/apiVersion: autoscaling\/v2/);
    expect(hpa).toMatch(/name: cpu/);
    for (const app of Object.keys(APPS)) expect(hpa).toContain(`"${app}"`);
    const pdb = template("pdb.yaml");
    expect(pdb).toMatch(/apiVersion: policy\/v1/);
    expect(pdb).toMatch(/minAvailable: \{\{ \$\.Values\.podDisruptionBudget\.minAvailable \}\}/);
    for (const app of Object.keys(APPS)) expect(pdb).toContain(`"${app}"`);
    expect(at(values, "podDisruptionBudget.minAvailable")).toBe(1);
    // minAvailable 1 on a single replica would block every node drain.
    for (const key of ["intelligenceApi", "mseRecordApi", "webhookWorker"]) {
      expect(at(values, `${key}.autoscaling.minReplicas`), key).toBeGreaterThanOrEqual(2);
      expect(at(values, `${key}.replicaCount`), key).toBeGreaterThanOrEqual(2);
      expect(at(values, `${key}.resources.requests.cpu`), key).toBeDefined();
      expect(at(values, `${key}.resources.limits.memory`), key).toBeDefined();
    }
  });

  it("the migration Job is a pre-install/pre-upgrade hook that cleans up after itself", () => {
    const job = template("migration-job.yaml");
    expect(job).toMatch(/kind: Job/);
    expect(job).toMatch(/helm\.sh\/hook: pre-install,pre-upgrade/);
    expect(job).toMatch(/helm\.sh\/hook-delete-policy: \S*before-hook-creation/);
    expect(job).toMatch(/restartPolicy: Never/);
  });

  it("pods run as non-root on a read-only root filesystem and get time to drain", () => {
    expect(at(values, "podSecurityContext.runAsNonRoot")).toBe(true);
    expect(at(values, "securityContext.readOnlyRootFilesystem")).toBe(true);
    expect(at(values, "securityContext.allowPrivilegeEscalation")).toBe(false);
    expect(Number(at(values, "terminationGracePeriodSeconds"))).toBeGreaterThanOrEqual(30);
    for (const file of deploymentFiles) {
      const text = template(file);
      expect(text, file).toMatch(
        /terminationGracePeriodSeconds: \{\{ \.Values\.terminationGracePeriodSeconds \}\}/,
      );
      expect(text, file).toMatch(/toYaml \.Values\.securityContext/);
      expect(text, file).toMatch(/include "clinical-intelligence\.podSpecCommon"/);
      expect(text, file).toMatch(/resources:\n\s+\{\{- toYaml \$values\.resources/);
    }
    expect(template("_helpers.tpl")).toMatch(/toYaml \.Values\.podSecurityContext/);
  });
});
