import { afterAll, beforeAll } from "vitest";
import { type StartOptions, startTestService, type TestService } from "./index.js";

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
