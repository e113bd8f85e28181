import type { Hop } from "./voice-activity.js";

/**
 * Syllable nuclei from the intensity envelope, after de Jong & Wempe (2009), "Praat script to
 * detect syllable nuclei and measure speech rate automatically", Behavior Research Methods 41(2),
 * 385-390, doi:10.3758/BRM.41.2.385, with the 2010 threshold revision (0.99 quantile minus
 * 25 dB). A nucleus is an intensity peak above the threshold, followed by a dip of more than
 * 2 dB before the next peak, at a voiced moment. See docs/capture.md for the known error.
 */
export const SYLLABLE_NUCLEI = {
  /** Threshold below the 0.99 intensity quantile (their "silence threshold"). */
  silenceDb: -25,
  /** Minimum dip between two peaks (their default; 2-4 dB recommended). */
  minDipDb: 2,
  /**
   * A peak counts only when voiced: normalized autocorrelation at least this. de Jong & Wempe's
   * script asks Praat's autocorrelation pitch for a value at the peak with voicing threshold 0.25.
   */
  voicingThreshold: 0.25,
} as const;

/** A stretch of the session's timeline in seconds on the audio clock. */
export interface TimeSpan {
  start: number;
  end: number;
}

/** The intensity threshold of the whole session: the 0.99 quantile minus 25 dB, never below the minimum. */
export function nucleusThresholdDb(hops: readonly Hop[]): number {
  if (hops.length === 0) return Number.POSITIVE_INFINITY;
  const sorted = hops.map((h) => h.intensityDb).sort((a, b) => a - b);
  const q99 = sorted[Math.min(sorted.length - 1, Math.floor(0.99 * (sorted.length - 1)))] ?? 0;
  return Math.max(q99 + SYLLABLE_NUCLEI.silenceDb, sorted[0] ?? 0);
}

/** Indices of local intensity maxima above the threshold, in time order. */
function peakIndices(hops: readonly Hop[], from: number, to: number, thresholdDb: number): number[] {
  const peaks: number[] = [];
  for (let i = Math.max(1, from); i < Math.min(hops.length - 1, to); i++) {
    const here = hops[i]?.intensityDb ?? 0;
    const before = hops[i - 1]?.intensityDb ?? 0;
    const after = hops[i + 1]?.intensityDb ?? 0;
    if (here > thresholdDb && here > before && here >= after) peaks.push(i);
  }
  return peaks;
}

function lowestBetween(hops: readonly Hop[], from: number, to: number): number {
  let lowest = Number.POSITIVE_INFINITY;
  for (let i = from; i <= to; i++) lowest = Math.min(lowest, hops[i]?.intensityDb ?? lowest);
  return lowest;
}

/** Index range of the hops whose time falls in [span.start, span.end]. Hops are in time order. */
function hopRange(hops: readonly Hop[], span: TimeSpan): [number, number] {
  let from = 0;
  while (from < hops.length && (hops[from]?.time ?? 0) < span.start) from++;
  let to = from;
  while (to < hops.length && (hops[to]?.time ?? 0) <= span.end) to++;
  return [from, to];
}

/** Syllable nuclei within one span (the dip after the last peak runs to the span's end). */
export function countNucleiInSpan(hops: readonly Hop[], span: TimeSpan, thresholdDb: number): number {
  const [from, to] = hopRange(hops, span);
  const peaks = peakIndices(hops, from, to, thresholdDb);
  let count = 0;
  peaks.forEach((peak, k) => {
    const next = peaks[k + 1] ?? to - 1;
    const dip = lowestBetween(hops, peak, next);
    const height = hops[peak]?.intensityDb ?? 0;
    const voiced = (hops[peak]?.voicing ?? 0) >= SYLLABLE_NUCLEI.voicingThreshold;
    if (height - dip > SYLLABLE_NUCLEI.minDipDb && voiced) count += 1;
  });
  return count;
}
