import { ENGINE_DESCRIPTORS, ENGINE_NAMES, ENGINE_REGISTRY } from "@svc/intelligence";
import { describe, expect, it } from "vitest";
import {
  type EngineEvidence,
  engineEvidenceProblems,
  readMarkdownTables,
  readVignettes,
} from "../src/index.js";

import { readEngineDoc } from "./engine-docs.js";

const rows = readMarkdownTables(readEngineDoc("evidence.md"));
const vignettes = readVignettes(readEngineDoc("vignettes.md"));

/** An engine added to the registry with parameters that evidence.md does not source. */
const withoutEvidence: EngineEvidence = {
  name: "sleep",
  defaults: Object.freeze({ shortSleepHours: 6 }),
  evidence: { section: "Sleep regularity" },
};

describe("the evidence check iterates the engine registry", () => {
  it("checks every registered engine, and all of them agree with evidence.md", () => {
    expect(ENGINE_DESCRIPTORS.map((e) => e.name)).toEqual(Object.keys(ENGINE_REGISTRY));
    expect(engineEvidenceProblems(rows, ENGINE_DESCRIPTORS)).toEqual([]);
  });

  it("fails an engine descriptor that has no evidence section", () => {
    expect(engineEvidenceProblems(rows, [...ENGINE_DESCRIPTORS, withoutEvidence])).toEqual([
      'sleep: evidence.md has no table in a section titled "Sleep regularity..."',
    ]);
    expect(engineEvidenceProblems(rows, [{ ...withoutEvidence, evidence: { section: " " } }])).toHaveLength(
      1,
    );
  });

  it("fails a default without a row, a value that differs and a row the code lacks", () => {
    const { outcome } = ENGINE_REGISTRY;
    const [first, ...rest] = Object.keys(outcome.defaults);
    const changed = { ...outcome.defaults, [first as string]: -12345, addedWeight: 1 };
    expect(engineEvidenceProblems(rows, [{ ...outcome, defaults: changed }])).toEqual([
      expect.stringContaining(`outcome: ${first} is -12345 in the code`),
      'outcome: addedWeight is not in evidence.md "Outcome"',
    ]);
    const fewer = Object.fromEntries(rest.map((k) => [k, 0]));
    expect(engineEvidenceProblems(rows, [{ ...outcome, defaults: fewer }])).toContain(
      `outcome: evidence.md "Outcome" lists ${first}, which the code does not have`,
    );
  });

  it("checks an engine's further constant tables as well as its defaults", () => {
    const { relapse } = ENGINE_REGISTRY;
    const tables = relapse.evidence.tables?.map((t) => ({ ...t, values: { ...t.values, extra: 1 } }));
    expect(engineEvidenceProblems(rows, [{ ...relapse, evidence: { ...relapse.evidence, tables } }])).toEqual(
      ['relapse: extra is not in evidence.md "Off medication with short sleep"'],
    );
  });
});

describe("the vignettes cover the engine registry", () => {
  it("has a clinical vignette for every registered engine", () => {
    const covered = new Set(vignettes.map((v) => (v.body as { engine?: unknown }).engine));
    expect(ENGINE_NAMES.filter((name) => !covered.has(name))).toEqual([]);
  });
});
