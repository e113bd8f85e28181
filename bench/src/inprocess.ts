/**
 * `pnpm bench:inprocess`: the service's own cost per request, without sockets or HTTP parsing.
 * The combined app (real auth with its key cache, Redis rate limiting, validation, engines, the
 * intelligence block, serialisation) answers Request objects, 50 in flight, next to what a
 * hand-written server must do anyway for the same exchange (JSON.parse of the body,
 * JSON.stringify of the same answer). Prints this process's CPU microseconds per request (user +
 * system, so Redis waits do not count) per scenario and the difference, which is the budget the
 * issue's throughput ratios are about. BENCH_CPU_PROF=dir
 * profiles this process. BENCH_ITERATIONS sets the loop (default 20,000 per scenario).
 */
import { join } from "node:path";
import { printAllocationSites, startAllocationProfile } from "./alloc-profile.js";
import { scenarios } from "./scenarios.js";
import { serviceCpuPerRequest, startInProcessService } from "./service-cpu.js";

const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 20_000);
const WARMUP = Math.min(5_000, ITERATIONS);

async function main(): Promise<void> {
  // BENCH_LOG_LEVEL=info measures the request log too (pino to stdout: redirect it, results go to stderr).
  const service = await startInProcessService("bench-inprocess", process.env.BENCH_LOG_LEVEL ?? "silent");
  const { key } = service;
  const rows: Record<string, string | number>[] = [];
  try {
    for (const scenario of scenarios) {
      const text = scenario.body === undefined ? undefined : JSON.stringify(scenario.body);
      const stopAllocationProfile = process.env.BENCH_ALLOC_PROF ? await startAllocationProfile() : undefined;
      const measured = await serviceCpuPerRequest(
        service.fetch,
        { method: scenario.method, path: scenario.path, key, body: text },
        ITERATIONS,
        WARMUP,
      );
      // Every request the profile saw: the first one, the warm-up and the measured loop.
      // BENCH_ALLOC_PROF=dir (anything but "1") also keeps dir/<scenario>.heapprofile.
      const allocDir = process.env.BENCH_ALLOC_PROF;
      const saveTo =
        allocDir && allocDir !== "1" ? join(allocDir, `${scenario.name}.heapprofile`) : undefined;
      if (stopAllocationProfile)
        printAllocationSites(scenario.name, await stopAllocationProfile(saveTo), ITERATIONS + WARMUP + 1);
      const { answer } = measured;
      const serviceUs = measured.cpuUs;
      const wallUs = measured.wallUs;

      // The floor: parse the body and serialise the same answer, per request.
      const parsedAnswer = JSON.parse(answer);
      const floorStarted = process.hrtime.bigint();
      let sink = 0;
      for (let i = 0; i < ITERATIONS; i++) {
        if (text) sink += Object.keys(JSON.parse(text)).length;
        sink += JSON.stringify(parsedAnswer).length;
      }
      const floorUs = Number(process.hrtime.bigint() - floorStarted) / 1_000 / ITERATIONS;
      rows.push({
        scenario: scenario.name,
        "service CPU µs/req": Math.round(serviceUs * 10) / 10,
        "wall µs/req": Math.round(wallUs * 10) / 10,
        "parse+stringify µs/req": Math.round(floorUs * 10) / 10,
        "our overhead µs/req": Math.round((serviceUs - floorUs) * 10) / 10,
        "answer bytes": answer.length,
        sink: sink > 0 ? "" : "!",
      });
      console.error(`${scenario.name}: ${serviceUs.toFixed(1)} µs/req (floor ${floorUs.toFixed(1)})`);
    }
    console.error(rows);
  } finally {
    await service.close();
  }
}

await main();
process.exit(0);
