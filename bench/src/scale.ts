/**
 * `pnpm bench:scale`: what a second intelligence-api replica buys behind nginx on this machine.
 * The compiled API processes and Debian's nginx come from the same topology helpers as
 * deploy/test/replicas.test.ts. Three targets, measured in interleaved rounds (medians): one
 * replica directly (no nginx, for reference), nginx in front of one replica, nginx in front of
 * two. Writes bench/results/scale.json and bench/results/scale.svg.
 *
 * Read the numbers with the core count in mind: every replica, nginx, PostgreSQL, Redis and the
 * load generator share this machine's cores, so on a small machine a second replica mostly
 * competes for the same CPU instead of adding any.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import {
  createTestDatabase,
  flushRedisDatabase,
  type NginxProcess,
  redisDatabaseUrl,
  requireEnv,
  startNginx,
  startTopology,
  type Topology,
} from "@svc/testkit";
import autocannon from "autocannon";
import { unlimitedBenchCaller } from "./caller.js";
import { type Scenario, scenarios } from "./scenarios.js";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "..", "..");
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const DURATION = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
/** A logical Redis database of its own, as in the replica test (its queue and counters apart). */
const REDIS_DB = 10;
const SCENARIOS = ["ping", "relapse"];

type TargetName = "direct, 1 replica" | "nginx, 1 replica" | "nginx, 2 replicas";
interface Target {
  name: TargetName;
  url: string;
}

interface Measure {
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  /** CPU seconds per wall second used by each API replica during the run (1 = one full core). */
  replicaCpu: number[];
  /** The same for this process, which runs autocannon. */
  loaderCpu: number;
}

/** utime + stime of a process in seconds (Linux /proc; clock ticks are 100 Hz on Linux). */
function cpuSeconds(pid: number | undefined): number {
  if (!pid) return 0;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // Fields after the command name, which is in parentheses and may contain spaces.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}

async function load(target: Target, scenario: Scenario, key: string, topology: Topology): Promise<Measure> {
  const pids = topology.intelligence.map((p) => p.child.pid);
  const cpuBefore = pids.map(cpuSeconds);
  const loaderBefore = process.cpuUsage();
  const started = process.hrtime.bigint();
  const result = await autocannon({
    url: `${target.url}${scenario.path}`,
    method: scenario.method,
    connections: CONNECTIONS,
    duration: DURATION,
    headers: { "content-type": "application/json", authorization: `Bearer ${key}` },
    body: scenario.body ? JSON.stringify(scenario.body) : undefined,
  });
  const wall = Number(process.hrtime.bigint() - started) / 1e9;
  const loader = process.cpuUsage(loaderBefore);
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx + result.errors + result.timeouts,
    replicaCpu: pids.map((pid, i) => round2((cpuSeconds(pid) - (cpuBefore[i] ?? 0)) / wall)),
    loaderCpu: round2((loader.user + loader.system) / 1e6 / wall),
  };
}

const round2 = (n: number) => Math.round(n * 100) / 100;
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
};

interface Row {
  scenario: string;
  target: TargetName;
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  replicaCpu: number[];
  loaderCpu: number;
  rounds: { rps: number; p50: number; p99: number }[];
}

/** Grouped horizontal bars: req/s per target for each scenario, with p50/p99 beside each bar. */
function renderScaleChart(rows: Row[], cores: number, loadAverage: number): string {
  const width = 760;
  const left = 230;
  const barHeight = 22;
  const gap = 6;
  const groupGap = 24;
  const top = 56;
  const colors: Record<TargetName, string> = {
    "direct, 1 replica": "#9e9e9e",
    "nginx, 1 replica": "#1565c0",
    "nginx, 2 replicas": "#2f7d32",
  };
  const groups = [...new Set(rows.map((r) => r.scenario))];
  const max = Math.max(1, ...rows.map((r) => r.rps));
  const plot = width - left - 250;
  let y = top;
  const parts: string[] = [];
  for (const scenario of groups) {
    parts.push(`<text x="10" y="${y + 14}" font-size="13" font-weight="bold">${scenario}</text>`);
    for (const row of rows.filter((r) => r.scenario === scenario)) {
      const w = Math.max(1, (row.rps / max) * plot);
      parts.push(
        `<text x="${left - 8}" y="${y + 15}" text-anchor="end" font-size="12">${row.target}</text>`,
        `<rect x="${left}" y="${y}" width="${w}" height="${barHeight}" fill="${colors[row.target]}"/>`,
        `<text x="${left + w + 6}" y="${y + 15}" font-size="12">${row.rps} req/s · p50 ${row.p50} ms · p99 ${row.p99} ms</text>`,
      );
      y += barHeight + gap;
    }
    y += groupGap;
  }
  const height = y + 10;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" font-family="sans-serif">
<rect width="100%" height="100%" fill="#fff"/>
<text x="10" y="22" font-size="15" font-weight="bold">intelligence-api req/s: one replica vs two behind nginx (medians)</text>
<text x="10" y="40" font-size="12" fill="#555">${cores} CPU cores shared by the replicas, nginx, PostgreSQL, Redis and the load generator; 1-min load average at start ${loadAverage}</text>
${parts.join("\n")}
</svg>
`;
}

async function main() {
  const db = await createTestDatabase();
  const redisUrl = redisDatabaseUrl(requireEnv("TEST_REDIS_URL"), REDIS_DB);
  await flushRedisDatabase(redisUrl);
  const { key } = await unlimitedBenchCaller(db.handle.db, "Scale bench");
  const loadBefore = os.loadavg().map(round2);
  const chosen = scenarios.filter((s) => SCENARIOS.includes(s.name));
  if (chosen.length === 0) throw new Error(`BENCH_ONLY leaves none of ${SCENARIOS.join(", ")} to run`);

  let topology: Topology | undefined;
  const proxies: NginxProcess[] = [];
  try {
    console.log("scale bench: starting 2 compiled intelligence-api replicas and nginx ...");
    topology = await startTopology({ root, databaseUrl: db.url, redisUrl, intelligence: 2, nginx: false });
    const [first, second] = topology.intelligence;
    if (!first || !second) throw new Error("the replicas did not start");
    // Two nginx instances side by side, so no reload happens between rounds: one sends everything
    // to replica 1, the other balances over both. worker_processes auto, as in deploy/nginx; idle
    // upstream connections enough for every client connection, so nginx never opens and closes
    // connections to the replicas per request (that churn would be measured instead of them).
    const proxy = { workerProcesses: "auto", accessLog: false, keepalive: CONNECTIONS } as const;
    const nginxOne = await startNginx({ ...proxy, intelligence: [first.port] });
    proxies.push(nginxOne);
    const nginxTwo = await startNginx({ ...proxy, intelligence: [first.port, second.port] });
    proxies.push(nginxTwo);
    const targets: Target[] = [
      { name: "direct, 1 replica", url: first.url },
      { name: "nginx, 1 replica", url: nginxOne.url },
      { name: "nginx, 2 replicas", url: nginxTwo.url },
    ];
    // Each request must succeed before it is timed, on every target.
    for (const target of targets) {
      for (const scenario of chosen) {
        const res = await fetch(`${target.url}${scenario.path}`, {
          method: scenario.method,
          headers: { "content-type": "application/json", authorization: `Bearer ${key}` },
          body: scenario.body ? JSON.stringify(scenario.body) : undefined,
        });
        if (res.status !== 200)
          throw new Error(`${scenario.name} via ${target.name}: answered ${res.status}`);
        await res.arrayBuffer();
      }
    }

    const cores = os.cpus().length;
    const total = ROUNDS * chosen.length * targets.length;
    console.log(
      `scale bench: ${chosen.map((s) => s.name).join(", ")} x ${targets.length} targets x ${ROUNDS} rounds x ` +
        `${DURATION}s, ${CONNECTIONS} connections, ${cores} cores`,
    );
    const samples = new Map<string, Measure[]>();
    let done = 0;
    for (let round = 1; round <= ROUNDS; round++) {
      for (const scenario of chosen) {
        // Rotate which target goes first so drift on a noisy machine spreads over all three.
        const order = targets.map((_, i) => targets[(i + round) % targets.length] as Target);
        for (const target of order) {
          const measure = await load(target, scenario, key, topology);
          const id = `${scenario.name}|${target.name}`;
          samples.set(id, [...(samples.get(id) ?? []), measure]);
          done++;
          console.log(
            `[${done}/${total}] round ${round} ${scenario.name} via ${target.name}: ${Math.round(measure.rps)} req/s ` +
              `p50 ${measure.p50} ms p99 ${measure.p99} ms, replica CPU ${measure.replicaCpu.join(" / ")}, ` +
              `autocannon CPU ${measure.loaderCpu}` +
              `${measure.non2xx ? ` (${measure.non2xx} non-2xx!)` : ""}`,
          );
        }
      }
    }

    const rows: Row[] = chosen.flatMap((scenario) =>
      targets.map((target) => {
        const list = samples.get(`${scenario.name}|${target.name}`) ?? [];
        return {
          scenario: scenario.name,
          target: target.name,
          rps: Math.round(median(list.map((m) => m.rps))),
          p50: median(list.map((m) => m.p50)),
          p99: median(list.map((m) => m.p99)),
          non2xx: list.reduce((n, m) => n + m.non2xx, 0),
          replicaCpu:
            topology?.intelligence.map((_, i) => round2(median(list.map((m) => m.replicaCpu[i] ?? 0)))) ?? [],
          loaderCpu: round2(median(list.map((m) => m.loaderCpu))),
          rounds: list.map((m) => ({ rps: Math.round(m.rps), p50: m.p50, p99: m.p99 })),
        };
      }),
    );
    const speedup = Object.fromEntries(
      chosen.map((scenario) => {
        const of = (t: TargetName) =>
          rows.find((r) => r.scenario === scenario.name && r.target === t)?.rps ?? 0;
        return [scenario.name, round2(of("nginx, 2 replicas") / Math.max(1, of("nginx, 1 replica")))];
      }),
    );
    console.log("");
    console.table(
      rows.map((r) => ({
        scenario: r.scenario,
        target: r.target,
        "req/s": r.rps,
        "p50 ms": r.p50,
        "p99 ms": r.p99,
        "replica CPU": r.replicaCpu.join(" / "),
        "autocannon CPU": r.loaderCpu,
        "non-2xx": r.non2xx,
      })),
    );
    for (const [scenario, ratio] of Object.entries(speedup)) {
      console.log(`${scenario}: 2 replicas / 1 replica through nginx = ${ratio}x`);
    }
    console.log(
      `(${cores} cores: the replicas, nginx, PostgreSQL, Redis and autocannon all compete for them; ` +
        `a second replica can only add throughput where a core is idle.)`,
    );

    const resultsDir = path.join(here, "..", "results");
    mkdirSync(resultsDir, { recursive: true });
    const report = {
      generatedAt: new Date().toISOString(),
      machine: {
        cores,
        cpu: os.cpus()[0]?.model ?? "unknown",
        loadAverage: { before: loadBefore, after: os.loadavg().map(round2) },
      },
      rounds: ROUNDS,
      seconds: DURATION,
      connections: CONNECTIONS,
      rows,
      speedupTwoOverOne: speedup,
      note:
        "All processes share this machine's cores: two replicas, nginx, PostgreSQL, Redis and the load " +
        "generator. replicaCpu is CPU seconds per wall second of replica 1 / replica 2 during the run " +
        "(1 = one full core); loaderCpu the same for the autocannon process.",
    };
    writeFileSync(path.join(resultsDir, "scale.json"), `${JSON.stringify(report, null, 2)}\n`);
    writeFileSync(path.join(resultsDir, "scale.svg"), renderScaleChart(rows, cores, loadBefore[0] ?? 0));
    console.log("\nwrote bench/results/scale.json and bench/results/scale.svg");
  } finally {
    for (const proxy of proxies) await proxy.stop();
    await topology?.stop();
    await db.drop();
  }
}

await main();
