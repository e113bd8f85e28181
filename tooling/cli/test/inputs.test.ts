import { writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { listModelVersions } from "@svc/db";
import { EnvError, parseEnv } from "@svc/http/runtime";
import { ENGINE_NAMES } from "@svc/intelligence";
import { createTestDatabase, runSvcCli, type TestDatabase } from "@svc/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/** Bad input on two operator paths: model parameters and the model environment variables. */
let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  await db.drop();
});

function svcCli(...args: string[]) {
  return runSvcCli(db.url, args, { REDIS_URL: "redis://127.0.0.1:1" });
}

describe("models propose checks parameters with the engine", () => {
  it.each([
    ["an unknown parameter", { notAParameter: 1 }, /unknown relapse parameter "notAParameter"/],
    ["a non-number", { symptomWindowDays: "seven" }, /must be a finite number/],
  ])("refuses %s and stores nothing", async (_name, params, message) => {
    const file = path.join(tmpdir(), `params-${Date.now()}-${Math.random()}.json`);
    writeFileSync(file, JSON.stringify(params));
    const out = svcCli("models", "propose", "--engine", "relapse", "--params-file", file, "--json");
    expect(out.code).toBe(1);
    expect(JSON.parse(out.stderr).error).toMatch(message);
    expect(await listModelVersions(db.handle.db, ENGINE_NAMES, "relapse")).toEqual([]);
  });
  it("accepts a partial set of known parameters", () => {
    const file = path.join(tmpdir(), `params-${Date.now()}.json`);
    writeFileSync(file, JSON.stringify({ symptomWindowDays: 21 }));
    const out = svcCli("models", "propose", "--engine", "relapse", "--params-file", file, "--json");
    expect(out.code, out.stderr).toBe(0);
    expect(JSON.parse(out.stdout)).toMatchObject({ engine: "relapse", version: 1 });
  });
});

describe("files named on the command line are bounded before they are read (decision 167)", () => {
  it("a file over 1 MB is refused by its size, and nothing is stored", async () => {
    const before = (await listModelVersions(db.handle.db, ENGINE_NAMES, "relapse")).length;
    const file = path.join(tmpdir(), `params-large-${Date.now()}.json`);
    writeFileSync(file, JSON.stringify({ symptomWindowDays: 21, padding: "x".repeat(1_100_000) }));
    const out = svcCli("models", "propose", "--engine", "relapse", "--params-file", file, "--json");
    expect(out.code).toBe(1);
    expect(JSON.parse(out.stderr).error).toMatch(/is over 1048576 bytes, the most a JSON file may hold/);
    expect(await listModelVersions(db.handle.db, ENGINE_NAMES, "relapse")).toHaveLength(before);
  });
  it.each([
    ["labs", "advance", "--id", "labord_x", "--results-file", "/dev/zero"],
    ["cds-clients", "add", "--account", "acct_x", "--iss", "https://ehr.example", "--jwks", "/dev/zero"],
    ["models", "propose", "--engine", "relapse", "--params-file", tmpdir()],
  ])("%s %s with a device or a folder for its file is refused without reading it", (...args) => {
    const out = svcCli(...args, "--json");
    expect(out.code, out.stderr).toBe(1);
    expect(JSON.parse(out.stderr).error).toMatch(/is not a regular file/);
  });
});

describe("model environment", () => {
  it("MODEL_BASE_URL needs MODEL_NAME and must be a URL", () => {
    expect(() => parseEnv({ MODEL_BASE_URL: "http://127.0.0.1:9/v1" })).toThrow(EnvError);
    expect(() => parseEnv({ MODEL_BASE_URL: "not a url", MODEL_NAME: "m" })).toThrow(/MODEL_BASE_URL/);
    expect(parseEnv({ MODEL_BASE_URL: "http://127.0.0.1:9/v1", MODEL_NAME: "m" }).MODEL_NAME).toBe("m");
  });
});

describe("JSON files a command reads are bounded as request bodies are (decision 170)", () => {
  it("a parameters file over 1 MiB is refused naming the bound, and nothing is stored", async () => {
    const file = path.join(tmpdir(), `params-big-${Date.now()}.json`);
    writeFileSync(file, JSON.stringify({ symptomWindowDays: 21, padding: "x".repeat(1_200_000) }));
    const before = (await listModelVersions(db.handle.db, ENGINE_NAMES, "relapse")).length;
    const out = svcCli("models", "propose", "--engine", "relapse", "--params-file", file, "--json");
    expect(out.code).toBe(1);
    expect(JSON.parse(out.stderr).error).toMatch(/is over 1048576 bytes, the most a JSON file may hold/);
    expect(await listModelVersions(db.handle.db, ENGINE_NAMES, "relapse")).toHaveLength(before);
  });

  it("a parameters file nested 100,000 deep is refused by the input screen", async () => {
    const file = path.join(tmpdir(), `params-deep-${Date.now()}.json`);
    writeFileSync(file, `{"a":${"[".repeat(100_000)}${"]".repeat(100_000)}}`);
    const out = svcCli("models", "propose", "--engine", "relapse", "--params-file", file, "--json");
    expect(out.code).toBe(1);
    expect(JSON.parse(out.stderr).error).toMatch(/refused by the input screen/);
  });
});
