import { describe, expect, it } from "vitest";
import {
  type AnyEngineDescriptor,
  buildEngineIntelligence,
  ENGINE_DESCRIPTORS,
  ENGINE_NAMES,
  ENGINE_REGISTRY,
  isEngineName,
  type TerminologyCode,
} from "../src/index.js";

const now = new Date("2026-07-01T12:00:00Z");

describe("engine registry", () => {
  it("keys every descriptor by its own name, in the order of ENGINE_NAMES", () => {
    expect(ENGINE_NAMES).toEqual(Object.keys(ENGINE_REGISTRY));
    for (const [key, descriptor] of Object.entries(ENGINE_REGISTRY)) expect(descriptor.name).toBe(key);
    expect(ENGINE_DESCRIPTORS.map((d) => d.name)).toEqual(ENGINE_NAMES);
    expect(isEngineName("relapse")).toBe(true);
    expect(isEngineName("toString")).toBe(false);
  });

  it("gives every engine its own model key, label and evidence section", () => {
    for (const field of ["modelKey", "label"] as const) {
      const values = ENGINE_DESCRIPTORS.map((d) => d[field]);
      expect(new Set(values).size, field).toBe(values.length);
      for (const value of values) expect(value.trim(), field).not.toBe("");
    }
    for (const d of ENGINE_DESCRIPTORS) expect(d.evidence.section.trim(), d.name).not.toBe("");
  });

  it("resolves no overrides to the defaults and refuses an unknown parameter", () => {
    for (const d of ENGINE_DESCRIPTORS) {
      expect(d.resolveParams(undefined), d.name).toEqual(d.defaults);
      expect(d.resolveParams({ ...d.defaults }), d.name).toEqual(d.defaults);
      expect(() => d.resolveParams({ notAParameter: 1 }), d.name).toThrow(/notAParameter/);
    }
  });

  it("runs each engine under its model key, default and calibrated, and builds its block", () => {
    for (const d of ENGINE_DESCRIPTORS as readonly AnyEngineDescriptor[]) {
      const input = d.example;
      const run = d.run(input, { now });
      expect(run.model, d.name).toEqual({ key: d.modelKey, version: null, source: "default" });
      const calibrated = d.run(input, { now, model: { version: 3, params: d.resolveParams({}) } });
      expect(calibrated.model, d.name).toEqual({ key: d.modelKey, version: 3, source: "calibrated" });
      const codes: TerminologyCode[] = d.codes(input, run);
      const block = buildEngineIntelligence({
        engine: d.name,
        facts: run.facts,
        model: run.model,
        now,
        codes,
        currentInputs: input as Record<string, unknown>,
      });
      expect(block.engine).toBe(d.name);
      expect(Array.isArray(d.highlights(run.data)), d.name).toBe(true);
      expect(Array.isArray(d.unmapped?.(input, run) ?? []), d.name).toBe(true);
    }
  });
});
