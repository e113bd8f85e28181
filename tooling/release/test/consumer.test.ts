import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { useTestService } from "@svc/testkit/vitest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ConsumerProject, createConsumerProject } from "../src/consumer.js";
import { listPublishable } from "../src/publishable.js";

/**
 * Another team's project, outside the workspace: the packed packages installed from their tarballs
 * under Node 24, TypeScript strict with `module: nodenext` (declarations checked too), then run.
 * `main.ts` is what the issue of publishing asked for: `predictRelapse` from `@svc/engines` and an
 * SDK call against the running service, which must agree. Every README example is typechecked,
 * and run unless its heading has a label ("## Example (browser)", "## Example (webhook receiver)"). `pnpm packages:consumer` runs this file alone.
 */
const run = promisify(execFile);

const MAIN = `import { predictRelapse } from "@svc/engines";
import { createClient } from "@svc/sdk";

const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString();
const input = {
  assessments: [
    { instrumentId: "phq9", instrumentName: "PHQ-9", score: 9, maxScore: 27, createdAt: daysAgo(21) },
    { instrumentId: "phq9", instrumentName: "PHQ-9", score: 16, maxScore: 27, createdAt: daysAgo(7) },
  ],
  avgSleepHours: 5,
};

const local = predictRelapse(input, { now: new Date() });
const svc = createClient({ apiKey: process.env.SVC_API_KEY ?? "", baseUrl: process.env.SVC_BASE_URL ?? "" });
const remote = await svc.relapse.predict(input);
console.log(
  JSON.stringify({
    local: { score: local.data.score, level: local.data.level },
    service: { score: remote.data.score, level: remote.data.level },
  }),
);
`;

const svc = useTestService();
let project: ConsumerProject;
let env: NodeJS.ProcessEnv;
let scratch: string;

beforeAll(async () => {
  const caller = await svc.seed.caller("enterprise");
  env = { ...process.env, SVC_BASE_URL: svc.url, SVC_API_KEY: caller.key };
  scratch = mkdtempSync(path.join(tmpdir(), "svc-consumer-"));
  project = createConsumerProject(scratch, listPublishable(), { "main.ts": MAIN });
}, 240_000);

afterAll(async () => {
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

async function inProject(command: string, args: string[]) {
  try {
    const { stdout } = await run(command, args, { cwd: project.dir, env, timeout: 120_000 });
    return stdout;
  } catch (error) {
    const { stdout = "", stderr = "" } = error as { stdout?: string; stderr?: string };
    throw new Error(`${command} ${args.join(" ")} failed:\n${stdout}${stderr}`);
  }
}

describe("a project outside the workspace, from the packed packages", () => {
  it("is outside the repository and installs every published package from its tarball", () => {
    expect(path.relative(path.resolve(import.meta.dirname, "../../.."), project.dir).startsWith("..")).toBe(
      true,
    );
    const names = listPublishable().map((p) => p.name);
    expect(names).toEqual(expect.arrayContaining(["@svc/engines", "@svc/sdk", "@svc/intelligence"]));
  });

  it("typechecks under TypeScript strict with module nodenext, the packages' declarations included", async () => {
    const out = await inProject(path.join(project.dir, "node_modules/.bin/tsc"), ["-p", "."]);
    console.log(`tsc -p . (strict, nodenext, skipLibCheck false): ${out.trim() || "no errors"}`);
  }, 120_000);

  it("predictRelapse from the installed @svc/engines gives the answer the SDK gets from the service", async () => {
    const out = await inProject(process.execPath, ["main.ts"]);
    console.log(`node main.ts -> ${out.trim()}`);
    const answer = JSON.parse(out) as {
      local: { score: number; level: string };
      service: typeof answer.local;
    };
    expect(answer.service).toEqual(answer.local);
    expect(answer.local.level).not.toBe("low");
  }, 60_000);

  it("every package's README has an example, and each runs as written (labelled ones typechecked only)", async () => {
    expect([...new Set(project.examples.map((e) => e.packageName))].sort()).toEqual(
      listPublishable().map((p) => p.name),
    );
    // The SDK's webhook receiver is typechecked with the rest (strict, nodenext).
    expect(project.examples.map((e) => e.file)).toContain(path.join("examples", "sdk-webhook-receiver.ts"));
    for (const example of project.examples.filter((e) => !e.typecheckOnly)) {
      const out = await inProject(process.execPath, [example.file]);
      console.log(`node ${example.file} -> ${out.trim().split("\n").length} line(s) of output`);
    }
  }, 120_000);
});
