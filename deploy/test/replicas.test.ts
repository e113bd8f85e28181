/**
 * The scale-out topology of deploy/compose.yaml, run for real on this machine: two compiled
 * intelligence-api replicas, one mse-record-api and two webhook workers on one PostgreSQL database
 * and one Redis (a logical database of its own, so other test files' queues and counters stay
 * apart), with Debian's nginx in front. Checks what only replicas can get wrong: the sandbox quota
 * counted across replicas, a revocation seen by every replica, a replica SIGKILLed under load, and
 * a worker SIGKILLed in the middle of 1,000 webhook deliveries.
 */
import { execFile } from "node:child_process";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { eq, events, webhookDeliveries } from "@svc/db";
import { addWebhookEndpoint } from "@svc/delivery";
import type { ErrorEnvelope } from "@svc/http";
import {
  call,
  compiledEntry,
  createTestDatabase,
  flushRedisDatabase,
  nginxBinary,
  redisDatabaseUrl,
  requireEnv,
  Seeder,
  startTopology,
  type TestDatabase,
  type Topology,
} from "@svc/testkit";
import { EVENT_ID_HEADER, SIGNATURE_HEADER, verifySignature } from "@svc/webhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/** The part of a lab order body this file reads (deploy/ does not depend on the API packages). */
interface LabOrderBody {
  data: { id: string };
}

const root = fileURLToPath(new URL("../../", import.meta.url));
/** Logical Redis database of this file (the others use database 0 with key prefixes). */
const REDIS_DB = 9;

let db: TestDatabase | undefined;
let topology: Topology | undefined;
let seeder: Seeder;
const cleanups: (() => Promise<void>)[] = [];
/** Every number the tests measure, printed as one table at the end. */
const summary: Record<string, string | number> = {};
const fileStarted = performance.now();

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const topo = (): Topology => {
  if (!topology) throw new Error("the topology did not start");
  return topology;
};
const nginxUrl = () => {
  const nginx = topo().nginx;
  if (!nginx) throw new Error("nginx did not start");
  return nginx.url;
};
/** `host:port` of each intelligence-api replica, as nginx names them in X-Upstream. */
const replicaAddress = (i: number) => `127.0.0.1:${topo().intelligence[i]?.port}`;
/** The replica that finally answered (nginx lists every one it tried, comma-separated). */
const answeredBy = (headers: Headers) => (headers.get("x-upstream") ?? "").split(",").at(-1)?.trim() ?? "";

beforeAll(async () => {
  // Fails with the install hint rather than skipping: this file is the only proof of scale-out.
  nginxBinary();
  db = await createTestDatabase();
  seeder = new Seeder(db.handle);
  const redisUrl = redisDatabaseUrl(requireEnv("TEST_REDIS_URL"), REDIS_DB);
  await flushRedisDatabase(redisUrl);
  const started = performance.now();
  topology = await startTopology({
    root,
    databaseUrl: db.url,
    redisUrl,
    intelligence: 2,
    mse: 1,
    workers: 2,
    // The receiver below is a test-mode endpoint on loopback (off by default with DATABASE_URL).
    env: { ALLOW_LOOPBACK_WEBHOOKS: "true" },
  });
  summary["topology start (5 apps + nginx), ms"] = Math.round(performance.now() - started);
}, 90_000);

afterAll(async () => {
  for (const cleanup of cleanups) await cleanup().catch(() => {});
  await topology?.stop();
  await db?.drop();
  summary["test file total, s"] = Math.round((performance.now() - fileStarted) / 100) / 10;
  console.log("\nreplica topology summary");
  console.table(Object.entries(summary).map(([measure, value]) => ({ measure, value })));
}, 60_000);

/** Run `tasks` with at most `concurrency` at once, keeping their order in the results. */
async function pool<T>(count: number, concurrency: number, task: (i: number) => Promise<T>): Promise<T[]> {
  const results: T[] = new Array(count);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, count) }, async () => {
      while (next < count) {
        const i = next++;
        results[i] = await task(i);
      }
    }),
  );
  return results;
}

describe("replicas behind nginx", () => {
  it("the sandbox quota is exact across replicas: 100 of 130 pings pass, 30 are 429", async () => {
    const caller = await seeder.caller("sandbox");
    const results = await pool(130, 10, async () => {
      const res = await fetch(`${nginxUrl()}/v1/ping`, {
        headers: { authorization: `Bearer ${caller.key}` },
      });
      await res.arrayBuffer();
      return { status: res.status, upstream: answeredBy(res.headers) };
    });
    const ok = results.filter((r) => r.status === 200).length;
    const limited = results.filter((r) => r.status === 429).length;
    const perReplica = [0, 1].map((i) => results.filter((r) => r.upstream === replicaAddress(i)).length);
    summary["quota: 200 of 130 (sandbox key)"] = ok;
    summary["quota: 429 of 130"] = limited;
    summary["quota: served by replica 1 / 2"] = perReplica.join(" / ");
    expect(ok).toBe(100);
    expect(limited).toBe(30);
    // Both replicas counted against the one quota; otherwise this would prove nothing.
    expect(perReplica[0]).toBeGreaterThan(0);
    expect(perReplica[1]).toBeGreaterThan(0);
  });

  it("a key revoked with the operator CLI is refused by the very next request on every replica", async () => {
    const caller = await seeder.caller("enterprise");
    const targets = [
      { name: "replica 1", url: topo().intelligence[0]?.url as string },
      { name: "replica 2", url: topo().intelligence[1]?.url as string },
    ];
    // Twice each, so both replicas hold the key in their lookup cache before the revocation.
    for (let round = 0; round < 2; round++) {
      for (const target of targets) {
        expect((await call(target.url, "/v1/ping", { key: caller.key })).status, target.name).toBe(200);
      }
    }
    const throughNginx = await pool(4, 1, () => call(nginxUrl(), "/v1/ping", { key: caller.key }));
    expect(throughNginx.map((r) => r.status)).toEqual([200, 200, 200, 200]);

    const cli = compiledEntry(root, "tooling/cli/dist/main.js");
    const started = performance.now();
    const revoked = await new Promise<string>((resolve, reject) => {
      execFile(
        cli.command,
        [...cli.args, "keys", "revoke", "--id", caller.keyId, "--json"],
        { cwd: root, env: { ...process.env, ...topo().env, LOG_LEVEL: "warn" }, timeout: 20_000 },
        (error, stdout, stderr) =>
          error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(stdout),
      );
    });
    summary["revoke: CLI run, ms"] = Math.round(performance.now() - started);
    expect(JSON.parse(revoked)).toMatchObject({ id: caller.keyId });

    for (const target of targets) {
      const res = await call<ErrorEnvelope>(target.url, "/v1/ping", { key: caller.key });
      expect(res.status, target.name).toBe(401);
      expect(res.json.error.code).toBe("invalid_token");
    }
    const after = await pool(4, 1, () => call<ErrorEnvelope>(nginxUrl(), "/v1/ping", { key: caller.key }));
    expect(after.map((r) => r.status)).toEqual([401, 401, 401, 401]);
    // Round robin: the four went to both replicas.
    expect(new Set(after.map((r) => answeredBy(r.headers))).size).toBe(2);
    summary["revoke: 401 on replica 1, replica 2, nginx x4"] = "yes";
  });

  it("a replica SIGKILLed under steady load: nginx routes around it and the load keeps succeeding", async () => {
    const caller = await seeder.caller("enterprise");
    const RATE = 50;
    const DURATION_MS = 8_000;
    const KILL_AT_MS = 3_000;
    const victim = topo().intelligence[0];
    if (!victim) throw new Error("no replica to kill");
    const victimAddress = replicaAddress(0);

    interface Sample {
      start: number;
      end: number;
      ok: boolean;
      upstream: string;
    }
    const t0 = performance.now();
    let killedAt = Number.NaN;
    const killer = sleep(KILL_AT_MS).then(async () => {
      killedAt = performance.now() - t0;
      await victim.kill("SIGKILL");
    });
    // Open loop: a request every 20 ms whatever the answers do, so a stall shows as failures or
    // latency, not as fewer requests.
    const runs: Promise<Sample>[] = [];
    const total = Math.round((DURATION_MS / 1000) * RATE);
    for (let i = 0; i < total; i++) {
      const wait = t0 + (i * 1000) / RATE - performance.now();
      if (wait > 0) await sleep(wait);
      const start = performance.now() - t0;
      runs.push(
        fetch(`${nginxUrl()}/v1/ping`, {
          headers: { authorization: `Bearer ${caller.key}` },
          signal: AbortSignal.timeout(5_000),
        })
          .then(async (res) => {
            await res.arrayBuffer();
            return { start, end: performance.now() - t0, ok: res.ok, upstream: answeredBy(res.headers) };
          })
          .catch(() => ({ start, end: performance.now() - t0, ok: false, upstream: "" })),
      );
    }
    const samples = (await Promise.all(runs)).sort((a, b) => a.start - b.start);
    await killer;

    const before = samples.filter((s) => s.start < killedAt);
    const afterKill = samples.filter((s) => s.start >= killedAt);
    const failed = samples.filter((s) => !s.ok);
    const failedAfter = afterKill.filter((s) => !s.ok);
    // Failures caused by the kill are those still in flight at it or started after it.
    const failedAround = samples.filter((s) => !s.ok && s.end >= killedAt);
    const lastFailureEnd = Math.max(killedAt, ...failedAround.map((s) => s.end));
    const recoveryMs = failedAround.length === 0 ? 0 : Math.round(lastFailureEnd - killedAt);
    const RUN = 25;
    const firstRun = afterKill.findIndex((_, i) => afterKill.slice(i, i + RUN).every((s) => s.ok));
    const firstRunMs = firstRun < 0 ? Number.NaN : Math.round((afterKill[firstRun]?.start ?? 0) - killedAt);
    const latency = (list: Sample[]) => list.map((s) => s.end - s.start).sort((a, b) => a - b);
    const p99 = (list: Sample[]) => Math.round(latency(list)[Math.floor(list.length * 0.99)] ?? 0);
    const aroundKill = samples.filter((s) => s.start >= killedAt - 500 && s.start < killedAt + 2_500);
    const lastWindow = samples.filter((s) => s.start >= DURATION_MS - 3_000);
    const successAfter = afterKill.filter((s) => s.ok).length / Math.max(1, afterKill.length);

    console.log(
      `SIGKILL under load: ${samples.length} requests at ${RATE}/s, kill at ${Math.round(killedAt)} ms, ` +
        `${failed.length} failed (${failedAfter.length} started after the kill), recovery ${recoveryMs} ms, ` +
        `first ${RUN} straight successes ${firstRunMs} ms after the kill, ` +
        `p99 before ${p99(before)} ms, p99 in the 3 s around the kill ${p99(aroundKill)} ms`,
    );
    summary["kill replica: requests sent"] = samples.length;
    summary["kill replica: failed (non-2xx or network)"] = failed.length;
    summary["kill replica: recovery ms (kill -> last failure)"] = recoveryMs;
    summary[`kill replica: ms to ${RUN} straight successes`] = firstRunMs;
    summary["kill replica: p99 ms before / around kill"] = `${p99(before)} / ${p99(aroundKill)}`;
    summary["kill replica: success after kill, %"] = Math.round(successAfter * 1000) / 10;

    // The victim was really serving before it died, and nobody got an answer from it after.
    expect(before.some((s) => s.ok && s.upstream === victimAddress)).toBe(true);
    expect(afterKill.filter((s) => s.ok && s.upstream === victimAddress)).toEqual([]);
    expect(successAfter).toBeGreaterThanOrEqual(0.95);
    expect(lastWindow.length).toBeGreaterThan(100);
    expect(lastWindow.filter((s) => !s.ok)).toEqual([]);

    // A replacement on the same port rejoins once nginx's fail_timeout (2 s) is over.
    const replacement = await topo().replace(victim);
    const rejoinStarted = performance.now();
    let rejoined = false;
    while (!rejoined && performance.now() - rejoinStarted < 15_000) {
      const res = await call(nginxUrl(), "/v1/ping", { key: caller.key });
      expect(res.status).toBe(200);
      rejoined = res.headers.get("x-upstream") === `127.0.0.1:${replacement.port}`;
      if (!rejoined) await sleep(100);
    }
    summary["kill replica: replacement serving via nginx after, ms"] = Math.round(
      performance.now() - rejoinStarted,
    );
    expect(rejoined).toBe(true);
  }, 60_000);

  it("1,000 events with a worker SIGKILLed mid-burst: every event arrives, duplicates are only redeliveries", async () => {
    const handle = (db as TestDatabase).handle.db;
    const caller = await seeder.caller("enterprise", { ratePerSecond: 100_000, burst: 100_000 });
    const ORDERS = 200;
    const MOVES = 5; // requested -> authorized -> scheduled -> collected -> in_transit -> processing
    const EXPECTED = ORDERS * MOVES;
    const KILL_AFTER = Math.round(EXPECTED * 0.25);
    const RECEIVER_DELAY_MS = 250;

    const arrivals: string[] = [];
    const distinct = new Set<string>();
    let badSignatures = 0;
    let killedAtMs = Number.NaN;
    let killedAfter = 0;
    let lastNewIdMs = 0;
    let lastArrivalMs = 0;
    let secret = "";
    const t0 = performance.now();
    const victim = topo().workers[0];
    if (!victim) throw new Error("no worker to kill");
    const receiver = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        const id = String(req.headers[EVENT_ID_HEADER.toLowerCase()] ?? "");
        const body = Buffer.concat(chunks).toString("utf8");
        const header = req.headers[SIGNATURE_HEADER.toLowerCase()];
        if (!verifySignature({ secret, payload: body, header: typeof header === "string" ? header : "" }).ok)
          badSignatures++;
        arrivals.push(id);
        lastArrivalMs = performance.now() - t0;
        if (!distinct.has(id)) {
          distinct.add(id);
          lastNewIdMs = performance.now() - t0;
        }
        // A receiver that takes a while to answer, like real ones: deliveries pile up in flight
        // (each worker runs 10 at once), so the killed worker dies holding several.
        setTimeout(() => {
          if (!res.destroyed) res.writeHead(200).end();
        }, RECEIVER_DELAY_MS);
        // Kill from inside the receiver, so the kill lands at a known point of the burst.
        if (distinct.size === KILL_AFTER && Number.isNaN(killedAtMs)) {
          killedAtMs = performance.now() - t0;
          killedAfter = distinct.size;
          victim.child.kill("SIGKILL");
        }
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    cleanups.push(
      () =>
        new Promise<void>((resolve) => {
          receiver.closeAllConnections();
          receiver.close(() => resolve());
        }),
    );
    const endpoint = await addWebhookEndpoint(handle, {
      accountId: caller.account.id,
      url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`,
      mode: "test",
      allowLoopbackWebhooks: true,
    });
    secret = endpoint.secret;

    // Events the way clients make them: lab orders moved through the test helpers, via nginx.
    const statuses = await pool(ORDERS, 20, async (i) => {
      const created = await call<LabOrderBody>(nginxUrl(), "/v1/labs/orders", {
        key: caller.key,
        body: { patientRef: `pt_${i}`, panelId: "cbc_diff" },
      });
      const seen = [created.status];
      for (let move = 0; move < MOVES; move++) {
        const res = await call<LabOrderBody>(
          nginxUrl(),
          `/v1/test_helpers/labs/orders/${created.json?.data?.id}/advance`,
          {
            key: caller.key,
            method: "POST",
          },
        );
        seen.push(res.status);
      }
      return seen;
    });
    const producedMs = Math.round(performance.now() - t0);
    expect(statuses.flat().filter((s) => s < 200 || s > 299)).toEqual([]);

    // The truth is the database: the ids the API recorded, each with one delivery.
    const recorded = await handle
      .select({ id: events.id })
      .from(events)
      .where(eq(events.accountId, caller.account.id));
    const expected = new Set(recorded.map((r) => r.id));
    expect(expected.size).toBe(EXPECTED);
    const deliveryRows = await handle
      .select({ id: webhookDeliveries.id })
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.endpointId, endpoint.id));
    expect(deliveryRows.length).toBe(EXPECTED);

    // The dead worker's claimed rows come back after their lease (40 s) and the sweeper's
    // stale-after (60 s from the hand-off), swept every 5 s: allow 100 s for every row to be
    // received and settled as delivered (the status write follows the receiver's answer).
    const deadline = performance.now() + 100_000;
    let allReceivedMs = Number.NaN;
    let undelivered = EXPECTED;
    while (performance.now() < deadline) {
      if (distinct.size >= EXPECTED && Number.isNaN(allReceivedMs))
        allReceivedMs = Math.round(performance.now() - t0);
      const rows = await handle
        .select({ status: webhookDeliveries.status })
        .from(webhookDeliveries)
        .where(eq(webhookDeliveries.endpointId, endpoint.id));
      undelivered = rows.filter((r) => r.status !== "delivered").length;
      if (undelivered === 0 && distinct.size >= EXPECTED) break;
      await sleep(500);
    }
    const allDeliveredMs = Math.round(performance.now() - t0);

    const counts = new Map<string, number>();
    for (const id of arrivals) counts.set(id, (counts.get(id) ?? 0) + 1);
    const duplicates = arrivals.length - distinct.size;
    const duplicatedIds = [...counts.values()].filter((n) => n > 1).length;
    const mostCopies = Math.max(0, ...counts.values());
    const missing = [...expected].filter((id) => !distinct.has(id));
    const strangers = [...distinct].filter((id) => !expected.has(id));
    console.log(
      `1,000 events: produced in ${producedMs} ms; worker SIGKILLed after ${killedAfter} distinct arrivals ` +
        `at ${Math.round(killedAtMs)} ms; ${distinct.size}/${EXPECTED} distinct received (last new one at ` +
        `${Math.round(lastNewIdMs)} ms, ${Math.round(lastNewIdMs - killedAtMs)} ms after the kill); ` +
        `${arrivals.length} POSTs, ${duplicates} duplicates over ${duplicatedIds} ids (last POST ` +
        `${Math.round(lastArrivalMs - killedAtMs)} ms after the kill); all rows delivered at ` +
        `${allDeliveredMs} ms; ${badSignatures} bad signatures; ${undelivered} rows not delivered`,
    );
    summary["events: produced (200 orders x 5 moves), ms"] = producedMs;
    summary["events: worker killed after N distinct arrivals"] = killedAfter;
    summary["events: distinct received of 1000"] = distinct.size;
    summary["events: last new id, ms after the kill"] = Math.round(lastNewIdMs - killedAtMs);
    summary["events: all received at, ms"] = allReceivedMs;
    summary["events: last POST (a redelivery), ms after the kill"] = Math.round(lastArrivalMs - killedAtMs);
    summary["events: all 1000 rows delivered at, ms"] = allDeliveredMs;
    summary["events: POSTs received"] = arrivals.length;
    summary["events: duplicates (ids received twice+)"] = `${duplicates} (${duplicatedIds})`;

    expect(killedAfter).toBe(KILL_AFTER);
    expect(await victim.exited).toBe("SIGKILL");
    expect(missing).toEqual([]);
    expect(strangers).toEqual([]);
    expect(arrivals.filter((id) => !expected.has(id))).toEqual([]);
    expect(badSignatures).toBe(0);
    expect(undelivered).toBe(0);
    // At least once, not "many times": the dead worker held at most its concurrency (10) of rows
    // mid-attempt; anything more would mean a double send by two live claims.
    expect(duplicates, "more duplicates than the dead worker had attempts in flight").toBeLessThanOrEqual(10);
    expect(mostCopies).toBeLessThanOrEqual(2);
  }, 180_000);
});
