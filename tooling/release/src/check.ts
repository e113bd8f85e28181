/**
 * `pnpm packages:check`: each published package packed as a registry would serve it, then checked
 * by publint (--strict), @arethetypeswrong/cli (--profile esm-only) and its committed API report
 * (api-extractor). `pnpm packages:api-report` rewrites the reports after a deliberate change to a
 * public signature. Needs the packages built (`pnpm build`). Decision 139.
 */
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { type ApiReportResult, apiReports } from "./api-report.js";
import { describeFailure, runChild } from "./child.js";
import { type ConsumerProject, createConsumerProject, installedPackageDir } from "./consumer.js";
import { listPublishable, type PublishablePackage, REPO_ROOT } from "./publishable.js";

interface PackageCheck {
  pkg: PublishablePackage;
  tarballBytes: number;
  publint: ToolRun;
  attw: ToolRun;
  reports: ApiReportResult[];
}

interface ToolRun {
  ok: boolean;
  output: string;
}

const update = process.argv.includes("--update-api");

/** A checker that reads one local tarball: two minutes is ample (decision 164). */
const TOOL_TIMEOUT_MS = 120_000;

function runTool(bin: string, args: string[]): ToolRun {
  const command = path.join(REPO_ROOT, "node_modules/.bin", bin);
  const run = runChild(command, args, {
    env: { ...process.env, NO_COLOR: "1", FORCE_COLOR: "0" },
    timeoutMs: TOOL_TIMEOUT_MS,
  });
  return run.ok ? { ok: true, output: run.stdout } : { ok: false, output: describeFailure(bin, args, run) };
}

function checkPackage(pkg: PublishablePackage, project: ConsumerProject): PackageCheck {
  const tarball = project.tarballs.get(pkg.name);
  if (!tarball) throw new Error(`${pkg.name} was not packed`);
  return {
    pkg,
    tarballBytes: statSync(tarball).size,
    publint: runTool("publint", ["run", tarball, "--strict"]),
    attw: runTool("attw", [tarball, "--profile", "esm-only"]),
    reports: apiReports(pkg, installedPackageDir(project, pkg.name), { update }),
  };
}

function reportCell(reports: ApiReportResult[]): string {
  if (reports.some((r) => r.errors.length > 0)) return "error";
  if (update) return reports.some((r) => r.changed) ? "updated" : "unchanged";
  return reports.some((r) => r.changed) ? "CHANGED" : "matches";
}

function printTable(checks: PackageCheck[]): void {
  const rows = [
    ["package", "version", "packed", "publint", "attw (esm-only)", "API report"],
    ...checks.map((c) => [
      c.pkg.name,
      c.pkg.version,
      `${(c.tarballBytes / 1024).toFixed(1)} kB`,
      c.publint.ok ? "ok" : "FAIL",
      c.attw.ok ? "ok" : "FAIL",
      reportCell(c.reports),
    ]),
  ];
  const widths = rows[0]?.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? "").length))) ?? [];
  const line = (r: string[]) => `| ${r.map((cell, i) => cell.padEnd(widths[i] ?? 0)).join(" | ")} |`;
  console.log(line(rows[0] ?? []));
  console.log(`|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`);
  for (const r of rows.slice(1)) console.log(line(r));
}

function printFailures(checks: PackageCheck[]): number {
  let failures = 0;
  for (const c of checks) {
    for (const [tool, run] of [["publint", c.publint] as const, ["attw", c.attw] as const]) {
      if (run.ok) continue;
      failures++;
      console.log(`\n${c.pkg.name}: ${tool} failed\n${run.output}`);
    }
    for (const r of c.reports) {
      for (const e of r.errors) {
        failures++;
        console.log(`\n${c.pkg.name} (${r.subpath}): api-extractor: ${e}`);
      }
      if (r.changed && !update) {
        failures++;
        const where = path.relative(REPO_ROOT, r.reportFile);
        console.log(`\n${c.pkg.name} (${r.subpath}): the public API differs from ${where}:\n${r.diff}`);
        console.log("If the change is intended, run `pnpm packages:api-report` and commit the report.");
      }
    }
  }
  return failures;
}

function main(): void {
  const packages = listPublishable();
  const scratch = mkdtempSync(path.join(tmpdir(), "svc-packs-"));
  try {
    console.log(`Packing ${packages.length} packages and installing them from their tarballs in ${scratch}`);
    const project = createConsumerProject(scratch, packages);
    const checks = packages.map((pkg, i) => {
      console.log(`[${i + 1}/${packages.length}] ${pkg.name}: publint, attw, API report`);
      return checkPackage(pkg, project);
    });
    console.log("");
    printTable(checks);
    const failures = printFailures(checks);
    if (failures > 0) {
      console.log(`\n${failures} problem(s) in the published packages.`);
      process.exitCode = 1;
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

main();
