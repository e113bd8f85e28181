/**
 * The safety concepts (decision 178), checked over generated phrasings: each concept is found in
 * any inflection, word order, pronoun, object and filler; text with no concept word raises none;
 * adding a risk phrase never lowers the relapse tool's level; a negated phrase is never read as
 * absent. Blind cases written from the C-SSRS screener's examples, NICE NG225 and the medicine
 * model's classes (the expected concept fixed before the run) come first.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { namesOfClass } from "../src/knowledge/medicines.js";
import {
  readSafetyText,
  SAFETY_CONCEPTS,
  type SafetyConceptKey,
  safetyVocabulary,
  stemWord,
} from "../src/knowledge/safety-concepts.js";
import { getSignalModel, readRelapseIndicator, scoreRelapse } from "../src/tools/relapse-signals.js";
import { AGENT_RISK_LEVELS, type AgentRiskLevel } from "../src/tools/types.js";

const rank = (level: AgentRiskLevel) => AGENT_RISK_LEVELS.indexOf(level);
const conceptsOf = (text: string) => readSafetyText(text).concepts.map((c) => c.concept);
const SAFETY_GROUPS = new Set(["suicide_and_self_harm", "harm_to_others", "psychosis"]);
const isSafetyCritical = (key: SafetyConceptKey) =>
  SAFETY_GROUPS.has(SAFETY_CONCEPTS.find((c) => c.concept === key)?.group ?? "");

describe("blind cases (expected concept fixed before the run)", () => {
  const CASES: [string, SafetyConceptKey][] = [
    ["cut her arms last night", "self_harm"],
    ["slashed his wrists with a razor", "self_harm"],
    ["has been burning her thighs with cigarettes", "self_harm"],
    ["tied a belt round his neck", "self_harm"],
    ["tried to hang herself in the garage", "suicidal_behaviour"],
    ["stood on the bridge and wanted to jump off the bridge", "self_harm"],
    ["drank bleach on Sunday", "self_harm"],
    ["took 30 paracetamol", "overdose"],
    ["took all her pills at once", "overdose"],
    ["OD'd on her lithium", "overdose"],
    ["swallowed a handful of sertraline tablets", "overdose"],
    ["has been stockpiling his quetiapine", "suicidal_behaviour"],
    ["wrote a suicide note", "suicidal_behaviour"],
    ["has a plan to kill himself", "suicidal_plan"],
    ["is having thoughts of ending his life", "suicidal_ideation"],
    ["wishes she was dead", "passive_death_wish"],
    ["doesn't want to wake up in the morning", "passive_death_wish"],
    ["says he will hurt his neighbour", "harm_to_others"],
    ["threatened to stab his brother", "harm_to_others"],
    ["wants to kill the baby", "harm_to_child"],
    ["voices telling him to jump", "command_hallucinations"],
    ["the voice commands her to harm others", "command_hallucinations"],
    ["stopped venlafaxine two weeks ago", "stopped_antidepressant"],
    ["Effexor discontinued, now dizzy with brain zaps", "stopped_antidepressant"],
    ["has come off her sertraline", "stopped_antidepressant"],
    ["ran out of mirtazapine", "stopped_antidepressant"],
    ["stopped Zoloft", "stopped_antidepressant"],
    ["quit clonazepam suddenly", "stopped_benzodiazepine"],
    ["stopped zopiclone", "stopped_benzodiazepine"],
    ["stopped taking his methylphenidate", "stopped_stimulant"],
    ["not taking his olanzapine", "stopped_antipsychotic"],
    ["refused his depot", "stopped_antipsychotic"],
    ["lithium was stopped by the GP", "stopped_mood_stabiliser"],
    ["has not slept for three days and does not feel tired", "decreased_need_for_sleep"],
    ["doesn't need sleep", "decreased_need_for_sleep"],
    ["believes he has special powers", "elevated_mood"],
    ["talking very fast", "pressured_speech"],
    ["spending sprees on credit cards", "increased_activity"],
  ];
  it.each(CASES)("%s -> %s", (text, concept) => {
    expect(conceptsOf(text), text).toContain(concept);
    const reading = readRelapseIndicator(text);
    const indicator = SAFETY_CONCEPTS.find((c) => c.concept === concept)?.indicator;
    expect(
      reading.indicators.map((i) => i.indicator),
      text,
    ).toContain(indicator);
  });

  it("before: 'cut her arms last night' and 'says he will hurt his neighbour' read low, 'stopped venlafaxine' unrecognised", () => {
    for (const text of ["cut her arms last night", "says he will hurt his neighbour"]) {
      const out = scoreRelapse([{ indicator: text, severity: 0.7 }]);
      expect(out.risk.level, text).toBe("high");
      expect(out.unrecognized, text).toEqual([]);
    }
    const stopped = scoreRelapse([{ indicator: "stopped venlafaxine", severity: 1 }]);
    expect(stopped.contributing.map((c) => c.indicator)).toEqual(["medication_nonadherence"]);
    expect(stopped.risk.level).toBe("high");
    expect(stopped.concepts[0]?.concepts.map((c) => c.concept)).toEqual(["stopped_antidepressant"]);
  });

  it("every concept maps to an indicator of the signal model, which publishes the concepts", () => {
    const model = getSignalModel();
    const keys = new Set(model.indicators.map((i) => i.indicator));
    for (const c of SAFETY_CONCEPTS) expect(keys.has(c.indicator), c.concept).toBe(true);
    expect(model.safetyConcepts.map((c) => c.concept)).toEqual(SAFETY_CONCEPTS.map((c) => c.concept));
  });

  it("look-alike letters, hidden characters and compatibility forms do not hide a concept", () => {
    expect(conceptsOf("\u0441ut her \u0430rms")).toContain("self_harm");
    expect(conceptsOf("ki\u200Bll himself")).toContain("suicidal_ideation");
    expect(conceptsOf("\uFF2F\uFF36\uFF25\uFF32\uFF24\uFF2F\uFF33\uFF25\uFF24")).toContain("overdose");
  });

  it("reads the positive part of a mixed sentence and flags the negated part", () => {
    const reading = readSafetyText("he is not suicidal but cut his arm");
    expect(reading.concepts.map((c) => c.concept)).toEqual(["self_harm"]);
    expect(reading.negated.map((c) => c.concept)).toEqual(["suicidal_ideation"]);
    // Risk words without a concept are reported for review, not dropped.
    expect(readSafetyText("she cut her hair").unexplainedRiskWords).toEqual([
      { sentence: 0, words: ["cut"] },
    ]);
  });

  it("codes only the verified SNOMED CT concepts", () => {
    const coded = Object.fromEntries(
      SAFETY_CONCEPTS.filter((c) => c.code).map((c) => [c.concept, c.code?.code]),
    );
    expect(coded).toEqual({
      suicidal_behaviour: "82313006",
      overdose: "1149222004",
      self_harm: "248062006",
      suicidal_ideation: "6471006",
    });
  });
});

// ---------------------------------------------------------------------------------------------
// Generated phrasings

const subject = fc.constantFrom(
  "",
  "She ",
  "He ",
  "They ",
  "The patient ",
  "Patient reports he ",
  "Mum says she ",
);
const filler = fc.constantFrom(
  "",
  " last night",
  " again",
  " yesterday",
  " on Friday",
  " this week",
  " at home",
);
const possessive = fc.constantFrom("her", "his", "their", "my", "both");

const selfHarmArb = fc
  .record({
    s: subject,
    verb: fc.constantFrom(
      "cut",
      "cuts",
      "cutting",
      "cutted",
      "slashed",
      "slashes",
      "slit",
      "sliced",
      "scratched",
    ),
    p: possessive,
    part: fc.constantFrom("arm", "arms", "wrist", "wrists", "leg", "legs", "thighs", "skin"),
    f: filler,
  })
  .map(({ s, verb, p, part, f }) => `${s}${verb} ${p} ${part}${f}`);

const overdoseArb = fc.oneof(
  fc
    .record({
      s: subject,
      verb: fc.constantFrom("took", "takes", "taking", "has taken", "swallowed", "swallows"),
      qty: fc.constantFrom(
        "30",
        "20",
        "50",
        "all her",
        "all his",
        "a handful of",
        "a whole bottle of",
        "twenty",
      ),
      what: fc.constantFrom("paracetamol", "pills", "tablets", "sertraline", "lithium tablets", "co-codamol"),
      f: filler,
    })
    .map(({ s, verb, qty, what, f }) => `${s}${verb} ${qty} ${what}${f}`),
  fc
    .record({
      s: subject,
      v: fc.constantFrom("overdosed", "OD'd", "ODed", "took an overdose", "overdoses"),
      f: filler,
    })
    .map(({ s, v, f }) => `${s}${v}${f}`),
);

const harmOthersArb = fc
  .record({
    s: subject,
    frame: fc.constantFrom(
      "says he will",
      "wants to",
      "threatened to",
      "is going to",
      "keeps thinking he might",
    ),
    verb: fc.constantFrom("hurt", "kill", "stab", "attack", "harm", "strangle"),
    target: fc.constantFrom(
      "his neighbour",
      "her husband",
      "someone",
      "the nurse",
      "people",
      "a stranger",
      "him",
    ),
    f: filler,
  })
  .map(({ s, frame, verb, target, f }) => `${s}${frame} ${verb} ${target}${f}`);

const harmChildArb = fc
  .record({
    frame: fc.constantFrom("wants to", "said she would", "threatened to", "might"),
    verb: fc.constantFrom("hurt", "kill", "harm", "smother", "shake and hurt"),
    target: fc.constantFrom("the baby", "her son", "his daughter", "the children", "the kids", "her infant"),
  })
  .map(({ frame, verb, target }) => `${frame} ${verb} ${target}`);

const commandArb = fc
  .record({
    voices: fc.constantFrom("voices", "the voice", "a voice", "hallucinated voices", "the voices"),
    verb: fc.constantFrom("telling", "tell", "tells", "told", "commanding", "ordering", "instructing"),
    who: fc.constantFrom("him", "her", "them", "me"),
    act: fc.constantFrom("jump", "hurt people", "kill himself", "go outside", "stop eating"),
  })
  .map(({ voices, verb, who, act }) => `${voices} ${verb} ${who} to ${act}`);

/** Stopping a medicine of each class: any name or brand of the medicine model, any order and tense. */
const STOP_CLASSES: [SafetyConceptKey, string[]][] = [
  ["stopped_antidepressant", namesOfClass("antidepressant")],
  ["stopped_antipsychotic", namesOfClass("antipsychotic")],
  ["stopped_mood_stabiliser", namesOfClass("mood_stabiliser")],
  ["stopped_benzodiazepine", [...namesOfClass("benzodiazepine"), ...namesOfClass("z_drug")]],
  ["stopped_stimulant", namesOfClass("stimulant")],
];
const STOP_FRAMES = [
  (m: string) => `stopped ${m}`,
  (m: string) => `She stopped her ${m} last week`,
  (m: string) => `${m} stopped`,
  (m: string) => `${m} was discontinued`,
  (m: string) => `has come off ${m}`,
  (m: string) => `is not taking his ${m}`,
  (m: string) => `no longer taking ${m}`,
  (m: string) => `ran out of ${m} on Monday`,
  (m: string) => `quit ${m}`,
  (m: string) => `stops ${m} whenever he feels well`,
  (m: string) => `missed ${m} doses`,
  (m: string) => `${m} withdrawal`,
];
const stopArb = fc
  .constantFrom(...STOP_CLASSES)
  .chain(([concept, names]) =>
    fc
      .record({ name: fc.constantFrom(...names), frame: fc.constantFrom(...STOP_FRAMES) })
      .map(({ name, frame }) => ({ concept, text: frame(name) })),
  );

const ideationArb = fc
  .record({
    s: subject,
    p: fc.constantFrom(
      "is suicidal",
      "has suicidal thoughts",
      "having thoughts of suicide",
      "wants to kill herself",
      "talks about ending his life",
      "thinking about killing himself",
      "wants to end it all",
    ),
    f: filler,
  })
  .map(({ s, p, f }) => `${s}${p}${f}`);

const GENERATED: [string, SafetyConceptKey, fc.Arbitrary<string>][] = [
  ["self-harm", "self_harm", selfHarmArb],
  ["overdose", "overdose", overdoseArb],
  ["harm to others", "harm_to_others", harmOthersArb],
  ["harm to a child", "harm_to_child", harmChildArb],
  ["command hallucinations", "command_hallucinations", commandArb],
  ["suicidal ideation", "suicidal_ideation", ideationArb],
];

describe("generated phrasings of each concept (decision 178)", () => {
  it.each(GENERATED)("property: any phrasing of %s is recognised, by both readers", (_, concept, arb) => {
    fc.assert(
      fc.property(arb, fc.double({ min: 0.01, max: 1, noNaN: true }), (text, severity) => {
        expect(conceptsOf(text), text).toContain(concept);
        const out = scoreRelapse([{ indicator: text, severity }]);
        expect(out.risk.level, text).toBe("high");
        expect(
          out.concepts[0]?.concepts.map((c) => c.concept),
          text,
        ).toContain(concept);
      }),
      { numRuns: 200 },
    );
  });

  it("property: stopping any psychotropic of the medicine model, by name or brand, in any order and tense, is its class's concept", () => {
    fc.assert(
      fc.property(stopArb, ({ concept, text }) => {
        expect(conceptsOf(text), text).toContain(concept);
        const out = scoreRelapse([{ indicator: text, severity: 1 }]);
        expect(out.risk.level, text).toBe("high");
        expect(out.unrecognized, text).toEqual([]);
      }),
      { numRuns: 400 },
    );
  });
});

// ---------------------------------------------------------------------------------------------
// No concept without its words; adding a risk phrase never lowers; negation never clears

const NEUTRAL = [
  "the patient walked to the clinic today",
  "mood is fine and she likes gardening",
  "talked about work and family",
  "went on holiday by bus",
  "reads books in the kitchen",
  "appetite good",
  "attends college three days a week",
  "her sister visited on Sunday",
];
const vocabulary = safetyVocabulary();
const neutralWord = fc
  .stringMatching(/^[a-z]{2,9}$/)
  .filter((w) => !vocabulary.has(stemWord(w)) && !vocabulary.has(w));
const neutralTextArb = fc
  .array(fc.oneof(fc.constantFrom(...NEUTRAL), neutralWord), { minLength: 1, maxLength: 12 })
  .map((parts) => parts.join(" "));

const RISK_PHRASES = [
  "cut her arms last night",
  "took 30 paracetamol",
  "says he will hurt his neighbour",
  "voices telling him to jump",
  "wants to kill himself",
  "tried to hang herself",
];

describe("no concept without its words; more risk never lowers; negation never clears", () => {
  it("property: text without any word of the concepts or the risk lexicon raises no concept and flags nothing", () => {
    fc.assert(
      fc.property(neutralTextArb, (text) => {
        const reading = readSafetyText(text);
        expect(reading.concepts, text).toEqual([]);
        expect(reading.negated, text).toEqual([]);
        expect(reading.unexplainedRiskWords, text).toEqual([]);
      }),
      { numRuns: 400 },
    );
  });

  it("property: adding a risk phrase to any indicator never lowers the relapse tool's level", () => {
    const anyText = fc.oneof(
      neutralTextArb,
      fc.constantFrom("insomnia", "no suicidal ideation", "stopped lithium", "denies cutting", "low mood"),
      fc.string({ maxLength: 30 }),
    );
    fc.assert(
      fc.property(
        anyText,
        fc.constantFrom(...RISK_PHRASES),
        fc.double({ min: 0.01, max: 1, noNaN: true }),
        (text, phrase, severity) => {
          const before = scoreRelapse([{ indicator: text, severity }]);
          const after = scoreRelapse([{ indicator: `${text}. ${phrase}`, severity }]);
          expect(rank(after.risk.level), `${text}. ${phrase}`).toBeGreaterThanOrEqual(
            rank(before.risk.level),
          );
          expect(after.risk.level).toBe("high");
        },
      ),
      { numRuns: 300 },
    );
  });

  it("property: a negated concept is never a positive, never none, and stays flagged", () => {
    const positive = fc.oneof(selfHarmArb, overdoseArb, harmOthersArb, commandArb, ideationArb);
    const negate = fc.constantFrom(
      (s: string) => `denies ${s}`,
      (s: string) => `no ${s}`,
      (s: string) => `never ${s}`,
      (s: string) => `${s}: denied`,
    );
    fc.assert(
      fc.property(positive, negate, (text, frame) => {
        const phrase = frame(text.replace(/^(She|He|They|The patient|Patient reports he|Mum says she) /, ""));
        const reading = readSafetyText(phrase);
        const out = scoreRelapse([{ indicator: phrase, severity: 1 }]);
        expect(out.risk.flag, phrase).toBe(true);
        expect(out.risk.level, phrase).not.toBe("none");
        if (reading.concepts.length === 0) {
          expect(reading.negated.length, phrase).toBeGreaterThan(0);
          expect(
            out.notScored.map((n) => n.reason),
            phrase,
          ).toContain("negated");
          if (reading.negated.some((c) => isSafetyCritical(c.concept)))
            expect(out.risk.level, phrase).toBe("moderate");
        }
      }),
      { numRuns: 300 },
    );
  });

  it("risk language that no concept explains is reviewed at moderate, never low", () => {
    for (const text of ["talks about killing", "carries a knife", "mentions the gun in the house"]) {
      const out = scoreRelapse([{ indicator: text, severity: 0.5 }]);
      expect(out.risk.level, text).toBe("moderate");
      expect(out.notScored[0]?.riskWords?.length, text).toBeGreaterThan(0);
    }
    expect(scoreRelapse([{ indicator: "moon phase", severity: 0.5 }]).risk.level).toBe("low");
  });

  it("a phrase with a positive and a negated part is scored for the positive and flagged for the other", () => {
    const out = scoreRelapse([{ indicator: "stopped lithium, denies SI", severity: 0.2 }]);
    expect(out.contributing.map((c) => c.indicator)).toEqual(["mood_stabiliser_discontinuation"]);
    expect(out.notScored).toEqual([
      { indicator: "stopped lithium, denies SI", reason: "negated", negates: "suicidality", partly: true },
    ]);
    expect(out.risk).toMatchObject({ flag: true, level: "moderate" });
  });
});

describe("negation is a word, not a stem; a cluster of mania signs (decision 186)", () => {
  // Found by the blind cases: "Clinician note: cut her arms last night" read as a denied self-harm,
  // because "note" stemmed to "not".
  const POSITIVES: [string, SafetyConceptKey][] = [
    ["cut her arms last night", "self_harm"],
    ["took 30 paracetamol", "overdose"],
    ["says he will hurt his neighbour", "harm_to_others"],
    ["stopped venlafaxine", "stopped_antidepressant"],
  ];
  /** Words that share letters or a stem with a negation word but negate nothing. */
  const NOT_NEGATIONS = [
    "note",
    "notes",
    "noted",
    "noting",
    "notable",
    "knot",
    "nothingness",
    "nod",
    "node",
    "nose",
    "denim",
    "freedom",
    "nonetheless",
  ];

  it("property: a heading or word before a positive phrase that looks like a negation never negates it", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...POSITIVES),
        fc.constantFrom(...NOT_NEGATIONS),
        fc.constantFrom("Clinician", "Ward", "Nurse", ""),
        ([phrase, concept], word, who) => {
          const text = `${who} ${word}: ${phrase}`.trim();
          const read = readSafetyText(text);
          expect(read.concepts.map((c) => c.concept)).toContain(concept);
          expect(read.negated.map((c) => c.concept)).not.toContain(concept);
        },
      ),
      { numRuns: 200 },
    );
  });

  it("a real negation before the phrase still negates it", () => {
    expect(readSafetyText("Clinician note: denies cutting her arms").negated.map((c) => c.concept)).toContain(
      "self_harm",
    );
    expect(stemWord("note")).not.toBe(stemWord("not"));
  });

  it("sleep loss with pressured speech and spending is a possible manic prodrome in the relapse tool", () => {
    const text = "no sleep for three nights, spending thousands, talking nonstop";
    expect(conceptsOf(text)).toEqual(
      expect.arrayContaining(["sleep_loss", "pressured_speech", "increased_activity"]),
    );
    const out = scoreRelapse([{ indicator: text, severity: 0.8 }]);
    expect(out.rules.map((r) => r.rule)).toContain("sleep_loss_with_mania_signs");
    expect(rank(out.risk.level)).toBeGreaterThanOrEqual(rank("moderate"));
    expect(out.risk.flag).toBe(true);
  });

  it("property: sleep loss alone, or with one other sign, is not a prodrome; with both others it is", () => {
    const SLEEP = ["no sleep for two nights", "has not slept for three nights", "up all night", "sleepless"];
    const SPEECH = ["talking nonstop", "racing thoughts", "pressured speech"];
    const SPEND = ["spending thousands", "overspending", "boundless energy"];
    fc.assert(
      fc.property(
        fc.constantFrom(...SLEEP),
        fc.constantFrom(...SPEECH),
        fc.constantFrom(...SPEND),
        fc.subarray([0, 1, 2] as const, { minLength: 1 }),
        (sleep, speech, spend, parts) => {
          const phrases = [sleep, speech, spend];
          const signals = parts.map((i) => ({ indicator: phrases[i] as string, severity: 0.8 }));
          const rules = scoreRelapse(signals).rules.map((r) => r.rule);
          expect(rules.includes("sleep_loss_with_mania_signs")).toBe(parts.length === 3);
        },
      ),
      { numRuns: 100 },
    );
  });
});
