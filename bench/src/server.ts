/**
 * A server under test, run in its own process so that it does not share an event loop with the
 * load generator. BENCH_TARGET=api: the real service wired exactly as `pnpm start` wires it with
 * DATABASE_URL and REDIS_URL (auth with its key cache, Redis rate limiting, validation, engines).
 * BENCH_TARGET=baseline: a bare node:http server that parses, validates with the API's zod schemas
 * and answers a JSON body. BENCH_TARGET=hand: the same server checking the Authorization header
 * and a few fields by hand instead of zod — the physical floor the API is compared with.
 */
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import { buildCombinedApp } from "@svc/cli/combined";
import { createRuntime, parseEnv, startServer } from "@svc/http/runtime";
import { languageModelNarratorFromEnv } from "@svc/model";
import { baselineHandlers, handCheckedHandlers } from "./baseline.js";

const send = (message: object) => process.send?.(message);

/** This process's CPU time so far (user + system), so the runner can divide it by requests served. */
const cpuMicros = () => {
  const used = process.cpuUsage();
  return used.user + used.system;
};

/** Every side answers `counters` with its CPU time; the API adds its own counts. */
function answerCounters(extra: () => object = () => ({})): void {
  process.on("message", (message: { type: string }) => {
    if (message.type === "counters") send({ type: "counters", cpuMicros: cpuMicros(), ...extra() });
  });
}

async function api(): Promise<void> {
  let queries = 0;
  let redisCommands = 0;
  const env = parseEnv({ ...process.env, LOG_LEVEL: "silent", PORT: "0" });
  const runtime = await createRuntime(env, "bench", { onQuery: () => queries++ });
  // Count round trips our code makes to Redis (commands run inside a script are not round trips).
  const redis = runtime.redis;
  if (redis) {
    const original = redis.sendCommand.bind(redis);
    redis.sendCommand = ((command: Parameters<typeof original>[0]) => {
      redisCommands++;
      return original(command);
    }) as typeof redis.sendCommand;
  }
  const combined = buildCombinedApp(runtime.deps, { narrator: languageModelNarratorFromEnv(env) });
  const server = await startServer({ fetch: combined.fetch, port: 0, hostname: "127.0.0.1" });
  answerCounters(() => {
    const memory = process.memoryUsage();
    return {
      queries,
      redisCommands,
      keyCacheLive: runtime.deps.keyCache?.isLive ?? false,
      rssBytes: memory.rss,
      heapTotalBytes: memory.heapTotal,
      heapUsedBytes: memory.heapUsed,
    };
  });
  send({ type: "ready", port: server.port });
}

function baseline(kind: "zod" | "hand"): void {
  const answers = JSON.parse(readFileSync(process.env.BENCH_ANSWERS as string, "utf8"));
  const handlers = kind === "hand" ? handCheckedHandlers(answers) : baselineHandlers(answers);
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const route = `${req.method} ${req.url?.split("?")[0]}`;
      const handler = handlers[route];
      let status = 200;
      let body: unknown;
      try {
        const parsed = chunks.length ? JSON.parse(Buffer.concat(chunks).toString("utf8")) : undefined;
        if (!handler) {
          status = 404;
          body = { ok: false };
        } else {
          const result = handler(parsed, req.headers.authorization);
          status = result.status;
          body = result.body;
        }
      } catch {
        status = 400;
        body = { ok: false };
      }
      const text = JSON.stringify(body);
      res.writeHead(status, {
        "content-type": "application/json",
        "content-length": Buffer.byteLength(text),
      });
      res.end(text);
    });
  });
  answerCounters();
  server.listen(0, "127.0.0.1", () =>
    send({ type: "ready", port: (server.address() as { port: number }).port }),
  );
}

// A clean exit on SIGTERM, so that `--cpu-prof` writes its profile.
process.on("SIGTERM", () => process.exit(0));

if (process.env.BENCH_TARGET === "baseline") baseline("zod");
else if (process.env.BENCH_TARGET === "hand") baseline("hand");
else await api();
