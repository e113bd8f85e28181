import { boundedWarnings, clipModelText, readModelText } from "@svc/intelligence";
/**
 * Keeping a model's words to what the tools returned. The model's final answer is parsed into a
 * narrative, observations and citations; an observation about an entity no tool returned for this
 * request is dropped into warnings, a citation naming no tool result is dropped, and a narrative
 * sentence naming a known entity (a drug, analyte, instrument or indicator the tools know) that
 * is not part of this request's results is dropped. Nothing the model says changes the engine's
 * assessment or risk: those never pass through here.
 */

/** Something a tool returned for this request, that an observation or citation may rest on. */
export interface GroundedEntity {
  /** The name as the tool returned it (what the response shows). */
  name: string;
  /** Other names that mean the same entity (a canonical key, a brand name as sent). */
  aliases: readonly string[];
  /** The citation of the tool result it comes from, `tool:entity`. */
  citation: string;
}

export interface ModelObservation {
  entity: string;
  note: string;
}

export interface ModelAnswer {
  narrative: string;
  observations: ModelObservation[];
  citations: string[];
  /** Observations and citations past MODEL_ANSWER_ITEMS, not read (said in a warning). */
  unread?: number;
}

export interface GroundedAnswer {
  narrative: string;
  observations: { entity: GroundedEntity; note: string }[];
  citations: string[];
  warnings: string[];
}

const MAX_NOTE_CHARS = 500;
/**
 * Observations, and citations, of a model's answer that are read (decision 168); the rest are
 * counted in one warning. An answer rests on a request's few tool results (at most 50 medicines,
 * readings or signals), and one observation per entity is kept.
 */
export const MODEL_ANSWER_ITEMS = 50;
const MAX_NARRATIVE_CHARS = 2000;
/** Vocabulary terms shorter than this are not screened in prose (too many false matches). */
const MIN_SCREENED_TERM_CHARS = 4;

/** Lower-case letters and digits, single spaces: how names are compared. */
export function normaliseEntityName(text: string): string {
  return text
    .normalize("NFKD")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, " ")
    .trim();
}

/**
 * The model's final text as an answer: the JSON object it was asked for (optionally inside a code
 * fence), or, when it answered in prose, that prose as the narrative with no observations.
 */
export function parseModelAnswer(text: string): ModelAnswer {
  const json = parseModelJson(text);
  return json
    ? answerFromJson(json)
    : { narrative: readModelText(text.trim()), observations: [], citations: [] };
}

/** The JSON object a model answered with (optionally inside a code fence), or undefined for prose. */
export function parseModelJson(text: string): Record<string, unknown> | undefined {
  const candidate = withoutCodeFence(text.trim());
  if (!candidate.startsWith("{")) return undefined;
  try {
    const parsed: unknown = JSON.parse(candidate);
    return isRecord(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The text inside a code fence (```json ... ``` or ``` ... ```), or the text itself. Plain string
 * steps, linear in the text: the pattern this replaces backtracked cubically on a fence of spaces.
 */
function withoutCodeFence(trimmed: string): string {
  if (trimmed.length < 6 || !trimmed.startsWith("```") || !trimmed.endsWith("```")) return trimmed;
  const inner = trimmed.slice(3, -3);
  return (inner.startsWith("json") ? inner.slice(4) : inner).trim();
}

function answerFromJson(record: Record<string, unknown>): ModelAnswer {
  const narrative = typeof record.narrative === "string" ? readModelText(record.narrative.trim()) : "";
  const items = (value: unknown): unknown[] =>
    Array.isArray(value) ? value.slice(0, MODEL_ANSWER_ITEMS) : [];
  const unread =
    Math.max(0, (Array.isArray(record.observations) ? record.observations.length : 0) - MODEL_ANSWER_ITEMS) +
    Math.max(0, (Array.isArray(record.citations) ? record.citations.length : 0) - MODEL_ANSWER_ITEMS);
  const observations = Array.isArray(record.observations)
    ? items(record.observations).flatMap((item): ModelObservation[] => {
        if (!isRecord(item)) return [];
        const entity = firstString(
          item.entity,
          item.analyte,
          item.instrument,
          item.medication,
          item.indicator,
        );
        const note = typeof item.note === "string" ? readModelText(item.note.trim(), 2 * MAX_NOTE_CHARS) : "";
        return entity && note ? [{ entity, note }] : [];
      })
    : [];
  const citations = items(record.citations).filter((c): c is string => typeof c === "string");
  return unread > 0 ? { narrative, observations, citations, unread } : { narrative, observations, citations };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function firstString(...values: unknown[]): string | undefined {
  for (const value of values) if (typeof value === "string" && value.trim()) return value.trim();
  return undefined;
}

/** The model's answer reduced to what rests on this request's tool results. */
export function groundAnswer(
  answer: ModelAnswer,
  entities: readonly GroundedEntity[],
  vocabulary: readonly string[],
): GroundedAnswer {
  const droppedObservations: string[] = [];
  const droppedCitations: string[] = [];
  const repeatedObservations: string[] = [];
  const byName = entityIndex(entities);
  const observations: GroundedAnswer["observations"] = [];
  for (const observation of answer.observations) {
    const entity = byName.get(normaliseEntityName(observation.entity));
    // One observation per entity (the first): a model repeating itself cannot grow the response.
    if (entity && observations.some((kept) => kept.entity === entity))
      repeatedObservations.push(
        `Dropped a further observation about "${clipModelText(observation.entity)}": one observation per entity is kept.`,
      );
    else if (entity) observations.push({ entity, note: observation.note.slice(0, MAX_NOTE_CHARS) });
    else
      droppedObservations.push(
        `Dropped an observation about "${clipModelText(observation.entity)}": no tool returned it for this request.`,
      );
  }
  const validCitations = new Set(entities.map((entity) => entity.citation));
  const citations: string[] = [];
  for (const citation of answer.citations) {
    if (validCitations.has(citation)) {
      if (!citations.includes(citation)) citations.push(citation);
    } else
      droppedCitations.push(
        `Dropped the citation "${clipModelText(citation)}": it names no tool result of this request.`,
      );
  }
  for (const { entity } of observations)
    if (!citations.includes(entity.citation)) citations.push(entity.citation);
  const screened = screenNarrative(answer.narrative, byName, vocabulary);
  const warnings = [
    ...(answer.unread
      ? [
          `The model's answer held ${answer.unread} further observations and citations past the ${MODEL_ANSWER_ITEMS} of each that are read; they were not read.`,
        ]
      : []),
    ...boundedWarnings(droppedObservations, "dropped observations"),
    ...boundedWarnings(repeatedObservations, "repeated observations"),
    ...boundedWarnings(droppedCitations, "dropped citations"),
    ...screened.warnings,
  ];
  return { narrative: screened.narrative.slice(0, MAX_NARRATIVE_CHARS), observations, citations, warnings };
}

function entityIndex(entities: readonly GroundedEntity[]): Map<string, GroundedEntity> {
  const index = new Map<string, GroundedEntity>();
  for (const entity of entities) {
    for (const name of [entity.name, ...entity.aliases]) {
      const key = normaliseEntityName(name);
      if (key && !index.has(key)) index.set(key, entity);
    }
  }
  return index;
}

/**
 * Drops each sentence that names a term of the tools' vocabulary which is not one of this
 * request's entities (an analyte the caller never sent, a drug not on the list).
 */
function screenNarrative(
  narrative: string,
  grounded: ReadonlyMap<string, GroundedEntity>,
  vocabulary: readonly string[],
): { narrative: string; warnings: string[] } {
  const ungrounded = [
    ...new Set(vocabulary.map(normaliseEntityName).filter((term) => term.length >= MIN_SCREENED_TERM_CHARS)),
  ].filter((term) => !grounded.has(term));
  const dropped: string[] = [];
  const kept: string[] = [];
  for (const sentence of splitSentences(narrative)) {
    const padded = ` ${normaliseEntityName(sentence)} `;
    const named = ungrounded.find((term) => padded.includes(` ${term} `));
    if (named)
      dropped.push(
        `Dropped a sentence of the narrative naming "${clipModelText(named)}", which no tool returned for this request.`,
      );
    else kept.push(sentence);
  }
  return { narrative: kept.join(" "), warnings: boundedWarnings(dropped, "dropped narrative sentences") };
}

function splitSentences(text: string): string[] {
  return text
    .split(/(?<=[.!?])\s+/)
    .map((sentence) => sentence.trim())
    .filter(Boolean);
}
