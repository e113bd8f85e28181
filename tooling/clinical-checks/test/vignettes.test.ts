import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { EngineFacts, EngineRun } from "@svc/engines";
import { ENGINE_NAMES, ENGINE_REGISTRY, type EngineName } from "@svc/intelligence";
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
  engine: EngineName | "mse_risk";
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

/** An engine's run data, by engine name, as its registry descriptor returns it. */
type RunData<N extends EngineName> =
  ReturnType<(typeof ENGINE_REGISTRY)[N]["run"]> extends EngineRun<infer D> ? D : never;

/**
 * What a clinician reads of each engine's run. Keyed by the registry's names, so an engine added to
 * the registry without an entry here fails the typecheck, and one without vignettes fails below.
 */
const OBSERVERS: { [N in EngineName]: (run: EngineRun<RunData<N>>) => Observed } = {
  outcome: (r) =>
    fromFacts(r.facts, r.data.direction, [r.data.summaryLine, ...r.data.components.map((c) => c.detail)]),
  relapse: (r) =>
    fromFacts(r.facts, r.data.level, [
      r.data.summaryLine,
      r.data.recommendation,
      ...r.data.factors.map((f) => f.detail),
    ]),
  medication: (r) =>
    fromFacts(
      r.facts,
      r.facts.summary.status,
      r.data.signals.flatMap((s) => [s.detail, s.summaryLine]),
    ),
  biomarker: (r) =>
    fromFacts(r.facts, r.facts.summary.status, [
      ...r.facts.confidence.reasons,
      ...r.data.signals.flatMap((s) => [s.detail, s.summaryLine]),
    ]),
  dmse: (r) =>
    fromFacts(r.facts, r.data.summary.status, [
      r.data.disclaimer,
      ...r.data.mseNarrative,
      ...r.data.signals.map((s) => s.detail),
    ]),
};

/** Runs an engine through its registry descriptor with the shipped parameters and observes it. */
function observeEngine<N extends EngineName>(name: N, input: unknown): Observed {
  const engine = ENGINE_REGISTRY[name] as unknown as {
    run(input: unknown, options: { now: Date }): EngineRun<RunData<N>>;
  };
  return OBSERVERS[name](engine.run(input, { now: NOW }));
}

function observe(v: Vignette): Observed {
  if (v.engine !== "mse_risk") return observeEngine(v.engine, v.input);
  const selection = v.input as unknown as Selection;
  const risk = assessRisk(selection);
  return {
    status: risk.level,
    review: risk.flag,
    confidence: null,
    flagged: risk.labels,
    text: [...buildLines(selection).map((l) => l.line), ...risk.labels],
  };
}

describe("docs/engines/vignettes.md", () => {
  it("holds at least 25 vignettes, covering every engine in the registry and the MSE risk logic", () => {
    expect(vignettes.length).toBeGreaterThanOrEqual(25);
    const engines = new Set(vignettes.map((v) => (v.body as Vignette).engine));
    expect([...engines].sort()).toEqual([...ENGINE_NAMES, "mse_risk"].sort());
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
