/**
 * `pnpm bench`: load on the API over loopback, side by side with a bare node:http baseline in the
 * same run. Interleaved rounds, medians; req/s, p50, p99 and the ratio to the baseline; a fixed
 * 1,000 req/s run for tail latency; Redis commands and database queries per request counted.
 * Results go to bench/results/ as JSON and an SVG chart.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createApiKey, createOrganization } from "@svc/db";
import { createTestDatabase, requireEnv } from "@svc/testkit";
import autocannon from "autocannon";
import { unlimitedBenchCaller } from "./caller.js";
import { type CdsBenchResult, cdsTable, runCdsBench } from "./cds.js";
import { renderCdsChart, renderChart } from "./chart.js";
import { type DeliveryBenchResult, runDeliveryBench } from "./delivery.js";
import { type EventsBenchRow, runEventsBench } from "./events.js";
import { type MseBenchRow, runMseBench } from "./mse.js";
import { type Scenario, scenarios } from "./scenarios.js";

const here = path.dirname(fileURLToPath(import.meta.url));
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const DURATION = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const FIXED_RATE = 1000;
const MSE_RATE = Number(process.env.BENCH_MSE_RATE ?? 200);
/** Events stored for the event-list bench (0 skips it). */
const EVENTS = Number(process.env.BENCH_EVENTS ?? 1_000_000);
/** Webhook deliveries: steady rate for the latency run (0 skips) and the backlog size. */
const DELIVERY_RATE = Number(process.env.BENCH_DELIVERY_RATE ?? 100);
const DELIVERY_BACKLOG = Number(process.env.BENCH_DELIVERY_BACKLOG ?? 2000);
/** CDS Hooks calls timed per call kind, sequentially (0 skips the CDS part). */
const CDS_CALLS = Number(process.env.BENCH_CDS_CALLS ?? 300);
/** The CDS API's public base URL: the EHR signs its JWT for `<base>/cds-hooks/<account>/cds-services/<id>`. */
const CDS_PUBLIC_BASE = "https://cds.bench.test";
/** BENCH_ROUNDS=0 skips the throughput scenarios (and leaves results/api.json as it was). */
const RUN_SCENARIOS = ROUNDS > 0 && scenarios.length > 0;

interface Counters {
  /** The server process's CPU time so far (user + system), every side. */
  cpuMicros: number;
  queries: number;
  redisCommands: number;
  keyCacheLive: boolean;
  rssBytes: number;
  heapTotalBytes: number;
  heapUsedBytes: number;
}

interface Server {
  child: ChildProcess;
  url: string;
  counters(): Promise<Counters>;
  stop(): void;
}

/** The API, the zod baseline and the hand-checked baseline (server.ts). */
type Side = "api" | "baseline" | "hand";

function startChild(target: Side, env: Record<string, string>): Promise<Server> {
  // BENCH_CPU_PROF=<dir> writes a V8 CPU profile of the API process (node --cpu-prof) on exit.
  const profile =
    target === "api" && process.env.BENCH_CPU_PROF
      ? ["--cpu-prof", "--cpu-prof-dir", path.resolve(process.env.BENCH_CPU_PROF)]
      : [];
  const child = spawn(
    process.execPath,
    [
      ...profile,
      ...(process.env.BENCH_NODE_FLAGS?.split(" ").filter(Boolean) ?? []),
      "--enable-source-maps",
      // Compiled by `pnpm bench` (tsup, the apps' production bundle settings) before it runs.
      path.join(here, "..", "dist", "server.js"),
    ],
    {
      cwd: path.join(here, ".."),
      env: { ...process.env, ...env, BENCH_TARGET: target },
      stdio: ["ignore", "inherit", "inherit", "ipc"],
    },
  );
  return new Promise((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`${target} server exited with ${code}`)));
    child.once("message", (message: { type: string; port: number }) => {
      if (message.type !== "ready") return reject(new Error("unexpected message"));
      resolve({
        child,
        url: `http://127.0.0.1:${message.port}`,
        counters: () =>
          new Promise((done) => {
            child.once("message", (m: Counters) => done(m));
            child.send({ type: "counters" });
          }),
        // SIGTERM lets a profiling child write its profile; SIGKILL only if it lingers.
        stop: () => {
          child.kill("SIGTERM");
          setTimeout(() => child.kill("SIGKILL"), 3_000).unref();
        },
      });
    });
  });
}

interface Measure {
  requests: number;
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  /** The server's CPU time per answered request (user + system): steadier than req/s on a shared machine. */
  cpuUsPerRequest: number;
}

/** One load run against a server, with the server's CPU time per request over the run. */
async function loadServer(
  server: Server,
  scenario: Scenario,
  key: string | null,
): Promise<{ measure: Measure; before: Counters; after: Counters }> {
  const before = await server.counters();
  const measure = await load(server.url, scenario, key);
  const after = await server.counters();
  measure.cpuUsPerRequest =
    Math.round(((after.cpuMicros - before.cpuMicros) / Math.max(1, measure.requests)) * 10) / 10;
  return { measure, before, after };
}

async function load(
  url: string,
  scenario: Scenario,
  key: string | null,
  options: { rate?: number; connections?: number } = {},
): Promise<Measure> {
  const result = await autocannon({
    url: `${url}${scenario.path}`,
    method: scenario.method,
    connections: options.connections ?? CONNECTIONS,
    duration: DURATION,
    headers: { "content-type": "application/json", ...(key ? { authorization: `Bearer ${key}` } : {}) },
    body: scenario.body ? JSON.stringify(scenario.body) : undefined,
    ...(options.rate ? { overallRate: options.rate } : {}),
  });
  return {
    requests: result.requests.total,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx + result.errors + result.timeouts,
    cpuUsPerRequest: 0,
  };
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
};

async function main() {
  const db = await createTestDatabase();
  const { accountId, key } = await unlimitedBenchCaller(db.handle.db, "Bench");
  const redisUrl = requireEnv("TEST_REDIS_URL");
  const api = await startChild("api", { DATABASE_URL: db.url, REDIS_URL: redisUrl });
  // The baseline answers with the API's own bodies, so both send the same bytes back.
  const answers: Record<string, unknown> = {};
  for (const scenario of scenarios) {
    const res = await fetch(`${api.url}${scenario.path}`, {
      method: scenario.method,
      headers: { "content-type": "application/json", authorization: `Bearer ${key}` },
      body: scenario.body ? JSON.stringify(scenario.body) : undefined,
    });
    if (res.status !== 200) throw new Error(`${scenario.name}: the API answered ${res.status}`);
    answers[`${scenario.method} ${scenario.path}`] = await res.json();
  }
  const answersFile = path.join(tmpdir(), `bench-answers-${process.pid}.json`);
  writeFileSync(answersFile, JSON.stringify(answers));
  const baseline = await startChild("baseline", { BENCH_ANSWERS: answersFile });
  const hand = await startChild("hand", { BENCH_ANSWERS: answersFile });
  const sides: Side[] = ["hand", "baseline", "api"];
  const total = ROUNDS * scenarios.length * sides.length;
  let done = 0;
  const samples = new Map<string, Record<Side, Measure[]>>();
  const perRequest = new Map<string, { redis: number[]; queries: number[] }>();
  /** The API process's resident memory after each scenario of each round. */
  const rssMb: number[] = [];
  /** Its V8 heap at the same moments: reserved (total) and in use, live and garbage alike. */
  const heapTotalMb: number[] = [];
  const heapUsedMb: number[] = [];
  console.log(
    `bench: ${scenarios.length} scenarios x ${ROUNDS} rounds x ${DURATION}s, ${CONNECTIONS} connections`,
  );
  try {
    for (let round = 1; round <= (RUN_SCENARIOS ? ROUNDS : 0); round++) {
      for (const scenario of scenarios) {
        const entry = samples.get(scenario.name) ?? { api: [], baseline: [], hand: [] };
        samples.set(scenario.name, entry);
        // Rotate which side goes first so drift on a noisy machine hits every side alike.
        const order = sides.map((_, i) => sides[(i + round) % sides.length] as Side);
        for (const side of order) {
          if (side === "api") {
            const { measure, before, after } = await loadServer(api, scenario, key);
            const counts = perRequest.get(scenario.name) ?? { redis: [], queries: [] };
            counts.redis.push((after.redisCommands - before.redisCommands) / Math.max(1, measure.requests));
            counts.queries.push((after.queries - before.queries) / Math.max(1, measure.requests));
            perRequest.set(scenario.name, counts);
            rssMb.push(Math.round(after.rssBytes / 1e5) / 10);
            heapTotalMb.push(Math.round(after.heapTotalBytes / 1e5) / 10);
            heapUsedMb.push(Math.round(after.heapUsedBytes / 1e5) / 10);
            entry.api.push(measure);
          } else {
            const server = side === "hand" ? hand : baseline;
            entry[side].push((await loadServer(server, scenario, key)).measure);
          }
          done++;
          const last = entry[side].at(-1);
          console.log(
            `[${done}/${total}] round ${round} ${scenario.name} ${side}: ${Math.round(last?.rps ?? 0)} req/s p99 ${last?.p99} ms, ${last?.cpuUsPerRequest} µs CPU/req${last?.non2xx ? ` (${last.non2xx} non-2xx!)` : ""}`,
          );
        }
      }
    }
    const fixed = new Map<string, Measure>();
    for (const scenario of RUN_SCENARIOS ? scenarios : []) {
      const measure = await load(api.url, scenario, key, { rate: FIXED_RATE, connections: 20 });
      fixed.set(scenario.name, measure);
      console.log(`fixed ${FIXED_RATE} req/s ${scenario.name}: p50 ${measure.p50} ms p99 ${measure.p99} ms`);
    }

    // Decision 43 limits each organization to 20 req/s: spread the steady rate over enough of them.
    const orgs = [];
    for (let i = 0; i < Math.max(1, Math.ceil(MSE_RATE / 15)); i++) {
      const org = await createOrganization(db.handle.db, { name: `Bench clinic ${i}` });
      const orgKey = await createApiKey(db.handle.db, {
        kind: "organization",
        orgId: org.id,
        scopes: ["mse:read", "mse:write", "mse:sign"],
      });
      orgs.push({ orgId: org.id, key: orgKey.key, keyId: orgKey.id });
    }
    let mse: MseBenchRow[] = [];
    if (MSE_RATE > 0)
      try {
        mse = await runMseBench({
          apiUrl: api.url,
          orgs,
          databaseUrl: db.url,
          rate: MSE_RATE,
          seconds: DURATION,
          log: console.log,
        });
      } catch (error) {
        console.log(`mse bench skipped: ${(error as Error).message}`);
      }

    let delivery: DeliveryBenchResult | null = null;
    if (DELIVERY_RATE > 0) {
      try {
        delivery = await runDeliveryBench({
          db: db.handle.db,
          accountId,
          redisUrl,
          rate: DELIVERY_RATE,
          seconds: DURATION,
          backlog: DELIVERY_BACKLOG,
          log: console.log,
        });
      } catch (error) {
        console.log(`delivery bench skipped: ${(error as Error).message}`);
      }
    }

    let eventPages: EventsBenchRow[] = [];
    if (EVENTS > 0) {
      try {
        eventPages = await runEventsBench({
          apiUrl: api.url,
          key,
          accountId,
          databaseUrl: db.url,
          count: EVENTS,
          rate: 100,
          seconds: DURATION,
          log: console.log,
        });
      } catch (error) {
        console.log(`events bench skipped: ${(error as Error).message}`);
      }
    }

    // The CDS Hooks services get an API process of their own, started the same way, because the
    // scripted FHIR server is on loopback: only this process runs with the operator's loopback
    // setting on (test-mode clients), and with a fixed public base URL for the JWT's audience.
    let cds: CdsBenchResult | null = null;
    if (CDS_CALLS > 0) {
      const cdsApi = await startChild("api", {
        DATABASE_URL: db.url,
        REDIS_URL: redisUrl,
        PUBLIC_BASE_URL: CDS_PUBLIC_BASE,
        ALLOW_LOOPBACK_WEBHOOKS: "true",
      });
      try {
        cds = await runCdsBench({
          apiUrl: cdsApi.url,
          publicBaseUrl: CDS_PUBLIC_BASE,
          accountId,
          databaseUrl: db.url,
          calls: CDS_CALLS,
          log: console.log,
          counters: cdsApi.counters,
        });
      } catch (error) {
        console.log(`cds bench skipped: ${(error as Error).message}`);
      } finally {
        cdsApi.stop();
      }
    }

    const summary = (measures: Measure[]) => ({
      rps: Math.round(median(measures.map((m) => m.rps))),
      p50: median(measures.map((m) => m.p50)),
      p99: median(measures.map((m) => m.p99)),
      cpuUsPerRequest: Math.round(median(measures.map((m) => m.cpuUsPerRequest)) * 10) / 10,
    });
    const ratio = (a: number, b: number) => Math.round((a / Math.max(b, 1)) * 100) / 100;
    const rows = (RUN_SCENARIOS ? scenarios : []).map((scenario) => {
      const s = samples.get(scenario.name) as Record<Side, Measure[]>;
      const counts = perRequest.get(scenario.name) as { redis: number[]; queries: number[] };
      const apiSide = summary(s.api);
      const zodSide = summary(s.baseline);
      const handSide = summary(s.hand);
      const fixedRun = fixed.get(scenario.name) as Measure;
      return {
        scenario: scenario.name,
        api: apiSide,
        baseline: zodSide,
        handBaseline: handSide,
        rpsRatio: ratio(apiSide.rps, zodSide.rps),
        p99Ratio: ratio(apiSide.p99, zodSide.p99),
        rpsRatioHand: ratio(apiSide.rps, handSide.rps),
        p99RatioHand: ratio(apiSide.p99, handSide.p99),
        /** Server CPU per request, hand-checked baseline over API (1 = as cheap as the baseline). */
        cpuRatioHand: ratio(handSide.cpuUsPerRequest, apiSide.cpuUsPerRequest),
        fixedRate: { rate: FIXED_RATE, p50: fixedRun.p50, p99: fixedRun.p99 },
        redisCommandsPerRequest: Math.round(median(counts.redis) * 100) / 100,
        dbQueriesPerRequest: Math.round(median(counts.queries) * 100) / 100,
        non2xx: s.api.reduce((n, m) => n + m.non2xx, 0),
        targets: {
          rpsRatioHandAtLeast: 0.5,
          p99RatioHandAtMost: 2.5,
          fixedRateP99UnderMs: 10,
          redisCommandsAtMost: 2,
          dbQueriesAtMost: 1,
        },
      };
    });
    if (RUN_SCENARIOS)
      console.log(
        `\nAPI process RSS: first ${rssMb[0]} MB, last ${rssMb.at(-1)} MB, max ${Math.max(...rssMb)} MB over ${rssMb.length} runs; V8 heap reserved last ${heapTotalMb.at(-1)} MB, in use ${heapUsedMb.at(-1)} MB`,
      );
    if (rows.length > 0)
      console.table(
        rows.map((r) => ({
          scenario: r.scenario,
          "api req/s": r.api.rps,
          "hand req/s": r.handBaseline.rps,
          "zod req/s": r.baseline.rps,
          "x hand": r.rpsRatioHand,
          "x zod": r.rpsRatio,
          "api p99": r.api.p99,
          "hand p99": r.handBaseline.p99,
          "p99 x hand": r.p99RatioHand,
          "p99 x zod": r.p99Ratio,
          "p99 @1k/s": r.fixedRate.p99,
          "api CPU µs/req": r.api.cpuUsPerRequest,
          "hand CPU µs/req": r.handBaseline.cpuUsPerRequest,
          "CPU hand/api": r.cpuRatioHand,
          "redis/req": r.redisCommandsPerRequest,
          "db/req": r.dbQueriesPerRequest,
        })),
      );
    if (mse.length > 0) {
      console.log(
        `\nMSE Record API at a steady ${MSE_RATE} req/s (bare PostgreSQL = the same rows, same rate)`,
      );
      console.table(
        mse.map((r) => ({
          operation: r.operation,
          "api p50": r.api.p50,
          "api p99": r.api.p99,
          "pg p50": r.baseline.p50,
          "pg p99": r.baseline.p99,
          "api failed": r.api.failures,
        })),
      );
    }
    if (cds) {
      console.log(
        `\nCDS Hooks calls over loopback, ${cds.calls} sequential calls each (budget ${cds.budgetMs} ms; healthz = GET /healthz on the same process, same loop)`,
      );
      console.table(cdsTable(cds));
    }
    const resultsDir = path.join(here, "..", "results");
    mkdirSync(resultsDir, { recursive: true });
    if (cds) {
      writeFileSync(
        path.join(resultsDir, "cds.json"),
        `${JSON.stringify({ generatedAt: new Date().toISOString(), ...cds }, null, 2)}\n`,
      );
      writeFileSync(path.join(resultsDir, "cds.svg"), renderCdsChart(cds.rows, cds.budgetMs));
      console.log(`\nwrote bench/results/cds.json and bench/results/cds.svg`);
    }
    if (!RUN_SCENARIOS) return;
    const report = {
      generatedAt: new Date().toISOString(),
      rounds: ROUNDS,
      seconds: DURATION,
      connections: CONNECTIONS,
      apiRssMb: { perScenarioRound: rssMb, max: Math.max(...rssMb), first: rssMb[0], last: rssMb.at(-1) },
      apiHeapMb: { reserved: heapTotalMb, used: heapUsedMb },
      rows,
      mse,
      eventPages,
      delivery,
      cds,
    };
    writeFileSync(path.join(resultsDir, "api.json"), `${JSON.stringify(report, null, 2)}\n`);
    writeFileSync(path.join(resultsDir, "api.svg"), renderChart(rows));
    console.log(`\nwrote bench/results/api.json and bench/results/api.svg`);
  } finally {
    api.stop();
    baseline.stop();
    hand.stop();
    await db.drop();
  }
}

await main();
