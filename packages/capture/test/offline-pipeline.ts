import { kaiserWindow, windowFeatures } from "../src/features.js";
import { type CaptureMetrics, computeMetrics } from "../src/session-metrics.js";
import { type Hop, VoiceActivityDetector } from "../src/voice-activity.js";
import {
  EFFECTIVE_WINDOW_SECONDS,
  HOP_SECONDS,
  INTENSITY_WINDOW_SECONDS,
  KAISER_BETA,
} from "../src/worklet-source.js";

/**
 * The worklet's framing outside a browser: every hop, the last 128 ms of samples go through the
 * same `windowFeatures`, time-stamped at the window's centre. Lets the estimators be tested on
 * known signals in Node, apart from Chromium's audio path.
 */
export function offlineHops(samples: Float32Array, sampleRate: number): Hop[] {
  const size = Math.round(sampleRate * INTENSITY_WINDOW_SECONDS);
  const voicingSize = Math.round(sampleRate * EFFECTIVE_WINDOW_SECONDS);
  const hop = Math.round(sampleRate * HOP_SECONDS);
  const weights = kaiserWindow(size, KAISER_BETA);
  const hops: Hop[] = [];
  for (let end = size; end <= samples.length; end += hop) {
    const [intensityDb, voicing] = windowFeatures(
      samples.subarray(end - size, end),
      sampleRate,
      weights,
      voicingSize,
    );
    hops.push({ time: (end - size / 2) / sampleRate, intensityDb, voicing });
  }
  return hops;
}

/** The session's metrics for a recording whose prompts ended at `promptEnds` (seconds from its start). */
export function offlineMetrics(
  samples: Float32Array,
  sampleRate: number,
  promptEnds: number[],
): CaptureMetrics {
  const hops = offlineHops(samples, sampleRate);
  const voice = new VoiceActivityDetector();
  for (const hop of hops) voice.push(hop);
  voice.flush();
  return computeMetrics({
    startedAt: 0,
    latestHopAt: hops.at(-1)?.time ?? null,
    hops,
    segments: voice.segments,
    promptEnds,
  });
}
