import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { PGlite } from "@electric-sql/pglite";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { drizzle as drizzlePostgres } from "drizzle-orm/postgres-js";
import { migrate as migratePostgres } from "drizzle-orm/postgres-js/migrator";
import postgres from "postgres";
import * as schema from "./schema.js";

export type Schema = typeof schema;
/** The Drizzle database, whichever driver runs underneath. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;

export interface DbHandle {
  db: Db;
  kind: "postgres" | "pglite";
  /** Apply every committed migration (idempotent; serialised across processes on PostgreSQL). */
  migrate(): Promise<void>;
  /** Cheap liveness probe for /readyz. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export interface DbOptions {
  /** postgres:// URL; when absent, embedded PGlite under `dataDir`. */
  databaseUrl?: string | undefined;
  /** Embedded data directory (default `./.data`). */
  dataDir?: string | undefined;
  /** Pool size for postgres.js. */
  maxConnections?: number;
  /** Called once per query sent (benchmarks count queries per request with it). */
  onQuery?: () => void;
  /**
   * PostgreSQL `statement_timeout` on every pooled connection, in ms: a statement running longer
   * is cancelled and its transaction rolls back. The HTTP runtime sets it a little under the
   * request time limit, so a write cannot commit long after its caller got a 503 (decision 111).
   * Migrations run on connections of their own without it. Embedded PGlite is given none.
   */
  statementTimeoutMs?: number;
}

/**
 * The committed migrations: beside a compiled app bundle (its build copies them to
 * `dist/drizzle`), or one level up from this package's own `src/` or `dist/`.
 */
const migrationsFolder = (() => {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const beside = path.join(here, "drizzle");
  return existsSync(path.join(beside, "meta", "_journal.json")) ? beside : path.resolve(here, "../drizzle");
})();
/** Arbitrary constant: every process migrating one database queues on this advisory lock. */
const MIGRATION_LOCK_ID = 730_114_201;

export function createDb(options: DbOptions): DbHandle {
  if (options.databaseUrl) return createPostgres(options.databaseUrl, options);
  return createPglite(options.dataDir ?? "./.data");
}

function createPostgres(url: string, options: DbOptions): DbHandle {
  const { onQuery, statementTimeoutMs } = options;
  // onnotice: keep PostgreSQL's NOTICE chatter (e.g. "relation already exists") out of our logs.
  const client = postgres(url, {
    max: options.maxConnections ?? 10,
    onnotice: () => {},
    connect_timeout: 10,
    ...(onQuery ? { debug: () => onQuery() } : {}),
    ...(statementTimeoutMs ? { connection: { statement_timeout: statementTimeoutMs } } : {}),
  });
  const db = drizzlePostgres(client, { schema }) as unknown as Db;
  return {
    db,
    kind: "postgres",
    async migrate() {
      // A migration may rebuild a large table: with a statement timeout on the pool, it runs on
      // two connections of its own (one holds the lock) without one.
      const migrator = statementTimeoutMs
        ? postgres(url, { max: 2, onnotice: () => {}, connect_timeout: 10 })
        : client;
      const reserved = await migrator.reserve();
      try {
        await reserved`select pg_advisory_lock(${MIGRATION_LOCK_ID})`;
        await migratePostgres(drizzlePostgres(migrator, { schema }), { migrationsFolder });
      } finally {
        await reserved`select pg_advisory_unlock(${MIGRATION_LOCK_ID})`.catch(() => {});
        reserved.release();
        if (migrator !== client) await migrator.end({ timeout: 5 });
      }
    },
    async ping() {
      await client`select 1`;
    },
    async close() {
      await client.end({ timeout: 5 });
    },
  };
}

function createPglite(dataDir: string): DbHandle {
  mkdirSync(dataDir, { recursive: true });
  const client = new PGlite(path.join(dataDir, "pg"));
  const db = drizzlePglite(client, { schema }) as unknown as Db;
  return {
    db,
    kind: "pglite",
    async migrate() {
      await migratePglite(drizzlePglite(client, { schema }), { migrationsFolder });
    },
    async ping() {
      await client.query("select 1");
    },
    async close() {
      await client.close();
    },
  };
}

/**
 * PGlite is single-process: two processes on one data dir corrupt it. The holder writes its pid
 * to a lock file; anyone else finding a live pid there refuses with a message naming it.
 */
export class DataDirLockedError extends Error {
  constructor(
    readonly pid: number,
    readonly holder: string,
  ) {
    super(
      `The embedded database is in use by ${holder} (pid ${pid}). Stop it first, or point DATABASE_URL at PostgreSQL.`,
    );
    this.name = "DataDirLockedError";
  }
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
  // A zombie answers kill(0) but is gone (PID 1 does not reap here).
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return !/^\d+ \(.*\) Z /.test(stat);
  } catch {
    return true;
  }
}

export function acquireDataDirLock(dataDir: string, holder: string): () => void {
  mkdirSync(dataDir, { recursive: true });
  const lockPath = path.join(dataDir, "svc.lock");
  const release = () => {
    try {
      const held = JSON.parse(readFileSync(lockPath, "utf8")) as { pid: number };
      if (held.pid === process.pid) rmSync(lockPath, { force: true });
    } catch {
      // already gone
    }
  };
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      // `wx` creates atomically: of two processes starting together, one wins.
      writeFileSync(lockPath, JSON.stringify({ pid: process.pid, holder }), { flag: "wx" });
      return release;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    let held: { pid: number; holder: string } | undefined;
    try {
      held = JSON.parse(readFileSync(lockPath, "utf8")) as { pid: number; holder: string };
    } catch {
      held = undefined; // unreadable or vanished: stale
    }
    if (held && held.pid !== process.pid && pidAlive(held.pid))
      throw new DataDirLockedError(held.pid, held.holder);
    rmSync(lockPath, { force: true });
  }
  throw new Error(`Could not take the lock on ${lockPath}.`);
}
