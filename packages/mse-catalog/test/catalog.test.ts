import { describe, expect, it } from "vitest";
import {
  CATALOG,
  CODES,
  DOMAIN_KEYS,
  getCatalog,
  getDomain,
  getOption,
  LOINC,
  RISK_OPTION_EVIDENCE,
  RISK_OPTION_LEVELS,
  SNOMED_CT,
} from "../src/index.js";

// Verhoeff check digit, used by every SNOMED CT identifier: catches a mistyped code.
const D = [
  [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
  [1, 2, 3, 4, 0, 6, 7, 8, 9, 5],
  [2, 3, 4, 0, 1, 7, 8, 9, 5, 6],
  [3, 4, 0, 1, 2, 8, 9, 5, 6, 7],
  [4, 0, 1, 2, 3, 9, 5, 6, 7, 8],
  [5, 9, 8, 7, 6, 0, 4, 3, 2, 1],
  [6, 5, 9, 8, 7, 1, 0, 4, 3, 2],
  [7, 6, 5, 9, 8, 2, 1, 0, 4, 3],
  [8, 7, 6, 5, 9, 3, 2, 1, 0, 4],
  [9, 8, 7, 6, 5, 4, 3, 2, 1, 0],
];
const P = [
  [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
  [1, 5, 7, 6, 2, 8, 3, 0, 9, 4],
  [5, 8, 0, 3, 7, 9, 6, 1, 4, 2],
  [8, 9, 1, 6, 0, 4, 3, 5, 2, 7],
  [9, 4, 5, 3, 1, 2, 6, 8, 7, 0],
  [4, 2, 8, 6, 5, 7, 3, 9, 0, 1],
  [2, 7, 9, 3, 8, 0, 6, 4, 1, 5],
  [7, 0, 4, 6, 9, 1, 3, 2, 5, 8],
];
function verhoeffValid(id: string): boolean {
  let c = 0;
  const digits = id.split("").reverse().map(Number);
  digits.forEach((d, i) => {
    c = D[c]?.[P[i % 8]?.[d] ?? 0] ?? 0;
  });
  return c === 0;
}

describe("catalog shape", () => {
  it("is version 1 with 17 domains in the order of decision 45", () => {
    expect(CATALOG.version).toBe("1");
    expect(CATALOG.domains).toHaveLength(17);
    expect(CATALOG.domains.map((d) => d.key)).toEqual([
      "appearance",
      "behavior",
      "attitude",
      "eye_contact",
      "psychomotor",
      "speech",
      "mood",
      "affect",
      "thought_process",
      "thought_content",
      "perception",
      "risk",
      "orientation",
      "attention",
      "memory",
      "insight",
      "judgment",
    ]);
    expect(CATALOG.domains.map((d) => d.key)).toEqual([...DOMAIN_KEYS]);
  });

  it.each(CATALOG.domains.map((d) => [d.key, d] as const))("domain %s is well formed", (_key, d) => {
    expect(d.type).toBe("chips");
    expect(d.label.length).toBeGreaterThan(0);
    expect(typeof d.multi).toBe("boolean");
    expect(typeof d.hasNote).toBe("boolean");
    expect(d.options.length).toBeGreaterThanOrEqual(3);
    const values = d.options.map((o) => o.value);
    expect(new Set(values).size).toBe(values.length);
    const labels = d.options.map((o) => o.label);
    expect(new Set(labels).size).toBe(labels.length);
    for (const o of d.options) {
      expect(o.value).toMatch(/^[a-z][a-z0-9]*(_[a-z0-9]+)*$/);
      expect(o.label.trim()).toBe(o.label);
      expect(o.label.length).toBeGreaterThan(0);
      expect(typeof o.risk).toBe("boolean");
      expect(Array.isArray(o.codes)).toBe(true);
      for (const other of o.excludes ?? []) {
        expect(other).not.toBe(o.value);
        expect(values).toContain(other);
        expect(getOption(d.key, other)?.excludes ?? []).toContain(o.value);
      }
    }
  });

  it("has single-choice domains and domains without a note", () => {
    const single = CATALOG.domains.filter((d) => !d.multi).map((d) => d.key);
    expect(single).toEqual(["eye_contact", "insight", "judgment"]);
    const noNote = CATALOG.domains.filter((d) => !d.hasNote).map((d) => d.key);
    expect(noNote).toEqual(["eye_contact", "orientation"]);
  });

  it("uses standard descriptors", () => {
    const values = (k: string) => getDomain(k)?.options.map((o) => o.value) ?? [];
    expect(values("mood")).toEqual(
      expect.arrayContaining(["euthymic", "depressed", "anxious", "irritable", "elevated"]),
    );
    expect(values("thought_content")).toEqual(
      expect.arrayContaining([
        "unremarkable",
        "suicidal_ideation",
        "homicidal_ideation",
        "delusions",
        "obsessions",
      ]),
    );
    expect(values("perception")).toEqual(
      expect.arrayContaining(["no_abnormality", "auditory_hallucinations", "command_hallucinations"]),
    );
    expect(values("risk")).toEqual(expect.arrayContaining(["denies_si_hi", "passive_si", "active_si"]));
  });

  it("marks the risk-bearing options, and every one has a level", () => {
    const riskOptions = CATALOG.domains.flatMap((d) =>
      d.options.filter((o) => o.risk).map((o) => `${d.key}.${o.value}`),
    );
    expect(riskOptions.sort()).toEqual(Object.keys(RISK_OPTION_LEVELS).sort());
    // Each level's evidence, printed beside it in docs/engines/evidence.md (decision 217).
    expect(Object.keys(RISK_OPTION_EVIDENCE).sort()).toEqual(Object.keys(RISK_OPTION_LEVELS).sort());
    expect(getOption("thought_content", "suicidal_ideation")?.risk).toBe(true);
    expect(getOption("thought_content", "homicidal_ideation")?.risk).toBe(true);
    expect(getOption("perception", "command_hallucinations")?.risk).toBe(true);
    expect(getOption("perception", "auditory_hallucinations")?.risk).toBe(false);
    expect(getOption("risk", "passive_si")?.risk).toBe(true);
    expect(getOption("risk", "active_si")?.risk).toBe(true);
    expect(getOption("risk", "denies_si_hi")?.risk).toBe(false);
    expect(getOption("risk", "protective_factors")?.risk).toBe(false);
  });

  it("carries only well-formed SNOMED CT codes with valid check digits", () => {
    const all = CATALOG.domains.flatMap((d) => d.options.flatMap((o) => o.codes));
    expect(all.length).toBeGreaterThan(0);
    for (const c of all) {
      expect(c.system).toBe(SNOMED_CT);
      expect(c.code).toMatch(/^[1-9][0-9]{5,17}$/);
      expect(verhoeffValid(c.code)).toBe(true);
      // The name the cited source gives: a fully specified name (finding or event only) or a plain term.
      expect(c.display).toMatch(/^[A-Z][^()]*[a-z]( \((finding|event)\))?$/);
    }
    const registry = Object.values(CODES);
    expect(new Set(registry.map((c) => c.code)).size).toBe(registry.length);
    // Every registered code is used by some option, and every option code comes from the registry.
    const used = new Set(all.map((c) => c.code));
    for (const c of registry) expect(used.has(c.code)).toBe(true);
    for (const c of all) expect(registry).toContainEqual(c);
  });

  it("leaves unverified concepts and coarse parents on specific findings uncoded", () => {
    const used = new Set(
      CATALOG.domains.flatMap((d) => d.options.flatMap((o) => o.codes.map((c) => c.code))),
    );
    // 45150006 could not be confirmed; 7011001 "Hallucinations" and 62476001 "Disorientated" are
    // parents that lose the option's specific meaning.
    for (const removed of ["45150006", "7011001", "62476001"]) expect(used.has(removed)).toBe(false);
    expect(getOption("perception", "auditory_hallucinations")?.codes).toEqual([]);
    expect(getOption("perception", "command_hallucinations")?.codes).toEqual([]);
    for (const v of ["disoriented_to_time", "disoriented_to_place", "disoriented_to_person"]) {
      expect(getOption("orientation", v)?.codes).toEqual([]);
    }
    expect(getOption("risk", "active_si")?.codes).toEqual([CODES.suicidalThoughts]);
    expect(getOption("thought_content", "suicidal_ideation")?.codes).toEqual([CODES.suicidalThoughts]);
    expect(getOption("risk", "si_with_plan")?.codes).toEqual([]);
    expect(getOption("risk", "si_with_intent")?.codes).toEqual([CODES.suicidalIntent]);
    expect(getOption("risk", "recent_suicide_attempt")?.codes).toEqual([CODES.suicideAttempt]);
    expect(getOption("risk", "past_suicide_attempt")?.codes).toEqual([CODES.previousSuicideAttempt]);
  });

  it("names the panel and the observation metadata", () => {
    expect(CATALOG.panel).toEqual({ system: LOINC, code: "10190-7", display: "Mental status Narrative" });
    const m = CATALOG.observationMetadata;
    expect(m.provenanceValues).toEqual(["clinician", "digital_mse", "wearable", "patient_reported"]);
    expect(m.confidenceValues).toEqual(["high", "medium", "low"]);
    expect(m.confidenceScore).toEqual({ min: 0, max: 1 });
    expect(m.supportingSignals).toEqual(
      expect.arrayContaining(["latency", "speech_rate", "blink_rate", "psychomotor", "sustained_attention"]),
    );
  });

  it("describes the C-SSRS screener on the risk domain", () => {
    const c = CATALOG.cssrs;
    expect(c.appliesTo).toBe("risk");
    expect(c.questions.map((q) => [q.id, q.order])).toEqual([
      ["q1", 1],
      ["q2", 2],
      ["q3", 3],
      ["q4", 4],
      ["q5", 5],
      ["q6", 6],
    ]);
    expect(c.questions.slice(0, 5).every((q) => q.timeframe === "past_month")).toBe(true);
    expect(c.questions[5]?.timeframe).toBe("lifetime_and_past_3_months");
    expect(c.recency).toMatchObject({ id: "q6_recent", appliesTo: "q6", timeframe: "past_3_months" });
    expect(c.triage.map((t) => t.level)).toEqual(["high", "moderate", "low"]);
    // Our own words: none of the instrument's well-known phrasings.
    const text = c.questions.map((q) => q.text.toLowerCase()).join(" ");
    for (const phrase of [
      "go to sleep and not wake up",
      "thoughts of killing yourself",
      "how you might do this",
    ]) {
      expect(text).not.toContain(phrase);
    }
  });

  it("serves a deep copy", () => {
    const copy = getCatalog();
    copy.domains[0]?.options.pop();
    copy.cssrs.questions.length = 0;
    expect(getCatalog()).toEqual(CATALOG);
    expect(getDomain("appearance")?.options.length).toBe(CATALOG.domains[0]?.options.length);
  });

  it("resolves only real keys", () => {
    expect(getDomain("mood")?.key).toBe("mood");
    expect(getDomain("__proto__")).toBeUndefined();
    expect(getDomain("constructor")).toBeUndefined();
    expect(getOption("mood", "toString")).toBeUndefined();
  });
});
