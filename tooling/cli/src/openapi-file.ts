// The committed OpenAPI document and the one the route schemas build, for `pnpm openapi:write`
// and `pnpm openapi:check`. Building the routes touches no database, queue or network.
import { readFileSync } from "node:fs";
import type { Db } from "@svc/db";
import { createLogger, MemoryRateLimiter, type OpenApiDoc } from "@svc/http";
import { publishedDocument } from "./combined.js";

export const COMMITTED_DOCUMENT = new URL("../../../docs/openapi.json", import.meta.url);

/** The document the code describes today, serialised exactly as docs/openapi.json is. */
export function builtDocumentText(): string {
  const doc: OpenApiDoc = publishedDocument({
    db: null as unknown as Db, // route registration never queries; a real handle would need a server
    limiter: new MemoryRateLimiter(),
    logger: createLogger({ level: "silent" }),
    publicBaseUrl: "http://localhost:3000",
  });
  return `${JSON.stringify(doc, null, 2)}\n`;
}

export function committedDocumentText(): string {
  return readFileSync(COMMITTED_DOCUMENT, "utf8");
}
