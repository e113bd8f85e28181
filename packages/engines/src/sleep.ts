/**
 * Sleep duration review: reads the average nightly sleep against the adult recommendation. A
 * small engine; sources in docs/engines/sleep.md. Deterministic, no I/O.
 */
import { assertNoProblems, engineParams, mergeNumericParams } from "./params.js";
import type { EngineOptions, EngineRun } from "./types.js";

export interface SleepInput {
  /** Average nightly sleep, hours (0-24). */
  avgSleepHours?: number;
}

export type SleepStatus = "insufficient_data" | "short" | "recommended" | "long";

export interface SleepData {
  generatedAt: string;
  status: SleepStatus;
  summaryLine: string;
  disclaimer: string;
}

export interface SleepParams {
  recommendedHours: number;
  longHours: number;
}

export const SLEEP_MODEL_KEY = "sleep_duration";

export const SLEEP_DEFAULT_PARAMS: Readonly<SleepParams> = Object.freeze({
  recommendedHours: 7,
  longHours: 9,
});

/** Validates a calibrated parameter set and merges it over the defaults; throws naming every problem. */
export function resolveSleepParams(overrides: unknown): SleepParams {
  const p = mergeNumericParams("sleep", SLEEP_DEFAULT_PARAMS, overrides);
  assertNoProblems(
    "sleep",
    p.longHours > p.recommendedHours ? [] : ["longHours must exceed recommendedHours"],
  );
  return p;
}

export const SLEEP_DISCLAIMER =
  "Decision support only: a self-reported average against a population recommendation, not a sleep assessment.";

const LINES: Record<SleepStatus, string> = {
  insufficient_data: "No sleep duration supplied: sleep is not evaluated.",
  short: "Average sleep is below the adult recommendation.",
  recommended: "Average sleep is within the adult recommendation.",
  long: "Average sleep is above the usual adult range.",
};

export function reviewSleep(input: SleepInput, options: EngineOptions<SleepParams>): EngineRun<SleepData> {
  const { params, model } = engineParams(SLEEP_MODEL_KEY, SLEEP_DEFAULT_PARAMS, options);
  const hours = input.avgSleepHours;
  const status: SleepStatus =
    hours === undefined
      ? "insufficient_data"
      : hours < params.recommendedHours
        ? "short"
        : hours > params.longHours
          ? "long"
          : "recommended";
  return {
    data: {
      generatedAt: options.now.toISOString(),
      status,
      summaryLine: LINES[status],
      disclaimer: SLEEP_DISCLAIMER,
    },
    model,
    facts: {
      summary: {
        status,
        headline: `Sleep duration: ${LINES[status]}`,
        flagged: status === "short" ? [LINES.short] : [],
        requiresClinicianReview: false,
      },
      confidence: {
        level: hours === undefined ? "low" : "moderate",
        score: hours === undefined ? 0 : 0.5,
        reasons: ["One self-reported average; no nightly record."],
      },
      inputs: [
        {
          name: "avgSleepHours",
          value: hours ?? null,
          observedAt: null,
          supplied: hours !== undefined,
          contributed: hours !== undefined,
        },
      ],
      current: { score: null, status },
      polarity: { kind: "status", order: ["recommended", "long", "short", "insufficient_data"] },
      interpretationScale: { ...LINES },
    },
  };
}
