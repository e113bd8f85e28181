import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { recordEvent } from "@svc/db";
import { createDeliveryEnqueuer } from "@svc/delivery";
import {
  addEndpoint,
  compiledEntry,
  createTestDatabase,
  type Receiver,
  Seeder,
  startReceiver,
  type TestDatabase,
  waitFor,
} from "@svc/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/**
 * Real outages: a Redis server of this test's own, stopped during a burst of state changes and
 * started again; and the standalone worker process killed with SIGKILL mid-burst and restarted.
 * Every event still arrives.
 */
const root = fileURLToPath(new URL("../../../", import.meta.url));

let db: TestDatabase;
let receiver: Receiver;
let redisPort: number;
let redisDir: string;
const children: ChildProcess[] = [];

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

function startRedis(): void {
  execFileSync("redis-server", [
    "--daemonize",
    "yes",
    "--bind",
    "127.0.0.1",
    "--port",
    String(redisPort),
    "--save",
    "",
    "--appendonly",
    "no",
    "--dir",
    redisDir,
    "--pidfile",
    path.join(redisDir, "redis.pid"),
  ]);
}
function stopRedis(): void {
  try {
    execFileSync("redis-cli", ["-p", String(redisPort), "shutdown", "nosave"]);
  } catch {
    // already down
  }
}

function startWorkerProcess(): ChildProcess {
  // The compiled worker, as deployments run it (`pnpm build` comes first in the test command).
  const worker = compiledEntry(root, "apps/webhook-worker/dist/main.js");
  const child = spawn(worker.command, worker.args, {
    cwd: root,
    env: {
      ...process.env,
      DATABASE_URL: db.url,
      REDIS_URL: `redis://127.0.0.1:${redisPort}`,
      LOG_LEVEL: "warn",
      // Its probe listener on a free port, never the default 3000 another test may hold.
      PORT: "0",
      HOST: "127.0.0.1",
    },
    stdio: "ignore",
  });
  children.push(child);
  return child;
}

beforeAll(async () => {
  db = await createTestDatabase();
  receiver = await startReceiver(() => ({ status: 200, delayMs: 20 }));
  redisPort = await freePort();
  redisDir = mkdtempSync(path.join(tmpdir(), "svc-redis-outage-"));
  startRedis();
});
afterAll(async () => {
  for (const child of children) child.kill("SIGKILL");
  stopRedis();
  rmSync(redisDir, { recursive: true, force: true });
  await receiver.close();
  await db.drop();
});

describe("outages", () => {
  it("Redis stopped mid-burst and the worker SIGKILLed mid-burst: every event is delivered", async () => {
    const { account } = await new Seeder(db.handle).caller();
    await addEndpoint(db.handle.db, {
      accountId: account.id,
      url: `${receiver.url}/outage`,
      allowPrivate: true,
    });
    const enqueuer = createDeliveryEnqueuer({ redis: `redis://127.0.0.1:${redisPort}`, db: db.handle.db });
    let worker = startWorkerProcess();
    const eventIds: string[] = [];
    const emit = async (i: number) => {
      const recorded = await db.handle.db.transaction((tx) =>
        recordEvent(tx, {
          accountId: account.id,
          mode: "test",
          type: "lab_order.status_changed",
          data: { object: "lab_order", id: `labord_${i}`, status: "collected", patientRef: "p" },
        }),
      );
      eventIds.push(recorded.event.id);
      await enqueuer.enqueue(recorded.deliveryIds); // best effort: fails quietly while Redis is down
    };
    for (let i = 0; i < 20; i++) await emit(i);
    stopRedis(); // Redis goes away mid-burst...
    for (let i = 20; i < 40; i++) await emit(i);
    worker.kill("SIGKILL"); // ...and the worker dies without any chance to clean up.
    startRedis();
    for (let i = 40; i < 60; i++) await emit(i);
    worker = startWorkerProcess();
    const delivered = await waitFor(
      () => {
        const seen = new Set(receiver.requests.map((r) => JSON.parse(r.body).id as string));
        return eventIds.every((id) => seen.has(id)) ? seen : false;
      },
      90_000,
      "every event delivered after the outages",
    );
    expect(eventIds.every((id) => delivered.has(id))).toBe(true);
    await enqueuer.close().catch(() => {});
  }, 120_000);
});
