/**
 * `pnpm knowledge:docs` writes the generated tables of the knowledge docs (the blocks between
 * `<!-- generated:begin name -->` and `<!-- generated:end -->`) from the tables in
 * packages/engines/src/knowledge/ (decision 208) and, for the tables of `@svc/intelligence` and
 * `@svc/mse-catalog`, from tooling/clinical-checks/src/doc-tables.ts (decision 217), then lets biome
 * align them; `pnpm
 * knowledge:docs:check` (`--check`) writes nothing and fails when a committed block is stale.
 * Needs no database; tooling/scripts/test-all.sh runs the check next to the OpenAPI check.
 */
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import {
  fillGeneratedBlocks,
  generatedBlocksCurrent,
  knowledgeDocPages,
} from "../../../packages/engines/src/knowledge/doc-tables.js";
import { SERVICE_DOC_BLOCKS } from "../../clinical-checks/src/doc-tables.js";

const check = process.argv.includes("--check");
const stale: string[] = [];
for (const [file, blocks] of knowledgeDocPages(SERVICE_DOC_BLOCKS)) {
  const target = fileURLToPath(new URL(`../../../docs/${file}`, import.meta.url));
  const committed = readFileSync(target, "utf8");
  if (generatedBlocksCurrent(committed, blocks)) continue;
  stale.push(`docs/${file}`);
  if (!check) writeFileSync(target, fillGeneratedBlocks(committed, blocks));
}
if (check) {
  if (stale.length > 0) {
    process.stderr.write(`Generated knowledge tables are stale in ${stale.join(", ")}.\n`);
    process.stderr.write("Run `pnpm knowledge:docs`, review the diff and commit it.\n");
    process.exit(1);
  }
  process.stdout.write("knowledge docs are up to date\n");
} else if (stale.length === 0) {
  process.stdout.write("knowledge docs: nothing to write (up to date)\n");
} else {
  execFileSync("pnpm", ["exec", "biome", "format", "--write", ...stale], { stdio: "inherit" });
  process.stdout.write(`wrote ${stale.join(", ")}\n`);
}
