import { EFFECTIVE_WINDOW_SECONDS } from "./worklet-source.js";

/** One 10 ms hop from the audio thread: window centre on the audio clock, intensity, voicing. */
export interface Hop {
  time: number;
  intensityDb: number;
  voicing: number;
}

/** A stretch of sound; `offset` is null while it is still going on. Seconds on the audio clock. */
export interface SpeechSegment {
  onset: number;
  offset: number | null;
}

/**
 * Energy voice-activity detection with a voicing check. A hop is loud when its intensity exceeds
 * both an absolute floor and the tracked noise floor by a margin; speech starts where a run of
 * loud hops starts, once that run holds enough voiced hops (so a click, a cough's noise or a
 * rustle, which are unvoiced, is never an onset, while an answer starting with an "s" is dated
 * from the "s"), and ends after a hangover of quiet ones (so a stop consonant or a short breath
 * does not split a word).
 */
export const VOICE_ACTIVITY = {
  /** Quieter than this is never speech (dB re full scale; conversational speech at a laptop microphone is roughly -40 to -15). */
  absoluteFloorDb: -55,
  /** Speech must exceed the tracked noise floor by this much. */
  aboveNoiseDb: 12,
  /** Consecutive loud hops that confirm an onset (50 ms)... */
  onsetHops: 5,
  /** ...of which at least this many are voiced (30 ms of voicing: every spoken answer has a vowel). */
  onsetVoicedHops: 3,
  /** A hop is voiced at this normalized autocorrelation or more (Praat's default voicing threshold). */
  voicingThreshold: 0.45,
  /** Quiet time that ends a segment. */
  hangoverSeconds: 0.3,
  /** Per-hop share by which the noise floor rises towards louder input (~10 s time constant); it falls at once. */
  noiseRise: 0.001,
} as const;

/**
 * The window is centred on its hop time: a sound starting at T first lifts the window whose
 * weighted part reaches T, i.e. roughly the hop centred half an effective window before T (the
 * Kaiser window's tails carry almost no weight); an ending sound last lifts the hop centred half
 * an effective window after it. Shifting by that much puts onsets and offsets at the sound's own
 * edges.
 */
const HALF_WINDOW = EFFECTIVE_WINDOW_SECONDS / 2;

export class VoiceActivityDetector {
  readonly segments: SpeechSegment[] = [];
  private noiseFloorDb: number | null = null;
  private loudRun = 0;
  private voicedInRun = 0;
  private runStart = 0;
  private lastLoud = 0;
  private speaking = false;

  push(hop: Hop): void {
    const loud = this.isLoud(hop.intensityDb);
    if (!this.speaking) {
      this.awaitOnset(hop, loud);
      return;
    }
    if (loud) {
      this.lastLoud = hop.time;
    } else if (hop.time - this.lastLoud >= VOICE_ACTIVITY.hangoverSeconds) {
      this.closeSegment();
    }
  }

  /** The end of the session: an open segment ends at its last loud hop. */
  flush(): void {
    if (this.speaking) this.closeSegment();
  }

  private isLoud(intensityDb: number): boolean {
    const floor = this.trackNoiseFloor(intensityDb);
    return intensityDb > Math.max(VOICE_ACTIVITY.absoluteFloorDb, floor + VOICE_ACTIVITY.aboveNoiseDb);
  }

  private trackNoiseFloor(intensityDb: number): number {
    const floor = this.noiseFloorDb;
    this.noiseFloorDb =
      floor === null || intensityDb < floor
        ? intensityDb
        : floor + VOICE_ACTIVITY.noiseRise * (intensityDb - floor);
    return this.noiseFloorDb;
  }

  private awaitOnset(hop: Hop, loud: boolean): void {
    if (!loud) {
      this.loudRun = 0;
      this.voicedInRun = 0;
      return;
    }
    if (this.loudRun === 0) this.runStart = hop.time;
    this.loudRun += 1;
    if (hop.voicing >= VOICE_ACTIVITY.voicingThreshold) this.voicedInRun += 1;
    if (this.loudRun >= VOICE_ACTIVITY.onsetHops && this.voicedInRun >= VOICE_ACTIVITY.onsetVoicedHops) {
      this.speaking = true;
      this.lastLoud = hop.time;
      this.segments.push({ onset: this.runStart + HALF_WINDOW, offset: null });
    }
  }

  private closeSegment(): void {
    const current = this.segments.at(-1);
    if (current) current.offset = Math.max(current.onset, this.lastLoud - HALF_WINDOW);
    this.speaking = false;
    this.loudRun = 0;
    this.voicedInRun = 0;
  }
}
