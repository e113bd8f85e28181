import {
  type DmseAnalysis,
  type DmseAnalyzeBody,
  type DmseHistory,
  postDmseAnalysis,
} from "./analyze-client.js";
import { CaptureError, microphoneError } from "./errors.js";
import { type CaptureMetrics, computeMetrics } from "./session-metrics.js";
import { type Hop, VoiceActivityDetector } from "./voice-activity.js";
import { PROCESSOR_NAME, workletSource } from "./worklet-source.js";

export interface CaptureOptions {
  /** The service's base URL, e.g. https://api.example.com. */
  baseUrl: string;
  /** A publishable key (`svc_pk_...`) whose allow-list holds this page's origin. */
  publishableKey: string;
}

/** What the caller adds at the end: numbers the browser does not measure, and context. */
export interface FinishOptions {
  psychomotorFidgetEpisodes?: number;
  sustainedAttentionPct?: number;
  history?: DmseHistory;
  sessionRef?: string;
}

export interface FinishResult {
  metrics: CaptureMetrics;
  analysis: DmseAnalysis;
}

export interface CaptureSession {
  /** Marks the end of a prompt: the next speech onset closes this turn's response latency. */
  promptEnded(): void;
  /** The numbers so far; no network. */
  metrics(): CaptureMetrics;
  /** Releases the microphone, posts the derived numbers, resolves the analysis. */
  finish(options?: FinishOptions): Promise<FinishResult>;
  /** Releases the microphone and sends nothing. */
  abort(): Promise<void>;
}

export interface Capture {
  /** Asks for the microphone and starts measuring. */
  start(): Promise<CaptureSession>;
}

/** Processing that would change intensity or timing is off; echo cancellation stays on so a prompt played by the page's speakers is not taken for the answer. */
const MICROPHONE_CONSTRAINTS: MediaTrackConstraints = {
  echoCancellation: true,
  noiseSuppression: false,
  autoGainControl: false,
  channelCount: 1,
};

/** Contract bounds of POST /v1/dmse/analyze. */
const MAX_LATENCY_SECONDS = 120;
const MAX_RATE_WPM = 600;
const MAX_SESSION_SECONDS = 14_400;

function clamp(value: number, max: number): number {
  return Math.min(max, Math.max(0, value));
}

function round(value: number, digits: number): number {
  const scale = 10 ** digits;
  return Math.round(value * scale) / scale;
}

function isHopMessage(data: unknown): data is [number, number, number] {
  return Array.isArray(data) && data.length === 3 && data.every((n) => typeof n === "number");
}

/** The audio graph: microphone -> feature worklet (-> silent output, which keeps it pulled). */
interface AudioGraph {
  context: AudioContext;
  stream: MediaStream;
  source: MediaStreamAudioSourceNode;
  worklet: AudioWorkletNode;
}

async function loadFeatureWorklet(context: AudioContext): Promise<AudioWorkletNode> {
  const url = URL.createObjectURL(new Blob([workletSource()], { type: "text/javascript" }));
  try {
    await context.audioWorklet.addModule(url);
  } finally {
    URL.revokeObjectURL(url);
  }
  return new AudioWorkletNode(context, PROCESSOR_NAME, { numberOfInputs: 1, numberOfOutputs: 1 });
}

async function openMicrophone(): Promise<MediaStream> {
  let stream: MediaStream;
  try {
    stream = await navigator.mediaDevices.getUserMedia({ audio: MICROPHONE_CONSTRAINTS, video: false });
  } catch (error) {
    throw microphoneError(error);
  }
  if (stream.getAudioTracks().length === 0) {
    throw new CaptureError("no_audio_input", "The microphone gave no audio track.");
  }
  return stream;
}

/**
 * The worklet is loaded before the microphone opens, so the first samples the microphone
 * delivers are analysed rather than lost while the module loads.
 */
async function openAudioGraph(): Promise<AudioGraph> {
  if (typeof AudioWorkletNode === "undefined" || !navigator.mediaDevices?.getUserMedia) {
    throw new CaptureError("unsupported", "This browser lacks getUserMedia or AudioWorklet.");
  }
  const context = new AudioContext();
  try {
    const worklet = await loadFeatureWorklet(context);
    const stream = await openMicrophone();
    const source = context.createMediaStreamSource(stream);
    source.connect(worklet);
    worklet.connect(context.destination);
    await context.resume();
    return { context, stream, source, worklet };
  } catch (error) {
    await context.close().catch(() => undefined);
    throw error;
  }
}

async function closeAudioGraph(graph: AudioGraph): Promise<void> {
  for (const track of graph.stream.getTracks()) track.stop();
  graph.worklet.port.postMessage("stop");
  graph.worklet.port.onmessage = null;
  graph.source.disconnect();
  graph.worklet.disconnect();
  await graph.context.close().catch(() => undefined);
}

type SessionState = "running" | "finished" | "aborted";

class LiveSession implements CaptureSession {
  private readonly hops: Hop[] = [];
  private readonly voice = new VoiceActivityDetector();
  private readonly promptEnds: number[] = [];
  private readonly startedAt: number;
  private state: SessionState = "running";

  constructor(
    private readonly graph: AudioGraph,
    private readonly options: CaptureOptions,
  ) {
    this.startedAt = graph.context.currentTime;
    graph.worklet.port.onmessage = (event: MessageEvent<unknown>) => this.receive(event.data);
  }

  promptEnded(): void {
    if (this.state !== "running") throw closed();
    this.promptEnds.push(this.graph.context.currentTime);
  }

  metrics(): CaptureMetrics {
    return computeMetrics({
      startedAt: this.startedAt,
      latestHopAt: this.hops.at(-1)?.time ?? null,
      hops: this.hops,
      segments: this.voice.segments,
      promptEnds: this.promptEnds,
    });
  }

  async finish(options: FinishOptions = {}): Promise<FinishResult> {
    if (this.state !== "running") throw closed();
    this.state = "finished";
    await closeAudioGraph(this.graph);
    this.voice.flush();
    const metrics = this.metrics();
    if (this.hops.length === 0)
      throw new CaptureError("no_audio_input", "The microphone delivered no audio.");
    if (metrics.responseLatencySeconds === null && metrics.speechRateWpm === null) {
      throw new CaptureError("session_too_short", "Not enough speech to measure latency or speech rate.");
    }
    const analysis = await postDmseAnalysis(
      this.options.baseUrl,
      this.options.publishableKey,
      analyzeBody(metrics, options),
    );
    return { metrics, analysis };
  }

  async abort(): Promise<void> {
    if (this.state !== "running") return;
    this.state = "aborted";
    await closeAudioGraph(this.graph);
  }

  private receive(data: unknown): void {
    if (this.state !== "running" || !isHopMessage(data)) return;
    const hop: Hop = { time: data[0], intensityDb: data[1], voicing: data[2] };
    this.hops.push(hop);
    this.voice.push(hop);
  }
}

function closed(): CaptureError {
  return new CaptureError("session_closed", "This session has already finished or been aborted.");
}

/** The request body: the measured numbers within the contract's bounds, plus the caller's. */
function analyzeBody(metrics: CaptureMetrics, options: FinishOptions): DmseAnalyzeBody {
  const body: DmseAnalyzeBody = { ...options };
  if (metrics.responseLatencySeconds !== null)
    body.responseLatencySeconds = round(clamp(metrics.responseLatencySeconds, MAX_LATENCY_SECONDS), 3);
  if (metrics.speechRateWpm !== null)
    body.speechRateWpm = round(clamp(metrics.speechRateWpm, MAX_RATE_WPM), 1);
  if (metrics.sessionDurationSeconds !== null)
    body.sessionDurationSeconds = round(clamp(metrics.sessionDurationSeconds, MAX_SESSION_SECONDS), 1);
  return body;
}

/** The library's entry point: `createCapture({ baseUrl, publishableKey }).start()`. */
export function createCapture(options: CaptureOptions): Capture {
  return {
    async start() {
      const graph = await openAudioGraph();
      return new LiveSession(graph, options);
    },
  };
}
