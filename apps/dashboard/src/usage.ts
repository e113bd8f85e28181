import type { UsageRow } from "@svc/db";

/** The limits the usage page measures against (decisions 30, 46; ruling 15 for organizations). */
export interface UsageLimits {
  /** e.g. "Sandbox" or "MSE Record API organization". */
  planName: string;
  /** Requests per UTC day per key, and per account across its keys; null = no daily quota. */
  dailyKeyQuota: number | null;
  dailyAccountQuota: number | null;
  ratePerSecond: number | null;
  burst: number | null;
  /** Requests included per calendar month; beyond are counted as overage, never refused. */
  monthlyAllowance: number | null;
}

/** One key's part of a day. */
export interface KeyDay {
  keyId: string;
  requests: number;
  rateLimited: number;
}

export interface UsageDay {
  /** `YYYY-MM-DD` (UTC). */
  day: string;
  requests: number;
  rateLimited: number;
  byKey: KeyDay[];
}

export interface UsageKey {
  keyId: string;
  kind: string;
  prefix: string;
  requests: number;
}

export interface UsageSummary {
  /** Every day of the window, oldest first, days without a request included. */
  days: UsageDay[];
  /** Keys seen in the window, busiest first. */
  keys: UsageKey[];
  requests: number;
  rateLimited: number;
  /** Requests so far this calendar month, 429s excluded (what the monthly allowance counts). */
  monthToDate: number;
}

/** `YYYY-MM-DD` of `now` minus `back` days (UTC). */
export function utcDayBefore(now: Date, back: number): string {
  return new Date(now.getTime() - back * 86_400_000).toISOString().slice(0, 10);
}

/** `YYYY-MM-01` of `now`'s calendar month (UTC). */
export function utcMonthStart(now: Date): string {
  return `${now.toISOString().slice(0, 7)}-01`;
}

/**
 * Fold the stored rows (day x key x operation) into one entry per day and per key for the last
 * `windowDays` days; rows may reach back further (to the month's start, for `monthToDate`).
 */
export function summarizeUsage(rows: readonly UsageRow[], windowDays: number, now: Date): UsageSummary {
  const days: UsageDay[] = [];
  for (let back = windowDays - 1; back >= 0; back -= 1)
    days.push({ day: utcDayBefore(now, back), requests: 0, rateLimited: 0, byKey: [] });
  const dayIndex = new Map(days.map((d, i) => [d.day, i]));
  const keys = new Map<string, UsageKey>();
  for (const row of rows) {
    const day = days[dayIndex.get(row.day) ?? -1];
    if (!day) continue;
    day.requests += row.requests;
    day.rateLimited += row.rateLimited;
    let part = day.byKey.find((k) => k.keyId === row.keyId);
    if (!part) {
      part = { keyId: row.keyId, requests: 0, rateLimited: 0 };
      day.byKey.push(part);
    }
    part.requests += row.requests;
    part.rateLimited += row.rateLimited;
    const key = keys.get(row.keyId) ?? {
      keyId: row.keyId,
      kind: row.keyKind,
      prefix: row.keyPrefix,
      requests: 0,
    };
    key.requests += row.requests;
    keys.set(row.keyId, key);
  }
  const monthStart = utcMonthStart(now);
  return {
    days,
    keys: [...keys.values()].sort((a, b) => b.requests - a.requests || a.keyId.localeCompare(b.keyId)),
    requests: days.reduce((n, d) => n + d.requests, 0),
    rateLimited: days.reduce((n, d) => n + d.rateLimited, 0),
    monthToDate: rows.filter((r) => r.day >= monthStart).reduce((n, r) => n + r.requests - r.rateLimited, 0),
  };
}
