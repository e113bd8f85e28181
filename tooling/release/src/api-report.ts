import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import {
  Extractor,
  ExtractorConfig,
  ExtractorLogLevel,
  ExtractorMessageCategory,
  type IConfigFile,
} from "@microsoft/api-extractor";
import { runChild } from "./child.js";
import { type PublishablePackage, reportBaseName } from "./publishable.js";

/** Where a package's committed API reports live (not published: `files` lists only `dist`). */
export const API_REPORT_FOLDER = "api";

export interface ApiReportResult {
  package: string;
  subpath: string;
  reportFile: string;
  /** The public signatures differ from the committed report (or there is none yet). */
  changed: boolean;
  /** How the committed report would change, as a unified diff (empty when unchanged). */
  diff: string;
  /** api-extractor's own errors (a declaration it could not analyse). */
  errors: string[];
}

/**
 * The API report of each published entry of a package (api-extractor, decision 139), read from the
 * package as installed from its tarball (`installedDir`, in a consumer project's node_modules), so
 * another of our packages it depends on is read from its published declarations, as an external
 * package. With `update` the committed report is rewritten; without it a difference is reported as
 * `changed`, with the diff, and the committed file is left alone.
 */
export function apiReports(
  pkg: PublishablePackage,
  installedDir: string,
  options: { update: boolean },
): ApiReportResult[] {
  return pkg.entries.map((entry) => {
    const baseName = reportBaseName(pkg.name, entry.subpath);
    const reportFolder = path.join(pkg.dir, API_REPORT_FOLDER);
    const tempFolder = mkdtempSync(path.join(tmpdir(), "svc-api-report-"));
    if (options.update) mkdirSync(reportFolder, { recursive: true });
    try {
      const config = ExtractorConfig.prepare({
        configObject: extractorConfig(
          installedDir,
          path.join(installedDir, entry.types),
          baseName,
          reportFolder,
          tempFolder,
        ),
        configObjectFullPath: undefined,
        packageJsonFullPath: path.join(installedDir, "package.json"),
      });
      const reportFile = path.join(reportFolder, `${baseName}.api.md`);
      // Read before the extractor runs: with `update` it rewrites the committed report itself.
      const committed = existsSync(reportFile) ? withoutChunkHashes(readFileSync(reportFile, "utf8")) : null;
      const errors: string[] = [];
      const result = Extractor.invoke(config, {
        localBuild: options.update,
        messageCallback: (message) => {
          // Console messages narrate the run (report created, report changed); `changed` carries that.
          const aboutTheCode = message.category !== ExtractorMessageCategory.Console;
          if (
            aboutTheCode &&
            (message.logLevel === ExtractorLogLevel.Error || message.logLevel === ExtractorLogLevel.Warning)
          ) {
            errors.push(message.formatMessageWithLocation(installedDir));
          }
          message.handled = true;
        },
      });
      const freshFile = path.join(tempFolder, `${baseName}.api.md`);
      // The report names the shared declaration chunks tsup writes (`errors-<hash>.js`); the hash
      // follows every byte of the chunk, comments included, so it is written and compared as
      // `<hash>`: a signature change still shows, a reworded comment does not.
      const fresh = existsSync(freshFile) ? withoutChunkHashes(readFileSync(freshFile, "utf8")) : null;
      const changed = fresh === null ? result.apiReportChanged : fresh !== committed;
      if (options.update && fresh !== null) writeFileSync(reportFile, fresh);
      else if (fresh !== null) writeFileSync(freshFile, fresh);
      const diff = changed && !options.update ? unifiedDiff(reportFile, freshFile) : "";
      return { package: pkg.name, subpath: entry.subpath, reportFile, changed, diff, errors };
    } finally {
      rmSync(tempFolder, { recursive: true, force: true });
    }
  });
}

function extractorConfig(
  projectFolder: string,
  entryDeclarations: string,
  baseName: string,
  reportFolder: string,
  tempFolder: string,
): IConfigFile {
  return {
    projectFolder,
    mainEntryPointFilePath: entryDeclarations,
    compiler: {
      overrideTsconfig: {
        compilerOptions: {
          target: "ES2023",
          module: "NodeNext",
          moduleResolution: "NodeNext",
          lib: ["ES2023", "DOM"],
          types: ["node"],
          strict: true,
          skipLibCheck: true,
        },
        files: [entryDeclarations],
      },
    },
    apiReport: { enabled: true, reportFileName: baseName, reportFolder, reportTempFolder: tempFolder },
    docModel: { enabled: false },
    dtsRollup: { enabled: false },
    tsdocMetadata: { enabled: false },
    messages: {
      compilerMessageReporting: { default: { logLevel: ExtractorLogLevel.Error } },
      extractorMessageReporting: {
        default: { logLevel: ExtractorLogLevel.Warning, addToApiReportFile: true },
        // The packages have no alpha/beta/public release tags: everything exported is public.
        "ae-missing-release-tag": { logLevel: ExtractorLogLevel.None },
        // Missing doc comments are shown in the report as "(undocumented)"; not a failure.
        "ae-undocumented": { logLevel: ExtractorLogLevel.None, addToApiReportFile: false },
        // A public signature that uses a type the entry does not export: consumers cannot name it.
        "ae-forgotten-export": { logLevel: ExtractorLogLevel.Warning, addToApiReportFile: false },
      },
      // Doc comments are written for people, not to the TSDoc grammar; the report is about signatures.
      tsdocMessageReporting: { default: { logLevel: ExtractorLogLevel.None } },
    },
  };
}

function unifiedDiff(committed: string, fresh: string): string {
  if (!existsSync(committed)) return `no committed report at ${committed}\n`;
  if (!existsSync(fresh)) return "";
  const run = runChild("diff", ["-u", committed, fresh], { timeoutMs: 30_000 });
  if (run.ok) return "";
  return run.stdout.length > 0 ? run.stdout : readFileSync(fresh, "utf8");
}

/** A report with each declaration chunk's content hash (`./errors-Czs2BCL7.js`) read as `<hash>`. */
export function withoutChunkHashes(report: string): string {
  return report.replace(/(from '\.\/[A-Za-z0-9_.-]+)-[A-Za-z0-9_-]{8}(\.js')/g, "$1-<hash>$2");
}
