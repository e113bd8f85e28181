/**
 * What the audio thread computes for one analysis window: its intensity (Hann-weighted mean power,
 * dB relative to full scale) and a voicing score (the highest normalized autocorrelation over the
 * lags of a 60-400 Hz fundamental, on a copy decimated to about 8 kHz). These two numbers per
 * 10 ms hop are all that leaves the audio thread; the samples never do.
 *
 * Self-contained on purpose: its source text is copied into the AudioWorklet (worklet-source.ts),
 * so it must not refer to anything outside its own body (not even a module constant).
 */
export function windowFeatures(samples: Float32Array, sampleRate: number): [number, number] {
  const size = samples.length;
  let weightedPower = 0;
  let weightSum = 0;
  for (let i = 0; i < size; i++) {
    const weight = 0.5 - 0.5 * Math.cos((2 * Math.PI * (i + 0.5)) / size);
    const sample = samples[i] ?? 0;
    weightedPower += weight * sample * sample;
    weightSum += weight;
  }
  const intensityDb = 10 * Math.log10(weightedPower / weightSum + 1e-10);
  // Near-silence cannot be voiced; skip the autocorrelation to spare the audio thread.
  if (intensityDb < -70) return [intensityDb, 0];

  // Box-average decimation to ~8 kHz: enough bandwidth for a 60-400 Hz fundamental, and cheap.
  const factor = Math.max(1, Math.round(sampleRate / 8000));
  const rate = sampleRate / factor;
  const length = Math.floor(size / factor);
  const reduced = new Float32Array(length);
  let mean = 0;
  for (let j = 0; j < length; j++) {
    let sum = 0;
    for (let k = 0; k < factor; k++) sum += samples[j * factor + k] ?? 0;
    reduced[j] = sum / factor;
    mean += sum / factor;
  }
  mean /= length;
  for (let j = 0; j < length; j++) reduced[j] = (reduced[j] ?? 0) - mean;

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
