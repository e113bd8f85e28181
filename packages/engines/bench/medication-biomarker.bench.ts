/**
 * Micro-benchmark of the medication and biomarker engines (vitest bench). Run:
 *   pnpm exec vitest bench --run packages/engines/bench/medication-biomarker.bench.ts
 * Inputs are built once, deterministically; only the engine call is timed.
 */
import { bench, describe } from "vitest";
import { analyzeBiomarkers } from "../src/biomarker.js";
import { BIOMARKER_MAP } from "../src/biomarker-map.js";
import { analyzeMedication } from "../src/medication.js";
import type { Assessment, LabPanel, Prescription } from "../src/types.js";

const NOW = new Date("2026-08-01T00:00:00Z");
const START = Date.parse("2025-01-01T09:00:00Z");
const HOUR = 3_600_000;

function assessments(count: number): Assessment[] {
  return Array.from({ length: count }, (_, i) => ({
    instrumentId: i % 5 === 0 ? "gad7" : "phq9",
    instrumentName: i % 5 === 0 ? "GAD-7" : "PHQ-9",
    score: (i * 7) % 22,
    maxScore: i % 5 === 0 ? 21 : 27,
    createdAt: new Date(START + i * 12 * HOUR).toISOString(),
  }));
}

function prescriptions(count: number): Prescription[] {
  return Array.from({ length: count }, (_, i) => ({
    id: `rx_${i}`,
    medicationName: `Medication ${i} 50 mg`,
    status: i % 10 === 9 ? "discontinued" : "active",
    prescribedAt: new Date(START + (i + 1) * 2 * 24 * HOUR).toISOString(),
  }));
}

const FLAGS = ["high", "low", "critical", "normal", undefined] as const;
function labs(panels: number, perPanel: number): LabPanel[] {
  return Array.from({ length: panels }, (_, p) => ({
    id: `lab_${p}`,
    labName: "Reference Lab",
    observedAt: new Date(START + p * 24 * HOUR).toISOString(),
    results: {
      biomarkers: Array.from({ length: perPanel }, (_, i) => {
        const entry = BIOMARKER_MAP[i % BIOMARKER_MAP.length];
        return {
          name: i < BIOMARKER_MAP.length && entry ? (entry.variants[0] ?? entry.display) : `Analyte ${i}`,
          value: i % 7 === 0 ? "<0.5" : 1 + ((i * 13 + p) % 50) / 10,
          unit: i % 3 === 0 ? "mmol/L" : "mg/dL",
          flag: FLAGS[(i + p) % FLAGS.length],
          referenceRange: "1.0-4.0",
        };
      }),
    },
  }));
}

const typicalMedication = {
  prescriptions: prescriptions(5),
  assessments: assessments(500),
  dmseLatencyPctChange: -8,
};
const maximalMedication = {
  prescriptions: prescriptions(100),
  assessments: assessments(500),
  dmseLatencyPctChange: 12,
};
const typicalLabs = { labs: labs(2, 20) };
const maximalLabs = { labs: labs(100, 200) };

describe("medication", () => {
  bench("5 prescriptions x 500 assessments", () => {
    analyzeMedication(typicalMedication, { now: NOW });
  });
  bench("100 prescriptions x 500 assessments (maximal)", () => {
    analyzeMedication(maximalMedication, { now: NOW });
  });
});

describe("biomarker", () => {
  bench("2 panels x 20 biomarkers", () => {
    analyzeBiomarkers(typicalLabs, { now: NOW });
  });
  bench("100 panels x 200 biomarkers (maximal)", () => {
    analyzeBiomarkers(maximalLabs, { now: NOW });
  });
});
