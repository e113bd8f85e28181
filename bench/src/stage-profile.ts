/**
 * Group a profile of `pnpm bench:inprocess` (one scenario) by stage of the request: CPU self time
 * from `node --cpu-prof` and, optionally, bytes allocated from `BENCH_ALLOC_PROF=dir`.
 *
 * Usage: node --import tsx src/stage-profile.ts <file.cpuprofile> [file.heapprofile]
 * (BENCH_ITERATIONS and the warm-up as the run used them: default 20,000 and 5,000; STAGE_TOP=n
 * also lists the n leaf functions with the most self time in each stage, to check the grouping).
 *
 * Each sample goes to the stage of the innermost frame on its stack that a rule below names (by
 * source file or package); a helper frame (Request, Headers, web streams, text codecs) counts for
 * the stage of its caller, and only when no caller is named for the socket-and-parse stage. CPU counts only the measured loop: the samples between the first and the last one
 * under `src/service-cpu.ts`, less the warm-up's share of that window (so start-up, the warm-up's
 * compilation and the parse+stringify floor loop afterwards are left out). The allocation profile
 * covers the first request, the warm-up and the loop, so bytes are divided by all of them.
 */
import { readFileSync } from "node:fs";

interface CallFrame {
  functionName: string;
  url: string;
}
interface CpuNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}
interface CpuProfile {
  nodes: CpuNode[];
  samples: number[];
  timeDeltas: number[];
}
interface HeapNode {
  callFrame: CallFrame;
  selfSize: number;
  children: HeapNode[];
}

/** A rule: frames whose url (or, without one, function name) matches go to `stage`. */
interface Rule {
  test: RegExp;
  stage: string;
  /** A helper (web objects, streams, text codecs) counts for the stage of the frame that called it. */
  helper?: boolean;
}

const SOCKET = "socket and parse (in-process: Request/Response objects, body read and JSON.parse)";
const RULES: Rule[] = [
  {
    test: /packages\/http\/src\/(request-guard|auth|key-cache|doors|route-policy)\.ts/,
    stage: "auth and key cache",
  },
  {
    test: /rate-limit\/|node_modules\/.*(ioredis|redis-errors|cluster-key-slot)/,
    stage: "rate limit (incl. Redis client)",
  },
  { test: /json-screen|packages\/http\/src\/hygiene\.ts/, stage: "hygiene screen" },
  {
    test: /node_modules\/.*(zod|@hono\/zod-openapi)|packages\/http\/src\/(sync-validation|body-checks)\.ts/,
    stage: "validation (zod)",
  },
  { test: /packages\/engines\//, stage: "engine" },
  {
    test: /packages\/intelligence\/|analysis\/pipeline\.ts/,
    stage: "intelligence block (and the analysis pipeline)",
  },
  {
    test: /analysis\/register\.ts|packages\/http\/src\/error|hono\/dist\/context\.js/,
    stage: "envelope and serialisation",
  },
  {
    test: /pino|packages\/http\/src\/(request-log|usage-meter|logger)\.ts/,
    stage: "logging and usage meter",
  },
  {
    test: /packages\/ids\/|packages\/http\/src\//,
    stage: "other middleware (request id, headers, time limit)",
  },
  { test: /hono\/dist\/(request|utils\/body)\.js|bench\/src\/service-cpu\.ts/, stage: SOCKET },
  { test: /node_modules\/.*hono\//, stage: "routing and middleware dispatch (Hono)" },
  {
    test: /undici|webstreams|node:internal\/encoding|node:buffer|node:internal\/buffer|node:internal\/url/,
    stage: SOCKET,
    helper: true,
  },
];
const GC = "garbage collection (all stages' garbage)";
const OTHER = "other (promise machinery, timers, unattributed native)";

/** The stage of one stack, leaf first: the innermost frame a rule names, helpers deferring to their caller. */
function stageOf(stackLeafFirst: CallFrame[]): string {
  if (stackLeafFirst[0]?.functionName === "(garbage collector)") return GC;
  let helper: Rule | undefined;
  for (const frame of stackLeafFirst) {
    const rule = RULES.find((r) => r.test.test(frame.url || frame.functionName));
    if (rule && !rule.helper) return rule.stage;
    helper ??= rule;
  }
  return helper?.stage ?? OTHER;
}

/** Self time per leaf function within each stage, for `STAGE_TOP=n`. */
const leaves = new Map<string, Map<string, number>>();

function cpuByStage(
  profile: CpuProfile,
  iterations: number,
  warmup: number,
): { stages: Map<string, number>; perRequestUs: number } {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const stackOf = (id: number): CallFrame[] => {
    const frames: CallFrame[] = [];
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const node = byId.get(at);
      if (node) frames.push(node.callFrame);
    }
    return frames;
  };
  // Sample times, and the window of the request loop.
  const times: number[] = [];
  let now = 0;
  for (const delta of profile.timeDeltas) {
    now += delta;
    times.push(now);
  }
  const underHarness = profile.samples.map((id) =>
    stackOf(id).some((f) => f.url.includes("bench/src/service-cpu.ts")),
  );
  const first = underHarness.indexOf(true);
  const last = underHarness.lastIndexOf(true);
  if (first < 0) throw new Error("no sample under src/service-cpu.ts: is this a bench:inprocess profile?");
  const windowStart = times[first] as number;
  const windowEnd = times[last] as number;
  const measuredStart = windowEnd - ((windowEnd - windowStart) * iterations) / (iterations + warmup + 1);

  const stages = new Map<string, number>();
  let busy = 0;
  for (let i = first; i <= last; i++) {
    if ((times[i] as number) < measuredStart) continue;
    const id = profile.samples[i] as number;
    const stack = stackOf(id);
    if (stack[0]?.functionName === "(idle)") continue;
    // A sample's time is the delta to the next one.
    const us = profile.timeDeltas[i + 1] ?? 0;
    const stage = stageOf(stack);
    stages.set(stage, (stages.get(stage) ?? 0) + us);
    busy += us;
    const leaf = `${stack[0]?.functionName || "(anonymous)"} ${
      stack
        .find((f) => f.url)
        ?.url.split("/")
        .slice(-2)
        .join("/") ?? ""
    }`;
    const inStage = leaves.get(stage) ?? new Map<string, number>();
    inStage.set(leaf, (inStage.get(leaf) ?? 0) + us);
    leaves.set(stage, inStage);
  }
  return { stages, perRequestUs: busy / iterations };
}

function bytesByStage(head: HeapNode, requests: number): Map<string, number> {
  const stages = new Map<string, number>();
  const walk = (node: HeapNode, rootFirst: CallFrame[]) => {
    const stack = [...rootFirst, node.callFrame];
    if (node.selfSize > 0) {
      const stage = stageOf([...stack].reverse());
      stages.set(stage, (stages.get(stage) ?? 0) + node.selfSize / requests);
    }
    for (const child of node.children) walk(child, stack);
  };
  walk(head, []);
  return stages;
}

const [cpuFile, heapFile] = process.argv.slice(2);
if (!cpuFile) throw new Error("usage: stage-profile <file.cpuprofile> [file.heapprofile]");
const iterations = Number(process.env.BENCH_ITERATIONS ?? 20_000);
const warmup = Math.min(5_000, iterations);
const cpu = cpuByStage(JSON.parse(readFileSync(cpuFile, "utf8")) as CpuProfile, iterations, warmup);
const bytes = heapFile
  ? bytesByStage(
      (JSON.parse(readFileSync(heapFile, "utf8")) as { head: HeapNode }).head,
      iterations + warmup + 1,
    )
  : new Map<string, number>();
const cpuTotal = [...cpu.stages.values()].reduce((a, b) => a + b, 0);
const bytesTotal = [...bytes.values()].reduce((a, b) => a + b, 0);
const names = [...new Set([...cpu.stages.keys(), ...bytes.keys()])].sort(
  (a, b) => (cpu.stages.get(b) ?? 0) - (cpu.stages.get(a) ?? 0),
);
console.log(`main thread, profiled: ${cpu.perRequestUs.toFixed(1)} µs per request in the measured loop`);
console.log("| stage | CPU µs per request (profiled) | share | bytes allocated per request |");
console.log("| --- | --- | --- | --- |");
for (const name of names) {
  const us = (cpu.stages.get(name) ?? 0) / iterations;
  const share = ((cpu.stages.get(name) ?? 0) / cpuTotal) * 100;
  console.log(
    `| ${name} | ${us.toFixed(1)} | ${share.toFixed(1)} % | ${Math.round(bytes.get(name) ?? 0).toLocaleString("en")} |`,
  );
}
console.log(
  `| total | ${cpu.perRequestUs.toFixed(1)} | 100 % | ${Math.round(bytesTotal).toLocaleString("en")} |`,
);

const top = Number(process.env.STAGE_TOP ?? 0);
for (const name of top > 0 ? names : []) {
  console.log(`\n${name}: top leaf functions, µs per request`);
  for (const [leaf, us] of [...(leaves.get(name) ?? [])].sort((a, b) => b[1] - a[1]).slice(0, top))
    console.log(`  ${(us / iterations).toFixed(1).padStart(6)}  ${leaf}`);
}
