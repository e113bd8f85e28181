// Regenerates docs/openapi.json from the route schemas: `pnpm openapi:write`, then commit the diff.
import { writeFileSync } from "node:fs";
import type { Db } from "@svc/db";
import { createLogger, MemoryRateLimiter } from "@svc/http";
import { publishedDocument } from "./combined.js";

const doc = publishedDocument({
  db: null as unknown as Db, // building routes touches no database
  limiter: new MemoryRateLimiter(),
  logger: createLogger({ level: "silent" }),
  publicBaseUrl: "http://localhost:3000",
});
const target = new URL("../../../docs/openapi.json", import.meta.url);
writeFileSync(target, `${JSON.stringify(doc, null, 2)}\n`);
process.stdout.write(`wrote ${target.pathname} (${Object.keys(doc.paths ?? {}).length} paths)\n`);
