import {
  type AgentRisk,
  maniaClusterIn,
  readSafetyText,
  type SafetyConcept,
  type SafetyConceptKey,
  type SafetyConceptMatch,
  safetyConcept,
} from "@svc/engines";

/**
 * The MSE agent's transcript screen (decision 179): every transcript is read for the safety
 * concepts of the engines' knowledge (self-harm and its methods, overdose, suicidal ideation,
 * plan and behaviour, harm to others or a child, command hallucinations, signs of mania, a stopped
 * psychotropic), with or without a language model. It proposes no MSE finding: it raises the
 * proposal's risk, flagged, for the clinician to assess. A concept found only negated ("denies
 * cutting") and a sentence with risk words that no concept explains are flagged too, at the
 * agent's not-assessed floor, never read as an absence. The relapse signal tool reads a caller's
 * indicator through the same function (`readSafetyText`), so both doors find the same concept.
 */

export interface TranscriptScreen {
  /** Concepts read positive, in concept order. */
  concepts: SafetyConceptKey[];
  /** Concepts mentioned only negated. */
  negated: SafetyConceptKey[];
  /** One finding per concept (its level) and per kind of flagged mention (low). */
  risks: AgentRisk[];
  warnings: string[];
}

/** Sentence numbers and words listed in one label at most (the rest are counted). */
const LISTED = 5;

function sentenceOf(matches: readonly SafetyConceptMatch[], key: SafetyConceptKey, negated: boolean): number {
  return (matches.find((m) => m.concept === key && m.negated === negated)?.sentence ?? 0) + 1;
}

function listed(items: readonly (string | number)[]): string {
  const shown = items.slice(0, LISTED).join(", ");
  return items.length > LISTED ? `${shown} and ${items.length - LISTED} more` : shown;
}

function codeOf(concept: SafetyConcept): string {
  return concept.code ? `; SNOMED CT ${concept.code.code} ${concept.code.display}` : "";
}

/** Screens a transcript; an absent or empty transcript screens to nothing. */
export function screenTranscript(transcript: string | undefined): TranscriptScreen {
  if (transcript === undefined || transcript.trim() === "")
    return { concepts: [], negated: [], risks: [], warnings: [] };
  const reading = readSafetyText(transcript);
  const risks: AgentRisk[] = reading.concepts.map((concept) => ({
    flag: true,
    level: concept.level,
    labels: [
      `Transcript screen: ${concept.label} (sentence ${sentenceOf(reading.matches, concept.concept, false)}${codeOf(concept)}), for the clinician to assess`,
    ],
  }));
  // Decision 186: a cluster of mania signs is a possible prodrome, above any one sign.
  const cluster = maniaClusterIn(new Set(reading.concepts.map((c) => c.concept)));
  if (cluster)
    risks.push({
      flag: true,
      level: "moderate",
      labels: [
        `Transcript screen: possible manic or hypomanic prodrome (${listed(cluster.map((key) => safetyConcept(key).label))}), for the clinician to assess`,
      ],
    });
  for (const concept of reading.negated)
    risks.push({
      flag: true,
      level: "low",
      labels: [
        `Transcript screen: ${concept.label} mentioned as denied or absent (sentence ${sentenceOf(reading.matches, concept.concept, true)}); not read as an absence, for the clinician to confirm`,
      ],
    });
  const unexplained = reading.unexplainedRiskWords;
  if (unexplained.length > 0) {
    const words = [...new Set(unexplained.flatMap((s) => s.words))];
    risks.push({
      flag: true,
      level: "low",
      labels: [
        `Transcript screen: risk language not recognised as a safety concept (sentence ${listed(unexplained.map((s) => s.sentence + 1))}: ${listed(words)}), for the clinician to review`,
      ],
    });
  }
  const warnings =
    reading.concepts.length > 0
      ? [
          `The transcript screen found ${listed(reading.concepts.map((c) => c.label))}: the risk is raised for the clinician to assess; no MSE finding is proposed from the screen.`,
        ]
      : [];
  return {
    concepts: reading.concepts.map((c) => c.concept),
    negated: reading.negated.map((c) => c.concept),
    risks,
    warnings,
  };
}
