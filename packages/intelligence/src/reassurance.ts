import { foldForMatching } from "@svc/engines";
import { clipModelText } from "./model-text.js";

// The one folding (decision 177) lives with the domain knowledge; it stays exported from here.
export { foldForMatching };

/**
 * Reassurance about risk in a language model's words (decision 74). A model's narrative, notes or
 * observations may say that there is no risk, that the patient denies suicidal or homicidal
 * ideation, that a combination is safe or that a flag can be ignored. The engines compute risk;
 * the agents never propose its absence, so such a sentence never survives: it is dropped and a
 * warning names the reassurance it carried (our phrase, never the model's text).
 *
 * Matching is done on a folded form of the text, so that the letters used to spell a phrase do
 * not matter: Unicode compatibility forms (NFKC), look-alike Cyrillic, Greek and Armenian letters
 * (capitals read before lower-casing)
 * mapped to Latin, diacritics, zero-width and other invisible characters removed, case folded,
 * digits used as letters read as letters, and every run of spacing or punctuation collapsed to one
 * space; a phrase spelled out letter by letter ("s a f e") is read as a word. This one module
 * serves the record-level agents, the MSE agent (`@svc/agents`) and the model-written narrative of
 * `intelligence.reasoning` (attachReasoning).
 */

/** Phrases shorter than this (without spaces) are not looked for inside spelled-out runs. */
const MIN_SPELLED_OUT_CHARS = 5;

/**
 * Text with a word spelled out letter by letter ("s a f e"): three or more one-letter tokens in a
 * row. Its letters are then also read with every space removed, so the spelled-out word joins the
 * words around it ("s a f e for discharge" reads "safefordischarge").
 */
function joinedIfSpelledOut(folded: string): string | null {
  return /(?:^| )(?:[a-z] ){2,}[a-z](?: |$)/.test(folded) ? folded.replaceAll(" ", "") : null;
}

const DENIAL_VERBS = ["denies", "denied", "deny", "denying", "negative for", "no", "no evidence of"];
/** Words that may stand between the denial and what is denied ("denies any current SI"). */
const DENIAL_FILLERS = ["", "any ", "current ", "active ", "any current ", "any active "];
const DENIED_RISKS = [
  "si",
  "hi",
  "si hi",
  "si or hi",
  "si and hi",
  "suicidal ideation",
  "suicidal thoughts",
  "suicidal intent",
  "suicidal plan",
  "suicidality",
  "homicidal ideation",
  "homicidal thoughts",
  "homicidal intent",
  "thoughts of self harm",
  "self harm",
  "intent or plan",
  "plan or intent",
  "suicidal or homicidal ideation",
  "suicidal and homicidal ideation",
  "thoughts of harming",
];

/**
 * Phrases that assert an absence of risk, safety, or that an engine flag does not matter. Written
 * in plain words; they are folded like the text before matching.
 */
export const REASSURANCE_PHRASES: readonly string[] = [
  ...DENIAL_VERBS.flatMap((verb) =>
    DENIAL_FILLERS.flatMap((filler) => DENIED_RISKS.map((risk) => `${verb} ${filler}${risk}`)),
  ),
  "no risk",
  "not at risk",
  "zero risk",
  "without risk",
  "risk free",
  "no suicide risk",
  "no suicidal risk",
  "no self harm risk",
  "no risk to self",
  "no risk to others",
  "no risk to self or others",
  "risk is absent",
  "risk is nil",
  "risk is negligible",
  "negligible risk",
  "not suicidal",
  "not homicidal",
  "safe for discharge",
  "safe to discharge",
  "safe to be discharged",
  "safe to go home",
  "safe to send home",
  "medically and psychiatrically safe",
  "safe to combine",
  "safe combination",
  "safe to take together",
  "safe to use together",
  "safe to co prescribe",
  "safe together",
  "safe to continue",
  "safe to proceed",
  "is safe",
  "are safe",
  "perfectly safe",
  "completely safe",
  "no safety concern",
  "no safety concerns",
  "no safety issues",
  "no cause for concern",
  "nothing to worry about",
  "no need to worry",
  "ignore the flag",
  "ignore this flag",
  "ignore that flag",
  "ignore the warning",
  "ignore this warning",
  "ignore the alert",
  "ignore the interaction",
  "ignore the risk",
  "disregard the flag",
  "disregard the warning",
  "disregard the alert",
  "disregard the interaction",
  "disregard the risk",
  "flag can be ignored",
  "flag may be ignored",
  "can be safely ignored",
  "can safely be ignored",
  "safely ignore",
  "false alarm",
  "false positive",
  "no action needed",
  "no action required",
  "no need for review",
  "no need to review",
  "no monitoring needed",
  "no monitoring required",
  "no need to monitor",
  "no need for monitoring",
];

/**
 * Phrases that contradict an engine that raised risk (flag set, or level moderate or high): said
 * beside a raised risk they read as clearing it. The record agents apply them when their engine
 * raised risk; the MSE agent to the risk domain's note (its narrative has a broader test).
 */
export const RAISED_RISK_CONTRADICTIONS: readonly string[] = [
  "low risk",
  "minimal risk",
  "risk is low",
  "risk is minimal",
  "no interaction",
  "no interactions",
  "no significant interaction",
  "no significant interactions",
  "no clinically significant interaction",
  "no clinically significant interactions",
  "not clinically significant",
  "clinically insignificant",
  "not significant",
  "insignificant",
  "no concern",
  "no concerns",
  "not a concern",
  "not concerning",
  "nothing of concern",
  "reassuring",
  "within normal limits",
  "nothing abnormal",
  "unremarkable",
];

interface FoldedPhrase {
  phrase: string;
  spaced: string;
  joined: string;
}

const fold = (phrases: readonly string[]): FoldedPhrase[] =>
  phrases.map((phrase) => {
    const spaced = foldForMatching(phrase);
    return { phrase, spaced, joined: spaced.replaceAll(" ", "") };
  });

const ALWAYS = fold(REASSURANCE_PHRASES);
const WHEN_RAISED = fold(RAISED_RISK_CONTRADICTIONS);

export interface ReassuranceContext {
  /** The engine raised risk (or, for the MSE agent, always): contradictions count as reassurance. */
  riskRaised: boolean;
}

/**
 * The reassurance phrases a text carries, in list order, once each (empty when none). A phrase
 * matches as whole words of the folded text, or inside a word spelled out letter by letter.
 */
export function findReassurance(text: string, context: ReassuranceContext): string[] {
  const folded = foldForMatching(text);
  if (folded === "") return [];
  const padded = ` ${folded} `;
  const joinedText = joinedIfSpelledOut(folded);
  const phrases = context.riskRaised ? [...ALWAYS, ...WHEN_RAISED] : ALWAYS;
  const found: string[] = [];
  for (const { phrase, spaced, joined } of phrases) {
    if (found.includes(phrase)) continue;
    const inRun =
      joinedText !== null && joined.length >= MIN_SPELLED_OUT_CHARS && joinedText.includes(joined);
    // A plural ("no risks", "safe for discharges") is the same reassurance.
    const plural = padded.includes(` ${spaced}s `) || padded.includes(` ${spaced}es `);
    if (padded.includes(` ${spaced} `) || plural || inRun) found.push(phrase);
  }
  // A phrase inside a longer one found ("denies si" in "denies si hi") is not named twice.
  return found.filter(
    (phrase) => !found.some((other) => other !== phrase && ` ${other} `.includes(` ${phrase} `)),
  );
}

/** Sentences: split after . ! ? or ; and before a line break. */
export function splitSentences(text: string): string[] {
  return text
    .split(/(?<=[.!?;])\s+|\n+/)
    .map((sentence) => sentence.trim())
    .filter(Boolean);
}

export interface ScreenedText {
  /** The text without its reassuring sentences; the original text, unchanged, when none was found. */
  text: string;
  /** The reassurance phrases found in the dropped sentences. */
  dropped: string[];
}

/**
 * Drops every sentence of `text` that carries reassurance. A text without any is returned exactly
 * as given (same characters, same spacing).
 */
export function screenReassurance(text: string, context: ReassuranceContext): ScreenedText {
  if (findReassurance(text, context).length === 0) return { text, dropped: [] };
  const kept: string[] = [];
  const dropped: string[] = [];
  for (const sentence of splitSentences(text)) {
    const found = findReassurance(sentence, context);
    if (found.length === 0) kept.push(sentence);
    for (const phrase of found) if (!dropped.includes(phrase)) dropped.push(phrase);
  }
  // Found in the whole but in no single sentence (spread across a break): drop it all.
  if (dropped.length === 0) return { text: "", dropped: findReassurance(text, context) };
  return { text: kept.join(" "), dropped };
}

/** The warning for dropped reassurance: where it was and which phrases, never the model's text. */
export function reassuranceWarning(where: string, dropped: readonly string[]): string {
  const phrases = dropped
    .slice(0, 5)
    .map((phrase) => `"${phrase}"`)
    .join(", ");
  const more = dropped.length > 5 ? ` and ${dropped.length - 5} more` : "";
  return `Dropped ${where} reading as reassurance about risk (${phrases}${more}): a language model never clears or lowers a risk the engine computes.`;
}

/**
 * A model's narrative and observations without reassurance: reassuring sentences dropped from the
 * narrative, observations whose note carries any dropped whole, each with a warning. `name` says
 * which entity an observation is about (for the warning).
 */
export function screenModelWords<Observation extends { note: string }>(
  narrative: string,
  observations: readonly Observation[],
  name: (observation: Observation) => string,
  context: ReassuranceContext,
): { narrative: string; observations: Observation[]; warnings: string[] } {
  const warnings: string[] = [];
  const screened = screenReassurance(narrative, context);
  if (screened.dropped.length > 0)
    warnings.push(reassuranceWarning("a sentence of the narrative", screened.dropped));
  const kept = observations.filter((observation) => {
    const found = findReassurance(observation.note, context);
    if (found.length > 0)
      warnings.push(reassuranceWarning(`the observation about "${clipModelText(name(observation))}"`, found));
    return found.length === 0;
  });
  return { narrative: screened.text, observations: kept, warnings };
}
