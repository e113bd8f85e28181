import { readFileSync } from "node:fs";
import type {
  BiomarkerAnalysisResponse,
  DmseAnalysisResponse,
  MedicationAnalysisResponse,
  OutcomeScoreResponse,
  RelapsePredictionResponse,
} from "../src/index.js";

/**
 * The typed analysis responses: what a test looping over `bodies` reads (a newer engine's answer
 * shares their envelope and the `object`, `model` and `intelligence` fields the loops check).
 */
export type AnalysisResponse =
  | BiomarkerAnalysisResponse
  | DmseAnalysisResponse
  | MedicationAnalysisResponse
  | OutcomeScoreResponse
  | RelapsePredictionResponse;

/**
 * A valid request body for each analysis endpoint (shared by the analysis tests): the five written
 * here, then any other analysis of docs/openapi.json with its request example.
 */

const assessments = (scores: number[], start = "2026-06-01") =>
  scores.map((score, i) => ({
    instrumentId: "phq9",
    instrumentName: "PHQ-9",
    score,
    maxScore: 27,
    createdAt: new Date(Date.parse(`${start}T09:00:00Z`) + i * 7 * 86_400_000).toISOString(),
  }));

const handBodies = {
  dmse: {
    path: "/v1/dmse/analyze",
    object: "dmse.analysis",
    body: { responseLatencySeconds: 2.6, speechRateWpm: 120, sessionDurationSeconds: 600 },
  },
  medication: {
    path: "/v1/medication/analyze",
    object: "medication.analysis",
    body: {
      prescriptions: [
        { id: "rx_1", medicationName: "Sertraline 50 mg", status: "active", prescribedAt: "2026-06-20" },
      ],
      assessments: assessments([20, 19, 19, 16, 14, 12, 10]),
    },
  },
  biomarker: {
    path: "/v1/biomarker/analyze",
    object: "biomarker.analysis",
    body: {
      labs: [
        {
          id: "lab_1",
          labName: "Reference Lab",
          observedAt: "2026-07-01",
          results: {
            biomarkers: [
              { name: "TSH", value: 7.2, unit: "mIU/L", flag: "high" },
              { name: "Sodium", value: 140, unit: "mmol/L", flag: "normal" },
            ],
          },
        },
      ],
    },
  },
  outcome: {
    path: "/v1/outcome/score",
    object: "outcome.score",
    body: { assessments: assessments([20, 17, 14, 11]), avgSleepHours: 7.5, dmseLatencyPctChange: -10 },
  },
  relapse: {
    path: "/v1/relapse/predict",
    object: "relapse.prediction",
    body: { assessments: assessments([8, 10, 14, 17]), avgSleepHours: 5, daysSinceLastVisit: 60 },
  },
} as const;

/** One analysis endpoint: its path, the `data.object` of its answer and a valid body. */
interface AnalysisBody {
  path: string;
  object: string;
  body: Record<string, unknown>;
}

type Schema = { $ref?: string; properties?: Record<string, Schema>; enum?: string[] };
interface Operation {
  tags?: string[];
  requestBody?: { content: { "application/json": { example?: Record<string, unknown> } } };
  responses: Record<string, { content?: { "application/json"?: { schema: Schema } } }>;
}
interface PublishedDocument {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema> };
}

/**
 * The analysis endpoints of docs/openapi.json (the POSTs tagged Analysis) without a body above,
 * keyed by the path's first word after /v1 ("/v1/sleep/review" is "sleep"): the operation's
 * request example, and the `object` its 200 answer's `data` declares.
 */
function documentedBodies(covered: readonly AnalysisBody[]): Record<string, AnalysisBody> {
  const document = JSON.parse(
    readFileSync(new URL("../../../docs/openapi.json", import.meta.url), "utf8"),
  ) as PublishedDocument;
  const resolve = (schema: Schema | undefined): Schema | undefined =>
    schema?.$ref ? document.components.schemas[schema.$ref.split("/").at(-1) as string] : schema;
  const paths = new Set(covered.map((b) => b.path));
  const found: Record<string, AnalysisBody> = {};
  for (const [path, operations] of Object.entries(document.paths)) {
    const post = operations.post;
    if (!post?.tags?.includes("Analysis") || paths.has(path)) continue;
    const envelope = resolve(post.responses["200"]?.content?.["application/json"]?.schema);
    const object = resolve(envelope?.properties?.data)?.properties?.object?.enum?.[0];
    const body = post.requestBody?.content["application/json"].example;
    if (object === undefined || body === undefined)
      throw new Error(`${path}: no request example or no data.object in its 200 answer`);
    found[path.split("/")[2] ?? path] = {
      path,
      object,
      body,
    };
  }
  return found;
}

export const bodies: typeof handBodies & Record<string, AnalysisBody> = {
  ...handBodies,
  ...documentedBodies(Object.values(handBodies)),
};
