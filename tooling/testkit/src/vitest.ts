import type { ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Db, DbHandle } from "@svc/db";
import { afterAll, beforeAll } from "vitest";
import { compiledEntry } from "./compiled.js";
import {
  createTestDatabase,
  Seeder,
  type StartOptions,
  startTestService,
  type TestService,
} from "./index.js";

/**
 * The test kit's helpers that declare Vitest hooks, apart from `@svc/testkit` so that importing the
 * test kit from plain Node (the benchmarks) never loads Vitest.
 */

/** Every property of a TestService, so that the handle of useTestService forwards each one. */
const TEST_SERVICE_PROPERTIES = {
  url: true,
  db: true,
  redis: true,
  redisPrefix: true,
  deps: true,
  logs: true,
  server: true,
  combined: true,
  seed: true,
  close: true,
} as const satisfies Record<keyof TestService, true>;

/**
 * The options of `useTestService`: given as they are, or as a function called in the `beforeAll`
 * that starts the service, for options that come from an earlier hook (a scripted model server's
 * address, a database created first).
 */
export type TestServiceOptions = StartOptions | (() => StartOptions | Promise<StartOptions>);

/**
 * The test file's service: started before the file's (or the describe block's) tests and closed
 * after them, in place of the `let svc` / `beforeAll` / `afterAll` set-up. Call it at the top of
 * the file (or the describe block); the handle it returns reads the running service, so
 * `svc.url`, `svc.seed` and the rest work inside hooks and tests (reading one before the service
 * has started throws). Hooks declared after the call run after the service has started, and their
 * `afterAll` hooks before it closes.
 */
export function useTestService(options: TestServiceOptions = {}): TestService {
  let running: TestService | undefined;
  beforeAll(async () => {
    running = await startTestService(typeof options === "function" ? await options() : options);
  });
  afterAll(async () => {
    await running?.close();
    running = undefined;
  });
  const handle = {} as TestService;
  for (const name of Object.keys(TEST_SERVICE_PROPERTIES) as (keyof TestService)[]) {
    Object.defineProperty(handle, name, {
      enumerable: true,
      get() {
        if (!running) throw new Error(`svc.${name} was read before the test service started`);
        return running[name];
      },
    });
  }
  return handle;
}

/** The handle of `useTestDatabase`: the file's database, read once it has been created. */
export interface UsedTestDatabase {
  /** Its connection string. */
  readonly url: string;
  readonly handle: DbHandle;
  /** The Drizzle database (`handle.db`). */
  readonly db: Db;
  /** A Seeder over it. */
  readonly seed: Seeder;
}

/**
 * The test file's database: a fresh migrated one created before the file's (or the describe
 * block's) tests and dropped after them, in place of the `let db` / `beforeAll` / `afterAll`
 * set-up. The handle reads the created database (reading it before then throws); hooks declared
 * after the call run once it exists, and their `afterAll` hooks before it is dropped.
 */
export function useTestDatabase(): UsedTestDatabase {
  let created: { url: string; handle: DbHandle; seed: Seeder; drop(): Promise<void> } | undefined;
  beforeAll(async () => {
    const database = await createTestDatabase();
    created = { ...database, seed: new Seeder(database.handle) };
  });
  afterAll(async () => {
    await created?.drop();
    created = undefined;
  });
  const running = (name: string) => {
    if (!created) throw new Error(`${name} was read before the test database was created`);
    return created;
  };
  return {
    get url() {
      return running("url").url;
    },
    get handle() {
      return running("handle").handle;
    },
    get db() {
      return running("db").handle.db;
    },
    get seed() {
      return running("seed").seed;
    },
  };
}

/** What `useCompiledLauncher` gives a test file. */
export interface CompiledLauncher {
  /** The repository root, ending in a slash. */
  root: string;
  /** The compiled launcher (`pnpm start`), as `compiledEntry` gives it. */
  launcher: { command: string; args: string[] };
  /** The compiled operator CLI. */
  cliEntry: { command: string; args: string[] };
  /** A scratch folder of the file's own, removed after its tests. */
  dir: string;
  /** The processes the file spawned; push each one so that it is killed after the file's tests. */
  children: ChildProcess[];
  /**
   * Keeps `child` among `children` and collects its output; resolves to a reader of that output
   * once `ready` matches it, rejects when the child exits first or after `timeoutMs`. `label`
   * starts the error messages (`launcher ` gives "launcher did not start").
   */
  started(
    child: ChildProcess,
    ready: RegExp,
    options: { timeoutMs: number; label?: string },
  ): Promise<() => string>;
}

/**
 * The set-up of a test file that runs the compiled launcher and operator CLI: their commands, a
 * scratch folder named from `prefix` (`svc-launcher-`), and the spawned processes, all killed and
 * removed after the file's tests. Call it at the top of the file.
 */
export function useCompiledLauncher(prefix: string): CompiledLauncher {
  const root = fileURLToPath(new URL("../../../", import.meta.url));
  const launched: CompiledLauncher = {
    root,
    launcher: compiledEntry(root, "tooling/cli/dist/start.js"),
    cliEntry: compiledEntry(root, "tooling/cli/dist/main.js"),
    dir: mkdtempSync(path.join(tmpdir(), prefix)),
    children: [],
    started(child, ready, { timeoutMs, label = "" }) {
      launched.children.push(child);
      let out = "";
      child.stdout?.on("data", (d) => {
        out += String(d);
      });
      child.stderr?.on("data", (d) => {
        out += String(d);
      });
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`${label}did not start:\n${out}`)), timeoutMs);
        const check = () => {
          if (ready.test(out)) {
            clearTimeout(timer);
            resolve(() => out);
          } else setTimeout(check, 50);
        };
        child.once("exit", (code) => reject(new Error(`${label}exited ${code}:\n${out}`)));
        check();
      });
    },
  };
  afterAll(() => {
    for (const child of launched.children) child.kill("SIGKILL");
    rmSync(launched.dir, { recursive: true, force: true });
  });
  return launched;
}
