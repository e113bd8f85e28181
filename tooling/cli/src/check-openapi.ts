// `pnpm openapi:check`: fails when docs/openapi.json is not exactly what the route schemas build.
// Needs no database; .ci/run calls it before the tests.
import { builtDocumentText, committedDocumentText } from "./openapi-file.js";

const built = builtDocumentText();
const committed = committedDocumentText();
if (built === committed) {
  const paths = Object.keys((JSON.parse(built) as { paths?: object }).paths ?? {}).length;
  process.stdout.write(`docs/openapi.json is up to date (${paths} paths)\n`);
} else {
  process.stderr.write(
    `docs/openapi.json differs from the route schemas:\n${firstDifference(committed, built)}\n`,
  );
  process.stderr.write("Run `pnpm openapi:write`, review the diff and commit it.\n");
  process.exit(1);
}

/** The first differing line with a little context, so the failure says where to look. */
function firstDifference(committed: string, built: string): string {
  const a = committed.split("\n");
  const b = built.split("\n");
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  const context = (lines: string[]) => lines.slice(Math.max(0, i - 2), i + 3).join("\n");
  return `at line ${i + 1}\n--- committed\n${context(a)}\n+++ built from the code\n${context(b)}`;
}
