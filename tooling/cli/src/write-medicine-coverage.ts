/** Writes docs/engines/medicine-coverage.md from the medicine model (decision 175). */
import { writeFileSync } from "node:fs";
import { medicineCoverageMarkdown } from "../../../packages/engines/src/knowledge/coverage.js";

const target = new URL("../../../docs/engines/medicine-coverage.md", import.meta.url);
writeFileSync(target, medicineCoverageMarkdown());
process.stdout.write(`wrote ${target.pathname}\n`);
