/**
 * The MSE agent's transcript screen (decision 179) and door parity with the relapse tool
 * (decision 178): an overdose, self-harm or threat described in a transcript raises the
 * proposal's risk with no model configured; a denied concept or unexplained risk language is
 * flagged, never `none`; the relapse tool (as a function and as the agent tool) and the MSE
 * agent's screen find the same concepts in the same words.
 */
import { readRelapseIndicator, SAFETY_CONCEPTS, scoreRelapse } from "@svc/engines";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { RISK_NOT_ASSESSED_LABEL, runMseAgent } from "../src/mse-agent.js";
import { scoreRelapseTool } from "../src/record-tools.js";
import { screenTranscript } from "../src/transcript-screen.js";

const NOW = () => new Date("2026-06-01T10:00:00.000Z");
const base = { visitId: "visit-1", patientId: "pt-1" };
const LEVELS = ["none", "low", "moderate", "high"] as const;
const rank = (level: string) => LEVELS.indexOf(level as (typeof LEVELS)[number]);
const proposalFor = (transcript: string) => runMseAgent({ ...base, transcript }, { now: NOW });

describe("the transcript screen with no model configured", () => {
  it("an overdose described in a transcript raises the risk to high, flagged (it read none before)", async () => {
    const result = await proposalFor(
      "Thanks for coming in. She told me she took 30 paracetamol on Saturday night. She is tired today.",
    );
    expect(result.runner).toBe("deterministic");
    expect(result.draft).toBeNull();
    expect(result.risk.flag).toBe(true);
    expect(result.risk.level).toBe("high");
    expect(result.risk.labels).toEqual([
      "Transcript screen: Overdose (sentence 2; SNOMED CT 1149222004 Overdose (disorder)), for the clinician to assess",
      RISK_NOT_ASSESSED_LABEL,
    ]);
    expect(result.warnings.join("\n")).toContain("The transcript screen found Overdose");
  });

  it.each([
    ["He cut his arms again last night.", "high", "Self-harm"],
    ["Says he will hurt his neighbour if he sees him.", "moderate", "Thoughts or threats of harming others"],
    ["She said she wants to kill the baby.", "high", "Thoughts or threats of harming a child"],
    ["The voices keep telling him to jump.", "moderate", "Command hallucinations"],
    ["He has been thinking about killing himself.", "moderate", "Suicidal ideation"],
    ["She has a plan to end her life on Friday.", "high", "Suicidal plan or intent"],
    ["Stopped her venlafaxine two weeks ago and feels dizzy.", "moderate", "Stopped antidepressant"],
  ])("%s -> %s (%s)", async (transcript, level, label) => {
    const result = await proposalFor(transcript);
    expect(result.risk.level).toBe(level);
    expect(result.risk.flag).toBe(true);
    expect(result.risk.labels.join("\n")).toContain(`Transcript screen: ${label}`);
  });

  it("a denied concept is flagged for the clinician, never read as an absence or none", async () => {
    const result = await proposalFor("She denies cutting. No thoughts of suicide.");
    expect(result.risk).toMatchObject({ flag: true, level: "low" });
    expect(result.risk.labels).toContain(
      "Transcript screen: Self-harm mentioned as denied or absent (sentence 1); not read as an absence, for the clinician to confirm",
    );
    expect(result.risk.labels).toContain(
      "Transcript screen: Suicidal ideation mentioned as denied or absent (sentence 2); not read as an absence, for the clinician to confirm",
    );
  });

  it("risk language no concept explains is flagged for review", async () => {
    const result = await proposalFor("He talked about the knife in the kitchen drawer.");
    expect(result.risk.flag).toBe(true);
    expect(result.risk.labels[0]).toBe(
      "Transcript screen: risk language not recognised as a safety concept (sentence 1: knife), for the clinician to review",
    );
  });

  it("not assessed reads low and flagged, with or without a transcript, never none", async () => {
    for (const transcript of [undefined, "", "We talked about her garden and the weather."]) {
      const result = await runMseAgent(
        { ...base, ...(transcript === undefined ? {} : { transcript }) },
        { now: NOW },
      );
      expect(result.risk).toEqual({ flag: true, level: "low", labels: [RISK_NOT_ASSESSED_LABEL] });
    }
  });
});

// ---------------------------------------------------------------------------------------------
// Door parity and monotonicity over generated transcripts

const PHRASES = fc.constantFrom(
  "cut her arms last night",
  "slashed his wrists",
  "took 30 paracetamol",
  "took all her pills",
  "says he will hurt his neighbour",
  "wants to kill the baby",
  "voices telling him to jump",
  "tried to hang herself",
  "wrote a suicide note",
  "has thoughts of ending her life",
  "wishes he was dead",
  "stopped venlafaxine",
  "came off his olanzapine",
  "quit lorazepam",
  "needs less sleep",
  "denies cutting",
  "no suicidal thoughts",
  "talks about killing",
  "mood is fine",
  "enjoys gardening",
);
const subject = fc.constantFrom("", "She ", "He ", "The patient ", "Mum says he ");
const textArb = fc
  .array(fc.tuple(subject, PHRASES), { minLength: 1, maxLength: 4 })
  .map((parts) => parts.map(([s, p]) => `${s}${p}`).join(". "));

describe("door parity (decision 178)", () => {
  it("property: the relapse tool, the relapse agent tool and the MSE screen find the same concepts", async () => {
    await fc.assert(
      fc.asyncProperty(textArb, async (text) => {
        const screen = screenTranscript(text);
        const reading = readRelapseIndicator(text);
        expect(reading.concepts, text).toEqual(screen.concepts);
        expect(reading.negatedConcepts, text).toEqual(screen.negated);
        const direct = scoreRelapse([{ indicator: text, severity: 1 }]);
        const viaTool = await scoreRelapseTool.execute({ signals: [{ indicator: text, severity: 1 }] });
        expect(viaTool, text).toEqual(direct);
        // Each concept the screen found is scored by the relapse tool as its indicator.
        const scored = direct.contributing.map((c) => c.indicator);
        for (const key of screen.concepts) {
          const indicator = SAFETY_CONCEPTS.find((c) => c.concept === key)?.indicator;
          expect(scored, `${text}: ${key}`).toContain(indicator);
        }
        // And both doors flag the text whenever either found anything.
        if (screen.risks.length > 0) expect(direct.risk.flag, text).toBe(true);
      }),
      { numRuns: 200 },
    );
  });

  it("property: adding a risk sentence to a transcript never lowers the MSE agent's risk", async () => {
    await fc.assert(
      fc.asyncProperty(
        textArb,
        fc.constantFrom("She took 30 paracetamol", "He cut his arms", "voices telling him to jump"),
        async (text, phrase) => {
          const before = await proposalFor(text);
          const after = await proposalFor(`${text}. ${phrase}.`);
          expect(rank(after.risk.level), text).toBeGreaterThanOrEqual(rank(before.risk.level));
          expect(rank(after.risk.level)).toBeGreaterThanOrEqual(rank("moderate"));
          expect(after.risk.flag).toBe(true);
        },
      ),
      { numRuns: 100 },
    );
  });
});

describe("blind cases through the MSE screen (decision 186)", () => {
  const top = (transcript: string) => {
    const levels = screenTranscript(transcript).risks.map((r) => r.level);
    return ["high", "moderate", "low"].find((l) => levels.includes(l as "high")) ?? "none";
  };

  it("a heading such as 'Clinician note:' does not negate what follows", () => {
    expect(top("Clinician note: cut her arms last night.")).toBe("high");
    expect(top("Clinician note: took 40 paracetamol.")).toBe("high");
  });

  it("sleep loss with pressured speech and spending is a possible prodrome at moderate; one sign stays low", () => {
    const screen = screenTranscript(
      "Clinician note: no sleep for three nights, spending thousands, talking nonstop.",
    );
    expect(screen.risks).toContainEqual(
      expect.objectContaining({
        level: "moderate",
        flag: true,
        labels: [expect.stringContaining("prodrome")],
      }),
    );
    expect(top("Clinician note: talking nonstop.")).toBe("low");
  });
});
