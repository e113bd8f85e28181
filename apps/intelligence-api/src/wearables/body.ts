import type { DailyMetricsRow, WearableConnectionRow } from "@svc/records";
import { connectUrl, findProvider } from "@svc/records";
import type { DailyMetricsBody, WearableConnectionBody } from "../schemas/wearables.js";

export const WEARABLE_NOTICE =
  "Send connect.url to the patient: they choose their device on that page. The connection stays pending until they do; only daily summaries are shared.";

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** A stored connection as the API returns it, with its connect page address. */
export function toConnection(row: WearableConnectionRow, publicBaseUrl: string): WearableConnectionBody {
  const provider = row.provider ? findProvider(row.provider) : undefined;
  return {
    object: "wearable_connection",
    id: row.id,
    patientRef: row.patientRef,
    status: row.status,
    provider: provider?.code ?? null,
    providerDisplayName: provider?.displayName ?? null,
    providers: row.providers as WearableConnectionBody["providers"],
    language: row.language,
    connect: { url: connectUrl(publicBaseUrl, row.connectToken) },
    metadata: (row.metadata ?? {}) as WearableConnectionBody["metadata"],
    connectedAt: iso(row.connectedAt),
    disconnectedAt: iso(row.disconnectedAt),
    lastSyncAt: iso(row.lastSyncAt),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    notice: WEARABLE_NOTICE,
  };
}

export function toDailyMetrics(row: DailyMetricsRow): DailyMetricsBody {
  return {
    day: row.day,
    sleepHours: row.sleepHours,
    steps: row.steps,
    restingHeartRate: row.restingHeartRate,
    hrvMs: row.hrvMs,
  };
}

/** Mean nightly sleep over the days with data, to two decimals; null when no day has any. */
export function averageSleepHours(daily: readonly DailyMetricsBody[]): number | null {
  const sleeps = daily.map((d) => d.sleepHours).filter((v): v is number => v !== null);
  if (sleeps.length === 0) return null;
  return Math.round((sleeps.reduce((a, b) => a + b, 0) / sleeps.length) * 100) / 100;
}
