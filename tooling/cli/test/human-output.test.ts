import { spawnSync } from "node:child_process";
import { generateKeyPairSync } from "node:crypto";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { recordEvent } from "@svc/db";
import type { LabOrderResponse } from "@svc/intelligence-api";
import { call, runSvcCli } from "@svc/testkit";
import { useTestService } from "@svc/testkit/vitest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { USAGE } from "../src/commands/index.js";
import { humanOutput } from "../src/human.js";

/**
 * Every operator command as a person reads it (no --json), through the compiled CLI on a real
 * database: nested objects and lists are readable, never `[object Object]`, and no label is left
 * bare (`versions:` with nothing after it).
 */
const root = fileURLToPath(new URL("../../../", import.meta.url));
const svc = useTestService();
const paramsFile = path.join(tmpdir(), `svc-human-params-${process.pid}.json`);
const jwksFile = path.join(tmpdir(), `svc-human-jwks-${process.pid}.json`);

beforeAll(async () => {
  writeFileSync(paramsFile, JSON.stringify({ symptomWindowDays: 21 }));
  const { publicKey } = generateKeyPairSync("ec", { namedCurve: "P-384" });
  writeFileSync(
    jwksFile,
    JSON.stringify({ keys: [{ ...publicKey.export({ format: "jwk" }), kid: "ehr-1" }] }),
  );
});
afterAll(async () => {
  rmSync(paramsFile, { force: true });
  rmSync(jwksFile, { force: true });
});

/** "noun verb" of every command the usage lists. */
function usageCommands(): string[] {
  return USAGE.split("\n")
    .slice(1)
    .map((line) => line.trim().split(/\s+/))
    .map((words) => (words[0] === "migrate" ? "migrate" : `${words[0]} ${words[1]}`));
}

const ran = new Set<string>();

/** One command's human output, checked line by line; returns the text. */
function human(...args: string[]): string {
  const out = runSvcCli(svc.db.url, args, { REDIS_URL: "redis://127.0.0.1:1" });
  expect(out.stderr, args.join(" ")).toBe("");
  expect(out.code).toBe(0);
  expect(out.stdout).not.toContain("[object Object]");
  expect(out.stdout).not.toMatch(/^\{/);
  // A label with nothing after it must introduce deeper lines (a nested object or list).
  const lines = out.stdout.split("\n");
  const indent = (line: string) => /^\s*/.exec(line)?.[0].length ?? 0;
  lines.forEach((line, i) => {
    expect(line, `bare label in:\n${out.stdout}`).not.toMatch(/:\s+$/);
    if (/:$/.test(line))
      expect(indent(lines[i + 1] ?? ""), `bare label in:\n${out.stdout}`).toBeGreaterThan(indent(line));
  });
  ran.add(args[0] === "migrate" ? "migrate" : `${args[0]} ${args[1]}`);
  return out.stdout;
}

/** The value printed for `label` (first match, any depth). */
function field(out: string, label: string): string {
  const match = new RegExp(`^\\s*(?:- )?${label}: (.+)$`, "m").exec(out);
  expect(match, `${label} in:\n${out}`).not.toBeNull();
  return (match as RegExpExecArray)[1] as string;
}

describe("pnpm svc human output (every command)", () => {
  it("renders nested objects and lists readably and leaves no label empty", async () => {
    human("migrate");
    const account = human(
      "accounts",
      "create",
      "--name",
      "Human Clinic",
      "--plan",
      "enterprise",
      "--production",
    );
    const accountId = field(account, "id");
    const org = human("orgs", "create", "--name", "Human Org");
    const orgId = field(org, "id");
    const secret = human("keys", "create", "--account", accountId, "--kind", "secret_test");
    expect(secret).toContain("The key is shown this once");
    const publishable = human(
      "keys",
      "create",
      "--account",
      accountId,
      "--kind",
      "publishable",
      "--origins",
      "https://app.example.com,http://localhost:*",
    );
    expect(field(publishable, "origins")).toBe("https://app.example.com, http://localhost:*");
    const orgKey = human(
      "keys",
      "create",
      "--org",
      orgId,
      "--kind",
      "organization",
      "--scopes",
      "mse:read,mse:write",
    );
    expect(field(orgKey, "scopes")).toBe("mse:read, mse:write");
    human("keys", "revoke", "--id", field(orgKey, "id"));

    // No versions yet: says so instead of a bare "versions:".
    expect(human("models", "list")).toBe("versions: (none)\n");
    human("models", "propose", "--engine", "relapse", "--params-file", paramsFile, "--note", "wider window");
    human("models", "promote", "--engine", "relapse", "--version", "1", "--by", "Dr Review");
    const versions = human("models", "list", "--engine", "relapse");
    expect(versions).toMatch(/^versions:\n {2}- engine: relapse\n {4}version: 1\n {4}active: true\n/);

    const endpoint = human(
      "webhooks",
      "add",
      "--account",
      accountId,
      "--url",
      "http://127.0.0.1:9/hook",
      "--allow-private",
    );
    expect(endpoint).toContain("The signing secret is shown this once");
    const endpointId = field(endpoint, "id");
    const listed = human("webhooks", "list", "--account", accountId);
    expect(listed).toMatch(
      new RegExp(
        `^endpoints:\\n {2}- id: ${endpointId}\\n {4}url: http://127\\.0\\.0\\.1:9/hook\\n {4}mode: test\\n`,
      ),
    );
    expect(listed).toMatch(/\n {4}createdAt: \d{4}-\d\d-\d\dT[\d:.]+Z\n/);
    expect(listed).toMatch(/\n {4}disabledAt: -\n/);
    expect(human("webhooks", "list", "--org", orgId)).toBe("endpoints: (none)\n");

    const recorded = await svc.db.handle.db.transaction((tx) =>
      recordEvent(tx, { accountId, mode: "test", type: "wearable.connected", data: { id: "wear_1" } }),
    );
    const deliveryId = recorded.deliveryIds[0] as string;
    const deliveries = human("webhooks", "deliveries", "--endpoint", endpointId, "--limit", "5");
    expect(deliveries).toMatch(
      new RegExp(`^deliveries:\\n {2}- id: ${deliveryId}\\n {4}endpointId: ${endpointId}\\n`),
    );
    expect(deliveries).toMatch(/\n {4}status: pending\n/);
    human("webhooks", "deliveries", "--event", recorded.event.id);
    human("webhooks", "redeliver", "--id", deliveryId);
    human("webhooks", "remove", "--id", endpointId);

    const { key } = await svc.seed.key("secret_test", accountId);
    const order = await call<LabOrderResponse>(svc.url, "/v1/labs/orders", {
      key,
      body: { patientRef: "pt_human_1", panelId: "prolactin" },
    });
    expect(order.status).toBe(201);
    const orderId = order.json.data.id as string;
    const authorized = human("labs", "authorize", "--id", orderId);
    expect(field(authorized, "events")).toMatch(/^\S+$/);
    human("labs", "advance", "--id", orderId);
    human("users", "invite", "--account", accountId, "--email", "human@example.com", "--role", "viewer");
    const cdsClient = human(
      "cds-clients",
      "add",
      "--account",
      accountId,
      "--iss",
      "https://ehr.example.org",
      "--jwks",
      jwksFile,
    );
    expect(field(cdsClient, "keyIds")).toBe("ehr-1");
    const cdsClientId = field(cdsClient, "id");
    expect(human("cds-clients", "list", "--account", accountId)).toContain(cdsClientId);
    human("cds-clients", "revoke", "--id", cdsClientId);

    expect([...ran].sort()).toEqual([...new Set(usageCommands())].sort());
  }, 240_000);

  it("the formatter renders any shape: nested lists, empty objects, dates, null and empty strings", () => {
    const out = humanOutput({
      id: "x",
      empty: "",
      none: null,
      at: new Date("2026-01-02T03:04:05.000Z"),
      tags: [],
      meta: {},
      nested: { inner: { deep: [1, 2] }, list: [{ a: 1, b: { c: "d" } }, [], ["p", "q"]] },
    });
    expect(out).toBe(
      [
        "id: x",
        'empty: ""',
        "none: -",
        "at: 2026-01-02T03:04:05.000Z",
        "tags: (none)",
        "meta: (empty)",
        "nested:",
        "  inner:",
        "    deep: 1, 2",
        "  list:",
        "    - a: 1",
        "      b:",
        "        c: d",
        "    - (none)",
        "    - - p",
        "      - q",
      ].join("\n"),
    );
  });
});

describe("README operator CLI section", () => {
  it("lists every command with its required flags, as the CLI's usage does", () => {
    const readme = readFileSync(path.join(root, "README.md"), "utf8");
    const section = readme.slice(readme.indexOf("## Operator CLI"), readme.indexOf("## Developer dashboard"));
    for (const line of USAGE.split("\n").slice(1)) {
      const usage = line.trim().replace(/\s{3}\(.*\)$/, "");
      expect(section, usage).toContain(`svc ${usage}`);
    }
  });

  it("tells a new shell how to get pnpm, and that works in a shell whose PATH has no pnpm", () => {
    const readme = readFileSync(path.join(root, "README.md"), "utf8");
    const section = readme.slice(readme.indexOf("## Operator CLI"), readme.indexOf("## Developer dashboard"));
    const setup = /^(\. tooling\/scripts\/ensure-node\.sh)\s/m.exec(section)?.[1];
    expect(setup).toBeDefined();
    // A login shell's PATH after up.sh: the machine's own directories, no project tools.
    const shell = { HOME: process.env.HOME ?? "/tmp", PATH: "/usr/bin:/bin" };
    const bare = spawnSync("bash", ["-c", "command -v pnpm || echo missing"], {
      cwd: root,
      env: shell,
      encoding: "utf8",
    });
    const afterSetup = spawnSync("bash", ["-c", `${setup} >/dev/null 2>&1 && pnpm -s svc --help`], {
      cwd: root,
      env: shell,
      encoding: "utf8",
      timeout: 60_000,
    });
    expect(afterSetup.status, `${bare.stdout}${afterSetup.stderr}`).toBe(0);
    expect(afterSetup.stdout).toContain("Usage: pnpm svc <command>");
  }, 60_000);
});
