import { CaptureError } from "./errors.js";

/** `history` of POST /v1/dmse/analyze: prior values per signal (baseline and trend). */
export interface DmseHistory {
  psychomotor?: number[];
  response_latency?: number[];
  speech_rate?: number[];
  sustained_attention?: number[];
}

/** The body this library sends: derived numbers only. */
export interface DmseAnalyzeBody {
  responseLatencySeconds?: number;
  speechRateWpm?: number;
  sessionDurationSeconds?: number;
  psychomotorFidgetEpisodes?: number;
  sustainedAttentionPct?: number;
  history?: DmseHistory;
  sessionRef?: string;
}

/** One signal of the analysis (the contract's "Signal object"). */
export interface DmseSignal {
  signalKey: "response_latency" | "psychomotor" | "speech_rate" | "sustained_attention";
  label: string;
  present: boolean;
  metricValue: number;
  metricUnit: string;
  interpretation: string;
  referenceRange: string;
  detail: string;
  confidence: string;
  mseLine: string;
  trendDir?: "up" | "down" | "stable";
  baseline?: { mean: number; sd: number; n: number };
}

/** `data` of the 200 answer: the contract's dmse.analysis. */
export interface DmseAnalysis {
  object: "dmse.analysis";
  sessionRef?: string;
  generatedAt: string;
  summary: { status: string; headline: string; flagged: string[]; requiresClinicianReview: boolean };
  signalsPresent: number;
  overallConfidence: string;
  signals: DmseSignal[];
  mseNarrative: string[];
  interpretationScale: Record<string, string>;
  disclaimer: string;
  intelligence: Record<string, unknown>;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null;
}

function text(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}

async function readJson(response: Response): Promise<unknown> {
  try {
    return await response.json();
  } catch {
    return undefined;
  }
}

function serviceError(response: Response, body: unknown): CaptureError {
  const envelope = isRecord(body) ? body : {};
  const error = isRecord(envelope.error) ? envelope.error : {};
  const requestId = text(envelope.requestId) ?? response.headers.get("x-request-id") ?? undefined;
  const serviceCode = text(error.code);
  const message = text(error.message) ?? `The service answered ${response.status}.`;
  if (response.status === 429) {
    const retryAfter = Number(response.headers.get("retry-after"));
    return new CaptureError("rate_limited", message, {
      status: 429,
      serviceCode,
      requestId,
      retryAfterSeconds: Number.isFinite(retryAfter) ? retryAfter : undefined,
    });
  }
  return new CaptureError("service_error", message, { status: response.status, serviceCode, requestId });
}

function isAnalysis(body: unknown): body is { data: DmseAnalysis } {
  return isRecord(body) && isRecord(body.data) && body.data.object === "dmse.analysis";
}

/** POST /v1/dmse/analyze with the publishable key; the analysis, or a CaptureError. */
export async function postDmseAnalysis(
  baseUrl: string,
  publishableKey: string,
  body: DmseAnalyzeBody,
): Promise<DmseAnalysis> {
  let response: Response;
  try {
    response = await fetch(`${baseUrl.replace(/\/+$/, "")}/v1/dmse/analyze`, {
      method: "POST",
      headers: { authorization: `Bearer ${publishableKey}`, "content-type": "application/json" },
      body: JSON.stringify(body),
      credentials: "omit",
      referrerPolicy: "no-referrer",
    });
  } catch (error) {
    throw new CaptureError(
      "network_error",
      "The analysis request got no readable answer (offline, or this origin is not allowed to call the service).",
      { cause: error },
    );
  }
  const parsed = await readJson(response);
  if (!response.ok) throw serviceError(response, parsed);
  if (!isAnalysis(parsed)) {
    throw new CaptureError("service_error", "The service's answer was not a dmse.analysis.", {
      status: response.status,
      requestId: response.headers.get("x-request-id") ?? undefined,
    });
  }
  return parsed.data;
}
