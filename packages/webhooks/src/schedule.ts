/**
 * Delivery retries (contract, Events 5: exponential backoff for up to 24 hours). Attempt 1 is
 * immediate; the delay before attempt n+1 is RETRY_DELAYS_MS[n-1], with +/-20 % jitter so that
 * many endpoints failing together do not retry in lock-step. The delays sum to 22 h 12 min; an
 * attempt that jitter would push past 24 h after the first is not made. After the last attempt,
 * or when the next would fall outside the 24 h window, the delivery is marked failed.
 */
export const RETRY_DELAYS_MS: readonly number[] = [
  30_000, // attempt 2: 30 s after the first
  2 * 60_000, // attempt 3: +2 min
  5 * 60_000, // attempt 4: +5 min
  15 * 60_000, // attempt 5: +15 min
  30 * 60_000, // attempt 6: +30 min
  60 * 60_000, // attempt 7: +1 h
  2 * 3_600_000, // attempt 8: +2 h
  3 * 3_600_000, // attempt 9: +3 h
  4 * 3_600_000, // attempt 10: +4 h
  5 * 3_600_000, // attempt 11: +5 h
  6 * 3_600_000 + 19 * 60_000 + 30_000, // attempt 12: +6 h 19 min 30 s (last)
];

export const RETRY_WINDOW_MS = 24 * 3_600_000;
export const JITTER_FRACTION = 0.2;
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;

export interface ScheduleOptions {
  /** Multiplies every delay and the window; tests compress a day into seconds. */
  timeScale?: number;
  random?: () => number;
}

/**
 * Delay before the next attempt after `attemptsMade` attempts, or null when no attempt is left
 * (the schedule is exhausted or the 24 h window has passed).
 */
export function nextAttemptDelay(
  attemptsMade: number,
  firstAttemptAt: number,
  now: number,
  options: ScheduleOptions = {},
): number | null {
  const scale = options.timeScale ?? 1;
  const base = RETRY_DELAYS_MS[attemptsMade - 1];
  if (base === undefined || attemptsMade < 1) return null;
  const random = options.random ?? Math.random;
  const jitter = 1 + (random() * 2 - 1) * JITTER_FRACTION;
  const delay = Math.round(base * jitter * scale);
  if (now + delay - firstAttemptAt > RETRY_WINDOW_MS * scale) return null;
  return delay;
}
