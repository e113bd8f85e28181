/** Query operators for the apps' own queries (apps persist through @svc/db, which owns drizzle-orm). */
export { and, asc, desc, eq, gt, gte, inArray, isNull, lt, lte, or, type SQL, sql } from "drizzle-orm";
export * from "./client.js";
export * from "./events.js";
export * from "./keys.js";
export * from "./model-versions.js";
export * from "./outbox.js";
export * from "./purge.js";
export * from "./repo.js";
export * from "./safety-events.js";
export * from "./schema.js";
export * from "./usage.js";
