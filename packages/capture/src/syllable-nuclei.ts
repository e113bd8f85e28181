import type { Hop } from "./voice-activity.js";

/**
 * Syllable nuclei from the intensity envelope, after de Jong & Wempe (2009), "Praat script to
 * detect syllable nuclei and measure speech rate automatically", Behavior Research Methods 41(2),
 * 385-390, doi:10.3758/BRM.41.2.385: "peaks in intensity (dB) that are preceded and followed by
 * dips in intensity are considered to be potential syllable nuclei", unvoiced peaks discarded.
 * The threshold is their 2010 revision (0.99 quantile minus 25 dB); the dip rule is the
 * "dip-peak-dip" parser of their version 3 script (de Jong, Wempe & Pacilly, 2019; described in
 * de Jong, Pacilly & Heeren, 2021, "PRAAT scripts to measure speed fluency and breakdown fluency
 * in speech automatically", Assessment in Education): among the voiced peaks above the
 * threshold, a nucleus is the highest one between a rise of more than 2 dB from the lowest
 * point before it and a fall of more than 2 dB after it. See docs/capture.md for the known error.
 */
export const SYLLABLE_NUCLEI = {
  /** Threshold below the 0.99 intensity quantile (their "silence threshold"). */
  silenceDb: -25,
  /** Minimum dip on each side of a nucleus (their default "minimum dip near peak"). */
  minDipDb: 2,
  /**
   * A peak counts only when voiced: normalized autocorrelation at least this. The script asks
   * Praat's autocorrelation pitch for a value at the peak with voicing threshold 0.25.
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

/** Indices of the voiced local intensity maxima above the threshold, in time order. */
function candidatePeaks(hops: readonly Hop[], from: number, to: number, thresholdDb: number): number[] {
  const peaks: number[] = [];
  for (let i = Math.max(1, from); i < Math.min(hops.length - 1, to); i++) {
    const here = hops[i]?.intensityDb ?? 0;
    const before = hops[i - 1]?.intensityDb ?? 0;
    const after = hops[i + 1]?.intensityDb ?? 0;
    const voiced = (hops[i]?.voicing ?? 0) >= SYLLABLE_NUCLEI.voicingThreshold;
    if (here > thresholdDb && here > before && here >= after && voiced) peaks.push(i);
  }
  return peaks;
}

function lowestBetween(hops: readonly Hop[], from: number, to: number): number {
  let lowest = Number.POSITIVE_INFINITY;
  for (let i = from; i <= to; i++) lowest = Math.min(lowest, hops[i]?.intensityDb ?? lowest);
  return lowest;
}

/**
 * The contour as alternating levels: the dip before the first peak, then each peak followed by
 * the dip between it and the next (the last dip runs to the span's end).
 */
function peaksAndDips(hops: readonly Hop[], peaks: readonly number[], from: number, to: number): number[] {
  const levels = [lowestBetween(hops, from, peaks[0] ?? from)];
  peaks.forEach((peak, k) => {
    levels.push(hops[peak]?.intensityDb ?? 0);
    levels.push(lowestBetween(hops, peak, peaks[k + 1] ?? to - 1));
  });
  return levels;
}

/** Counts rise-then-fall excursions of more than `minDip` in alternating dip/peak levels. */
function dipPeakDipCount(levels: readonly number[], minDip: number): number {
  let count = 0;
  let rising = false;
  let low = levels[0] ?? 0;
  let high = Number.NEGATIVE_INFINITY;
  for (const level of levels.slice(1)) {
    if (!rising) {
      if (level < low) low = level;
      else if (level - low > minDip) {
        rising = true;
        high = level;
      }
    } else if (level > high) {
      high = level;
    } else if (high - level > minDip) {
      count += 1;
      rising = false;
      low = level;
    }
  }
  return count;
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
  const peaks = candidatePeaks(hops, from, to, thresholdDb);
  if (peaks.length === 0) return 0;
  return dipPeakDipCount(peaksAndDips(hops, peaks, from, to), SYLLABLE_NUCLEI.minDipDb);
}
