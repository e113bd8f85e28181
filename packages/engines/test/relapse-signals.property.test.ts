/**
 * The relapse signal model's safety rules, checked over the whole input space (decisions 76-78)
 * and on the examples that were wrong before: safety-critical indicators, negation, unscored
 * names, a stopped mood stabiliser with reduced sleep, a manic prodrome.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ANTIPSYCHOTICS_NOT_MODELLED, namesOfClass } from "../src/knowledge/medicines.js";
import {
  findRelapseIndicator,
  RELAPSE_INDICATORS,
  type RelapseSignalInput,
  readRelapseIndicator,
  scoreRelapse,
} from "../src/tools/relapse-signals.js";
import { AGENT_RISK_LEVELS, type AgentRiskLevel } from "../src/tools/types.js";

const rank = (level: AgentRiskLevel) => AGENT_RISK_LEVELS.indexOf(level);
const BAND_ORDER = ["low", "moderate", "elevated", "high"];

/** Every name the model publishes, with the indicator it belongs to. */
const NAMES = RELAPSE_INDICATORS.flatMap((i) =>
  [i.indicator, i.label, ...i.aliases].map((name) => ({ name, key: i.indicator })),
);
const PUBLISHED = new Set(NAMES.map((n) => n.name.toLowerCase()));
const namesOf = (key: string) => NAMES.filter((n) => n.key === key).map((n) => n.name);
const SAFETY_CRITICAL = RELAPSE_INDICATORS.filter((i) => i.review?.immediate === 0).map((i) => i.indicator);
/** Names that carry a negation word of their own ("no need for sleep", "not sleeping"). */
const SELF_NEGATING = /\b(no|not|none|without)\b/i;

const severityArb = fc.double({ min: 0, max: 1, noNaN: true });
const positiveSeverityArb = fc.double({ min: Number.EPSILON, max: 1, noNaN: true });
const unknownNameArb = fc
  .string({ minLength: 1, maxLength: 24 })
  .filter((s) => readRelapseIndicator(s).indicator === null);
const nameArb = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...NAMES.map((n) => n.name)) },
  { weight: 1, arbitrary: fc.constantFrom("moon phase", "stopped sertraline", "lithium level") },
  { weight: 1, arbitrary: fc.constantFrom("no suicidal ideation", "denies voices", "insomnia resolved") },
  { weight: 1, arbitrary: unknownNameArb },
);
const signalArb: fc.Arbitrary<RelapseSignalInput> = fc.record({ indicator: nameArb, severity: severityArb });
const signalsArb = fc.array(signalArb, { maxLength: 25 });

/** Random case per letter and random separators between words, with stray punctuation around. */
const respelledArb = (name: string) =>
  fc
    .record({
      upper: fc.array(fc.boolean(), { minLength: name.length, maxLength: name.length }),
      separator: fc.constantFrom(" ", "-", "_", "  ", ".", "/", " - "),
      before: fc.constantFrom("", " ", '"', "(", "- "),
      after: fc.constantFrom("", " ", ".", "!", ")", '"', ":"),
    })
    .map(({ upper, separator, before, after }) => {
      const cased = [...name].map((c, i) => (upper[i] ? c.toUpperCase() : c.toLowerCase())).join("");
      return before + cased.split(/[\s_-]+/).join(separator) + after;
    });

describe("safety-critical indicators (decision 76)", () => {
  it("a severity-1.0 'suicidal ideation' is flagged, high, for immediate review", () => {
    const out = scoreRelapse([{ indicator: "suicidal ideation", severity: 1 }]);
    expect(out.band).toBe("high");
    expect(out.compositeScore).toBe(60);
    expect(out.risk.flag).toBe(true);
    expect(out.risk.level).toBe("high");
    expect(out.risk.labels[0]).toBe(
      "Immediate clinician review: Suicidal ideation or self-harm at severity 1 (safety-critical indicator, never weighed against other signals)",
    );
    expect(out.rules).toEqual([
      expect.objectContaining({
        rule: "immediate_review",
        indicators: ["suicidality"],
        band: "high",
        floor: 60,
      }),
    ]);
  });

  it("'command hallucinations' at any severity above 0 is high, even diluted by 20 zero signals", () => {
    const zeros = RELAPSE_INDICATORS.filter((i) => i.indicator !== "command_hallucinations").map((i) => ({
      indicator: i.indicator,
      severity: 0,
    }));
    const out = scoreRelapse([...zeros, { indicator: "Command hallucinations", severity: 0.05 }]);
    expect(out).toMatchObject({ band: "high", risk: { flag: true, level: "high" } });
    expect(out.risk.labels[0]).toMatch(
      /^Immediate clinician review: Command hallucinations at severity 0.05/,
    );
  });

  it("at severity 0 a safety-critical indicator reports an absence: no rule fires", () => {
    const out = scoreRelapse([{ indicator: "suicidal ideation", severity: 0 }]);
    expect(out.rules).toEqual([]);
    expect(out.risk.level).toBe("none");
  });

  it("psychotic symptoms: clinician review above 0, immediate review from 0.5", () => {
    const low = scoreRelapse([{ indicator: "hearing voices", severity: 0.2 }]);
    expect(low).toMatchObject({
      band: "elevated",
      compositeScore: 40,
      risk: { level: "moderate", flag: true },
    });
    expect(low.risk.labels[0]).toBe("Clinician review: Psychotic symptoms at severity 0.2");
    const high = scoreRelapse([{ indicator: "delusions", severity: 0.5 }]);
    expect(high).toMatchObject({ band: "high", risk: { level: "high" } });
    expect(high.risk.labels[0]).toMatch(/^Immediate clinician review: Psychotic symptoms at severity 0.5/);
  });

  it("hopelessness from 0.5 asks for clinician review (elevated band)", () => {
    expect(scoreRelapse([{ indicator: "hopelessness", severity: 0.5 }])).toMatchObject({
      band: "elevated",
      risk: { level: "moderate" },
    });
    expect(scoreRelapse([{ indicator: "hopelessness", severity: 0.4 }]).rules).toEqual([]);
  });

  it("property: a safety-critical indicator at any severity > 0 always flags with level high", () => {
    const safetyName = fc.constantFrom(...SAFETY_CRITICAL.flatMap(namesOf));
    fc.assert(
      fc.property(signalsArb, safetyName, positiveSeverityArb, fc.nat(), (others, name, severity, at) => {
        const signals = [...others];
        signals.splice(at % (signals.length + 1), 0, { indicator: name, severity });
        const out = scoreRelapse(signals);
        expect(out.risk.flag).toBe(true);
        expect(out.risk.level).toBe("high");
        expect(out.band).toBe("high");
        expect(out.risk.labels.some((l) => l.startsWith("Immediate clinician review: "))).toBe(true);
      }),
      { numRuns: 400 },
    );
  });
});

describe("monotonicity", () => {
  it("property: adding any indicator never lowers the composite or the risk level", () => {
    fc.assert(
      fc.property(signalsArb, signalArb, fc.nat(), (signals, extra, at) => {
        const before = scoreRelapse(signals);
        const withExtra = [...signals];
        withExtra.splice(at % (signals.length + 1), 0, extra);
        const after = scoreRelapse(withExtra);
        expect(after.compositeScore).toBeGreaterThanOrEqual(before.compositeScore);
        expect(rank(after.risk.level)).toBeGreaterThanOrEqual(rank(before.risk.level));
        expect(BAND_ORDER.indexOf(after.band)).toBeGreaterThanOrEqual(BAND_ORDER.indexOf(before.band));
      }),
      { numRuns: 400 },
    );
  });

  it("property: raising any severity never lowers the composite or the risk level", () => {
    fc.assert(
      fc.property(
        fc.array(signalArb, { minLength: 1, maxLength: 25 }),
        fc.nat(),
        severityArb,
        (signals, pick, raise) => {
          const i = pick % signals.length;
          const before = scoreRelapse(signals);
          const raised = signals.map((s, j) =>
            j === i ? { ...s, severity: Math.min(1, s.severity + raise * (1 - s.severity)) } : s,
          );
          const after = scoreRelapse(raised);
          expect(after.compositeScore).toBeGreaterThanOrEqual(before.compositeScore);
          expect(rank(after.risk.level)).toBeGreaterThanOrEqual(rank(before.risk.level));
        },
      ),
      { numRuns: 400 },
    );
  });
});

describe("names that are not scored (decision 77)", () => {
  it("property: an unrecognised indicator never yields risk none, and is named", () => {
    fc.assert(
      fc.property(signalsArb, unknownNameArb, severityArb, (signals, name, severity) => {
        const out = scoreRelapse([...signals, { indicator: name, severity }]);
        expect(out.risk.level).not.toBe("none");
        expect(out.risk.flag).toBe(true);
        expect(out.unrecognized).toContain(name);
        expect(out.notScored.some((n) => n.indicator === name)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it("'no suicidal ideation' is neither the positive indicator nor dropped: not scored, with a warning", () => {
    const out = scoreRelapse([{ indicator: "no suicidal ideation", severity: 1 }]);
    expect(out.contributing).toEqual([]);
    expect(out.rules).toEqual([]);
    expect(out.unrecognized).toEqual(["no suicidal ideation"]);
    expect(out.notScored).toEqual([
      { indicator: "no suicidal ideation", reason: "negated", negates: "suicidality" },
    ]);
    expect(out.warnings).toContain(
      'Negated relapse indicator "no suicidal ideation": not scored and not read as an absence; send an absent sign as the indicator with severity 0.',
    );
    // A negated safety-critical name asks the clinician to confirm (moderate), never none or high.
    expect(out.risk.level).toBe("moderate");
    expect(out.risk.labels).toContain(
      'Clinician review: "no suicidal ideation" reads as a negated safety-critical indicator and was not scored; confirm directly',
    );
    const other = scoreRelapse([
      { indicator: "insomnia", severity: 0.1 },
      { indicator: "no anxiety", severity: 1 },
    ]);
    expect(other.risk).toEqual({
      flag: true,
      level: "low",
      labels: ['Not scored: negated indicator "no anxiety"'],
    });
  });

  it("property: a negated name is never read as its positive indicator", () => {
    const negatable = NAMES.filter((n) => !SELF_NEGATING.test(n.name));
    const framed = fc
      .record({
        name: fc.constantFrom(...negatable),
        frame: fc.constantFrom(
          (s: string) => `no ${s}`,
          (s: string) => `denies ${s}`,
          (s: string) => `Not ${s}`,
          (s: string) => `without ${s}`,
          (s: string) => `${s}: none`,
          (s: string) => `${s} denied`,
          (s: string) => `${s} absent`,
          (s: string) => `${s} resolved`,
          (s: string) => `doesn't report ${s}`,
        ),
      })
      .map(({ name, frame }) => ({ ...name, phrase: frame(name.name) }))
      // "no sleep" is itself a published name (of sleep disruption): it is read as that name.
      .filter(({ phrase }) => !PUBLISHED.has(phrase.toLowerCase()));
    fc.assert(
      fc.property(framed, ({ phrase, key }) => {
        const reading = readRelapseIndicator(phrase);
        expect(reading.indicator, phrase).toBeNull();
        expect(reading.negated, phrase).toBe(true);
        const out = scoreRelapse([{ indicator: phrase, severity: 1 }]);
        expect(out.notScored, phrase).toEqual([expect.objectContaining({ reason: "negated" })]);
        expect(out.risk.level).not.toBe("none");
        if (SAFETY_CRITICAL.includes(key)) expect(out.risk.level, phrase).toBe("moderate");
      }),
      { numRuns: 400 },
    );
  });
});

describe("alias matching (decision 77)", () => {
  it("property: every name in any case and punctuation maps to the same indicator", () => {
    const respelled = fc
      .constantFrom(...NAMES)
      .chain((n) => respelledArb(n.name).map((spelled) => ({ ...n, spelled })));
    fc.assert(
      fc.property(respelled, ({ spelled, key }) => {
        expect(findRelapseIndicator(spelled)?.indicator, spelled).toBe(key);
      }),
      { numRuns: 600 },
    );
  });

  it("property: the words of a name in another order, or pluralised, never name a different indicator", () => {
    const multiWord = NAMES.filter((n) => n.name.trim().includes(" "));
    fc.assert(
      fc.property(fc.constantFrom(...multiWord), fc.boolean(), ({ name, key }, plural) => {
        const words = name.split(" ").reverse();
        if (plural && !words[0]?.endsWith("s")) words[0] = `${words[0]}s`;
        const found = findRelapseIndicator(words.join(" "));
        if (found) expect(found.indicator, words.join(" ")).toBe(key);
      }),
      { numRuns: 300 },
    );
  });

  it("reads plurals, word order, US spelling and longer phrases", () => {
    const cases: [string, string][] = [
      ["Suicidal Thought", "suicidality"],
      ["ideation, suicidal", "suicidality"],
      ["passive suicidal thoughts at night", "suicidality"],
      ["wants to die", "suicidality"],
      ["SELF HARM", "suicidality"],
      ["hearing voices again", "psychotic_symptoms"],
      ["paranoid delusions", "psychotic_symptoms"],
      ["voices telling him to hurt himself", "command_hallucinations"],
      ["command auditory hallucinations", "command_hallucinations"],
      ["sleep need reduced", "decreased_need_for_sleep"],
      ["sleep reduced", "sleep_disruption"],
      ["hallucinations, command", "command_hallucinations"],
      ["Decreased need for sleep", "decreased_need_for_sleep"],
      ["need for sleep, decreased", "decreased_need_for_sleep"],
      ["elevated mood", "elevated_mood"],
      ["hypomanic", "elevated_mood"],
      ["euphoric", "elevated_mood"],
      ["Racing thoughts", "racing_thoughts"],
      ["thoughts racing", "racing_thoughts"],
      ["feeling hopeless", "hopelessness"],
      ["low mood", "low_mood"],
      ["mood stabilizer discontinuation", "mood_stabiliser_discontinuation"],
    ];
    for (const [name, key] of cases) expect(findRelapseIndicator(name)?.indicator, name).toBe(key);
  });
});

describe("a stopped mood stabiliser (decision 78)", () => {
  const MEDICINES = [
    "lithium",
    "valproate",
    "lamotrigine",
    "carbamazepine",
    "quetiapine",
    "olanzapine",
    "antipsychotic",
    "mood stabilizer",
    "depot",
  ];
  const TEMPLATES = [
    (m: string) => `stopped ${m}`,
    (m: string) => `${m} stopped`,
    (m: string) => `Stopped taking ${m}`,
    (m: string) => `not taking ${m}`,
    (m: string) => `no longer taking his ${m}`,
    (m: string) => `missed ${m} doses`,
    (m: string) => `${m} discontinued`,
    (m: string) => `off ${m}`,
    (m: string) => `poor adherence to ${m}`,
    (m: string) => `${m} non-adherence`,
  ];

  it("property: any phrasing of stopping a named mood stabiliser or antipsychotic is recognised", () => {
    fc.assert(
      fc.property(fc.constantFrom(...MEDICINES), fc.constantFrom(...TEMPLATES), (medicine, template) => {
        const phrase = template(medicine);
        expect(findRelapseIndicator(phrase)?.indicator, phrase).toBe("mood_stabiliser_discontinuation");
      }),
    );
  });

  it("property: every name and brand of the medicine model's mood stabilisers and antipsychotics, stopped, is recognised", () => {
    const names = [
      ...namesOfClass("mood_stabiliser"),
      ...namesOfClass("antipsychotic"),
      ...ANTIPSYCHOTICS_NOT_MODELLED,
    ];
    expect(names).toEqual(expect.arrayContaining(["depakote", "lamictal", "seroquel", "zyprexa", "abilify"]));
    fc.assert(
      fc.property(fc.constantFrom(...names), fc.constantFrom(...TEMPLATES), (medicine, template) => {
        const phrase = template(medicine);
        expect(findRelapseIndicator(phrase)?.indicator, phrase).toBe("mood_stabiliser_discontinuation");
      }),
    );
  });

  it.each([
    "stopped Depakote",
    "Lamictal stopped",
    "not taking her Seroquel",
    "off Zyprexa",
    "missed Abilify Maintena injection",
    "stopped Priadel",
    "Tegretol discontinued",
    "stopped zuclopenthixol depot",
    "stopped Symbyax",
  ])("a brand or generic name, stopped, is a stopped mood stabiliser or antipsychotic: %s", (phrase) => {
    expect(findRelapseIndicator(phrase)?.indicator).toBe("mood_stabiliser_discontinuation");
  });

  it("'stopped Depakote' with short sleep is high, for prompt review (a brand name was not recognised before)", () => {
    const out = scoreRelapse([
      { indicator: "stopped Depakote", severity: 0.8 },
      { indicator: "short sleep", severity: 0.6 },
    ]);
    expect(out.risk.level).toBe("high");
    expect(out.rules.map((r) => r.rule)).toContain("mood_stabiliser_stopped_with_sleep_loss");
    expect(out.unrecognized).toEqual([]);
  });

  it("medicines outside the two classes are not read as a stopped mood stabiliser", () => {
    for (const phrase of ["stopped sertraline", "stopped Zoloft", "stopped ibuprofen", "stopped gabapentin"])
      expect(findRelapseIndicator(phrase)?.indicator, phrase).not.toBe("mood_stabiliser_discontinuation");
  });

  it("taking or monitoring a medicine is not stopping it", () => {
    for (const phrase of [
      "good adherence to lithium",
      "taking lithium",
      "lithium level",
      "never stopped lithium",
    ])
      expect(findRelapseIndicator(phrase), phrase).toBeNull();
    expect(readRelapseIndicator("never stopped lithium")).toMatchObject({ negated: true });
  });

  it("'stopped lithium' + 'short sleep' is high, for prompt review (was 24, moderate band, risk low)", () => {
    const out = scoreRelapse([
      { indicator: "stopped lithium", severity: 0.5 },
      { indicator: "short sleep", severity: 0.5 },
    ]);
    expect(out).toMatchObject({ compositeScore: 60, band: "high", risk: { flag: true, level: "high" } });
    expect(out.rules).toEqual([
      expect.objectContaining({
        rule: "mood_stabiliser_stopped_with_sleep_loss",
        indicators: ["mood_stabiliser_discontinuation", "sleep_disruption"],
        band: "high",
      }),
    ]);
    expect(out.risk.labels[0]).toMatch(/^Prompt clinician review: Stopped mood stabiliser/);
    // Either side below the cut: the weights alone decide (here moderate band, risk low).
    const below = scoreRelapse([
      { indicator: "stopped lithium", severity: 0.49 },
      { indicator: "short sleep", severity: 0.5 },
    ]);
    expect(below.rules).toEqual([]);
    expect(below.band).toBe("moderate");
  });

  it("'stopped lithium' 1.0 + 'short sleep' 0.1 is high (was 4.8 of 100, risk none, no review)", () => {
    const out = scoreRelapse([
      { indicator: "stopped lithium", severity: 1 },
      { indicator: "short sleep", severity: 0.1 },
    ]);
    expect(out.unrecognized).toEqual([]);
    expect(out.strongestSignal).toEqual({ indicator: "mood_stabiliser_discontinuation", points: 60 });
    expect(out).toMatchObject({ compositeScore: 60, band: "high", risk: { flag: true, level: "high" } });
  });

  it("a stopped mood stabiliser with decreased need for sleep or elevated mood is high too", () => {
    for (const second of ["decreased need for sleep", "elevated mood", "insomnia"])
      expect(
        scoreRelapse([
          { indicator: "valproate discontinued", severity: 0.6 },
          { indicator: second, severity: 0.6 },
        ]).risk.level,
        second,
      ).toBe("high");
  });
});

describe("a manic prodrome (decision 78)", () => {
  it("'decreased need for sleep' + 'elevated mood' is elevated with clinician review (was unrecognised, none)", () => {
    const out = scoreRelapse([
      { indicator: "decreased need for sleep", severity: 0.6 },
      { indicator: "elevated mood", severity: 0.6 },
    ]);
    expect(out).toMatchObject({
      band: "elevated",
      compositeScore: 40,
      risk: { flag: true, level: "moderate" },
    });
    expect(out.risk.labels[0]).toBe(
      "Clinician review: Possible manic or hypomanic prodrome (Elevated mood + Decreased need for sleep)",
    );
  });

  it("needs a core sign (elevated mood or decreased need for sleep) and a second sign", () => {
    const rules = (a: string, b: string) =>
      scoreRelapse([
        { indicator: a, severity: 0.5 },
        { indicator: b, severity: 0.5 },
      ]).rules.map((r) => r.rule);
    expect(rules("elevated mood", "racing thoughts")).toEqual(["manic_prodrome"]);
    expect(rules("decreased need for sleep", "increased energy")).toEqual(["manic_prodrome"]);
    expect(rules("racing thoughts", "increased energy")).toEqual([]);
  });
});
