import { foldForMatching } from "@svc/intelligence";
import type { ChatModel, ToolCallRecord, ToolLoopResult } from "@svc/model";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { disguised, neutralText, REASSURING } from "../../intelligence/test/reassurance-arbitraries.js";
import { medicationAgent, runMseAgent, runRecordAgent } from "../src/index.js";

/**
 * Reassurance about risk from a model never survives (decision 74), whatever letters spell it:
 * the record agents (scripted model, medication agent) and the MSE agent (scripted model) apply
 * the rule of `@svc/intelligence` (its own tests are in packages/intelligence/test).
 */
const NOW = () => new Date("2026-06-01T10:00:00.000Z");

/** A model that answers at once with the given final text. */
function scriptedModel(text: string, toolCalls: ToolCallRecord[] = [], extra: Partial<ToolLoopResult> = {}) {
  const model: ChatModel = {
    async runToolLoop() {
      return { text, toolCalls, steps: toolCalls.length + 1, stoppedAtStepBound: false, ...extra };
    },
  };
  return model;
}

describe("properties", () => {
  it("through the record agent: a disguised reassurance never reaches the narrative or the observations", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...REASSURING).chain((phrase) => fc.tuple(fc.constant(phrase), disguised(phrase))),
        neutralText,
        async ([phrase, disguise], neutral) => {
          const model = scriptedModel(
            JSON.stringify({
              narrative: `${neutral} ${disguise}, lithium and ibuprofen. ${neutral}`,
              observations: [{ entity: "lithium", note: `${disguise}.` }],
              citations: ["checkInteractions:lithium"],
            }),
          );
          const result = await runRecordAgent(
            medicationAgent,
            { patientId: "p", body: { medications: ["lithium", "ibuprofen"] } },
            { chatModel: model, now: NOW },
          );
          const narrative = foldForMatching(result.reasoning?.narrative ?? "");
          expect(narrative).not.toContain(foldForMatching(phrase));
          expect(result.reasoning?.narrative).toBe(neutral.length > 0 ? `${neutral} ${neutral}` : undefined);
          expect(result.assessment?.observations.filter((o) => o.source === "model")).toEqual([]);
          expect(result.warnings.join("\n")).toContain("reading as reassurance about risk");
        },
      ),
      { numRuns: 150 },
    );
  });

  it("through the record agent: a narrative without reassurance is kept unchanged", async () => {
    await fc.assert(
      fc.asyncProperty(neutralText, async (neutral) => {
        const model = scriptedModel(JSON.stringify({ narrative: neutral, observations: [], citations: [] }));
        const result = await runRecordAgent(
          medicationAgent,
          { patientId: "p", body: { medications: ["lithium", "ibuprofen"] } },
          { chatModel: model, now: NOW },
        );
        expect(result.reasoning?.narrative).toBe(neutral);
        expect(result.warnings.join("\n")).not.toContain("reassurance");
      }),
      { numRuns: 100 },
    );
  });

  it("through the MSE agent: a disguised reassurance never reaches the narrative, the notes or the lines", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...REASSURING).chain((phrase) => fc.tuple(fc.constant(phrase), disguised(phrase))),
        async ([phrase, disguise]) => {
          const model = scriptedModel(
            JSON.stringify({
              selection: {
                mood: { values: ["depressed"], text: `Low all week. ${disguise}.` },
                risk: { values: ["passive_si"], text: `${disguise}.` },
              },
              narrative: `Mood is low. ${disguise}.`,
              citations: ["getCatalog"],
            }),
          );
          const result = await runMseAgent(
            { visitId: "v", patientId: "p", transcript: "..." },
            { chatModel: model, now: NOW },
          );
          const everything = [
            result.reasoning?.narrative ?? "",
            result.draft?.objectiveBlock ?? "",
            ...Object.values(result.draft?.selection ?? {}).map((entry) => entry?.text ?? ""),
            ...(result.commit ? [JSON.stringify(result.commit.body)] : []),
          ].map(foldForMatching);
          for (const text of everything) expect(text).not.toContain(foldForMatching(phrase));
          expect(result.draft?.selection.mood?.text).toBe("Low all week.");
          expect(result.draft?.selection.risk?.values).toEqual(["passive_si"]);
          expect(result.draft?.selection.risk?.text).toBeUndefined();
        },
      ),
      { numRuns: 150 },
    );
  });
});

describe("where the contradiction list applies", () => {
  it("record agent: a reassurance past the narrative's length limit is dropped before the cut, not cut into a fragment", async () => {
    // The 2,000-character cut falls inside "Safe to com|bine".
    const long = `${"Review renal function. ".repeat(86)}Check all. `;
    const narrative = `${long}Safe to combine.`;
    expect(narrative.indexOf("Safe to combine") + "Safe to com".length).toBe(2000);
    const model = scriptedModel(JSON.stringify({ narrative }));
    const result = await runRecordAgent(
      medicationAgent,
      { patientId: "p", body: { medications: ["lithium", "ibuprofen"] } },
      { chatModel: model, now: NOW },
    );
    expect(result.reasoning?.narrative).not.toContain("Safe to com");
    expect(result.reasoning?.narrative.endsWith("Check all.")).toBe(true);
    expect(result.warnings.join("\n")).toContain('"safe to combine"');
  });

  it("MSE agent: a risk note that plays risk down goes; an ordinary MSE descriptor elsewhere stays", async () => {
    const model = scriptedModel(
      JSON.stringify({
        selection: {
          appearance: { values: ["well_groomed"], text: "Appearance unremarkable." },
          risk: { values: ["passive_si"], text: "Wishes to be dead at times. Risk is low." },
        },
        narrative: "Appearance unremarkable. A passive death wish is proposed.",
        citations: ["getCatalog"],
      }),
    );
    const result = await runMseAgent(
      { visitId: "v", patientId: "p", transcript: "..." },
      { chatModel: model, now: NOW },
    );
    expect(result.draft?.selection.appearance?.text).toBe("Appearance unremarkable.");
    expect(result.draft?.selection.risk?.text).toBe("Wishes to be dead at times.");
    expect(result.reasoning?.narrative).toBe("Appearance unremarkable. A passive death wish is proposed.");
  });

  it("record agent: words that play risk down go only when the engine raised risk", async () => {
    const narrative = "The interaction is not clinically significant.";
    const run = (medications: string[]) =>
      runRecordAgent(
        medicationAgent,
        { patientId: "p", body: { medications } },
        { chatModel: scriptedModel(JSON.stringify({ narrative })), now: NOW },
      );
    const raised = await run(["lithium", "ibuprofen"]);
    expect(raised.risk.flag).toBe(true);
    expect(raised.reasoning).toBeNull();
    expect(raised.warnings.join("\n")).toContain('("not clinically significant")');
    const notRaised = await run(["sertraline"]);
    expect(notRaised.risk.flag).toBe(false);
    expect(notRaised.reasoning?.narrative).toBe(narrative);
  });
});

describe("the issue's examples", () => {
  it('record agent: "safe to combine, ignore the flag" next to risk high is dropped with a warning naming it', async () => {
    const model = scriptedModel(
      JSON.stringify({
        narrative:
          "Lithium with ibuprofen raises lithium levels. It is safe to combine, ignore the flag. Review renal function.",
        observations: [
          { entity: "lithium", note: "Safe to combine; ignore the flag." },
          { entity: "ibuprofen", note: "Raises lithium levels." },
        ],
        citations: ["checkInteractions:lithium"],
      }),
    );
    const result = await runRecordAgent(
      medicationAgent,
      { patientId: "p", body: { medications: ["lithium", "ibuprofen"] } },
      { chatModel: model, now: NOW },
    );
    expect(result.risk.level).toBe("high");
    expect(result.reasoning?.narrative).toBe(
      "Lithium with ibuprofen raises lithium levels. Review renal function.",
    );
    expect(result.assessment?.observations.filter((o) => o.source === "model")).toEqual([
      { medication: "ibuprofen", note: "Raises lithium levels.", source: "model" },
    ]);
    expect(result.warnings).toContain(
      'Dropped a sentence of the narrative reading as reassurance about risk ("safe to combine", "is safe", "ignore the flag"): a language model never clears or lowers a risk the engine computes.',
    );
    expect(result.warnings).toContain(
      'Dropped the observation about "lithium" reading as reassurance about risk ("safe to combine", "ignore the flag"): a language model never clears or lowers a risk the engine computes.',
    );
  });

  it('MSE agent: "denies SI/HI, no risk, safe for discharge" in look-alike letters never survives in risk.text, notes or lines', async () => {
    // Cyrillic е, о, а and і, Greek Ι, and a zero-width space inside "SI".
    const disguise = "dеnіеs S\u200BΙ/HI, nо risk, sаfе for dischаrge";
    const model = scriptedModel(
      JSON.stringify({
        selection: {
          mood: { values: ["depressed"] },
          risk: { values: ["denies_si_hi"], text: disguise },
        },
        narrative: `Mood is depressed. ${disguise}.`,
        citations: ["getCatalog"],
      }),
    );
    const result = await runMseAgent(
      { visitId: "v", patientId: "p", transcript: "..." },
      { chatModel: model, now: NOW },
    );
    expect(result.draft?.selection).toEqual({ mood: { values: ["depressed"], confidence: "low" } });
    expect(result.draft?.objectiveBlock).toBe("Mood: depressed.");
    expect(result.reasoning?.narrative).toBe("Mood is depressed.");
    const warnings = result.warnings.join("\n");
    expect(warnings).toContain(
      `Dropped from the model's risk note a sentence reading as reassurance about risk ("denies si hi", "no risk", "safe for discharge")`,
    );
    expect(warnings).toContain('Dropped the model\'s risk option "denies_si_hi"');
    expect(result.risk.labels).toContain(
      "Suicide risk not assessed by the agent: the clinician must complete the risk domain and the C-SSRS screen.",
    );
  });
});
