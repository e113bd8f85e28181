import { buildCombinedApp } from "@svc/cli/combined";
import { createRuntime, parseEnv } from "@svc/http/runtime";
import { createTestDatabase, requireEnv } from "@svc/testkit";
import { unlimitedBenchCaller } from "./caller.js";

/** The app's `fetch`, as the combined app exposes it. */
export type AppFetch = (request: Request) => Response | Promise<Response>;

/** Requests kept in flight, as a loaded server has: Redis waits overlap other requests' work. */
const CONCURRENCY = 50;

export interface ServiceCpu {
  /** This process's CPU time (user + system) per request, in microseconds. */
  cpuUs: number;
  /** Wall time per request with CONCURRENCY in flight. */
  wallUs: number;
  /** The first answer's body. */
  answer: string;
  status: number;
}

/**
 * CPU microseconds per request of `fetch` answering the same POST/GET `iterations` times, after
 * `warmup` requests. Measured with process.cpuUsage, so only work counts, not waiting.
 */
export async function serviceCpuPerRequest(
  fetch: AppFetch,
  init: { method: string; path: string; key: string; body?: string },
  iterations: number,
  warmup: number,
): Promise<ServiceCpu> {
  // Content-Length as every HTTP client sends it: without it (or Transfer-Encoding) the input
  // hygiene screen sees no body and skips its walk, so the loop would measure less than a request.
  const length = init.body === undefined ? {} : { "content-length": String(Buffer.byteLength(init.body)) };
  const once = async () => {
    const res = await fetch(
      new Request(`http://127.0.0.1${init.path}`, {
        method: init.method,
        headers: { "content-type": "application/json", authorization: `Bearer ${init.key}`, ...length },
        body: init.body,
      }),
    );
    return { status: res.status, text: await res.text() };
  };
  const inFlight = async (count: number) => {
    const worker = async () => {
      for (let i = 0; i < count / CONCURRENCY; i++) await once();
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  };
  const first = await once();
  await inFlight(warmup);
  const cpuBefore = process.cpuUsage();
  const started = process.hrtime.bigint();
  await inFlight(iterations);
  const wallUs = Number(process.hrtime.bigint() - started) / 1_000 / iterations;
  const cpu = process.cpuUsage(cpuBefore);
  return { cpuUs: (cpu.user + cpu.system) / iterations, wallUs, answer: first.text, status: first.status };
}

/** The combined app in this process on a throwaway database and the test Redis, with an unlimited key. */
export async function startInProcessService(
  name: string,
  logLevel = "silent",
): Promise<{ fetch: AppFetch; key: string; close(): Promise<void> }> {
  const db = await createTestDatabase();
  const env = parseEnv({
    ...process.env,
    DATABASE_URL: db.url,
    REDIS_URL: requireEnv("TEST_REDIS_URL"),
    LOG_LEVEL: logLevel,
    PORT: "0",
  });
  const runtime = await createRuntime(env, name);
  const { key } = await unlimitedBenchCaller(runtime.deps.db, name);
  const app = buildCombinedApp(runtime.deps);
  return {
    fetch: app.fetch,
    key,
    async close() {
      await runtime.close();
      await db.drop();
    },
  };
}
