import { describe, expect, it } from "vitest";
import { buildLines, CODES, joinPhrases, objectiveBlock, type Selection, toPhrase } from "../src/index.js";

describe("buildLines", () => {
  it("writes one line per present domain, in catalog order, in clinical register", () => {
    const selection: Selection = {
      insight: { values: ["partial"] },
      mood: { values: ["anxious", "depressed"] },
      speech: { values: ["normal"] },
      eye_contact: { values: ["intermittent"] },
    };
    const lines = buildLines(selection);
    expect(lines.map((l) => l.key)).toEqual(["eye_contact", "speech", "mood", "insight"]);
    expect(lines.map((l) => l.line)).toEqual([
      "Eye contact: intermittent.",
      "Speech: normal rate, rhythm and volume.",
      "Mood: depressed and anxious.",
      "Insight: partial.",
    ]);
  });

  it("lists three or more findings with commas, and uses semicolons when a finding holds a comma", () => {
    const [affect] = buildLines({ affect: { values: ["restricted", "labile", "incongruent"] } });
    expect(affect?.line).toBe("Affect: restricted, labile and incongruent with mood.");
    const [orientation] = buildLines({
      orientation: { values: ["disoriented_to_time", "disoriented_to_place"] },
    });
    expect(orientation?.line).toBe("Orientation: disoriented to time and disoriented to place.");
    expect(joinPhrases(["a, b", "c", "d"])).toBe("a, b; c; d");
  });

  it("appends the domain note as a sentence", () => {
    const [mood] = buildLines({ mood: { values: ["depressed"], text: "  worse in the mornings " } });
    expect(mood?.line).toBe("Mood: depressed. Worse in the mornings.");
    const [memory] = buildLines({ memory: { values: [], text: "Recalled 2 of 3 words at 5 minutes." } });
    expect(memory?.line).toBe("Memory: Recalled 2 of 3 words at 5 minutes.");
  });

  it("carries observation metadata and the selected options' codes", () => {
    const [mood] = buildLines({
      mood: {
        values: ["depressed", "anxious", "elevated"],
        provenance: "digital_mse",
        confidence: "medium",
        confidenceScore: 0.6,
        supportingSignals: ["speech_rate"],
      },
    });
    expect(mood).toEqual({
      key: "mood",
      label: "Mood",
      line: "Mood: depressed, anxious and elevated.",
      provenance: "digital_mse",
      confidence: "medium",
      confidenceScore: 0.6,
      supportingSignals: ["speech_rate"],
      codes: [CODES.depressedMood, CODES.anxiety],
    });
    const [plain] = buildLines({ insight: { values: ["good"] } });
    expect(plain).toEqual({ key: "insight", label: "Insight", line: "Insight: good.", codes: [] });
  });

  it("lists each selected option's codes once, in catalog order", () => {
    const [risk] = buildLines({
      risk: { values: ["si_with_plan", "active_si", "non_suicidal_self_injury"] },
    });
    expect(risk?.codes).toEqual([CODES.suicidalThoughts]);
  });

  it("reports the C-SSRS screen on the risk line", () => {
    const [negative] = buildLines({
      risk: { values: ["denies_si_hi"], cssrs: { q1: "no", q2: "no", q6: "no" } },
    });
    expect(negative?.line).toBe(
      "Risk: denies suicidal and homicidal ideation. C-SSRS screener: no items endorsed; triage level none.",
    );
    const [positive] = buildLines({
      risk: {
        values: [],
        cssrs: { q1: "yes", q2: "yes", q3: "no", q4: "no", q5: "no", q6: "yes", q6_recent: "yes" },
        text: "Safety plan made.",
      },
    });
    expect(positive?.line).toBe(
      "Risk: C-SSRS screener: yes to items 1, 2 and 6 (behavior within the past 3 months); triage level high. Safety plan made.",
    );
    const [single] = buildLines({
      risk: { values: ["passive_si"], cssrs: { q1: "yes", q2: "no", q6: "no" } },
    });
    expect(single?.line).toBe("Risk: passive death wish. C-SSRS screener: yes to item 1; triage level low.");
  });

  it("never reads an incomplete screen as negative, and names what was not asked", () => {
    const [onlyQ1] = buildLines({ risk: { values: [], cssrs: { q1: "no" } } });
    expect(onlyQ1?.line).toBe(
      "Risk: C-SSRS screener incomplete: not answered: items 2 and 6; answered no to item 1. Not a negative screen; triage level low until completed.",
    );
    expect(onlyQ1?.line).not.toContain("no items endorsed");
    const [skipped] = buildLines({
      risk: { values: ["denies_si_hi"], cssrs: { q1: "no", q2: "yes", q6: "no" } },
    });
    expect(skipped?.line).toBe(
      "Risk: denies suicidal and homicidal ideation. C-SSRS screener incomplete: yes to item 2; not answered: items 3, 4 and 5; answered no to items 1 and 6; items 3, 4 and 5 still to ask after the yes to item 2; triage level moderate until completed.",
    );
    const [recency] = buildLines({ risk: { values: [], cssrs: { q1: "no", q2: "no", q6: "yes" } } });
    expect(recency?.line).toBe(
      "Risk: C-SSRS screener incomplete: yes to item 6 (behavior recency not recorded, treated as within the past 3 months); not answered: item 6 recency; answered no to items 1 and 2; triage level high until completed.",
    );
    const [positive] = buildLines({
      risk: {
        values: ["passive_si"],
        cssrs: { q1: "yes", q2: "yes", q3: "no", q6: "yes", q6_recent: "yes" },
        text: "Safety plan made.",
      },
    });
    expect(positive?.line).toBe(
      "Risk: passive death wish. C-SSRS screener incomplete: yes to items 1, 2 and 6 (behavior within the past 3 months); not answered: items 4 and 5; answered no to item 3; items 4 and 5 still to ask after the yes to item 2; triage level high until completed. Safety plan made.",
    );
  });

  it("skips domains with nothing to say and ignores unknown values", () => {
    expect(buildLines({ mood: { values: [], text: "   " } })).toEqual([]);
    expect(buildLines({ mood: { values: ["sad"] } } as Selection)).toEqual([]);
    expect(buildLines({})).toEqual([]);
  });

  it("objectiveBlock joins the lines with newlines", () => {
    const lines = buildLines({ mood: { values: ["euthymic"] }, judgment: { values: ["fair"] } });
    expect(objectiveBlock(lines)).toBe("Mood: euthymic.\nJudgment: fair.");
    expect(objectiveBlock([])).toBe("");
  });

  it("keeps acronyms when lower-casing labels", () => {
    expect(toPhrase("C-SSRS positive")).toBe("C-SSRS positive");
    expect(toPhrase("Flat")).toBe("flat");
  });
});
