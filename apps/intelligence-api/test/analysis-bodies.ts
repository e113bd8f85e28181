import type {
  BiomarkerAnalysisResponse,
  DmseAnalysisResponse,
  MedicationAnalysisResponse,
  OutcomeScoreResponse,
  RelapsePredictionResponse,
} from "../src/index.js";

/** Any of the five analysis responses: what a test looping over `bodies` reads. */
export type AnalysisResponse =
  | BiomarkerAnalysisResponse
  | DmseAnalysisResponse
  | MedicationAnalysisResponse
  | OutcomeScoreResponse
  | RelapsePredictionResponse;

/** A valid request body for each of the five analysis endpoints (shared by the analysis tests). */

const assessments = (scores: number[], start = "2026-06-01") =>
  scores.map((score, i) => ({
    instrumentId: "phq9",
    instrumentName: "PHQ-9",
    score,
    maxScore: 27,
    createdAt: new Date(Date.parse(`${start}T09:00:00Z`) + i * 7 * 86_400_000).toISOString(),
  }));

export const bodies = {
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
