import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** The text of a page under `docs/engines/` (evidence.md, vignettes.md). */
export function readEngineDoc(name: string): string {
  return readFileSync(fileURLToPath(new URL(`../../../docs/engines/${name}`, import.meta.url)), "utf8");
}
