/**
 * Where the heap allocations go (BENCH_ALLOC_PROF=1 with `pnpm bench:inprocess`): V8's sampling
 * heap profiler, keeping the objects minor and major GCs already collected, so short-lived
 * per-request garbage counts as much as what survives. Prints the functions that allocate most.
 */
import { writeFileSync } from "node:fs";
import { Session } from "node:inspector/promises";

interface ProfileNode {
  callFrame: { functionName: string; url: string; lineNumber: number };
  selfSize: number;
  children: ProfileNode[];
}

export async function startAllocationProfile(): Promise<
  (saveTo?: string) => Promise<{ site: string; bytes: number }[]>
> {
  const session = new Session();
  session.connect();
  await session.post("HeapProfiler.enable");
  await session.post("HeapProfiler.startSampling", {
    samplingInterval: 16_384,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: true,
  });
  return async (saveTo) => {
    const { profile } = (await session.post("HeapProfiler.stopSampling")) as {
      profile: { head: ProfileNode };
    };
    session.disconnect();
    // The whole tree, for `src/stage-profile.ts` (which groups it by stage of the request).
    if (saveTo) writeFileSync(saveTo, JSON.stringify(profile));
    const bySite = new Map<string, number>();
    const walk = (node: ProfileNode) => {
      const { functionName, url, lineNumber } = node.callFrame;
      const site = `${functionName || "(anonymous)"} ${url.split("/").slice(-3).join("/")}:${lineNumber + 1}`;
      bySite.set(site, (bySite.get(site) ?? 0) + node.selfSize);
      for (const child of node.children) walk(child);
    };
    walk(profile.head);
    return [...bySite].map(([site, bytes]) => ({ site, bytes })).sort((a, b) => b.bytes - a.bytes);
  };
}

/** Print the total and the top allocation sites per request, `requests` being how many ran. */
export function printAllocationSites(
  label: string,
  sites: { site: string; bytes: number }[],
  requests: number,
): void {
  const perRequestKb = (bytes: number) => bytes / requests / 1024;
  const total = sites.reduce((sum, s) => sum + s.bytes, 0);
  console.error(`${label}: ~${Math.round(perRequestKb(total))} kB allocated per request; top sites:`);
  for (const s of sites.slice(0, 30))
    console.error(`  ${perRequestKb(s.bytes).toFixed(2)} kB/req  ${s.site}`);
}
