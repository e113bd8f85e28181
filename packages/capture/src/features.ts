/**
 * What the audio thread computes for one analysis window, and the window's weights.
 *
 * Intensity follows Praat's "Sound: To Intensity" with the 50 Hz pitch floor de Jong & Wempe
 * (2009) use: a Kaiser-20 ("Gaussian-like", sidelobes below -190 dB) window whose physical length
 * is 6.4 / pitch floor = 128 ms and whose effective length is half that (64 ms), applied after
 * the window's mean is subtracted; the weighted mean power is given in dB re full scale. The
 * voicing score is the highest normalized autocorrelation over the lags of a 60-400 Hz
 * fundamental, on the central 64 ms decimated to about 8 kHz. These two numbers per 10 ms hop are
 * all that leaves the audio thread; the samples never do.
 *
 * Both functions are self-contained on purpose: their source text is copied into the AudioWorklet
 * (worklet-source.ts), so neither may refer to anything outside its own body (not even a module
 * constant).
 */

/** Kaiser window weights of `size` points with shape `beta` (I0 by its power series). */
export function kaiserWindow(size: number, beta: number): Float64Array {
  const besselI0 = (x: number): number => {
    let sum = 1;
    let term = 1;
    for (let k = 1; k < 64; k++) {
      term *= (x / (2 * k)) ** 2;
      sum += term;
      if (term < sum * 1e-16) break;
    }
    return sum;
  };
  const weights = new Float64Array(size);
  const peak = besselI0(beta);
  for (let n = 0; n < size; n++) {
    const r = (2 * (n + 0.5)) / size - 1;
    weights[n] = besselI0(beta * Math.sqrt(Math.max(0, 1 - r * r))) / peak;
  }
  return weights;
}

/**
 * `[intensityDb, voicing]` of one window of samples (as long as `weights`); `voicingSize` samples
 * around its centre are used for the voicing score.
 */
export function windowFeatures(
  samples: Float32Array,
  sampleRate: number,
  weights: Float64Array,
  voicingSize: number,
): [number, number] {
  const size = samples.length;
  let mean = 0;
  for (let i = 0; i < size; i++) mean += samples[i] ?? 0;
  mean /= size;
  let weightedPower = 0;
  let weightSum = 0;
  for (let i = 0; i < size; i++) {
    const weight = weights[i] ?? 0;
    const sample = (samples[i] ?? 0) - mean;
    weightedPower += weight * sample * sample;
    weightSum += weight;
  }
  const intensityDb = 10 * Math.log10(weightedPower / weightSum + 1e-10);
  // Near-silence cannot be voiced; skip the autocorrelation to spare the audio thread.
  if (intensityDb < -70) return [intensityDb, 0];

  // Box-average decimation to ~8 kHz: enough bandwidth for a 60-400 Hz fundamental, and cheap.
  const first = Math.max(0, Math.floor((size - voicingSize) / 2));
  const factor = Math.max(1, Math.round(sampleRate / 8000));
  const rate = sampleRate / factor;
  const length = Math.floor(Math.min(voicingSize, size - first) / factor);
  const reduced = new Float32Array(length);
  let reducedMean = 0;
  for (let j = 0; j < length; j++) {
    let sum = 0;
    for (let k = 0; k < factor; k++) sum += samples[first + j * factor + k] ?? 0;
    reduced[j] = sum / factor;
    reducedMean += sum / factor;
  }
  reducedMean /= length;
  for (let j = 0; j < length; j++) reduced[j] = (reduced[j] ?? 0) - reducedMean;

  const shortestLag = Math.floor(rate / 400);
  const longestLag = Math.min(Math.ceil(rate / 60), Math.floor(length / 2));
  let voicing = 0;
  for (let lag = shortestLag; lag <= longestLag; lag++) {
    let cross = 0;
    let head = 0;
    let tail = 0;
    for (let j = 0; j + lag < length; j++) {
      const a = reduced[j] ?? 0;
      const b = reduced[j + lag] ?? 0;
      cross += a * b;
      head += a * a;
      tail += b * b;
    }
    if (head > 0 && tail > 0) voicing = Math.max(voicing, cross / Math.sqrt(head * tail));
  }
  return [intensityDb, voicing];
}
