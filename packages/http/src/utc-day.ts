/** One UTC day as the rate limiter and the usage meter key their counters. */
export interface UtcDay {
  /** Milliseconds at 00:00 UTC of this day, and of the next. */
  startMs: number;
  endMs: number;
  /** `YYYY-MM-DD` */
  iso: string;
  /** `YYYYMMDD` */
  compact: string;
  /** `YYYYMM` */
  month: string;
}

let current: UtcDay = { startMs: 0, endMs: 0, iso: "", compact: "", month: "" };

/**
 * The UTC day of `ms` (epoch milliseconds). The strings are built once per day rather than with
 * `toISOString()` on every request; a time outside the cached day (tests, midnight) rebuilds.
 */
export function utcDayOf(ms: number): UtcDay {
  if (ms >= current.startMs && ms < current.endMs) return current;
  const at = new Date(ms);
  const startMs = Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate());
  const iso = at.toISOString().slice(0, 10);
  const day = {
    startMs,
    endMs: startMs + 86_400_000,
    iso,
    compact: iso.replaceAll("-", ""),
    month: iso.slice(0, 7).replaceAll("-", ""),
  };
  current = day;
  return day;
}
