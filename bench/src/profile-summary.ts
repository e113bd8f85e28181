/**
 * Summarise a V8 CPU profile (`node --cpu-prof`): self time per function and per package, top
 * first. Usage: node --import tsx src/profile-summary.ts <file.cpuprofile> [top=30]
 */
import { readFileSync } from "node:fs";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const [file, topArg] = process.argv.slice(2);
if (!file) throw new Error("usage: profile-summary <file.cpuprofile> [top]");
const profile = JSON.parse(readFileSync(file, "utf8")) as Profile;
const top = Number(topArg ?? 30);
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const selfUs = new Map<number, number>();
profile.samples.forEach((id, i) => {
  selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
});
const total = [...selfUs.values()].reduce((a, b) => a + b, 0);

const packageOf = (url: string) => {
  const m = /node_modules\/(?:\.pnpm\/)?((?:@[^/+]+[/+])?[^/@]+)/.exec(url);
  if (m) return (m[1] as string).replace("+", "/");
  if (url.startsWith("node:")) return url;
  if (url.includes("/packages/") || url.includes("/apps/"))
    return `ours:${url.split("/").slice(-3).join("/")}`;
  return url ? url.split("/").slice(-2).join("/") : "(native/gc/idle)";
};

const functions = new Map<string, number>();
const packages = new Map<string, number>();
for (const [id, us] of selfUs) {
  const node = byId.get(id);
  if (!node) continue;
  const { functionName, url, lineNumber } = node.callFrame;
  const fn = `${functionName || "(anonymous)"} ${url.split("/").slice(-2).join("/")}:${lineNumber + 1}`;
  functions.set(fn, (functions.get(fn) ?? 0) + us);
  const pkg = packageOf(url);
  packages.set(pkg, (packages.get(pkg) ?? 0) + us);
}
const print = (title: string, map: Map<string, number>) => {
  console.log(`\n${title}`);
  for (const [name, us] of [...map].sort((a, b) => b[1] - a[1]).slice(0, top))
    console.log(`${((us / total) * 100).toFixed(1).padStart(5)}%  ${name}`);
};
print("self time by package", packages);
print("self time by function", functions);
