/**
 * MSE Record API bench: write (POST), amend (PATCH) and read (GET) at a steady rate, each next to
 * the bare-PostgreSQL statements that store or read the same rows (the version counter upsert and
 * the version insert in one transaction; the latest-version select) at the same rate.
 */
import { createHash } from "node:crypto";
import { performance } from "node:perf_hooks";
import postgres from "postgres";

export interface SteadyMeasure {
  rate: number;
  seconds: number;
  requests: number;
  failures: number;
  p50: number;
  p99: number;
}

const percentile = (sorted: number[], p: number) =>
  sorted.length === 0
    ? 0
    : (sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number);

/** Fire `operation(i)` at `rate` per second for `seconds` (open loop), recording each latency. */
export async function steady(
  rate: number,
  seconds: number,
  operation: (i: number) => Promise<boolean>,
): Promise<SteadyMeasure> {
  const latencies: number[] = [];
  let failures = 0;
  const inFlight: Promise<void>[] = [];
  const total = rate * seconds;
  const tickMs = 10;
  const perTick = rate / (1000 / tickMs);
  const started = performance.now();
  let sent = 0;
  await new Promise<void>((resolve) => {
    const timer = setInterval(() => {
      const due = Math.min(total, Math.floor(((performance.now() - started) / tickMs) * perTick) + 1);
      while (sent < due) {
        const i = sent++;
        const t0 = performance.now();
        inFlight.push(
          operation(i)
            .then((ok) => {
              if (!ok) failures++;
            })
            .catch(() => {
              failures++;
            })
            .finally(() => latencies.push(performance.now() - t0)),
        );
      }
      if (sent >= total) {
        clearInterval(timer);
        resolve();
      }
    }, tickMs);
  });
  await Promise.all(inFlight);
  latencies.sort((a, b) => a - b);
  const round = (v: number) => Math.round(v * 100) / 100;
  return {
    rate,
    seconds,
    requests: latencies.length,
    failures,
    p50: round(percentile(latencies, 50)),
    p99: round(percentile(latencies, 99)),
  };
}

/** A typical, risk-free examination (seven domains). */
export const benchSelection = {
  appearance: { values: ["well_groomed"] },
  behavior: { values: ["calm"] },
  eye_contact: { values: ["appropriate"] },
  speech: { values: ["normal"] },
  mood: { values: ["euthymic"] },
  thought_process: { values: ["linear"] },
  risk: { values: ["denies_si_hi"] },
};

export interface MseBenchRow {
  operation: "write" | "patch" | "read";
  api: SteadyMeasure;
  baseline: SteadyMeasure;
}

/** One organization with its key; the bench spreads load so no org passes its 20 req/s (decision 43). */
export interface BenchOrg {
  orgId: string;
  key: string;
  keyId: string;
}

export async function runMseBench(options: {
  apiUrl: string;
  orgs: BenchOrg[];
  databaseUrl: string;
  rate: number;
  seconds: number;
  log: (line: string) => void;
}): Promise<MseBenchRow[]> {
  const { apiUrl, orgs, rate, seconds } = options;
  const orgOf = (i: number) => orgs[i % orgs.length] as BenchOrg;
  const call = async (i: number, method: string, path: string, body?: unknown) => {
    const res = await fetch(`${apiUrl}${path}`, {
      method,
      headers: { "content-type": "application/json", authorization: `Bearer ${orgOf(i).key}` },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    await res.arrayBuffer();
    return res.status === 200;
  };
  const sql = postgres(options.databaseUrl, { max: 10, onnotice: () => {} });
  const run = Date.now().toString(36);
  const lines = Object.keys(benchSelection).map((key) => ({ key, label: key, line: `${key} line` }));
  const content = JSON.stringify({ selection: benchSelection, lines });
  const contentHash = createHash("sha256").update(content).digest("hex");
  const insertVersion = (i: number, visitId: string) =>
    sql.begin(async (tx) => {
      const [visit] = await tx`
        insert into mse_visits (org_id, visit_id, patient_id, current_version)
        values (${orgOf(i).orgId}, ${visitId}, 'patient-1', 1)
        on conflict (org_id, visit_id) do update set current_version = mse_visits.current_version + 1,
          updated_at = now()
        returning current_version`;
      await tx`
        insert into mse_versions (org_id, visit_id, version, patient_id, selection, lines, objective_block,
          risk_flag, risk_level, risk_labels, operation, key_id, content_hash, chain_hash)
        values (${orgOf(i).orgId}, ${visitId}, ${visit?.current_version as number}, 'patient-1',
          ${sql.json(benchSelection)}, ${sql.json(lines)}, ${lines.map((l) => l.line).join("\n")}, false, 'none',
          ${[]}, 'write', ${orgOf(i).keyId}, ${contentHash}, ${contentHash})`;
      return true;
    });
  const POOL = 200;
  const rows: MseBenchRow[] = [];
  try {
    // Visits to amend and read, created through the API.
    for (let i = 0; i < POOL; i++) {
      await call(i, "POST", `/v1/mse/bench-${run}-p${i}`, {
        patientId: "patient-1",
        selection: benchSelection,
      });
      await insertVersion(i, `base-${run}-p${i}`);
    }
    const plan: [
      MseBenchRow["operation"],
      (i: number) => Promise<boolean>,
      (i: number) => Promise<boolean>,
    ][] = [
      [
        "write",
        (i) =>
          call(i, "POST", `/v1/mse/bench-${run}-w${i}`, {
            patientId: "patient-1",
            selection: benchSelection,
          }),
        (i) => insertVersion(i, `base-${run}-w${i}`),
      ],
      [
        "patch",
        (i) =>
          call(i % POOL, "PATCH", `/v1/mse/bench-${run}-p${i % POOL}`, {
            patientId: "patient-1",
            selection: { mood: { values: i % 2 ? ["anxious"] : ["euthymic"] } },
          }),
        (i) => insertVersion(i % POOL, `base-${run}-p${i % POOL}`),
      ],
      [
        "read",
        (i) => call(i % POOL, "GET", `/v1/mse/bench-${run}-p${i % POOL}`),
        async (i) => {
          const found = await sql`
            select * from mse_versions where org_id = ${orgOf(i % POOL).orgId} and visit_id = ${`base-${run}-p${i % POOL}`}
            order by version desc limit 1`;
          return found.length === 1;
        },
      ],
    ];
    for (const [operation, apiOp, baseOp] of plan) {
      const baseline = await steady(rate, seconds, baseOp);
      const api = await steady(rate, seconds, apiOp);
      options.log(
        `mse ${operation} @${rate}/s: api p50 ${api.p50} ms p99 ${api.p99} ms (${api.failures} failed) | bare PostgreSQL p50 ${baseline.p50} ms p99 ${baseline.p99} ms`,
      );
      rows.push({ operation, api, baseline });
    }
  } finally {
    await sql.end();
  }
  return rows;
}
