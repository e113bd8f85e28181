import { kaiserWindow, windowFeatures } from "./features.js";

/**
 * The analysis windows, after Praat's "Sound: To Intensity" for a 50 Hz pitch floor (the floor de
 * Jong & Wempe 2009 use): a Kaiser-20 window of 6.4 / 50 Hz = 128 ms, whose effective length is
 * 3.2 / 50 Hz = 64 ms. The voicing score uses the central 64 ms. One hop every 10 ms.
 */
export const INTENSITY_WINDOW_SECONDS = 0.128;
export const EFFECTIVE_WINDOW_SECONDS = 0.064;
export const KAISER_BETA = 20;
export const HOP_SECONDS = 0.01;
export const PROCESSOR_NAME = "svc-capture-features";

/**
 * The AudioWorklet module, inlined so the library stays one file (loaded from a Blob URL). The
 * processor keeps the last window of samples in a ring, and every hop posts
 * `[windowCentreSeconds, intensityDb, voicing]` on the audio clock (`currentFrame`). It writes
 * nothing to its output, and stops when the main thread posts any message.
 */
export function workletSource(): string {
  return `const kaiserWindow = ${kaiserWindow.toString()};
const windowFeatures = ${windowFeatures.toString()};
class CaptureFeatures extends AudioWorkletProcessor {
  constructor() {
    super();
    this.size = Math.round(sampleRate * ${INTENSITY_WINDOW_SECONDS});
    this.voicingSize = Math.round(sampleRate * ${EFFECTIVE_WINDOW_SECONDS});
    this.hop = Math.round(sampleRate * ${HOP_SECONDS});
    this.weights = kaiserWindow(this.size, ${KAISER_BETA});
    this.ring = new Float32Array(this.size);
    this.window = new Float32Array(this.size);
    this.write = 0;
    this.seen = 0;
    this.open = true;
    this.port.onmessage = () => { this.open = false; };
  }
  process(inputs) {
    const channel = inputs[0] && inputs[0][0];
    if (!channel) return this.open;
    for (let i = 0; i < channel.length; i++) {
      this.ring[this.write] = channel[i];
      this.write = (this.write + 1) % this.size;
      this.seen++;
      if (this.seen >= this.size && this.seen % this.hop === 0) {
        for (let k = 0; k < this.size; k++) this.window[k] = this.ring[(this.write + k) % this.size];
        const features = windowFeatures(this.window, sampleRate, this.weights, this.voicingSize);
        const centre = (currentFrame + i + 1 - this.size / 2) / sampleRate;
        this.port.postMessage([centre, features[0], features[1]]);
      }
    }
    return this.open;
  }
}
registerProcessor(${JSON.stringify(PROCESSOR_NAME)}, CaptureFeatures);
`;
}
