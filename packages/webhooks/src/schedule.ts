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
 * The time scale of the options: 1 when unset, otherwise a finite number > 0, or this throws. A
 * NaN scale would give NaN delays and never give up (every comparison false), retrying forever.
 */
function scaleOf(options: { timeScale?: number }): number {
  const scale = options.timeScale ?? 1;
  if (typeof scale !== "number" || !Number.isFinite(scale) || scale <= 0) {
    throw new RangeError(`timeScale must be a finite number > 0; got ${String(scale)}.`);
  }
  return scale;
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
  const scale = scaleOf(options);
  const base = RETRY_DELAYS_MS[attemptsMade - 1];
  if (base === undefined || attemptsMade < 1) return null;
  const random = options.random ?? Math.random;
  const jitter = 1 + (random() * 2 - 1) * JITTER_FRACTION;
  const delay = Math.round(base * jitter * scale);
  if (now + delay - firstAttemptAt > RETRY_WINDOW_MS * scale) return null;
  return delay;
}

/** True when an attempt at `now` would fall outside the retry window opened by the first one. */
export function giveUp(firstAttemptAt: number, now: number, options: { timeScale?: number } = {}): boolean {
  return now - firstAttemptAt > RETRY_WINDOW_MS * scaleOf(options);
}

/** Offsets of every attempt from the first, without jitter (attempt 1 at 0). For docs and tests. */
export function attemptOffsets(options: { timeScale?: number } = {}): number[] {
  const scale = scaleOf(options);
  const offsets = [0];
  let at = 0;
  for (const delay of RETRY_DELAYS_MS) {
    at += delay * scale;
    offsets.push(at);
  }
  return offsets;
}

export interface Schedule {
  /** The delays of RETRY_DELAYS_MS, scaled. */
  delaysMs: readonly number[];
  windowMs: number;
  maxAttempts: number;
  /** See the function of the same name; options are the schedule's own. */
  nextAttemptDelay(attemptsMade: number, firstAttemptAt: number, now: number): number | null;
  giveUp(firstAttemptAt: number, now: number): boolean;
}

/**
 * The schedule with its options bound: `scheduleFor({ timeScale: 0.001 })` turns the 24 h window
 * into 86.4 s and the 30 s second attempt into 30 ms, for tests.
 */
export function scheduleFor(options: ScheduleOptions = {}): Schedule {
  const scale = scaleOf(options);
  return {
    delaysMs: RETRY_DELAYS_MS.map((d) => d * scale),
    windowMs: RETRY_WINDOW_MS * scale,
    maxAttempts: MAX_ATTEMPTS,
    nextAttemptDelay: (attemptsMade, firstAttemptAt, now) =>
      nextAttemptDelay(attemptsMade, firstAttemptAt, now, options),
    giveUp: (firstAttemptAt, now) => giveUp(firstAttemptAt, now, options),
  };
}
