// Regenerates docs/openapi.json from the route schemas: `pnpm openapi:write`, then commit the diff.
import { writeFileSync } from "node:fs";
import { builtDocumentText, COMMITTED_DOCUMENT } from "./openapi-file.js";

const text = builtDocumentText();
writeFileSync(COMMITTED_DOCUMENT, text);
const paths = Object.keys((JSON.parse(text) as { paths?: object }).paths ?? {}).length;
process.stdout.write(`wrote ${COMMITTED_DOCUMENT.pathname} (${paths} paths)\n`);
