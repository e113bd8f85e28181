import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import {
  analyzeBiomarkers,
  analyzeDmse,
  analyzeMedication,
  type EngineFacts,
  predictRelapse,
  scoreOutcome,
} from "@svc/engines";
import { assessRisk, buildLines, type Selection } from "@svc/mse-catalog";
import { describe, expect, it } from "vitest";
import { readVignettes } from "../src/index.js";

const NOW = new Date("2026-06-30T00:00:00Z");
const path = fileURLToPath(new URL("../../../docs/engines/vignettes.md", import.meta.url));
const vignettes = readVignettes(readFileSync(path, "utf8"));

interface Expectation {
  status?: string;
  statusNot?: string[];
  review?: boolean;
  confidence?: string;
  flaggedIncludes?: string[];
  flaggedEmpty?: boolean;
  textIncludes?: string[];
  textExcludes?: string[];
}

interface Vignette {
  engine: "outcome" | "relapse" | "medication" | "biomarker" | "dmse" | "mse_risk";
  input: Record<string, unknown>;
  expect: Expectation;
}

/** What a clinician sees of one run, in the shape the expectations name. */
interface Observed {
  status: string;
  review: boolean;
  confidence: string | null;
  flagged: string[];
  text: string[];
}

const fromFacts = (facts: EngineFacts, status: string, text: string[]): Observed => ({
  status,
  review: facts.summary.requiresClinicianReview,
  confidence: facts.confidence.level,
  flagged: facts.summary.flagged,
  text: [facts.summary.headline, ...text],
});

// The inputs are plain JSON from the document; each engine receives them as its input type.
// biome-ignore lint/suspicious/noExplicitAny: JSON input handed to typed engines
type AnyInput = any;

function observe(v: Vignette): Observed {
  const input = v.input as AnyInput;
  switch (v.engine) {
    case "outcome": {
      const r = scoreOutcome(input, { now: NOW });
      return fromFacts(r.facts, r.data.direction, [
        r.data.summaryLine,
        ...r.data.components.map((c) => c.detail),
      ]);
    }
    case "relapse": {
      const r = predictRelapse(input, { now: NOW });
      return fromFacts(r.facts, r.data.level, [
        r.data.summaryLine,
        r.data.recommendation,
        ...r.data.factors.map((f) => f.detail),
      ]);
    }
    case "medication": {
      const r = analyzeMedication(input, { now: NOW });
      return fromFacts(
        r.facts,
        r.facts.summary.status,
        r.data.signals.flatMap((s) => [s.detail, s.summaryLine]),
      );
    }
    case "biomarker": {
      const r = analyzeBiomarkers(input, { now: NOW });
      return fromFacts(r.facts, r.facts.summary.status, [
        ...r.facts.confidence.reasons,
        ...r.data.signals.flatMap((s) => [s.detail, s.summaryLine]),
      ]);
    }
    case "dmse": {
      const r = analyzeDmse(input, { now: NOW });
      return fromFacts(r.facts, r.data.summary.status, [
        r.data.disclaimer,
        ...r.data.mseNarrative,
        ...r.data.signals.map((s) => s.detail),
      ]);
    }
    case "mse_risk": {
      const selection = input as Selection;
      const risk = assessRisk(selection);
      return {
        status: risk.level,
        review: risk.flag,
        confidence: null,
        flagged: risk.labels,
        text: [...buildLines(selection).map((l) => l.line), ...risk.labels],
      };
    }
  }
}

describe("docs/engines/vignettes.md", () => {
  it("holds at least 25 vignettes across the five engines and the MSE risk logic", () => {
    expect(vignettes.length).toBeGreaterThanOrEqual(25);
    const engines = new Set(vignettes.map((v) => (v.body as Vignette).engine));
    expect([...engines].sort()).toEqual([
      "biomarker",
      "dmse",
      "medication",
      "mse_risk",
      "outcome",
      "relapse",
    ]);
  });

  it.each(vignettes.map((v) => [v.title, v.body as Vignette] as const))("%s", (_title, v) => {
    const seen = observe(v);
    const e = v.expect;
    const text = seen.text.join("\n").toLowerCase();
    if (e.status !== undefined) expect(seen.status).toBe(e.status);
    for (const not of e.statusNot ?? []) expect(seen.status).not.toBe(not);
    if (e.review !== undefined) expect(seen.review).toBe(e.review);
    if (e.confidence !== undefined) expect(seen.confidence).toBe(e.confidence);
    for (const part of e.flaggedIncludes ?? [])
      expect(
        seen.flagged.some((f) => f.includes(part)),
        `flagged ${JSON.stringify(seen.flagged)} has "${part}"`,
      ).toBe(true);
    if (e.flaggedEmpty) expect(seen.flagged).toEqual([]);
    for (const part of e.textIncludes ?? []) expect(text, `text has "${part}"`).toContain(part.toLowerCase());
    for (const part of e.textExcludes ?? [])
      expect(text, `text lacks "${part}"`).not.toContain(part.toLowerCase());
  });
});
