/**
 * GET /v1/events with 1,000,000 events stored: the first page against a page deep in the list
 * (keyset paging must cost the same wherever the cursor points), at a steady rate.
 */
import postgres from "postgres";
import { type SteadyMeasure, steady } from "./mse.js";

export interface EventsBenchRow {
  page: "first" | "deep";
  measure: SteadyMeasure;
}

export async function runEventsBench(options: {
  apiUrl: string;
  key: string;
  accountId: string;
  databaseUrl: string;
  count: number;
  rate: number;
  seconds: number;
  log: (line: string) => void;
}): Promise<EventsBenchRow[]> {
  const sql = postgres(options.databaseUrl, { max: 2, onnotice: () => {} });
  try {
    const started = Date.now();
    const batch = 100_000;
    for (let from = 1; from <= options.count; from += batch) {
      const to = Math.min(options.count, from + batch - 1);
      // One transaction per batch: many events share an xact_id, as in a busy outbox.
      await sql`
        insert into events (id, account_id, mode, type, api_version, data, created_at)
        select 'evt_bench' || lpad(g::text, 8, '0'), ${options.accountId}, 'test', 'lab_order.status_changed',
          '2026-11-01', jsonb_build_object('object', 'lab_order', 'id', 'labord_bench' || g, 'status', 'collected',
          'patientRef', 'bench-patient'), now()
        from generate_series(${from}::int, ${to}::int) g`;
      options.log(
        `events bench: stored ${to.toLocaleString("en")} of ${options.count.toLocaleString("en")} events`,
      );
    }
    await sql`analyze events`;
    options.log(
      `events bench: ${options.count.toLocaleString("en")} events stored in ${Date.now() - started} ms`,
    );

    const headers = { authorization: `Bearer ${options.key}` };
    const get = async (query: string) => {
      const res = await fetch(`${options.apiUrl}/v1/events?${query}`, { headers });
      const body = (await res.json()) as { data?: { events?: unknown[]; nextCursor?: string | null } };
      return { ok: res.status === 200 && (body.data?.events?.length ?? 0) > 0, body };
    };
    // Walk to a deep page by following cursors with the largest page size (90 % of the way).
    const first = await get("limit=200");
    if (!first.ok) throw new Error("GET /v1/events did not answer a first page");
    let cursor = first.body.data?.nextCursor ?? null;
    const deepPages = Math.floor((options.count * 0.9) / 200);
    for (let page = 1; page < deepPages && cursor; page++) {
      cursor = (await get(`limit=200&cursor=${encodeURIComponent(cursor)}`)).body.data?.nextCursor ?? null;
      if (page % 1000 === 0) options.log(`events bench: walked ${page} of ${deepPages} pages`);
    }
    if (!cursor) throw new Error("ran out of pages before the deep page");
    const deepCursor = cursor;
    const rows: EventsBenchRow[] = [];
    for (const [page, query] of [
      ["first", "limit=50"],
      ["deep", `limit=50&cursor=${encodeURIComponent(deepCursor)}`],
    ] as const) {
      const measure = await steady(options.rate, options.seconds, async () => (await get(query)).ok);
      options.log(`events ${page} page @${options.rate}/s: p50 ${measure.p50} ms p99 ${measure.p99} ms`);
      rows.push({ page, measure });
    }
    return rows;
  } finally {
    await sql.end();
  }
}
