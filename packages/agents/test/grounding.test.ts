import { describe, expect, it } from "vitest";
import { type GroundedEntity, groundAnswer, parseModelAnswer } from "../src/grounding.js";

const lithium: GroundedEntity = { name: "Lithium", aliases: ["lithium"], citation: "evaluatePanel:lithium" };
const sodium: GroundedEntity = { name: "Sodium", aliases: ["sodium"], citation: "evaluatePanel:sodium" };
const vocabulary = ["Lithium", "Sodium", "Troponin", "TSH", "Free T4", "free_t4"];

describe("parseModelAnswer", () => {
  it("reads the JSON object, also inside a code fence", () => {
    const json = {
      narrative: "Lithium is high.",
      observations: [{ entity: "lithium", note: "Toxic." }],
      citations: ["a"],
    };
    expect(parseModelAnswer(JSON.stringify(json))).toEqual(json);
    expect(parseModelAnswer(`\`\`\`json\n${JSON.stringify(json)}\n\`\`\``)).toEqual(json);
  });

  it("takes prose as the narrative, and accepts analyte/instrument as the entity key", () => {
    expect(parseModelAnswer("Lithium is high.")).toEqual({
      narrative: "Lithium is high.",
      observations: [],
      citations: [],
    });
    expect(
      parseModelAnswer(
        '{"narrative":"x","observations":[{"analyte":"lithium","note":"n"},{"note":"no entity"}]}',
      ),
    ).toEqual({
      narrative: "x",
      observations: [{ entity: "lithium", note: "n" }],
      citations: [],
    });
  });

  it("a broken JSON answer is prose, not a crash", () => {
    expect(parseModelAnswer('{"narrative": "unterminated').narrative).toBe('{"narrative": "unterminated');
  });
});

describe("groundAnswer", () => {
  it("keeps what rests on the tool results, matching names loosely", () => {
    const grounded = groundAnswer(
      {
        narrative: "Lithium is above range. Sodium is normal.",
        observations: [{ entity: "LITHIUM", note: "Check toxicity." }],
        citations: ["evaluatePanel:lithium"],
      },
      [lithium, sodium],
      vocabulary,
    );
    expect(grounded.narrative).toBe("Lithium is above range. Sodium is normal.");
    expect(grounded.observations).toEqual([{ entity: lithium, note: "Check toxicity." }]);
    expect(grounded.citations).toEqual(["evaluatePanel:lithium"]);
    expect(grounded.warnings).toEqual([]);
  });

  it("drops an invented entity's observation, citation and sentence, each with a warning", () => {
    const grounded = groundAnswer(
      {
        narrative: "Lithium is above range. Troponin is raised! Free T4 is low.",
        observations: [{ entity: "troponin", note: "Raised." }],
        citations: ["evaluatePanel:troponin"],
      },
      [lithium],
      vocabulary,
    );
    expect(grounded.narrative).toBe("Lithium is above range.");
    expect(grounded.observations).toEqual([]);
    expect(grounded.citations).toEqual([]);
    expect(grounded.warnings).toHaveLength(4);
    expect(grounded.warnings.join("\n")).toMatch(/"troponin"/);
    expect(grounded.warnings.join("\n")).toMatch(/"free t4"/);
  });

  it("does not screen short vocabulary terms inside other words", () => {
    const grounded = groundAnswer(
      { narrative: "Results are reassuringly stable.", observations: [], citations: [] },
      [],
      ["TSH", "stab"],
    );
    expect(grounded.narrative).toBe("Results are reassuringly stable.");
  });

  it("an observation's citation is added when the model cited nothing", () => {
    const grounded = groundAnswer(
      { narrative: "", observations: [{ entity: "sodium", note: "Fine." }], citations: [] },
      [lithium, sodium],
      vocabulary,
    );
    expect(grounded.citations).toEqual(["evaluatePanel:sodium"]);
  });
});
