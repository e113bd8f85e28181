import { describe, expect, it } from "vitest";
import { kaiserWindow, windowFeatures } from "../src/features.js";
import { SYLLABLES_PER_WORD } from "../src/session-metrics.js";
import { countNucleiInSpan, nucleusThresholdDb } from "../src/syllable-nuclei.js";
import { type Hop, VoiceActivityDetector } from "../src/voice-activity.js";
import { offlineHops, offlineMetrics } from "./offline-pipeline.js";

/**
 * The estimators on signals whose answer is known by construction, in Node (no browser): the same
 * functions the AudioWorklet and the session run. The browser test covers Chromium's audio path.
 */

const RATE = 16_000;

/** A deterministic white-noise source (xorshift32), so noise tests never flake. */
function noise(seed: number): () => number {
  let state = seed >>> 0 || 1;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return ((state >>> 0) / 0xffffffff) * 2 - 1;
  };
}

/** A voiced vowel-like sound: 120 Hz with four harmonics of falling amplitude. */
function voiced(t: number): number {
  let sum = 0;
  for (let h = 1; h <= 4; h++) sum += Math.sin(2 * Math.PI * 120 * h * t) / h;
  return sum / 2;
}

interface Piece {
  seconds: number;
  /** Peak amplitude (0 = silence) and the shape: a raised-cosine "syllable" or a flat tone. */
  amplitude: number;
  shape?: "syllable" | "flat";
  /** A syllable's envelope rises from this amplitude (its neighbours' level) rather than from 0. */
  floor?: number;
}

/** Concatenates pieces into one recording. */
function recording(pieces: Piece[]): Float32Array {
  const total = Math.round(pieces.reduce((s, p) => s + p.seconds, 0) * RATE);
  const out = new Float32Array(total);
  let at = 0;
  for (const piece of pieces) {
    const n = Math.round(piece.seconds * RATE);
    for (let i = 0; i < n; i++) {
      const floor = piece.floor ?? 0;
      const rise = 0.5 - 0.5 * Math.cos((2 * Math.PI * i) / n);
      const level = piece.shape === "syllable" ? floor + (piece.amplitude - floor) * rise : piece.amplitude;
      out[at + i] = level * voiced((at + i) / RATE);
    }
    at += n;
  }
  return out;
}

/** `count` syllables of `syllableSeconds`, each followed by `gapSeconds` at `gapAmplitude`. */
function syllables(count: number, syllableSeconds: number, gapSeconds: number, gapAmplitude = 0): Piece[] {
  return Array.from({ length: count }, (): Piece[] => [
    { seconds: syllableSeconds, amplitude: 0.3, shape: "syllable", floor: gapAmplitude },
    { seconds: gapSeconds, amplitude: gapAmplitude, shape: "flat" },
  ]).flat();
}

describe("kaiserWindow", () => {
  it("is symmetric, 1 at the centre and vanishing at the edges (Kaiser-20)", () => {
    const w = kaiserWindow(2048, 20);
    expect(w[1023]).toBeCloseTo(w[1024] ?? 0, 12);
    expect(w[0]).toBeCloseTo(w[2047] ?? 0, 12);
    expect(w[1024]).toBeGreaterThan(0.999);
    expect(w[0]).toBeLessThan(1e-6);
    // Half its weight lies in the central half of the window: the effective length is half the physical.
    const total = w.reduce((a, b) => a + b, 0);
    const central = w.slice(512, 1536).reduce((a, b) => a + b, 0);
    expect(central / total).toBeGreaterThan(0.95);
  });
});

describe("windowFeatures", () => {
  const size = Math.round(RATE * 0.128);
  const weights = kaiserWindow(size, 20);
  const voicingSize = Math.round(RATE * 0.064);

  it("gives a sine's power in dB re full scale and calls it voiced", () => {
    const sine = Float32Array.from(
      { length: size },
      (_, i) => 0.1 * Math.sin((2 * Math.PI * 200 * i) / RATE),
    );
    const [intensityDb, voicing] = windowFeatures(sine, RATE, weights, voicingSize);
    expect(intensityDb).toBeCloseTo(20 * Math.log10(0.1 / Math.SQRT2), 1);
    expect(voicing).toBeGreaterThan(0.9);
  });

  it("ignores a DC offset (the window's mean is subtracted, as Praat does)", () => {
    const sine = Float32Array.from(
      { length: size },
      (_, i) => 0.1 * Math.sin((2 * Math.PI * 200 * i) / RATE),
    );
    const shifted = sine.map((x) => x + 0.4);
    expect(windowFeatures(shifted, RATE, weights, voicingSize)[0]).toBeCloseTo(
      windowFeatures(sine, RATE, weights, voicingSize)[0],
      1,
    );
  });

  it("calls white noise unvoiced and silence silent", () => {
    const next = noise(7);
    const hiss = Float32Array.from({ length: size }, () => 0.1 * next());
    expect(windowFeatures(hiss, RATE, weights, voicingSize)[1]).toBeLessThan(0.25);
    const [silentDb, silentVoicing] = windowFeatures(new Float32Array(size), RATE, weights, voicingSize);
    expect(silentDb).toBeLessThan(-90);
    expect(silentVoicing).toBe(0);
  });
});

describe("voice activity", () => {
  function segmentsOf(samples: Float32Array) {
    const voice = new VoiceActivityDetector();
    for (const hop of offlineHops(samples, RATE)) voice.push(hop);
    voice.flush();
    return voice.segments;
  }

  it("puts the onset and offset of a sound at its edges (within 20 ms)", () => {
    const segments = segmentsOf(
      recording([
        { seconds: 1, amplitude: 0 },
        { seconds: 2, amplitude: 0.2 },
        { seconds: 1, amplitude: 0 },
      ]),
    );
    expect(segments).toHaveLength(1);
    expect(segments[0]?.onset).toBeCloseTo(1, 1);
    expect(Math.abs((segments[0]?.onset ?? 0) - 1)).toBeLessThanOrEqual(0.02);
    expect(Math.abs((segments[0]?.offset ?? 0) - 3)).toBeLessThanOrEqual(0.02);
  });

  it("does not take unvoiced sound (a loud click, a 300 ms rustle) for speech", () => {
    const next = noise(3);
    const samples = new Float32Array(RATE * 3);
    for (let i = 0; i < 0.005 * RATE; i++) samples[RATE + i] = 0.9 * next();
    for (let i = 0; i < 0.3 * RATE; i++) samples[2 * RATE + i] = 0.2 * next();
    expect(segmentsOf(samples)).toEqual([]);
  });

  it("keeps a 200 ms pause inside one segment and splits at a 600 ms one", () => {
    const tone = { seconds: 0.5, amplitude: 0.2 };
    const segments = segmentsOf(
      recording([
        { seconds: 0.5, amplitude: 0 },
        tone,
        { seconds: 0.2, amplitude: 0 },
        tone,
        { seconds: 0.6, amplitude: 0 },
        tone,
        { seconds: 0.5, amplitude: 0 },
      ]),
    );
    expect(segments).toHaveLength(2);
  });
});

/** Hops along straight lines through (time in hops, dB) corners, voiced throughout. */
function contour(corners: [number, number][]): Hop[] {
  const hops: Hop[] = [];
  for (let k = 0; k + 1 < corners.length; k++) {
    const [fromHop, fromDb] = corners[k] as [number, number];
    const [toHop, toDb] = corners[k + 1] as [number, number];
    for (let i = fromHop; i < toHop; i++) {
      hops.push({
        time: i / 100,
        intensityDb: fromDb + ((toDb - fromDb) * (i - fromHop)) / (toHop - fromHop),
        voicing: 0.9,
      });
    }
  }
  return hops;
}

describe("the dip-peak-dip rule", () => {
  const count = (hops: Hop[]) => countNucleiInSpan(hops, { start: 0, end: 10 }, -40);

  it("counts a peak only when it rises more than 2 dB from the dip before it and falls more than 2 dB after", () => {
    // Syllable at -10 dB, dip to -13, a bump that rises only 1.5 dB (to -11.5), dip to -14, syllable at -10.
    const hops = contour([
      [0, -50],
      [20, -10],
      [30, -13],
      [40, -11.5],
      [50, -14],
      [60, -10],
      [80, -50],
      [81, -50],
    ]);
    expect(count(hops)).toBe(2);
  });

  it("counts one nucleus for a syllable with a shoulder (dips under 2 dB inside it)", () => {
    const hops = contour([
      [0, -50],
      [15, -12],
      [20, -13],
      [30, -10],
      [35, -11],
      [40, -10.5],
      [60, -50],
      [61, -50],
    ]);
    expect(count(hops)).toBe(1);
  });

  it("counts peaks separated by dips of more than 2 dB on both sides", () => {
    const hops = contour([
      [0, -50],
      [10, -10],
      [20, -12.5],
      [30, -10],
      [40, -12.5],
      [50, -10],
      [70, -50],
      [71, -50],
    ]);
    expect(count(hops)).toBe(3);
  });
});

describe("syllable nuclei", () => {
  function nuclei(samples: Float32Array): number {
    const hops = offlineHops(samples, RATE);
    return countNucleiInSpan(hops, { start: 0, end: samples.length / RATE }, nucleusThresholdDb(hops));
  }

  it.each([5, 12, 20])("counts %i separated voiced syllables exactly", (count) => {
    const samples = recording([
      { seconds: 0.5, amplitude: 0 },
      ...syllables(count, 0.18, 0.07),
      { seconds: 0.5, amplitude: 0 },
    ]);
    expect(nuclei(samples)).toBe(count);
  });

  it("counts syllables joined by quieter voiced stretches (the dip, not silence, separates them)", () => {
    const samples = recording([
      { seconds: 0.5, amplitude: 0 },
      ...syllables(10, 0.2, 0.06, 0.05),
      { seconds: 0.5, amplitude: 0 },
    ]);
    expect(nuclei(samples)).toBe(10);
  });

  it("does not count unvoiced bursts (noise) as nuclei", () => {
    const next = noise(11);
    const samples = new Float32Array(RATE * 3);
    for (let burst = 0; burst < 8; burst++) {
      const from = Math.round((0.4 + burst * 0.3) * RATE);
      for (let i = 0; i < 0.15 * RATE; i++)
        samples[from + i] = 0.3 * Math.sin((Math.PI * i) / (0.15 * RATE)) * next();
    }
    expect(nuclei(samples)).toBe(0);
  });
});

describe("session metrics from a recording", () => {
  it("measures latency per turn from each prompt's end, and the rate over the answers' speaking time", () => {
    // Turn 1: prompt ends at 0.5 s, answer starts at 1.3 s (0.8 s). Turn 2: prompt ends at 5.0 s, answer at 6.2 s (1.2 s).
    const samples = recording([
      { seconds: 1.3, amplitude: 0 },
      ...syllables(12, 0.18, 0.07), // 3.0 s
      { seconds: 1.9, amplitude: 0 },
      ...syllables(12, 0.18, 0.07),
      { seconds: 1, amplitude: 0 },
    ]);
    const metrics = offlineMetrics(samples, RATE, [0.5, 5.0]);
    // Within 30 ms: a raised-cosine onset is all but silent in its first milliseconds.
    const latencies = metrics.turns.map((t) => t.responseLatencySeconds ?? Number.NaN);
    expect(Math.abs((latencies[0] ?? 0) - 0.8)).toBeLessThanOrEqual(0.03);
    expect(Math.abs((latencies[1] ?? 0) - 1.2)).toBeLessThanOrEqual(0.03);
    expect(metrics.responseLatencySeconds).toBeCloseTo(((latencies[0] ?? 0) + (latencies[1] ?? 0)) / 2, 9);
    // 24 syllables; each answer sounds for 2.93 s (to its last syllable's end, not the gap after),
    // less the near-silent first and last milliseconds of the raised cosines.
    const speaking = metrics.turns.reduce((s, t) => s + t.speakingSeconds, 0);
    expect(speaking).toBeGreaterThan(5.7);
    expect(speaking).toBeLessThanOrEqual(5.86);
    expect(metrics.speechRateWpm).toBeCloseTo(24 / SYLLABLES_PER_WORD / (speaking / 60), 6);
  });

  it("does not take speech already going on at the prompt's end for the answer", () => {
    const samples = recording([
      { seconds: 0.5, amplitude: 0 },
      { seconds: 1.5, amplitude: 0.2 }, // still speaking when the prompt is marked ended at 1.0 s
      { seconds: 1.0, amplitude: 0 },
      { seconds: 1.0, amplitude: 0.2 }, // the answer: 2.0 s after the mark
      { seconds: 0.5, amplitude: 0 },
    ]);
    const metrics = offlineMetrics(samples, RATE, [1.0]);
    expect(Math.abs((metrics.responseLatencySeconds ?? 0) - 2.0)).toBeLessThanOrEqual(0.02);
  });

  it("gives no rate under 3 s of speaking and no latency for a turn without an answer", () => {
    const samples = recording([
      { seconds: 0.5, amplitude: 0 },
      ...syllables(6, 0.18, 0.07), // 1.5 s
      { seconds: 1, amplitude: 0 },
    ]);
    const metrics = offlineMetrics(samples, RATE, [0.2, 2.5]);
    expect(metrics.speechRateWpm).toBeNull();
    expect(metrics.turns[1]?.responseLatencySeconds).toBeNull();
    expect(metrics.responseLatencySeconds).toBeCloseTo(0.3, 1);
  });
});
