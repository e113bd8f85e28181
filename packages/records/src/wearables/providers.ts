import { seededRandom } from "../seeded-random.js";

/**
 * Wearable providers as adapters. Each provider declares the daily metrics it can supply; an
 * adapter fetches them. Only the sandbox adapter exists: it answers for every provider with
 * deterministic daily values seeded by the connection id and the day, so tests and demos see the
 * same numbers every time. Real provider adapters (OAuth and data APIs) plug in behind the same
 * interface.
 */

export const WEARABLE_METRICS = ["sleepHours", "steps", "restingHeartRate", "hrvMs"] as const;
export type WearableMetric = (typeof WEARABLE_METRICS)[number];

export const PROVIDER_CODES = ["FITBIT", "GARMIN", "OURA", "WITHINGS", "APPLE_HEALTH", "GOOGLE_FIT"] as const;
export type ProviderCode = (typeof PROVIDER_CODES)[number];

export interface WearableProvider {
  code: ProviderCode;
  displayName: string;
  metrics: readonly WearableMetric[];
}

export const PROVIDERS: readonly WearableProvider[] = [
  { code: "FITBIT", displayName: "Fitbit", metrics: ["sleepHours", "steps", "restingHeartRate", "hrvMs"] },
  { code: "GARMIN", displayName: "Garmin", metrics: ["sleepHours", "steps", "restingHeartRate", "hrvMs"] },
  { code: "OURA", displayName: "Oura", metrics: ["sleepHours", "steps", "restingHeartRate", "hrvMs"] },
  { code: "WITHINGS", displayName: "Withings", metrics: ["sleepHours", "steps", "restingHeartRate"] },
  {
    code: "APPLE_HEALTH",
    displayName: "Apple Health",
    metrics: ["sleepHours", "steps", "restingHeartRate", "hrvMs"],
  },
  { code: "GOOGLE_FIT", displayName: "Google Fit", metrics: ["sleepHours", "steps", "restingHeartRate"] },
];

const BY_CODE = new Map<string, WearableProvider>(PROVIDERS.map((p) => [p.code, p]));

export function findProvider(code: string): WearableProvider | undefined {
  return BY_CODE.get(code);
}

export interface DailyMetrics {
  /** UTC day, YYYY-MM-DD. */
  day: string;
  sleepHours: number | null;
  steps: number | null;
  restingHeartRate: number | null;
  hrvMs: number | null;
}

export interface WearableAdapter {
  /** Daily summaries for the given days of one connection. */
  fetchDailyMetrics(input: {
    connectionId: string;
    provider: WearableProvider;
    days: string[];
  }): Promise<DailyMetrics[]>;
}

/** Deterministic sandbox data: plausible adult ranges, stable per connection and day. */
export const sandboxAdapter: WearableAdapter = {
  async fetchDailyMetrics({ connectionId, provider, days }) {
    const has = (metric: WearableMetric) => provider.metrics.includes(metric);
    return days.map((day) => {
      const random = seededRandom(`${connectionId}:${day}`);
      const sleep = Math.round((5.5 + random() * 3) * 10) / 10; // 5.5-8.5 h
      const steps = Math.round(3000 + random() * 9000); // 3k-12k
      const rhr = Math.round(54 + random() * 22); // 54-76 bpm
      const hrv = Math.round(25 + random() * 50); // 25-75 ms (RMSSD)
      return {
        day,
        sleepHours: has("sleepHours") ? sleep : null,
        steps: has("steps") ? steps : null,
        restingHeartRate: has("restingHeartRate") ? rhr : null,
        hrvMs: has("hrvMs") ? hrv : null,
      };
    });
  },
};

/** The adapter for a connection's mode: test data always comes from the sandbox. */
export function adapterFor(mode: "test" | "live"): WearableAdapter | null {
  return mode === "test" ? sandboxAdapter : null;
}

/** The last `n` UTC days ending today, oldest first. */
export function lastDays(n: number, now: Date = new Date()): string[] {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return Array.from({ length: n }, (_, i) =>
    new Date(today - (n - 1 - i) * 86_400_000).toISOString().slice(0, 10),
  );
}
