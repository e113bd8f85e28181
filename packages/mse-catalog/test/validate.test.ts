import { describe, expect, it } from "vitest";
import {
  MAX_ERRORS,
  MAX_TEXT_LENGTH,
  mergeSelection,
  patchedDomains,
  type Selection,
  type SelectionError,
  validateSelection,
} from "../src/index.js";

function errorsOf(input: unknown, partial = false): SelectionError[] {
  const r = partial ? validateSelection(input, { partial: true }) : validateSelection(input);
  if (r.ok) throw new Error("expected a validation failure");
  return r.errors;
}

/** Exactly one error, matching the given fields. */
function expectOne(input: unknown, expected: Partial<SelectionError>, partial = false) {
  const errors = errorsOf(input, partial);
  expect(errors).toHaveLength(1);
  expect(errors[0]).toMatchObject(expected);
  expect(errors[0]?.message).toMatch(/^[A-Z"].*\.$/);
}

describe("validateSelection: accepted selections", () => {
  it("accepts a full selection and returns a clean copy in catalog order", () => {
    const input = {
      risk: { values: ["denies_si_hi"], cssrs: { q6: "no", q2: "no", q1: "no" } },
      mood: { values: ["depressed"], text: "Low since March", provenance: "clinician", confidence: "high" },
      speech: {
        values: ["slowed", "increased_latency"],
        provenance: "digital_mse",
        confidence: "medium",
        confidenceScore: 0.72,
        supportingSignals: ["speech_rate", "latency"],
      },
    };
    const r = validateSelection(input);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(Object.keys(r.selection)).toEqual(["speech", "mood", "risk"]);
    expect(Object.keys(r.selection.risk?.cssrs ?? {})).toEqual(["q1", "q2", "q6"]);
    expect(r.selection.speech).toEqual(input.speech);
    expect(r.selection.mood).not.toBe(input.mood);
  });

  it("does not require every domain: one is enough", () => {
    expect(validateSelection({ insight: { values: ["poor"] } }).ok).toBe(true);
  });

  it("accepts a note-only domain and a screener-only risk domain", () => {
    expect(
      validateSelection({ memory: { values: [], text: "Recalled 2 of 3 words at 5 minutes." } }).ok,
    ).toBe(true);
    expect(validateSelection({ risk: { values: [], cssrs: { q1: "yes", q2: "no" } } }).ok).toBe(true);
  });

  it("accepts a note of exactly the maximum length and score bounds 0 and 1", () => {
    const r = validateSelection({
      mood: { values: ["anxious"], text: "x".repeat(MAX_TEXT_LENGTH), confidenceScore: 0 },
      affect: { values: ["flat"], confidenceScore: 1 },
    });
    expect(r.ok).toBe(true);
  });

  it("accepts q6_recent when q6 is yes", () => {
    expect(validateSelection({ risk: { values: [], cssrs: { q6: "yes", q6_recent: "no" } } }).ok).toBe(true);
  });
});

describe("validateSelection: one entry per problem", () => {
  it.each([null, [], "mood", 42, true])("rejects a non-object selection (%j)", (input) => {
    expectOne(input, { domain: "selection" });
  });

  it("rejects an empty selection", () => {
    expectOne({}, { domain: "selection", message: "The selection must include at least one domain." });
  });

  it("rejects an unknown domain", () => {
    expectOne(
      { mood: { values: ["anxious"] }, sleep: { values: [] } },
      { domain: "sleep", message: "Unknown domain." },
    );
  });

  it("rejects prototype keys as unknown domains", () => {
    expectOne(JSON.parse('{"__proto__": {"values": []}}'), {
      domain: "__proto__",
      message: "Unknown domain.",
    });
    expectOne({ constructor: { values: [] } }, { domain: "constructor", message: "Unknown domain." });
  });

  it.each([null, "depressed", ["depressed"], 3])(
    "rejects a domain entry that is not an object (%j)",
    (entry) => {
      expectOne({ mood: entry }, { domain: "mood" });
    },
  );

  it("rejects an unknown option value", () => {
    expectOne(
      { mood: { values: ["sad"] } },
      { domain: "mood", value: "sad", message: "Unknown option for this domain." },
    );
  });

  it("rejects an option of another domain", () => {
    expectOne({ mood: { values: ["flat"] } }, { domain: "mood", value: "flat" });
  });

  it("rejects several values in a single-choice domain", () => {
    expectOne(
      { insight: { values: ["good", "poor"] } },
      { domain: "insight", message: "This domain accepts only one value." },
    );
  });

  it("rejects a duplicate value", () => {
    expectOne(
      { mood: { values: ["anxious", "anxious"] } },
      { domain: "mood", value: "anxious", message: "Duplicate value." },
    );
  });

  it("rejects contradictory values", () => {
    expectOne({ mood: { values: ["euthymic", "depressed"] } }, { domain: "mood", value: "depressed" });
    expectOne({ risk: { values: ["denies_si_hi", "active_si"] } }, { domain: "risk", value: "active_si" });
    expectOne({ speech: { values: ["slowed", "normal"] } }, { domain: "speech" });
  });

  it("rejects values that are not an array", () => {
    expectOne(
      { mood: { values: "depressed" } },
      { domain: "mood", value: "values", message: "Values must be an array of option values." },
    );
  });

  it("rejects missing values", () => {
    expectOne(
      { mood: { text: "Low." } },
      { domain: "mood", value: "values", message: "Values are required." },
    );
  });

  it("rejects a value that is not a string", () => {
    expectOne({ mood: { values: [1] } }, { domain: "mood", message: "Each value must be a string." });
  });

  it("rejects an empty entry with nothing recorded", () => {
    expectOne({ mood: { values: [] } }, { domain: "mood", value: "values" });
  });

  it("rejects an unknown field in an entry", () => {
    expectOne({ mood: { values: ["anxious"], severity: 3 } }, { domain: "mood", value: "severity" });
  });

  it("rejects cssrs on a domain other than risk", () => {
    expectOne(
      { mood: { values: ["depressed"], cssrs: { q1: "yes" } } },
      { domain: "mood", value: "cssrs", message: "C-SSRS answers are accepted only on the risk domain." },
    );
  });

  it.each([[["yes"]], ["yes"], [{}]])("rejects cssrs that is not a non-empty object (%j)", (cssrs) => {
    expectOne({ risk: { values: [], cssrs } }, { domain: "risk", value: "cssrs" });
  });

  it("rejects an unknown C-SSRS key", () => {
    expectOne(
      { risk: { values: [], cssrs: { q7: "yes" } } },
      { domain: "risk", value: "q7", message: "Unknown C-SSRS item." },
    );
  });

  it.each(["YES", "maybe", true, 1, null])("rejects a C-SSRS answer other than yes or no (%j)", (answer) => {
    expectOne({ risk: { values: [], cssrs: { q1: answer } } }, { domain: "risk", value: "q1" });
  });

  it("rejects q6_recent without a yes on q6", () => {
    expectOne(
      { risk: { values: [], cssrs: { q6: "no", q6_recent: "yes" } } },
      { domain: "risk", value: "q6_recent" },
    );
    expectOne(
      { risk: { values: [], cssrs: { q1: "no", q6_recent: "no" } } },
      { domain: "risk", value: "q6_recent" },
    );
  });

  it.each(["doctor", "", 1])("rejects a bad provenance (%j)", (provenance) => {
    expectOne({ mood: { values: ["anxious"], provenance } }, { domain: "mood", value: "provenance" });
  });

  it.each(["moderate", "HIGH", 0.5])("rejects a bad confidence (%j)", (confidence) => {
    expectOne({ mood: { values: ["anxious"], confidence } }, { domain: "mood", value: "confidence" });
  });

  it.each([-0.01, 1.01, Number.NaN, Number.POSITIVE_INFINITY, "0.5", null])(
    "rejects a confidence score outside 0..1 (%j)",
    (confidenceScore) => {
      expectOne(
        { mood: { values: ["anxious"], confidenceScore } },
        {
          domain: "mood",
          value: "confidenceScore",
          message: "The confidence score must be a number from 0 to 1.",
        },
      );
    },
  );

  it("rejects supporting signals that are not an array, unknown or repeated", () => {
    expectOne(
      { speech: { values: ["slowed"], supportingSignals: "latency" } },
      { value: "supportingSignals" },
    );
    expectOne({ speech: { values: ["slowed"], supportingSignals: ["mood_ring"] } }, { value: "mood_ring" });
    expectOne(
      { speech: { values: ["slowed"], supportingSignals: ["latency", "latency"] } },
      { value: "latency" },
    );
  });

  it("rejects a note over 2000 characters", () => {
    expectOne(
      { mood: { values: ["anxious"], text: "x".repeat(MAX_TEXT_LENGTH + 1) } },
      { domain: "mood", value: "text", message: "The note must be at most 2000 characters." },
    );
  });

  it("rejects a note on a domain without a note", () => {
    expectOne(
      { eye_contact: { values: ["poor"], text: "Looked at the floor." } },
      { domain: "eye_contact", value: "text", message: "This domain does not take a note." },
    );
  });

  it("rejects a note that is not a string", () => {
    expectOne({ mood: { values: ["anxious"], text: 5 } }, { domain: "mood", value: "text" });
  });

  it("reports every problem, each as one entry", () => {
    const errors = errorsOf({
      mood: { values: ["sad"] },
      insight: { values: ["good", "poor"] },
      sleep: {},
      affect: { values: ["flat"], cssrs: { q1: "yes" } },
    });
    expect(errors.map((e) => e.domain)).toEqual(["mood", "insight", "sleep", "affect"]);
  });

  it("caps the list of errors", () => {
    // 300 unknown fields and no values in one domain (more domains than the catalog's 17 are
    // refused as a whole before any is read).
    const input = { mood: Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`f${i}`, 1])) };
    const errors = errorsOf(input);
    expect(errors).toHaveLength(MAX_ERRORS + 1);
    expect(errors[MAX_ERRORS]).toEqual({
      domain: "selection",
      message: "201 further problems were not listed.",
    });
  });
});

describe("validateSelection: partial mode", () => {
  it("applies the same per-domain rules", () => {
    expectOne({ mood: { values: ["sad"] } }, { domain: "mood", value: "sad" }, true);
    expectOne({}, { domain: "selection" }, true);
  });

  it("accepts null to remove a domain, in partial mode only", () => {
    const r = validateSelection({ mood: null, insight: { values: ["good"] } }, { partial: true });
    expect(r).toEqual({ ok: true, selection: { mood: null, insight: { values: ["good"] } } });
    expectOne({ mood: null }, { domain: "mood" });
    expectOne({ sleep: null }, { domain: "sleep", message: "Unknown domain." }, true);
  });

  it("merges a patch: supplied domains replace, null removes, the rest stays", () => {
    const base: Selection = {
      mood: { values: ["depressed"], text: "Low." },
      speech: { values: ["slowed"] },
      insight: { values: ["poor"] },
    };
    const r = validateSelection(
      { insight: { values: ["partial"] }, speech: null, affect: { values: ["flat"] } },
      {
        partial: true,
      },
    );
    if (!r.ok) throw new Error("patch should be valid");
    const merged = mergeSelection(base, r.selection);
    expect(merged).toEqual({
      mood: { values: ["depressed"], text: "Low." },
      affect: { values: ["flat"] },
      insight: { values: ["partial"] },
    });
    expect(Object.keys(merged)).toEqual(["mood", "affect", "insight"]);
    expect(patchedDomains(r.selection)).toEqual(["speech", "affect", "insight"]);
    expect(validateSelection(merged).ok).toBe(true);
  });

  it("a patch that removes everything leaves a selection the full validator rejects", () => {
    const r = validateSelection({ mood: null }, { partial: true });
    if (!r.ok) throw new Error("patch should be valid");
    const merged = mergeSelection({ mood: { values: ["anxious"] } }, r.selection);
    expect(merged).toEqual({});
    expectOne(merged, { domain: "selection" });
  });
});

describe("bounds read before the entries (decision 169)", () => {
  it("more keys than the catalog has domains: one error, no entry read", () => {
    const selection = Object.fromEntries(Array.from({ length: 500 }, (_, i) => [`d${i}`, { values: [] }]));
    expect(errorsOf(selection)).toEqual([
      { domain: "selection", message: "The selection has 500 keys; the catalog has 17 domains." },
    ]);
  });
  it("more values than the domain has options: one error naming the bound", () => {
    const values = Array.from({ length: 5_000 }, (_, i) => `v${i}`);
    const errors = errorsOf({ mood: { values } });
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ domain: "mood", value: "values" });
    expect(errors[0]?.message).toMatch(/^At most \d+ values: this domain has \d+ options\.$/);
  });
  it("more supporting signals than the catalog names: one error naming the bound", () => {
    const supportingSignals = Array.from({ length: 5_000 }, () => "x");
    const errors = errorsOf({ mood: { values: ["depressed"], supportingSignals } });
    expect(errors).toHaveLength(1);
    expect(errors[0]?.message).toMatch(/^At most \d+ supporting signals: the catalog names \d+\.$/);
  });
});
