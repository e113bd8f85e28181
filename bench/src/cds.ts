/**
 * CDS Hooks latency: the running API called over loopback as an EHR calls it. The CDS Hooks
 * specification asks a service to answer in about 500 ms, so each call's latency is kept and the
 * report gives p50, p95, p99, max and the share of calls over 500 ms, beside `GET /healthz` on the
 * same process timed in the same loop (the floor of any answer: sockets, Hono, the middleware).
 *
 * Calls are sequential (one in flight, as a clinician's chart opening is), each with a JWT of its
 * own: the service refuses a replayed `jti`, so tokens are signed ahead of the timed calls in
 * batches (signing is the EHR's cost, not the service's) and a batch is used well within the
 * JWT's maximum age. Three calls are measured:
 * - `psych-patient-view` with the whole prefetch (ten PHQ-9/GAD-7 totals, twenty laboratory
 *   results with four lithium levels, five active medicines);
 * - `psych-interactions-sign` with its prefetch (two draft orders, ten active medicines);
 * - `psych-patient-view` without prefetch: the service fetches its three searches from a scripted
 *   FHIR server on loopback with the EHR's bearer token (the API runs with the operator's loopback
 *   setting on, test-mode client).
 */

import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { fhirR4Problems } from "@svc/testkit/fhir";
import { exportJWK, generateKeyPair, type JWK, SignJWT } from "jose";
import {
  BENCH_PATIENT_ID,
  benchActiveMedications,
  benchDraftOrders,
  benchLabs,
  benchScores,
  type FhirJson,
  searchset,
} from "./cds-data.js";

const here = path.dirname(fileURLToPath(import.meta.url));

/** The CDS Hooks specification's answer-time guidance. */
export const CDS_BUDGET_MS = 500;
/** Untimed calls of each kind before the timed ones (JIT, connection pools, caches). */
const WARMUP = 20;
/**
 * Tokens signed per batch: at 500 ms a call (the budget) a batch is spent in 50 s, well within the
 * service's maximum JWT age of 300 s, so no token expires between signing and use.
 */
const SIGN_BATCH = 100;

export interface LatencySummary {
  calls: number;
  failures: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  mean: number;
  /** Calls slower than CDS_BUDGET_MS, and their share of all calls. */
  overBudget: number;
  overBudgetShare: number;
}

export interface CdsBenchRow {
  variant: "patient-view, prefetch" | "order-sign, prefetch" | "patient-view, fetched";
  serviceId: string;
  cds: LatencySummary;
  healthz: LatencySummary;
  /** CDS latency over the healthz latency measured in the same loop. */
  p50xHealthz: number;
  p99xHealthz: number;
  /** Searches the service made to the scripted FHIR server per timed call. */
  fhirSearchesPerCall: number;
  /**
   * The API process over the timed loop, per call: CPU ms (user + system; it includes one
   * `/healthz` answer, ~0.1 ms), database queries and Redis round trips (`/healthz` makes none).
   */
  server: { cpuMsPerCall: number; dbQueriesPerCall: number; redisCommandsPerCall: number } | null;
  /** Cards in the last answer, and its size. */
  cards: number;
  answerBytes: number;
}

export interface CdsBenchResult {
  mode: "sequential";
  calls: number;
  warmup: number;
  budgetMs: number;
  rows: CdsBenchRow[];
}

const round = (value: number) => Math.round(value * 100) / 100;

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] as number;
}

export function summarise(latencies: number[], failures: number): LatencySummary {
  const sorted = [...latencies].sort((a, b) => a - b);
  const over = sorted.filter((ms) => ms > CDS_BUDGET_MS).length;
  return {
    calls: sorted.length,
    failures,
    p50: round(percentile(sorted, 50)),
    p95: round(percentile(sorted, 95)),
    p99: round(percentile(sorted, 99)),
    max: round(sorted.at(-1) ?? 0),
    mean: round(sorted.reduce((sum, ms) => sum + ms, 0) / Math.max(1, sorted.length)),
    overBudget: over,
    overBudgetShare: round(over / Math.max(1, sorted.length)),
  };
}

/** The EHR: an ES384 key pair, its issuer and key id; signs one JWT per call. */
interface Ehr {
  iss: string;
  kid: string;
  privateKey: Awaited<ReturnType<typeof generateKeyPair>>["privateKey"];
  publicJwk: JWK;
}

async function newEhr(): Promise<Ehr> {
  const { publicKey, privateKey } = await generateKeyPair("ES384");
  return {
    iss: `https://ehr-${randomUUID()}.bench.test`,
    kid: randomUUID(),
    privateKey,
    publicJwk: await exportJWK(publicKey),
  };
}

/** The JWT CDS Hooks 2.0.1 asks of the EHR: `iss`, `aud` (the service's URL), `iat`, `exp`, a fresh `jti`, ES384 with the key's `kid`. */
function signJwt(ehr: Ehr, aud: string): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ iss: ehr.iss, aud, iat: now, exp: now + 300, jti: randomUUID() })
    .setProtectedHeader({ alg: "ES384", typ: "JWT", kid: ehr.kid })
    .sign(ehr.privateKey);
}

/**
 * Register the EHR as a test-mode CDS client of the account with the operator's own command
 * (`svc cds-clients add --jwks FILE`), run from source in a child process the way an operator
 * runs it, so the bench needs no dependency on the records package for one call.
 */
async function registerEhr(ehr: Ehr, accountId: string, databaseUrl: string): Promise<void> {
  const jwksFile = path.join(tmpdir(), `bench-ehr-jwks-${process.pid}.json`);
  writeFileSync(jwksFile, JSON.stringify({ keys: [{ ...ehr.publicJwk, kid: ehr.kid, alg: "ES384" }] }));
  const root = path.join(here, "..", "..");
  const args = [
    "--import",
    "tsx",
    path.join(root, "tooling", "cli", "src", "main.ts"),
    "cds-clients",
    "add",
    "--account",
    accountId,
    "--iss",
    ehr.iss,
    "--jwks",
    jwksFile,
    "--json",
  ];
  const child = spawn(process.execPath, args, {
    cwd: path.join(here, ".."),
    env: { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: "silent" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
  if (code !== 0) throw new Error(`cds-clients add failed (${code}): ${output.slice(0, 500)}`);
}

/**
 * The EHR's FHIR server: answers `MedicationRequest` and `Observation` searches for the bench
 * patient from the record, an Observation search filtered by its `code` tokens (`system|code`,
 * comma-separated) as a FHIR server would, and counts the searches it was asked.
 */
interface ScriptedFhir {
  url: string;
  searches: number;
  close(): Promise<void>;
}

async function startScriptedFhir(
  record: { observations: FhirJson[]; medications: FhirJson[] },
  token: string,
) {
  const answers = new Map<string, string>();
  const codeOf = (resource: FhirJson) =>
    ((resource.code as { coding?: { code?: string }[] } | undefined)?.coding ?? []).map((c) => c.code);
  const state: ScriptedFhir = { url: "", searches: 0, close: async () => {} };
  const answer = (req: IncomingMessage, res: ServerResponse) => {
    state.searches++;
    const url = new URL(req.url ?? "/", "http://fhir.local");
    const type = /^\/fhir\/(MedicationRequest|Observation)$/.exec(url.pathname)?.[1];
    if (!type || req.headers.authorization !== `Bearer ${token}`) {
      res.writeHead(type ? 401 : 404, { "content-type": "application/fhir+json" });
      res.end(
        JSON.stringify({
          resourceType: "OperationOutcome",
          issue: [{ severity: "error", code: "exception" }],
        }),
      );
      return;
    }
    const key = `${type}?${url.searchParams.get("code") ?? ""}`;
    let body = answers.get(key);
    if (body === undefined) {
      const codes = new Set(
        (url.searchParams.get("code") ?? "")
          .split(",")
          .filter(Boolean)
          .map((token) => token.split("|").pop()),
      );
      const resources =
        type === "MedicationRequest"
          ? record.medications
          : record.observations.filter((o) => codes.size === 0 || codeOf(o).some((c) => codes.has(c)));
      body = JSON.stringify(searchset(resources));
      answers.set(key, body);
    }
    res.writeHead(200, { "content-type": "application/fhir+json" });
    res.end(body);
  };
  const server = createServer(answer);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/fhir`;
  state.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return state;
}

export interface ServerCounters {
  cpuMicros: number;
  queries: number;
  redisCommands: number;
}

/** The bench sends only valid FHIR R4 (medplum's validator, as the tests use), or it does not run. */
function assertValidRecord(resources: FhirJson[]): void {
  for (const resource of resources) {
    const problems = fhirR4Problems(resource as Parameters<typeof fhirR4Problems>[0]);
    if (problems.length > 0)
      throw new Error(`the bench's ${resource.resourceType} is not valid FHIR R4: ${problems.join("; ")}`);
  }
}

interface Variant {
  name: CdsBenchRow["variant"];
  serviceId: string;
  /** The hook request body of one call (a fresh hookInstance each time). */
  body: () => string;
}

function variants(now: Date, fhirUrl: string, fhirToken: string): Variant[] {
  const scores = benchScores(now);
  const labs = benchLabs(now);
  const fhirAuthorization = {
    access_token: fhirToken,
    token_type: "Bearer",
    expires_in: 300,
    scope: "patient/*.read",
    subject: "cds-bench",
  };
  const common = { fhirServer: fhirUrl, fhirAuthorization };
  const viewContext = { userId: "Practitioner/bench", patientId: BENCH_PATIENT_ID };
  const viewPrefetch = {
    scores: searchset(scores),
    labs: searchset(labs),
    medications: searchset(benchActiveMedications(now, 5)),
  };
  const signPrefetch = { medications: searchset(benchActiveMedications(now, 10)) };
  const draftOrders = benchDraftOrders(now);
  const request = (hook: string, context: object, prefetch?: object) => () =>
    JSON.stringify({
      hook,
      hookInstance: randomUUID(),
      ...common,
      context,
      ...(prefetch ? { prefetch } : {}),
    });
  return [
    {
      name: "patient-view, prefetch",
      serviceId: "psych-patient-view",
      body: request("patient-view", viewContext, viewPrefetch),
    },
    {
      name: "order-sign, prefetch",
      serviceId: "psych-interactions-sign",
      body: request("order-sign", { ...viewContext, draftOrders }, signPrefetch),
    },
    {
      name: "patient-view, fetched",
      serviceId: "psych-patient-view",
      body: request("patient-view", viewContext),
    },
  ];
}

/** One timed exchange; the answer is read whole before the clock stops. */
async function timed(url: string, init: RequestInit): Promise<{ ms: number; status: number; text: string }> {
  const t0 = performance.now();
  const response = await fetch(url, init);
  const text = await response.text();
  return { ms: performance.now() - t0, status: response.status, text };
}

export async function runCdsBench(options: {
  apiUrl: string;
  /** The API's PUBLIC_BASE_URL: the JWT's `aud` is the service's URL under it. */
  publicBaseUrl: string;
  accountId: string;
  databaseUrl: string;
  calls: number;
  log: (line: string) => void;
  /** The API process's counters (the bench's child server), when it can be asked. */
  counters?: () => Promise<ServerCounters>;
}): Promise<CdsBenchResult> {
  const { apiUrl, publicBaseUrl, calls, log } = options;
  const ehr = await newEhr();
  await registerEhr(ehr, options.accountId, options.databaseUrl);
  const now = new Date();
  assertValidRecord([
    searchset([...benchScores(now), ...benchLabs(now), ...benchActiveMedications(now, 10)]),
    benchDraftOrders(now),
  ]);
  const fhirToken = `bench-fhir-token-${randomUUID()}`;
  const fhir = await startScriptedFhir(
    { observations: [...benchScores(now), ...benchLabs(now)], medications: benchActiveMedications(now, 5) },
    fhirToken,
  );
  const rows: CdsBenchRow[] = [];
  // The account's CDS Hooks base (decision 147).
  const base = `/cds-hooks/${options.accountId}/cds-services`;
  try {
    for (const variant of variants(now, fhir.url, fhirToken)) {
      const aud = `${publicBaseUrl}${base}/${variant.serviceId}`;
      const hookInit = (jwt: string, body: string): RequestInit => ({
        method: "POST",
        headers: { authorization: `Bearer ${jwt}`, "content-type": "application/json" },
        body,
      });
      // Signed and built before any timed call: the EHR's cost, not the service's.
      const prepare = async (n: number) => {
        const batch: { jwt: string; body: string }[] = [];
        for (let i = 0; i < n; i++) batch.push({ jwt: await signJwt(ehr, aud), body: variant.body() });
        return batch;
      };
      let last = { status: 0, text: "" };
      for (const { jwt, body } of await prepare(WARMUP)) {
        last = await timed(`${apiUrl}${base}/${variant.serviceId}`, hookInit(jwt, body));
        await timed(`${apiUrl}/healthz`, {});
        if (last.status !== 200)
          throw new Error(`${variant.name}: the service answered ${last.status}: ${last.text.slice(0, 300)}`);
      }
      const cdsMs: number[] = [];
      const healthzMs: number[] = [];
      let cdsFailures = 0;
      let healthzFailures = 0;
      const searchesBefore = fhir.searches;
      const before = await options.counters?.();
      let pool: { jwt: string; body: string }[] = [];
      for (let i = 0; i < calls; i++) {
        if (pool.length === 0) pool = await prepare(Math.min(SIGN_BATCH, calls - i));
        const { jwt, body } = pool.shift() as { jwt: string; body: string };
        const hook = await timed(`${apiUrl}${base}/${variant.serviceId}`, hookInit(jwt, body));
        cdsMs.push(hook.ms);
        if (hook.status === 200) last = hook;
        else cdsFailures++;
        const health = await timed(`${apiUrl}/healthz`, {});
        healthzMs.push(health.ms);
        if (health.status !== 200) healthzFailures++;
        if ((i + 1) % Math.max(1, Math.floor(calls / 4)) === 0 || i + 1 === calls)
          log(
            `cds ${variant.name}: ${i + 1}/${calls} calls${cdsFailures ? ` (${cdsFailures} failed!)` : ""}`,
          );
      }
      const after = await options.counters?.();
      const perCall = (value: number, digits = 100) =>
        Math.round((value / Math.max(1, calls)) * digits) / digits;
      const server =
        before && after
          ? {
              cpuMsPerCall: perCall((after.cpuMicros - before.cpuMicros) / 1000),
              dbQueriesPerCall: perCall(after.queries - before.queries),
              redisCommandsPerCall: perCall(after.redisCommands - before.redisCommands),
            }
          : null;
      const cds = summarise(cdsMs, cdsFailures);
      const healthz = summarise(healthzMs, healthzFailures);
      const answer = JSON.parse(last.text) as { cards?: unknown[] };
      const row: CdsBenchRow = {
        variant: variant.name,
        serviceId: variant.serviceId,
        cds,
        healthz,
        p50xHealthz: round(cds.p50 / Math.max(0.01, healthz.p50)),
        p99xHealthz: round(cds.p99 / Math.max(0.01, healthz.p99)),
        fhirSearchesPerCall: round((fhir.searches - searchesBefore) / Math.max(1, calls)),
        server,
        cards: answer.cards?.length ?? 0,
        answerBytes: Buffer.byteLength(last.text),
      };
      log(
        `cds ${variant.name}: p50 ${cds.p50} ms p95 ${cds.p95} ms p99 ${cds.p99} ms max ${cds.max} ms, ${cds.overBudget} over ${CDS_BUDGET_MS} ms | healthz p50 ${healthz.p50} ms p99 ${healthz.p99} ms`,
      );
      rows.push(row);
    }
  } finally {
    await fhir.close();
  }
  return { mode: "sequential", calls, warmup: WARMUP, budgetMs: CDS_BUDGET_MS, rows };
}

/** The printed table of a CDS run. */
export function cdsTable(result: CdsBenchResult): Record<string, string | number>[] {
  return result.rows.map((row) => ({
    call: row.variant,
    calls: row.cds.calls,
    "p50 ms": row.cds.p50,
    "p95 ms": row.cds.p95,
    "p99 ms": row.cds.p99,
    "max ms": row.cds.max,
    [`> ${result.budgetMs} ms`]: `${row.cds.overBudget} (${(row.cds.overBudgetShare * 100).toFixed(1)} %)`,
    "healthz p50": row.healthz.p50,
    "healthz p99": row.healthz.p99,
    "p50 x healthz": row.p50xHealthz,
    "p99 x healthz": row.p99xHealthz,
    "FHIR GETs/call": row.fhirSearchesPerCall,
    "server CPU ms/call": row.server?.cpuMsPerCall ?? "-",
    "db/call": row.server?.dbQueriesPerCall ?? "-",
    "redis/call": row.server?.redisCommandsPerCall ?? "-",
    cards: row.cards,
    failed: row.cds.failures,
  }));
}
