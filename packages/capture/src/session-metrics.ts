import { countNucleiInSpan, nucleusThresholdDb, type TimeSpan } from "./syllable-nuclei.js";
import type { Hop, SpeechSegment } from "./voice-activity.js";

/**
 * From syllables to words: about 1.5 syllables per word in adults' English speech, the
 * conversion factor the stuttering literature settled on for adults (as summarized by Yaruss,
 * 2000, "Converting between word and syllable counts in children's conversational speech
 * samples", Journal of Fluency Disorders 25(4), 305-316). Its error for a given speaker and text
 * is in docs/capture.md.
 */
export const SYLLABLES_PER_WORD = 1.5;
/** Within one response, a silence shorter than this is a pause in speaking and counts as speaking time. */
export const MAX_PAUSE_SECONDS = 2;
/** Less speaking time than this gives no speech rate (too few syllables for a stable estimate). */
export const MIN_SPEAKING_SECONDS = 3;
/** Room around a speaking span so its first and last intensity peaks have their dips. */
const SPAN_MARGIN_SECONDS = 0.1;

/** One prompt/response turn. Times in seconds since the session started. */
export interface TurnMetrics {
  promptEndedAtSeconds: number;
  /** The first speech after the prompt ended; null while none yet. */
  speechOnsetAtSeconds: number | null;
  /** Onset minus the prompt's end; null while no speech yet. */
  responseLatencySeconds: number | null;
  /** Speaking time of the response (pauses under 2 s included). */
  speakingSeconds: number;
}

/** What `session.metrics()` answers; null where not measurable yet. */
export interface CaptureMetrics {
  /** Mean response latency over the turns with a response. */
  responseLatencySeconds: number | null;
  /** Words per minute of speaking time over every response. */
  speechRateWpm: number | null;
  sessionDurationSeconds: number | null;
  turns: TurnMetrics[];
}

/** What the session has recorded so far, all on the audio clock. */
export interface SessionTimeline {
  startedAt: number;
  /** Audio-clock time of the latest hop (null before any). */
  latestHopAt: number | null;
  hops: readonly Hop[];
  segments: readonly SpeechSegment[];
  promptEnds: readonly number[];
}

/** Speech segments as closed spans, merging across pauses shorter than MAX_PAUSE_SECONDS. */
function speakingSpans(segments: readonly SpeechSegment[], now: number): TimeSpan[] {
  const spans: TimeSpan[] = [];
  for (const segment of segments) {
    const end = segment.offset ?? now;
    const last = spans.at(-1);
    if (last && segment.onset - last.end < MAX_PAUSE_SECONDS) last.end = Math.max(last.end, end);
    else spans.push({ start: segment.onset, end });
  }
  return spans;
}

/** The response to the prompt that ended at `promptEnd`: speech starting before the next prompt ended. */
function responseSegments(
  timeline: SessionTimeline,
  promptEnd: number,
  nextPromptEnd: number,
): SpeechSegment[] {
  return timeline.segments.filter((s) => s.onset >= promptEnd && s.onset < nextPromptEnd);
}

interface MeasuredTurn {
  turn: TurnMetrics;
  spans: TimeSpan[];
}

function measureTurn(timeline: SessionTimeline, index: number, now: number): MeasuredTurn {
  const promptEnd = timeline.promptEnds[index] ?? now;
  const next = timeline.promptEnds[index + 1] ?? Number.POSITIVE_INFINITY;
  const response = responseSegments(timeline, promptEnd, next);
  const spans = speakingSpans(response, now);
  const onset = response[0]?.onset ?? null;
  return {
    turn: {
      promptEndedAtSeconds: promptEnd - timeline.startedAt,
      speechOnsetAtSeconds: onset === null ? null : onset - timeline.startedAt,
      responseLatencySeconds: onset === null ? null : onset - promptEnd,
      speakingSeconds: spans.reduce((sum, s) => sum + (s.end - s.start), 0),
    },
    spans,
  };
}

function meanLatency(turns: readonly TurnMetrics[]): number | null {
  const latencies = turns.flatMap((t) =>
    t.responseLatencySeconds === null ? [] : [t.responseLatencySeconds],
  );
  return latencies.length === 0 ? null : latencies.reduce((a, b) => a + b, 0) / latencies.length;
}

/** Syllable nuclei over every response's speaking spans, as words per minute of speaking time. */
function speechRate(timeline: SessionTimeline, measured: readonly MeasuredTurn[]): number | null {
  const speakingSeconds = measured.reduce((sum, m) => sum + m.turn.speakingSeconds, 0);
  if (speakingSeconds < MIN_SPEAKING_SECONDS) return null;
  const threshold = nucleusThresholdDb(timeline.hops);
  let syllables = 0;
  for (const { spans } of measured) {
    for (const span of spans) {
      const padded = { start: span.start - SPAN_MARGIN_SECONDS, end: span.end + SPAN_MARGIN_SECONDS };
      syllables += countNucleiInSpan(timeline.hops, padded, threshold);
    }
  }
  return syllables / SYLLABLES_PER_WORD / (speakingSeconds / 60);
}

/** The session's numbers so far (pure: no audio, no network). */
export function computeMetrics(timeline: SessionTimeline): CaptureMetrics {
  const now = timeline.latestHopAt;
  if (now === null) {
    return { responseLatencySeconds: null, speechRateWpm: null, sessionDurationSeconds: null, turns: [] };
  }
  const measured = timeline.promptEnds.map((_, index) => measureTurn(timeline, index, now));
  const turns = measured.map((m) => m.turn);
  return {
    responseLatencySeconds: meanLatency(turns),
    speechRateWpm: speechRate(timeline, measured),
    sessionDurationSeconds: Math.max(0, now - timeline.startedAt),
    turns,
  };
}
