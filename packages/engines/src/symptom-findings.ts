/**
 * What the symptom scales of a request say on their own, per instrument, read in the direction of
 * each scale: the latest score's severity band, reliable deterioration or
 * improvement (first vs latest, previous vs latest, and best vs latest), and a flag
 * label for each finding a clinician must not miss. An instrument whose direction is not known is
 * not evaluated for change (a note says so); an administration on another form (another maximum) is
 * read off-scale; an invalid total (a fraction of a whole-number scale, or out of
 * range) is never read as improvement, only for a deterioration or severe score at
 * the nearest total the form can produce toward the worse end. The outcome, relapse and medication engines all read this, so a severe score
 * or a reliable deterioration is seen the same way everywhere and cannot be outweighed by
 * non-symptom sources. Pure; sources in docs/engines/evidence.md.
 *
 * Decisions this module follows (docs/decisions.md): 60, scale direction from one instrument table;
 * 61, deterioration from the best score; 62, staleness: one rule; 63, fractional totals; 81,
 * invalid totals are not evaluated; 182, one judgement per fact, every door reads it.
 */
import {
  classifyScaleChange,
  INSTRUMENTS,
  type InstrumentId,
  invalidTotalReason,
  nearestFormTotals,
  recogniseInstrument,
  type ScaleChange,
  type ScaleDirection,
  type SeverityBand,
  severityBand,
  type TotalValidity,
  totalValidity,
} from "./instruments.js";
import { PP_EPSILON, UNKNOWN_SCALE_CHANGE_PP } from "./judgement.js";
import { percentOfScale } from "./knowledge/instruments.js";
import { dateOf, fmt, instrumentKeyOf, parseTime, signed } from "./shared.js";
import type { Assessment } from "./types.js";

// The percentage-point rule for scales without a sourced reliable change, and its rounding
// allowance, are written once beside the one judgement of a score change.
export { PP_EPSILON, UNKNOWN_SCALE_CHANGE_PP };

/**
 * Expert-set: a reading beside which a scale of unknown direction was given on two
 * or more dates (its change could not be read) has at most moderate confidence, score at most 0.6
 * (below every engine's high cut-off of 0.75). With no other scale the engines have no symptom
 * anchor and confidence is low anyway.
 */
export const UNREAD_SCALE_CONFIDENCE_CAP = "moderate" as const;
export const UNREAD_SCALE_CONFIDENCE_SCORE_CAP = 0.6;

export interface Administration {
  score: number;
  maxScore: number;
  /** Epoch milliseconds. */
  at: number;
  /** Percent of maxScore, clamped to 0-100. */
  pct: number;
  /** Percent of the way to the worse end of the scale (pct, or 100 - pct on higher-is-better scales). */
  burdenPct: number;
  /** A valid administration of the published instrument (recognised instruments only). */
  published: boolean;
  /** published, other_form or invalid; null on an unrecognised instrument. */
  validity: TotalValidity | null;
  /** The nearest totals the form can produce toward the worse / better end (the score itself when valid). */
  worseScore: number;
  betterScore: number;
  /** burdenPct of worseScore / betterScore. */
  worseBurdenPct: number;
  betterBurdenPct: number;
  severity?: string;
}

export interface InstrumentFinding {
  /** Recognised instrument key, else the normalised instrumentId (or name). */
  key: string;
  display: string;
  known: InstrumentId | null;
  /** Which way a worse state moves the score; null when not known (change not evaluated). */
  direction: ScaleDirection | null;
  /** Readable administrations (a readable date and finite score and maxScore > 0). */
  n: number;
  latest: Administration;
  /** The best administration before the latest (lowest burden), null with one date. */
  best: Administration | null;
  /** Published band of the latest score (recognised instruments, valid administrations). */
  band: SeverityBand | null;
  /** The latest score is in the instrument's severe band, or the caller labelled it severe. */
  severe: boolean;
  severeBy: "published_band" | "caller_severity" | null;
  /** Recognised instrument with an administration on another form (another maxScore). */
  offScale: boolean;
  /** Administrations whose total the form cannot produce: never read as improvement. */
  invalid: number;
  /** Change was read from at least two dates of valid administrations (direction known). */
  changeRead: boolean;
  /** First vs latest, previous vs latest, best vs latest (recognised, on scale, with a reliable change). */
  overall: ScaleChange | null;
  recent: ScaleChange | null;
  fromBest: ScaleChange | null;
  /** Worsening in percentage points of the scale maximum (positive is worse); null with one date or no direction. */
  overallPp: number | null;
  recentPp: number | null;
  fromBestPp: number | null;
  /** Reliable deterioration from the first, previous or best score (or UNKNOWN_SCALE_CHANGE_PP off-scale). */
  deteriorated: boolean;
  /** Reliable improvement first vs latest, with no deterioration from the best score. */
  improved: boolean;
  /** The direction is known, so change was read. */
  evaluated: boolean;
  /** The sentence for a deterioration, and for a severe latest score; null when there is none. */
  deteriorationFlag: string | null;
  severityFlag: string | null;
  /** Both sentences that are present, deterioration first. */
  flags: string[];
  /** Data-quality notes: direction unknown, totals not valid for the instrument. */
  notes: string[];
}

export interface SymptomFindings {
  instruments: InstrumentFinding[];
  severe: InstrumentFinding[];
  deteriorated: InstrumentFinding[];
  /** Instruments whose change was not evaluated (direction unknown). */
  unevaluated: InstrumentFinding[];
  /** Instruments with invalid administrations. */
  withInvalid: InstrumentFinding[];
  /** Every finding's flags, deteriorations first, then severe scores, in instrument order. */
  flags: string[];
  /** Every finding's data-quality notes, in instrument order. */
  notes: string[];
}

const SEVERE_WORDS = new Set(["severe", "verysevere", "extremelysevere", "extreme"]);

/** A caller-sent severity that names the top band ("severe", "Extremely severe"), not "moderately severe". */
export function callerSaysSevere(severity: string | undefined): boolean {
  if (typeof severity !== "string") return false;
  return SEVERE_WORDS.has(severity.toLowerCase().replace(/[^a-z]/g, ""));
}

interface Group {
  key: string;
  display: string;
  known: InstrumentId | null;
  items: Administration[];
}

/** Percent of the way to the worse end: pct on higher-is-worse and unknown scales, 100 - pct otherwise. */
export function burdenPctOf(direction: ScaleDirection | null, pct: number): number {
  return direction === "higher_is_better" ? 100 - pct : pct;
}

function groupAdministrations(
  assessments: readonly Assessment[],
  times: readonly (number | null)[] | undefined,
): Group[] {
  const groups = new Map<string, Group>();
  for (let i = 0; i < assessments.length; i++) {
    const a = assessments[i] as Assessment;
    const at = times ? (times[i] ?? null) : parseTime(a.createdAt);
    if (at === null || !Number.isFinite(a.score) || !Number.isFinite(a.maxScore) || a.maxScore <= 0) continue;
    const known = recogniseInstrument(a.instrumentId, a.instrumentName);
    const key = known ?? instrumentKeyOf(a);
    let g = groups.get(key);
    if (!g) {
      g = { key, display: known ? INSTRUMENTS[known].display : a.instrumentName, known, items: [] };
      groups.set(key, g);
    }
    const pctOf = (score: number) => Math.min(100, Math.max(0, percentOfScale(known, score, a.maxScore)));
    const pct = pctOf(a.score);
    const direction = known ? INSTRUMENTS[known].direction : null;
    const validity = known ? totalValidity(known, a.score, a.maxScore) : null;
    const near = known ? nearestFormTotals(known, a.score, a.maxScore) : { worse: a.score, better: a.score };
    const item: Administration = {
      score: a.score,
      maxScore: a.maxScore,
      at,
      pct,
      burdenPct: burdenPctOf(direction, pct),
      published: validity === "published",
      validity,
      worseScore: near.worse,
      betterScore: near.better,
      worseBurdenPct: burdenPctOf(direction, pctOf(near.worse)),
      betterBurdenPct: burdenPctOf(direction, pctOf(near.better)),
    };
    if (a.severity !== undefined) item.severity = a.severity;
    g.items.push(item);
  }
  return [...groups.values()];
}

function describeBand(display: string, profileMax: number, score: number, b: SeverityBand): string {
  return `${display} ${fmt(score)} of ${profileMax}: ${b.label} band (${b.min}-${b.max})`;
}

/** Why a recognised instrument's administrations were read off its published scale (another form). */
function offScaleNote(display: string, known: InstrumentId, items: readonly Administration[]): string {
  const k = INSTRUMENTS[known];
  const other = items.filter((i) => i.validity === "other_form");
  return `${display}: ${other.length} administration(s) with a maxScore other than the published ${k.totalMax} are not on the published ${display} form; bands and the published reliable change were not applied, change read in percentage points of the scale maximum (data quality)`;
}

/** Which administrations were not evaluated because their totals are invalid. */
function invalidNote(display: string, known: InstrumentId, items: readonly Administration[]): string {
  const reasons = [
    ...new Set(
      items
        .filter((i) => i.validity === "invalid")
        .map((i) => invalidTotalReason(known, i.score, i.maxScore) as string),
    ),
  ];
  const n = items.filter((i) => i.validity === "invalid").length;
  return `${display}: ${n} administration(s) not evaluated: ${reasons.join("; ")}; an invalid total is never read as improvement or as reassurance, and is read only for a deterioration or a severe score, at the nearest total the form can produce toward the worse end (data quality)`;
}

/** The administration before the latest with the lowest burden (better reading; the earliest among equals). */
function bestBefore(items: readonly Administration[], latest: Administration): Administration | null {
  let best: Administration | null = null;
  for (const i of items)
    if (i.at < latest.at && (best === null || i.betterBurdenPct < best.betterBurdenPct)) best = i;
  return best;
}

function deteriorationText(g: Group, worst: ScaleChange, fromBest: boolean, threshold: number): string {
  const k = g.known ? INSTRUMENTS[g.known] : null;
  const scale = k?.direction === "higher_is_better" ? "; higher is better on this scale" : "";
  const from = fromBest ? " from the best score" : "";
  return `${g.display} reliable deterioration${from}: ${fmt(worst.before)} -> ${fmt(worst.after)} (${signed(worst.change)} points${scale}; ${fmt(threshold)} or more is reliable)`;
}

/**
 * One reading of a set of administrations of one instrument. Each comparison reads the later
 * administration at its `worse` total and the earlier one at its `better` total;
 * for valid administrations both are the score, so a reading of valid administrations alone is
 * the plain reading of decisions 60-63.
 */
interface Reading {
  latest: Administration;
  best: Administration | null;
  distinctDates: boolean;
  band: SeverityBand | null;
  byBand: boolean;
  overall: ScaleChange | null;
  recent: ScaleChange | null;
  fromBest: ScaleChange | null;
  overallPp: number | null;
  recentPp: number | null;
  fromBestPp: number | null;
  deteriorated: boolean;
  /** The improvement criterion (first vs latest), before the deterioration check. */
  improvedFromFirst: boolean;
  deteriorationFlag: string | null;
  severityFlag: string | null;
}

function readSet(g: Group, items: readonly Administration[], unknownPp: number): Reading {
  const first = items[0] as Administration;
  const latest = items[items.length - 1] as Administration;
  const previous = items.length >= 2 ? (items[items.length - 2] as Administration) : null;
  const distinctDates = latest.at > first.at;
  const k = g.known ? INSTRUMENTS[g.known] : null;
  const direction = k?.direction ?? null;
  // On the published maximum (valid or invalid totals): bands and reliable change in points apply.
  const onScale = k !== null && items.every((i) => i.maxScore === k.totalMax);
  const byPoints = onScale && k?.reliableChangePoints != null;
  const best = distinctDates ? bestBefore(items, latest) : null;

  const band = onScale && g.known ? severityBand(g.known, latest.worseScore) : null;
  const byBand = band !== null && k?.severeBandKey === band.key;
  const compare = (before: Administration | null): ScaleChange | null =>
    byPoints && g.known && before && latest.at > before.at
      ? classifyScaleChange(g.known, before.betterScore, latest.worseScore)
      : null;
  const overall = compare(first);
  const recent = compare(previous);
  const fromBest = compare(best);
  const ppOf = (before: Administration | null): number | null =>
    direction !== null && before && latest.at > before.at
      ? latest.worseBurdenPct - before.betterBurdenPct
      : null;
  const overallPp = ppOf(first);
  const recentPp = ppOf(previous);
  const fromBestPp = ppOf(best);

  const evaluated = direction !== null;
  const deteriorated = !evaluated
    ? false
    : byPoints
      ? [overall, recent, fromBest].some((c) => c?.category === "reliable_deterioration")
      : [overallPp, recentPp, fromBestPp].some((pp) => (pp ?? 0) >= unknownPp - PP_EPSILON);
  const improvedFromFirst =
    evaluated &&
    (byPoints ? overall?.category === "reliable_improvement" : (overallPp ?? 0) <= -unknownPp + PP_EPSILON);

  let deteriorationFlag: string | null = null;
  if (deteriorated) {
    if (byPoints && k) {
      const candidates = [overall, recent, fromBest].filter(
        (c): c is ScaleChange => c?.category === "reliable_deterioration",
      );
      const worst = candidates.sort((x, y) => y.worsening - x.worsening)[0] as ScaleChange;
      const isFromBest =
        worst === fromBest && fromBest.before !== overall?.before && fromBest.before !== recent?.before;
      deteriorationFlag = deteriorationText(g, worst, isFromBest, worst.threshold);
    } else {
      const rise = Math.max(overallPp ?? 0, recentPp ?? 0, fromBestPp ?? 0);
      const toward = direction === "higher_is_better" ? "fell" : "rose";
      deteriorationFlag = `${g.display} ${toward} ${fmt(rise)} percentage points of the scale maximum toward its worse end (${unknownPp} or more is counted as deterioration here, an expert-set threshold)`;
    }
  }
  const byCaller = callerSaysSevere(latest.severity);
  const severityFlag =
    byBand && k && band
      ? describeBand(g.display, k.totalMax, latest.worseScore, band)
      : byCaller
        ? `${g.display} latest administration reported as "${latest.severity}" by the caller`
        : null;
  return {
    latest,
    best,
    distinctDates,
    band,
    byBand,
    overall,
    recent,
    fromBest,
    overallPp,
    recentPp,
    fromBestPp,
    deteriorated,
    improvedFromFirst,
    deteriorationFlag,
    severityFlag,
  };
}

const maxOf = (a: number | null, b: number | null): number | null =>
  a === null ? b : b === null ? a : Math.max(a, b);

/** Marks a sentence read from invalid totals as such. */
const fromInvalid = (flag: string | null): string | null =>
  flag === null
    ? null
    : `${flag} (reading the invalid total(s) at the nearest total the form can produce toward the worse end)`;

function readGroup(g: Group, unknownPp: number): InstrumentFinding {
  // Stable sort: equal times keep input order, so "latest" is the last sent among equals.
  const items = g.items.sort((x, y) => x.at - y.at);
  const k = g.known ? INSTRUMENTS[g.known] : null;
  const direction = k?.direction ?? null;
  const evaluated = direction !== null;
  const valid = items.filter((i) => i.validity !== "invalid");
  const invalid = items.length - valid.length;
  // Valid administrations alone; with invalid ones, also all of them read toward the worse end:
  // a deterioration or severe score shown by either counts, an improvement only
  // when both show it, so an invalid total never supports improvement and never hides a rise.
  const v = valid.length > 0 ? readSet(g, valid, unknownPp) : null;
  const all = invalid > 0 ? readSet(g, items, unknownPp) : null;
  const main = (v ?? all) as Reading;
  const latest = items[items.length - 1] as Administration;
  const changeRead = evaluated && v?.distinctDates === true;
  const deteriorated = (v?.deteriorated ?? false) || (all?.deteriorated ?? false);
  const improved =
    changeRead && !deteriorated && (v?.improvedFromFirst ?? false) && (all === null || all.improvedFromFirst);
  const byBand = (v?.byBand ?? false) || (all?.byBand ?? false);
  const byCaller = callerSaysSevere(latest.severity);

  const deteriorationFlag = !deteriorated
    ? null
    : v?.deteriorated
      ? (v.deteriorationFlag as string)
      : fromInvalid((all as Reading).deteriorationFlag);
  const severityFlag =
    v?.byBand && v.severityFlag
      ? v.severityFlag +
        (v.latest === latest ? "" : ` (the latest valid administration, ${dateOf(v.latest.at)})`)
      : all?.byBand
        ? fromInvalid(all.severityFlag)
        : byCaller
          ? `${g.display} latest administration reported as "${latest.severity}" by the caller`
          : null;

  const notes: string[] = [];
  if (!evaluated && latest.at > (items[0] as Administration).at)
    notes.push(
      `${g.display}: change not evaluated: direction unknown (not a recognised instrument, so whether a higher score is better or worse is not known)`,
    );
  const offScale = items.some((i) => i.validity === "other_form");
  if (offScale && g.known) notes.push(offScaleNote(g.display, g.known, items));
  if (invalid > 0 && g.known) notes.push(invalidNote(g.display, g.known, items));

  // Change in percentage points: the worse of the two readings; without a valid change, an
  // invalid total's fall counts as no change (it is never credited as improvement).
  const pp = (a: number | null, b: number | null): number | null =>
    all === null ? a : changeRead ? maxOf(a, b) : b === null ? null : Math.max(0, b);

  return {
    key: g.key,
    display: g.display,
    known: g.known,
    direction,
    n: items.length,
    latest,
    best: all?.best ?? main.best,
    band: v !== null && v.latest === latest ? v.band : null,
    severe: byBand || byCaller,
    severeBy: byBand ? "published_band" : byCaller ? "caller_severity" : null,
    offScale,
    invalid,
    changeRead,
    overall: v?.overall ?? null,
    recent: v?.recent ?? null,
    fromBest: v?.fromBest ?? null,
    overallPp: evaluated ? pp(v?.overallPp ?? null, all?.overallPp ?? null) : null,
    recentPp: evaluated ? pp(v?.recentPp ?? null, all?.recentPp ?? null) : null,
    fromBestPp: evaluated ? pp(v?.fromBestPp ?? null, all?.fromBestPp ?? null) : null,
    deteriorated,
    improved,
    evaluated,
    deteriorationFlag,
    severityFlag,
    flags: [deteriorationFlag, severityFlag].filter((f): f is string => f !== null),
    notes,
  };
}

/**
 * Reads every instrument of a request once. Order: instruments in order of first appearance.
 * Never throws on in-bound input; administrations without a readable date or score are skipped.
 */
export function readSymptomFindings(
  assessments: readonly Assessment[] | undefined,
  unknownScaleChangePp: number = UNKNOWN_SCALE_CHANGE_PP,
  /** Each assessment's parsed createdAt (assessmentTimes), when the caller has them already. */
  times?: readonly (number | null)[],
): SymptomFindings {
  const instruments = assessments?.length
    ? groupAdministrations(assessments, times).map((g) => readGroup(g, unknownScaleChangePp))
    : [];
  const severe = instruments.filter((f) => f.severe);
  const deteriorated = instruments.filter((f) => f.deteriorated);
  const unevaluated = instruments.filter((f) => !f.evaluated);
  const withInvalid = instruments.filter((f) => f.invalid > 0);
  const flags: string[] = [];
  for (const f of deteriorated) if (f.deteriorationFlag) flags.push(f.deteriorationFlag);
  for (const f of severe) if (f.severityFlag) flags.push(f.severityFlag);
  return {
    instruments,
    severe,
    deteriorated,
    unevaluated,
    withInvalid,
    flags,
    notes: instruments.flatMap((f) => f.notes),
  };
}

/**
 * Confidence lowered (never raised) when a scale of unknown direction was given on two dates or
 * more, or an administration's total was invalid and not evaluated:
 * at most moderate, score at most UNREAD_SCALE_CONFIDENCE_SCORE_CAP, with a reason naming them.
 */
export function capForUnreadScales<
  T extends { level: "high" | "moderate" | "low"; score: number; reasons: string[] },
>(confidence: T, findings: SymptomFindings): T {
  const unread = findings.unevaluated.filter((f) => f.notes.length > 0);
  const invalid = findings.withInvalid;
  if ((unread.length === 0 && invalid.length === 0) || confidence.level === "low") return confidence;
  return {
    ...confidence,
    level: UNREAD_SCALE_CONFIDENCE_CAP,
    score: Math.min(confidence.score, UNREAD_SCALE_CONFIDENCE_SCORE_CAP),
    reasons: [
      ...confidence.reasons,
      ...(unread.length > 0
        ? [
            `Confidence at most ${UNREAD_SCALE_CONFIDENCE_CAP}: the change of ${unread.map((f) => f.display).join(", ")} could not be read (direction unknown).`,
          ]
        : []),
      ...(invalid.length > 0
        ? [
            `Confidence at most ${UNREAD_SCALE_CONFIDENCE_CAP}: ${invalid.map((f) => `${f.invalid} ${f.display} administration(s)`).join(", ")} with an invalid total were not evaluated.`,
          ]
        : []),
    ],
  };
}
