import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { and, eq, events } from "@svc/db";
import type { LabOrderResponse } from "@svc/intelligence-api";
import { call, svcCliCommand } from "@svc/testkit";
import { useTestService } from "@svc/testkit/vitest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/** `pnpm svc labs authorize|advance`: operator moves through the API's transition function. */
const root = fileURLToPath(new URL("../../../", import.meta.url));

const svc = useTestService();
let key: string;
let liveKey: string;
let dir: string;

beforeAll(async () => {
  const caller = await svc.seed.caller("enterprise", { production: true });
  key = caller.key;
  liveKey = (await svc.seed.key("secret_live", caller.account.id)).key;
  dir = mkdtempSync(path.join(tmpdir(), "svc-labs-cli-"));
});
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
});

/** Runs the CLI without blocking this process's event loop (the API under test lives here). */
function svcCli(...args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const cli = svcCliCommand(args);
  return new Promise((resolve) => {
    execFile(
      cli.command,
      cli.args,
      {
        cwd: root,
        env: { ...process.env, DATABASE_URL: svc.db.url, LOG_LEVEL: "silent" },
        encoding: "utf8",
        timeout: 60_000,
      },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === "number" ? error.code : 1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

function json(out: string) {
  const lines = out.trim().split("\n");
  expect(lines).toHaveLength(1);
  return JSON.parse(lines[0] as string);
}

async function order(k: string) {
  const res = await call<LabOrderResponse>(svc.url, "/v1/labs/orders", {
    key: k,
    body: { patientRef: "pt_cli", panelId: "b12_folate" },
  });
  expect(res.status).toBe(201);
  return res.json.data.id as string;
}

// Each test spawns six to eight CLI processes; a loaded two-core machine takes seconds per spawn.
describe("pnpm svc labs", { timeout: 120_000 }, () => {
  it("authorizes and advances a test order, printing one JSON object, with the API's events", async () => {
    const id = await order(key);
    const auth = await svcCli("labs", "authorize", "--id", id, "--json");
    expect(auth.code).toBe(0);
    expect(json(auth.stdout)).toEqual({
      id,
      mode: "test",
      from: "requested",
      status: "authorized",
      events: [expect.stringMatching(/^evt_/)],
      hasResults: false,
    });
    for (const status of ["scheduled", "collected"]) {
      const out = await svcCli("labs", "advance", "--id", id, "--json");
      expect(out.code).toBe(0);
      expect(json(out.stdout).status).toBe(status);
    }
    const resulted = json((await svcCli("labs", "advance", "--id", id, "--to", "resulted", "--json")).stdout);
    expect(resulted).toMatchObject({ from: "collected", status: "resulted", hasResults: true });
    expect(resulted.events).toHaveLength(2);

    const api = await call<LabOrderResponse>(svc.url, `/v1/labs/orders/${id}`, { key });
    expect(api.json.data.status).toBe("resulted");
    expect(api.json.data.results?.biomarkers.map((b: { name: string }) => b.name)).toEqual([
      "Vitamin B12",
      "Folate",
    ]);
    const rows = await svc.db.handle.db
      .select({ type: events.type })
      .from(events)
      .where(and(eq(events.mode, "test"), eq(events.type, "lab_order.results_ready")));
    expect(rows.length).toBeGreaterThanOrEqual(1);
  });

  it("refuses illegal moves and unknown orders with exit 1 and { error } on stderr", async () => {
    const id = await order(key);
    const skip = await svcCli("labs", "advance", "--id", id, "--to", "completed", "--json");
    expect(skip.code).toBe(1);
    expect(skip.stdout).toBe("");
    expect(JSON.parse(skip.stderr.trim()).error).toMatch(/requested to completed/);
    const twice = await svcCli("labs", "authorize", "--id", id, "--json");
    expect(twice.code).toBe(0);
    const again = await svcCli("labs", "authorize", "--id", id, "--json");
    expect(again.code).toBe(1);
    expect(JSON.parse(again.stderr.trim()).error).toMatch(/authorized/);
    const unknown = await svcCli("labs", "advance", "--id", "labord_00000000000000000000000000", "--json");
    expect(unknown.code).toBe(1);
    expect(JSON.parse(unknown.stderr.trim()).error).toMatch(/No lab order/);
    const bad = await svcCli("labs", "advance", "--id", id, "--to", "teleported", "--json");
    expect(bad.code).toBe(1);
    const missing = await svcCli("labs", "advance", "--json");
    expect(JSON.parse(missing.stderr.trim()).error).toMatch(/--id/);
    const api = await call<LabOrderResponse>(svc.url, `/v1/labs/orders/${id}`, { key });
    expect(api.json.data.status).toBe("authorized");
  });

  it("moves a live order to resulted only with the laboratory's results file", async () => {
    const id = await order(liveKey);
    for (const args of [["authorize"], ["advance"], ["advance"]]) {
      expect((await svcCli("labs", ...(args as string[]), "--id", id, "--json")).code).toBe(0);
    }
    const without = await svcCli("labs", "advance", "--id", id, "--to", "resulted", "--json");
    expect(without.code).toBe(1);
    expect(JSON.parse(without.stderr.trim()).error).toMatch(/results/);

    const badFile = path.join(dir, "bad.json");
    writeFileSync(badFile, JSON.stringify({ biomarkers: "nope" }));
    expect(
      (await svcCli("labs", "advance", "--id", id, "--to", "resulted", "--results-file", badFile, "--json"))
        .code,
    ).toBe(1);

    const file = path.join(dir, "results.json");
    const results = {
      observedAt: "2026-11-20T08:00:00Z",
      biomarkers: [
        { name: "Vitamin B12", value: 180, unit: "pg/mL", flag: "low", referenceRange: "200-900 pg/mL" },
        { name: "Folate", value: 7.2, unit: "ng/mL", flag: "normal" },
      ],
    };
    writeFileSync(file, JSON.stringify(results));
    const ok = await svcCli(
      "labs",
      "advance",
      "--id",
      id,
      "--to",
      "resulted",
      "--results-file",
      file,
      "--json",
    );
    expect(ok.code).toBe(0);
    expect(json(ok.stdout)).toMatchObject({ mode: "live", status: "resulted", hasResults: true });
    const api = await call<LabOrderResponse>(svc.url, `/v1/labs/orders/${id}`, { key: liveKey });
    expect(api.json.data.results).toEqual(results);
  });
});
