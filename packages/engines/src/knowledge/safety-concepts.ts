/**
 * Safety concepts (decision 178): what a phrase or a transcript says about self-harm and its
 * methods, overdose, suicidal ideation, plan and behaviour, harm to others (a child among them),
 * command hallucinations, signs of mania and stopping a psychotropic, read by meaning rather than
 * by a list of exact strings. The relapse signal tool (tools/relapse-signals.ts) reads a caller's
 * indicator through it and the MSE agent's transcript screen reads each sentence through it, so
 * both doors find the same concept in the same words.
 *
 * How a text is read: folded (fold.ts: NFKC, look-alike letters, invisible characters, case),
 * split into sentences and, for negation only, into comma chunks; each word reduced to a stem so
 * that inflections meet (cut / cuts / cutting, overdosed / OD'd, told / telling); names and brands
 * of the medicine model's classes tagged (knowledge/medicines.ts, `namesOfClass`). A concept is a
 * set of patterns; a pattern is a few word families (an action and its object or target) that must
 * all occur, each in a different word, within a window of words, in any order unless the pattern
 * says otherwise. A match is negated when a negation word stands before it in its chunk (at most
 * 5 words before, as NegEx reads scope) or a post-negation word ("denied", "absent", "none")
 * follows it within 3 words; a negated match is reported as such, never dropped, and never read
 * as an absence. Any word of the risk lexicon in a sentence that no concept matched is reported
 * too, so the caller can flag it for review.
 *
 * Concepts, patterns, levels, codes and sources: docs/engines/relapse-signals.md ("Safety
 * concepts"); the class row in docs/engines/knowledge-classes.md.
 */

import { foldKeepingDigits } from "../fold.js";
import { ANTIPSYCHOTICS_NOT_MODELLED, DRUG_CLASSES, type DrugClass, namesOfClass } from "./medicines.js";

export const SAFETY_CONCEPT_KEYS = [
  "command_hallucinations",
  "suicidal_behaviour",
  "overdose",
  "self_harm",
  "suicidal_plan",
  "suicidal_ideation",
  "passive_death_wish",
  "harm_to_child",
  "harm_to_others",
  "stopped_mood_stabiliser",
  "stopped_antipsychotic",
  "stopped_antidepressant",
  "stopped_benzodiazepine",
  "stopped_stimulant",
  "stopped_medication",
  "decreased_need_for_sleep",
  "sleep_loss",
  "elevated_mood",
  "pressured_speech",
  "increased_activity",
] as const;
export type SafetyConceptKey = (typeof SAFETY_CONCEPT_KEYS)[number];

/** A SNOMED CT concept, used only where a public source pairs the code with the concept's name. */
export interface SafetyConceptCode {
  system: "http://snomed.info/sct";
  code: string;
  display: string;
  /** Where the pairing was checked (stored public copies, not a live terminology server). */
  checkedIn: string;
}

export interface SafetyConcept {
  concept: SafetyConceptKey;
  label: string;
  group: "suicide_and_self_harm" | "harm_to_others" | "psychosis" | "mania" | "stopped_psychotropic";
  /** The relapse signal tool's indicator this concept is scored as. */
  indicator: string;
  /**
   * The level a transcript screen gives the concept when it reads it positive (the MSE agent):
   * the C-SSRS screener's triage or the MSE catalog's level of the matching risk option, where
   * there is one; expert-set otherwise (see `source`).
   */
  level: "low" | "moderate" | "high";
  code?: SafetyConceptCode;
  /** Why the level (and the relapse indicator) is what it is. */
  source: string;
  /** Other concepts that make this one redundant when found in the same text. */
  subsumedBy?: readonly SafetyConceptKey[];
}

// ---------------------------------------------------------------------------------------------
// Words and stems

/** Irregular forms read as their base word before stemming. */
const IRREGULAR: Readonly<Record<string, string>> = {
  took: "take",
  taken: "take",
  hung: "hang",
  burnt: "burn",
  threw: "throw",
  thrown: "throw",
  drank: "drink",
  drunk: "drink",
  bought: "buy",
  wrote: "write",
  written: "write",
  gave: "give",
  given: "give",
  said: "say",
  told: "tell",
  heard: "hear",
  died: "die",
  dying: "die",
  shot: "shoot",
  beaten: "beat",
  ate: "eat",
  slept: "sleep",
  ran: "run",
  went: "go",
  gone: "go",
  stood: "stand",
  spent: "spend",
  tried: "try",
  forgot: "forget",
  forgotten: "forget",
  withdrew: "withdraw",
  withdrawn: "withdraw",
  woke: "wake",
  woken: "wake",
  children: "child",
  knives: "knife",
  lives: "life",
  bled: "bleed",
  od: "overdose",
  ods: "overdose",
  oded: "overdose",
  odding: "overdose",
  overdid: "overdose",
  neighbor: "neighbour",
  neighbors: "neighbour",
  stabilizer: "stabiliser",
  stabilizers: "stabiliser",
  behavior: "behaviour",
  behaviors: "behaviour",
  themself: "themselves",
};

/** Words that negate (their own spellings read as one). */
const NOT_FORMS = new Set([
  "not",
  "doesnt",
  "dont",
  "didnt",
  "isnt",
  "wasnt",
  "arent",
  "werent",
  "hasnt",
  "havent",
  "hadnt",
  "cant",
  "cannot",
  "couldnt",
  "wont",
  "wouldnt",
  "shouldnt",
]);

/** The stem of every spelling of "not"; the tilde keeps it apart from stems of other words. */
const NEGATION_STEM = "~not";

/**
 * A word's stem: simple English inflections removed so that forms of one word meet (cut, cuts,
 * cutting, cutted; overdose, overdosed, overdosing; voice, voices). Not a dictionary lemma: the
 * same function stems the concept words and the text, so only agreement matters.
 */
export function stemWord(word: string): string {
  // The negation's own stem, which no other word stems to ("note" stems to "not").
  if (NOT_FORMS.has(word)) return NEGATION_STEM;
  // Own keys only: "constructor" is a word, not the object's prototype.
  let w = Object.hasOwn(IRREGULAR, word) ? (IRREGULAR[word] as string) : word;
  if (/^\d/.test(w)) return w;
  if (w.length > 4 && w.endsWith("ies")) w = `${w.slice(0, -3)}y`;
  else if (w.endsWith("ing") && w.length - 3 >= 3) w = w.slice(0, -3);
  else if (w.endsWith("ed") && !w.endsWith("eed") && w.length - 2 >= 3) w = w.slice(0, -2);
  else if (w.length > 4 && /(ss|x|z|ch|sh)es$/.test(w)) w = w.slice(0, -2);
  else if (w.length > 3 && w.endsWith("s") && !/(ss|us|is)$/.test(w)) w = w.slice(0, -1);
  // stopp -> stop, cutt -> cut, stabb -> stab (but kill, miss, buzz keep theirs)
  if (w.length > 3 && /([b-df-hj-np-rtv-z])\1$/.test(w) && !/(ll|ss|zz|ff)$/.test(w)) w = w.slice(0, -1);
  if (w.length > 3 && w.endsWith("e") && !w.endsWith("ee")) w = w.slice(0, -1);
  return w;
}

/** Number words read as a quantity (five and above). */
const QUANTITY_WORDS = new Set(
  [
    "five six seven eight nine ten eleven twelve fifteen twenty thirty forty fifty sixty hundred",
    "hundreds dozen dozens all whole entire handful lot lots load loads bunch bottle packet pack",
    "box strip many stash supply",
  ]
    .join(" ")
    .split(" ")
    .map(stemWord),
);

/** A number at or above this is a quantity that can be an overdose (expert-set, see the docs). */
const QUANTITY_MIN = 5;

/** Negation words before what they negate (NegEx-style pre-negation triggers). */
const PRE_NEGATION = new Set(
  [
    "no",
    "not",
    "never",
    "without",
    "deny",
    "denies",
    "denied",
    "denying",
    "negative",
    "nil",
    "nor",
    "free",
  ].map(stemWord),
);
/** Negation words after what they negate ("SI denied", "self-harm: none"). */
const POST_NEGATION = new Set(
  ["denied", "absent", "none", "nil", "negative", "resolved", "remitted", "free", "no"].map(stemWord),
);
/** Words that end a negation's scope (NegEx termination terms). */
const SCOPE_END = new Set(["but", "however", "although", "though", "yet", "except", "whereas"].map(stemWord));
const PRE_NEGATION_WINDOW = 5;
const LIST_OR = new Set(["or", "nor"]);
const POST_NEGATION_WINDOW = 3;

/** Phrases read as one word before stemming ("no longer taking" reads "stopped"). */
const REWRITES: readonly { from: readonly (readonly string[])[]; to: string }[] = [
  { from: [["no"], ["longer"], ["taking", "on", "using", "having"]], to: "stopped" },
  {
    from: [[...NOT_FORMS], ["taking", "take", "takes", "on", "using", "use"]],
    to: "stopped",
  },
  {
    from: [
      ["poor", "non", "partial", "low", "reduced", "bad"],
      ["adherence", "adherent", "compliance", "compliant"],
    ],
    to: "stopped",
  },
  { from: [["ran", "run", "running", "runs"], ["out"]], to: "stopped" },
  { from: [["came", "come", "coming", "comes"], ["off"]], to: "stopped" },
];

function rewrite(words: readonly string[]): string[] {
  const out: string[] = [];
  let i = 0;
  outer: while (i < words.length) {
    for (const { from, to } of REWRITES) {
      if (from.every((alternatives, k) => alternatives.includes(words[i + k] ?? ""))) {
        out.push(to);
        i += from.length;
        continue outer;
      }
    }
    out.push(words[i] as string);
    i += 1;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Medicines by class (read from the medicine model, never listed here)

type MedicineTag =
  | "antidepressant"
  | "antipsychotic"
  | "mood_stabiliser"
  | "benzodiazepine"
  | "stimulant"
  | "medication"
  | "drug";

/** The medicine model's classes behind each tag, and the class words a person uses. */
const MEDICINE_TAGS: readonly {
  tag: MedicineTag;
  classes: readonly DrugClass[];
  words: readonly string[];
}[] = [
  {
    tag: "antidepressant",
    classes: ["antidepressant"],
    words: ["antidepressant", "anti depressant", "ssri", "snri", "tricyclic", "maoi", "tca"],
  },
  {
    tag: "antipsychotic",
    classes: ["antipsychotic"],
    words: ["antipsychotic", "anti psychotic", "neuroleptic", "depot"],
  },
  { tag: "mood_stabiliser", classes: ["mood_stabiliser"], words: ["mood stabiliser"] },
  {
    tag: "benzodiazepine",
    classes: ["benzodiazepine", "z_drug"],
    words: ["benzodiazepine", "benzo", "sleeping pill", "sleeping tablet", "z drug"],
  },
  { tag: "stimulant", classes: ["stimulant"], words: ["stimulant", "adhd medication", "adhd meds"] },
  {
    tag: "medication",
    classes: [],
    words: ["medication", "medicine", "med", "meds", "tablet", "pill", "treatment", "capsule"],
  },
];

/** Stemmed word runs of every medicine name, brand and class word, by first stem. */
const MEDICINE_RUNS = new Map<string, { stems: string[]; tags: Set<string> }[]>();
function addMedicineRun(name: string, tag: MedicineTag): void {
  const stems = foldKeepingDigits(name).split(" ").filter(Boolean).map(stemWord);
  const first = stems[0];
  if (first === undefined) return;
  const runs = MEDICINE_RUNS.get(first) ?? [];
  const key = stems.join(" ");
  const existing = runs.find((run) => run.stems.join(" ") === key);
  const tags =
    tag === "drug" ? ["#drug"] : tag === "medication" ? ["#med"] : ["#med", "#psychotropic", `#med:${tag}`];
  if (existing) for (const t of tags) existing.tags.add(t);
  else runs.push({ stems, tags: new Set(tags) });
  MEDICINE_RUNS.set(first, runs);
}
for (const { tag, classes, words } of MEDICINE_TAGS) {
  const names = [...classes.flatMap((c) => namesOfClass(c)), ...words];
  if (tag === "antipsychotic") names.push(...ANTIPSYCHOTICS_NOT_MODELLED);
  for (const name of names) addMedicineRun(name, tag);
}
// Any medicine the model knows can be taken in an overdose (tramadol, co-codamol), though only a
// psychotropic or a generic word is a stopped medicine here.
for (const drugClass of DRUG_CLASSES)
  for (const name of namesOfClass(drugClass)) addMedicineRun(name, "drug");

// ---------------------------------------------------------------------------------------------
// Tokens

interface Token {
  /** The folded word as written (digits kept). */
  word: string;
  stem: string;
  /** Medicine tags and `#qty`. */
  tags: Set<string>;
  /** Comma chunk within the sentence: a negation's scope does not cross it. */
  chunk: number;
  /** In a medicine name of several words: the index of its last word. */
  runEnd?: number;
}

/** Sentence ends: . ! ? ; and line breaks (a decimal point between digits is not one). */
const SENTENCE_END = /(?<!\d)[.!?;]+|[.!?;]+(?!\d)|\n+/;

function tokensOf(sentence: string): Token[] {
  const tokens: Token[] = [];
  sentence.split(",").forEach((chunkText, chunk) => {
    // "OD'd", "doesn't": the apostrophe joins the word (fold would split it).
    const joined = chunkText
      .replace(/\b(o\.?d)['\u2019\u2018`]?(d|ed|s)\b/gi, "overdosed")
      .replace(/(\p{L})['\u2019\u2018`](\p{L})/gu, "$1$2");
    const words = rewrite(foldKeepingDigits(joined).split(" ").filter(Boolean));
    for (const word of words) tokens.push({ word, stem: stemWord(word), tags: new Set(), chunk });
  });
  tagMedicines(tokens);
  for (const token of tokens) {
    const number = /^(\d+)/.exec(token.word);
    if ((number && Number(number[1]) >= QUANTITY_MIN) || QUANTITY_WORDS.has(token.stem))
      token.tags.add("#qty");
  }
  return tokens;
}

function tagMedicines(tokens: Token[]): void {
  tokens.forEach((token, i) => {
    for (const run of MEDICINE_RUNS.get(token.stem) ?? []) {
      if (!run.stems.every((stem, k) => tokens[i + k]?.stem === stem)) continue;
      for (let k = 0; k < run.stems.length; k += 1) {
        const word = tokens[i + k] as Token;
        for (const tag of run.tags) word.tags.add(tag);
        word.runEnd = Math.max(word.runEnd ?? 0, i + run.stems.length - 1);
      }
    }
  });
}

// ---------------------------------------------------------------------------------------------
// Patterns

/** One word family: stems (written as plain words, stemmed once) and tags (`#...`). */
type Family = ReadonlySet<string>;

interface Pattern {
  families: readonly Family[];
  /** Words from the first matched word to the last, inclusive. */
  window: number;
  ordered: boolean;
  /** The next word after the match may not be one of these ("cutting down"). */
  notFollowedBy?: ReadonlySet<string>;
  /** No word of the match's span may be one of these. */
  excludes?: ReadonlySet<string>;
}

function family(words: string): Family {
  return new Set(words.split(/\s+/).map((w) => (w.startsWith("#") || w.startsWith("=") ? w : stemWord(w))));
}

function pattern(
  families: readonly string[],
  options: { window?: number; ordered?: boolean; notFollowedBy?: string; excludes?: string } = {},
): Pattern {
  return {
    families: families.map(family),
    window: options.window ?? Math.max(families.length, 1) + 3,
    ordered: options.ordered ?? false,
    ...(options.notFollowedBy ? { notFollowedBy: family(options.notFollowedBy) } : {}),
    ...(options.excludes ? { excludes: family(options.excludes) } : {}),
  };
}

const SELF = "myself himself herself themselves yourself ourselves oneself self";
const BODY =
  "arm arms wrist wrists leg legs thigh thighs skin body stomach belly chest neck throat face hand hands ankle";
const PERSON =
  "neighbour neighbours person people someone somebody anyone anybody stranger strangers man woman wife husband partner girlfriend boyfriend mother father mum mom dad parent parents brother sister friend colleague boss staff nurse doctor family others him her them";
const CHILD = "child kid kids baby babies infant toddler son daughter newborn grandchild children";
const HARM_OTHER_VERBS =
  "kill hurt harm attack stab shoot strangle beat hit punch murder smother choke assault poison drown batter injure";
const STOP =
  "stopped stop quit cease discontinue discontinuation off miss skip refuse withdraw withdrawal taper nonadherence nonadherent noncompliance noncompliant forget abandon";
const SUBSTANCE =
  "pill pills tablet tablets capsule paracetamol acetaminophen tylenol panadol ibuprofen aspirin codeine codamol tramadol insulin medication meds medicine drug #med #drug";

const PATTERNS: Readonly<Record<SafetyConceptKey, readonly Pattern[]>> = {
  command_hallucinations: [
    pattern(["voice voices hallucination", "tell command order instruct urge say want"], { window: 5 }),
    pattern(["command commanding imperative", "hallucination voice"], { window: 3 }),
  ],
  suicidal_behaviour: [
    pattern(["attempt try", `suicide kill hang end overdose jump drown strangle shoot ${SELF}`], {
      window: 5,
      ordered: true,
    }),
    pattern(["suicide suicidal", "attempt gesture act"], { window: 3, ordered: true }),
    pattern(["parasuicide"]),
    pattern(["suicide goodbye farewell", "note letter"], { window: 2, ordered: true }),
    pattern(["write", "will"], { window: 3, ordered: true }),
    pattern(["stockpile hoard stash collect save store", "#med pill tablet"], { window: 5, ordered: true }),
    pattern(["buy get obtain", "rope noose gun firearm charcoal ligature"], { window: 4, ordered: true }),
    pattern(["give", "away", "belonging possession thing stuff"], { window: 5, ordered: true }),
  ],
  overdose: [
    pattern(["overdose"]),
    pattern(["take swallow ingest down neck", "#qty", SUBSTANCE], { window: 7 }),
    pattern(["too", "many much", SUBSTANCE], { window: 5, ordered: true }),
    pattern(["poison poisoning", "paracetamol acetaminophen #med pill tablet"], { window: 4 }),
  ],
  self_harm: [
    pattern(["cut slash slit carve scratch gouge lacerate slice", `${BODY} ${SELF}`], { window: 4 }),
    pattern(["=cutting"], { notFollowedBy: "down back out off up edge board short in" }),
    pattern(["self", "harm injure injury injurious mutilate mutilation cut poison poisoning inflict"], {
      window: 2,
      ordered: true,
    }),
    pattern(["selfharm nssi dsh"]),
    pattern(["harm hurt injure stab burn punch hit bite poison drown shoot strangle", SELF], {
      window: 3,
      ordered: true,
    }),
    pattern(["burn scald brand", BODY], { window: 4 }),
    pattern(["hang strangle suffocate asphyxiate choke", SELF], { window: 3, ordered: true }),
    pattern(["ligature noose"]),
    pattern(["rope cord belt scarf tie", "neck"], { window: 5 }),
    pattern(
      [
        "jump throw leap step",
        "bridge building roof cliff window balcony train traffic lorry truck bus height motorway railway track platform",
      ],
      { window: 5, ordered: true },
    ),
    pattern(
      ["drink swallow take ingest", "bleach antifreeze weedkiller poison pesticide paraquat disinfectant"],
      {
        window: 5,
        ordered: true,
      },
    ),
  ],
  suicidal_plan: [
    pattern(["plan method means", `suicide suicidal kill die end overdose hang jump ${SELF}`], { window: 6 }),
    pattern(["intent intend intention", "suicide suicidal kill die end life dead"], { window: 5 }),
  ],
  suicidal_ideation: [
    pattern(["suicidal suicide suicidality si"]),
    pattern(["kill end take", `${SELF} life`], { window: 3, ordered: true }),
    pattern(["end", "it", "all"], { window: 3, ordered: true }),
    pattern(["thought thinking idea urge", "die death dead kill suicide"], { window: 4, ordered: true }),
  ],
  passive_death_wish: [
    pattern(["want wish rather better hope", "dead die death"], { window: 5, ordered: true }),
    pattern(["not", "want wish", "live alive wake"], { window: 5, ordered: true }),
    pattern(["no", "reason point", "live living life"], { window: 4, ordered: true }),
    pattern(["wish want hope rather", "not never", "wake"], { window: 6, ordered: true }),
    pattern(["death", "wish"], { window: 2, ordered: true }),
  ],
  harm_to_child: [pattern([HARM_OTHER_VERBS, CHILD], { window: 4, ordered: true })],
  harm_to_others: [
    pattern([HARM_OTHER_VERBS, PERSON], { window: 4, ordered: true }),
    pattern(["homicidal homicide"]),
    pattern(["violent violence aggressive", "thought idea urge impulse fantasy"], { window: 3 }),
    pattern(["threaten threat", `${HARM_OTHER_VERBS} ${PERSON} ${CHILD} knife gun weapon`], { window: 5 }),
  ],
  stopped_mood_stabiliser: [pattern([STOP, "#med:mood_stabiliser"], { window: 6 })],
  stopped_antipsychotic: [pattern([STOP, "#med:antipsychotic"], { window: 6 })],
  stopped_antidepressant: [
    pattern([STOP, "#med:antidepressant"], { window: 6 }),
    pattern(["#med:antidepressant", "discontinuation withdrawal", "syndrome symptom reaction"], {
      window: 5,
    }),
  ],
  stopped_benzodiazepine: [pattern([STOP, "#med:benzodiazepine"], { window: 6 })],
  stopped_stimulant: [pattern([STOP, "#med:stimulant"], { window: 6 })],
  stopped_medication: [pattern([STOP, "#med"], { window: 6 })],
  decreased_need_for_sleep: [
    pattern(["need", "sleep", "less little decrease reduce hardly barely"], { window: 5 }),
    // The negation is the concept's own here, so it must stand right before "need".
    // ("no needing less sleep" is the first pattern, negated).
    pattern(["no not", "need", "sleep"], {
      window: 4,
      ordered: true,
      excludes: "less little decrease reduce hardly barely",
    }),
    pattern(["sleep", "not", "tired tire"], { window: 7, ordered: true }),
    // "has not slept for days and is not tired": the first negation is the concept's own.
    pattern(["not no", "sleep", "not", "tired tire"], { window: 12, ordered: true }),
  ],
  sleep_loss: [
    // The negation is the concept's own: "no sleep", "has not slept for two nights" ("not sleep"
    // and "without sleep" stay the relapse tool's negations of its sleep indicator).
    // "slept" reads as "sleep", so a duration marks the loss: "has not slept for three nights".
    pattern(["not", "slept", "night day hour week"], { window: 6, ordered: true }),
    pattern(["no", "sleep"], {
      window: 2,
      ordered: true,
      excludes: "need",
      // "no sleep disturbance", "no sleep problems": the negation is of the problem, not of sleep.
      notFollowedBy:
        "disturbance disturbed problem issue difficulty trouble complaint concern change disruption disrupted pattern hygiene less",
    }),
    pattern(["awake up", "all", "night"], { window: 3, ordered: true }),
    pattern(["sleepless sleeplessness insomnia"]),
  ],
  elevated_mood: [
    pattern([
      "euphoric euphoria elated elation mania manic hypomania hypomanic grandiose grandiosity expansive",
    ]),
    pattern(["special", "power powers mission"], { window: 3, ordered: true }),
    pattern(["invincible invulnerable"]),
    pattern(["top", "world"], { window: 3, ordered: true }),
  ],
  pressured_speech: [
    pattern(["pressure pressured", "speech speak talk"], { window: 3 }),
    pattern(["racing race", "thought"], { window: 3 }),
    pattern(["flight", "idea"], { window: 3, ordered: true }),
    pattern(["talk speak", "fast rapid nonstop constantly quickly loud"], { window: 3 }),
    pattern(["talkative talkativeness"]),
  ],
  increased_activity: [
    pattern(["spend spending", "spree lot money excessive loads fortune thousand hundred"], { window: 4 }),
    pattern(["overspend overspending"]),
    pattern(["increase more lot loads boundless excessive", "energy"], { window: 3 }),
    pattern(["overactive overactivity hyperactive"]),
    pattern(["goal", "directed"], { window: 2, ordered: true }),
  ],
};

// ---------------------------------------------------------------------------------------------
// The concepts

const SNOMED = "http://snomed.info/sct" as const;
const CSSRS = "C-SSRS screener (Columbia Lighthouse Project, screen version with triage points)";

export const SAFETY_CONCEPTS: readonly SafetyConcept[] = [
  {
    concept: "command_hallucinations",
    label: "Command hallucinations",
    group: "psychosis",
    indicator: "command_hallucinations",
    level: "moderate",
    source:
      "MSE catalog level of perception.command_hallucinations (moderate); relapse safety rule (decision 76). No SNOMED CT concept for command hallucinations was verified (docs/mse.md): unmapped",
  },
  {
    concept: "suicidal_behaviour",
    label: "Suicidal behaviour: attempt or preparatory acts",
    group: "suicide_and_self_harm",
    indicator: "suicidality",
    level: "high",
    code: {
      system: SNOMED,
      code: "82313006",
      display: "Suicide attempt (event)",
      checkedIn: "docs/mse.md (HL7 Portugal terminology IG value set; SPiER value set), as the MSE catalog",
    },
    source: `${CSSRS} item 6 (actual, interrupted or aborted attempt and preparatory acts: collected pills, wrote a note, gave away valuables): high when within 3 months; recency unknown from a phrase or transcript, read as recent, as the MSE catalog reads a missing recency`,
  },
  {
    concept: "overdose",
    label: "Overdose",
    group: "suicide_and_self_harm",
    indicator: "suicidality",
    level: "high",
    code: {
      system: SNOMED,
      code: "1149222004",
      display: "Overdose (disorder)",
      checkedIn:
        "SNOMED International template 'Overdose (disorder) - v1.0' (conf.spaces.snomed.org SCTEMPLATES; confluence.ihtsdotools.org), checked 2026-12-07",
    },
    source: `${CSSRS} item 6 names taking pills as suicidal behaviour; NICE NG225 (self-harm: self-poisoning whatever the purpose is self-harm, assessed as such); intent and recency unknown: read as recent behaviour (high)`,
  },
  {
    concept: "self_harm",
    label: "Self-harm",
    group: "suicide_and_self_harm",
    indicator: "suicidality",
    level: "high",
    code: {
      system: SNOMED,
      code: "248062006",
      display: "Self-injurious behavior (finding)",
      checkedIn:
        "SNOMED International Mental and Behavioural Health CRG page 'Self Destructive Behavior v Self Harm' (confluence.ihtsdotools.org), checked 2026-12-07",
    },
    source: `NICE NG225 (self-harm is intentional self-poisoning or self-injury, irrespective of motivation or apparent purpose); ${CSSRS} item 6 lists cutting and hanging as behaviour; whether the act was suicidal and when is unknown from the words, so it is read as the C-SSRS's recent behaviour (high) until the clinician asks, never as the MSE catalog's non-suicidal self-injury (moderate)`,
  },
  {
    concept: "suicidal_plan",
    label: "Suicidal plan or intent",
    group: "suicide_and_self_harm",
    indicator: "suicidality",
    level: "high",
    source: `${CSSRS} items 4 and 5 (intent, plan): high; MSE catalog risk.si_with_plan and risk.si_with_intent (high). Unmapped: 247650009 'Planning suicide' was seen in one research value set only (docs/mse.md), and 304594002 'Suicidal intent' would drop the plan`,
  },
  {
    concept: "suicidal_ideation",
    label: "Suicidal ideation",
    group: "suicide_and_self_harm",
    indicator: "suicidality",
    level: "moderate",
    code: {
      system: SNOMED,
      code: "6471006",
      display: "Suicidal thoughts (finding)",
      checkedIn: "docs/mse.md (SNOMED International MBH CRG page; SPiER value set), as the MSE catalog",
    },
    source: `${CSSRS} items 1-3; a phrase cannot tell a passive wish (low) from active thoughts with a method (moderate), so it is read as the MSE catalog reads unqualified active ideation (risk.active_si, moderate)`,
  },
  {
    concept: "passive_death_wish",
    label: "Passive death wish",
    group: "suicide_and_self_harm",
    indicator: "suicidality",
    level: "low",
    source: `${CSSRS} item 1 (wished you were dead or could go to sleep and not wake up): low; MSE catalog risk.passive_si (low). Unmapped`,
    subsumedBy: ["suicidal_ideation", "suicidal_plan", "suicidal_behaviour"],
  },
  {
    concept: "harm_to_child",
    label: "Thoughts or threats of harming a child",
    group: "harm_to_others",
    indicator: "harm_to_others",
    level: "high",
    source:
      "Expert-set: a threat to a child is a safeguarding concern to act on the same day (HM Government, Working Together to Safeguard Children 2023: anyone with a concern that a child may be harmed refers it immediately); relapse safety rule (decision 76). Unmapped",
  },
  {
    concept: "harm_to_others",
    label: "Thoughts or threats of harming others",
    group: "harm_to_others",
    indicator: "harm_to_others",
    level: "moderate",
    source:
      "MSE catalog level of risk.homicidal_ideation and thought_content.homicidal_ideation (moderate; with a plan or intent, high, which a phrase does not establish); relapse safety rule (decision 76). Unmapped: no homicidal-ideation code was verified",
    subsumedBy: ["harm_to_child"],
  },
  {
    concept: "stopped_mood_stabiliser",
    label: "Stopped mood stabiliser",
    group: "stopped_psychotropic",
    indicator: "mood_stabiliser_discontinuation",
    level: "moderate",
    source:
      "Suppes et al. 1991, Arch Gen Psychiatry 48:1082-1088; Faedda et al. 1993 (relapse after stopping lithium, mania first); NICE CG185. Transcript level moderate, as the relapse tool reads its top-tier indicators stated outright (decision 187): a relapse sign for review, not a risk option of the MSE catalog",
  },
  {
    concept: "stopped_antipsychotic",
    label: "Stopped antipsychotic",
    group: "stopped_psychotropic",
    indicator: "mood_stabiliser_discontinuation",
    level: "moderate",
    source:
      "Robinson et al. 1999, Arch Gen Psychiatry 56:241-247 (stopping antipsychotics, HR 4.89 for a first relapse); NICE CG178. Transcript level moderate, as the relapse tool reads its top-tier indicators stated outright (decision 187)",
  },
  {
    concept: "stopped_antidepressant",
    label: "Stopped antidepressant (relapse risk; discontinuation syndrome)",
    group: "stopped_psychotropic",
    indicator: "medication_nonadherence",
    level: "moderate",
    source:
      "Geddes et al. 2003, Lancet 361:653-661 (continuing antidepressants about halved the odds of depressive relapse against stopping); NICE NG222 1.8 (stopping antidepressants: withdrawal symptoms, taper gradually). Scored as medication non-adherence (weight 1.0). Transcript level moderate, as the relapse tool reads its top-tier indicators stated outright (decision 187)",
  },
  {
    concept: "stopped_benzodiazepine",
    label: "Stopped benzodiazepine or Z-drug (withdrawal)",
    group: "stopped_psychotropic",
    indicator: "medication_nonadherence",
    level: "moderate",
    source:
      "BNF, Hypnotics and anxiolytics: abrupt withdrawal of a benzodiazepine after regular use may cause confusion, toxic psychosis and convulsions; taper. Scored as medication non-adherence. Transcript level moderate, as the relapse tool reads its top-tier indicators stated outright (decision 187)",
  },
  {
    concept: "stopped_stimulant",
    label: "Stopped stimulant",
    group: "stopped_psychotropic",
    indicator: "medication_nonadherence",
    level: "moderate",
    source:
      "NICE NG87 (ADHD: review of treatment and its stopping). Scored as medication non-adherence. Weight and transcript level expert-set",
  },
  {
    concept: "stopped_medication",
    label: "Stopped medication",
    group: "stopped_psychotropic",
    indicator: "medication_nonadherence",
    level: "low",
    source:
      "Robinson et al. 1999 (as the relapse tool's medication_nonadherence). Transcript level moderate, as the relapse tool reads its top-tier indicators stated outright (decision 187)",
    subsumedBy: [
      "stopped_mood_stabiliser",
      "stopped_antipsychotic",
      "stopped_antidepressant",
      "stopped_benzodiazepine",
      "stopped_stimulant",
    ],
  },
  {
    concept: "decreased_need_for_sleep",
    label: "Decreased need for sleep",
    group: "mania",
    indicator: "decreased_need_for_sleep",
    level: "low",
    source:
      "Jackson, Cavanagh & Scott 2003, J Affect Disord 74:209-217 (sleep change the most robust early sign of mania); NICE CG185. Transcript level expert-set",
  },
  {
    concept: "sleep_loss",
    label: "Sleep loss",
    group: "mania",
    indicator: "sleep_disruption",
    level: "low",
    source:
      "Jackson, Cavanagh & Scott 2003, J Affect Disord 74:209-217 (sleep disturbance the most robust early sign of mania, median 77 %); NICE CG185 (early warning signs). Transcript level expert-set",
    subsumedBy: ["decreased_need_for_sleep"],
  },
  {
    concept: "elevated_mood",
    label: "Elevated mood or grandiosity",
    group: "mania",
    indicator: "elevated_mood",
    level: "low",
    source: "Andrade-Gonzalez et al. 2020, Eur Psychiatry 63:e12. Transcript level expert-set",
  },
  {
    concept: "pressured_speech",
    label: "Pressured speech or racing thoughts",
    group: "mania",
    indicator: "racing_thoughts",
    level: "low",
    source: "Andrade-Gonzalez et al. 2020. Transcript level expert-set",
  },
  {
    concept: "increased_activity",
    label: "Increased energy, activity or spending",
    group: "mania",
    indicator: "increased_activity",
    level: "low",
    source: "Andrade-Gonzalez et al. 2020. Transcript level expert-set",
  },
];

const BY_KEY = new Map(SAFETY_CONCEPTS.map((c) => [c.concept, c]));

/**
 * Clusters of mania signs that together are a possible manic or hypomanic prodrome (decision 78,
 * widened by decision 186): one concept from each group, each a different concept. Written once,
 * in concepts; the relapse signal tool's combination rule reads them through each concept's
 * indicator, the MSE agent's transcript screen directly.
 */
export const MANIA_CLUSTERS: readonly (readonly (readonly SafetyConceptKey[])[])[] = [
  // Elevated mood or decreased need for sleep, with a second sign of mania.
  [
    ["elevated_mood", "decreased_need_for_sleep"],
    ["elevated_mood", "decreased_need_for_sleep", "pressured_speech", "increased_activity"],
  ],
  // Sleep loss with both pressured speech and increased activity or spending.
  [["sleep_loss", "decreased_need_for_sleep"], ["pressured_speech"], ["increased_activity"]],
];

/** The concepts of the first mania cluster the keys meet (each from a different concept), or null. */
export function maniaClusterIn(keys: ReadonlySet<SafetyConceptKey>): SafetyConceptKey[] | null {
  for (const cluster of MANIA_CLUSTERS) {
    const met = meetConceptGroups(cluster, keys, []);
    if (met) return met;
  }
  return null;
}

function meetConceptGroups(
  groups: readonly (readonly SafetyConceptKey[])[],
  keys: ReadonlySet<SafetyConceptKey>,
  used: readonly SafetyConceptKey[],
): SafetyConceptKey[] | null {
  const [group, ...rest] = groups;
  if (!group) return [...used];
  for (const key of group) {
    if (!keys.has(key) || used.includes(key)) continue;
    const met = meetConceptGroups(rest, keys, [...used, key]);
    if (met) return met;
  }
  return null;
}

export function safetyConcept(key: SafetyConceptKey): SafetyConcept {
  const found = BY_KEY.get(key);
  if (!found) throw new Error(`unknown safety concept ${key}`);
  return found;
}

// ---------------------------------------------------------------------------------------------
// The risk lexicon: words that call for review wherever no concept explains them

const RISK_LEXICON = new Set(
  [
    "kill die dead death hurt harm cut overdose pill tablet suicide suicidal hang jump weapon gun",
    "knife blade razor stab shoot poison bleed blood burn noose rope ligature strangle smother",
    "drown murder attack threaten threat violent violence abuse assault firearm homicidal",
  ]
    .join(" ")
    .split(" ")
    .map(stemWord),
);

// ---------------------------------------------------------------------------------------------
// Matching

function matches(token: Token | undefined, fam: Family): boolean {
  if (!token) return false;
  if (fam.has(token.stem) || fam.has(`=${token.word}`)) return true;
  for (const tag of token.tags) if (fam.has(tag)) return true;
  return false;
}

/** Positions of one match of the pattern (distinct words within its window), or null. */
function findMatch(tokens: readonly Token[], p: Pattern, from: number): number[] | null {
  const [first, ...rest] = p.families;
  if (!first) return null;
  for (let i = from; i < tokens.length; i += 1) {
    if (!matches(tokens[i], first)) continue;
    const found = extend(tokens, p, rest, [i]);
    if (!found) continue;
    if (p.notFollowedBy) {
      const next = tokens[Math.max(...found) + 1];
      if (next && p.notFollowedBy.has(next.stem)) continue;
    }
    const excludes = p.excludes;
    if (excludes) {
      const span = tokens.slice(Math.min(...found), Math.max(...found) + 1);
      if (span.some((t) => excludes.has(t.stem))) continue;
    }
    return found;
  }
  return null;
}

function extend(
  tokens: readonly Token[],
  p: Pattern,
  rest: readonly Family[],
  used: readonly number[],
): number[] | null {
  const [fam, ...more] = rest;
  if (!fam) return [...used];
  const lo = Math.max(...used) - p.window + 1;
  const hi = Math.min(...used) + p.window - 1;
  const start = p.ordered ? Math.max(...used) + 1 : Math.max(0, lo);
  for (let j = start; j <= Math.min(hi, tokens.length - 1); j += 1) {
    if (used.includes(j) || !matches(tokens[j], fam)) continue;
    const found = extend(tokens, p, more, [...used, j]);
    if (found) return found;
  }
  return null;
}

/** A negation word before the match in its chunk (5 words) or after it (3 words), not its own. */
function isNegated(tokens: readonly Token[], positions: readonly number[]): boolean {
  const first = Math.min(...positions);
  // A medicine name of several words is read whole: "mood stabiliser resolved" negates it.
  const last = Math.max(...positions.map((p) => tokens[p]?.runEnd ?? p));
  const chunk = tokens[first]?.chunk;
  for (let q = first - 1; q >= 0 && first - q <= PRE_NEGATION_WINDOW; q -= 1) {
    const token = tokens[q] as Token;
    if (token.chunk !== chunk || SCOPE_END.has(token.stem)) break;
    if (PRE_NEGATION.has(token.stem) && !positions.includes(q)) return true;
  }
  const lastChunk = tokens[last]?.chunk;
  // "X or Y absent": an "or" list shares its post-negation, so each "or" widens the window.
  let reach = POST_NEGATION_WINDOW;
  for (let q = last + 1; q < tokens.length && q - last <= reach; q += 1) {
    const token = tokens[q] as Token;
    if (token.chunk !== lastChunk || SCOPE_END.has(token.stem)) break;
    if (POST_NEGATION.has(token.stem)) return true;
    if (LIST_OR.has(token.stem)) reach = q - last + POST_NEGATION_WINDOW;
  }
  return false;
}

export interface SafetyConceptMatch {
  concept: SafetyConceptKey;
  negated: boolean;
  /** 0-based sentence index in the text. */
  sentence: number;
}

export interface SafetySentenceRiskWords {
  sentence: number;
  /** Risk-lexicon words in the sentence, as folded, once each. */
  words: string[];
}

export interface SafetyTextReading {
  /** Concepts read positive anywhere in the text, in concept order, once each. */
  concepts: SafetyConcept[];
  /** Concepts found only negated ("denies cutting"): not a positive, not an absence. */
  negated: SafetyConcept[];
  /** Every match, in sentence order. */
  matches: SafetyConceptMatch[];
  /** Sentences with risk-lexicon words where no concept (positive or negated) was found. */
  unexplainedRiskWords: SafetySentenceRiskWords[];
}

/** Sentences of a text as the concepts read them. */
export function safetySentences(text: string): string[] {
  return text.split(SENTENCE_END).filter((s) => s !== undefined && s.trim() !== "");
}

function readSentence(tokens: readonly Token[], sentence: number): SafetyConceptMatch[] {
  const found: SafetyConceptMatch[] = [];
  for (const key of SAFETY_CONCEPT_KEYS) {
    let positive = false;
    let negated = false;
    for (const p of PATTERNS[key]) {
      let from = 0;
      while (from < tokens.length && !positive) {
        const positions = findMatch(tokens, p, from);
        if (!positions) break;
        if (isNegated(tokens, positions)) negated = true;
        else positive = true;
        // The first family's word moves on, so each start is tried once (the loop ends).
        from = (positions[0] as number) + 1;
      }
      if (positive) break;
    }
    if (positive) found.push({ concept: key, negated: false, sentence });
    else if (negated) found.push({ concept: key, negated: true, sentence });
  }
  return found;
}

/**
 * Reads a phrase or a transcript for safety concepts: every concept found, positive or negated,
 * by sentence; the positive ones once each (a concept subsumed by a more specific one found in
 * the same text is left out); the ones found only negated; and each sentence with risk words
 * that no concept explains. Deterministic and bounded by the text's length.
 */
export function readSafetyText(text: string): SafetyTextReading {
  const all: SafetyConceptMatch[] = [];
  const unexplainedRiskWords: SafetySentenceRiskWords[] = [];
  safetySentences(text).forEach((sentenceText, sentence) => {
    const tokens = tokensOf(sentenceText);
    const found = readSentence(tokens, sentence);
    all.push(...found);
    if (found.length > 0) return;
    const words = [...new Set(tokens.filter((t) => RISK_LEXICON.has(t.stem)).map((t) => t.word))];
    if (words.length > 0) unexplainedRiskWords.push({ sentence, words });
  });
  const positiveKeys = new Set(all.filter((m) => !m.negated).map((m) => m.concept));
  const concepts = SAFETY_CONCEPTS.filter(
    (c) => positiveKeys.has(c.concept) && !(c.subsumedBy ?? []).some((k) => positiveKeys.has(k)),
  );
  const negatedKeys = new Set(all.filter((m) => m.negated).map((m) => m.concept));
  const negated = SAFETY_CONCEPTS.filter(
    (c) =>
      negatedKeys.has(c.concept) &&
      !positiveKeys.has(c.concept) &&
      !(c.subsumedBy ?? []).some((k) => negatedKeys.has(k) || positiveKeys.has(k)),
  );
  return { concepts, negated, matches: all, unexplainedRiskWords };
}

/**
 * Every stem a concept pattern or the risk lexicon reads, the negation and rewrite words and the
 * first stem of every medicine name: text without any of them can match no concept (tests).
 */
export function safetyVocabulary(): Set<string> {
  const words = new Set<string>([
    ...RISK_LEXICON,
    ...PRE_NEGATION,
    ...POST_NEGATION,
    ...MEDICINE_RUNS.keys(),
  ]);
  for (const patterns of Object.values(PATTERNS))
    for (const p of patterns)
      for (const fam of p.families) for (const w of fam) words.add(w.replace(/^=/, ""));
  for (const { from, to } of REWRITES) {
    words.add(to);
    for (const alternatives of from) for (const w of alternatives) words.add(w);
  }
  return words;
}

/** The risk-lexicon words of a text, as folded, once each (empty when none). */
export function riskWordsIn(text: string): string[] {
  const words = safetySentences(text).flatMap((s) =>
    tokensOf(s)
      .filter((t) => RISK_LEXICON.has(t.stem))
      .map((t) => t.word),
  );
  return [...new Set(words)];
}
