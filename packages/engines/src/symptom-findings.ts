/**
 * What the symptom scales of a request say on their own, per instrument: the latest score's
 * severity band, reliable deterioration or improvement (first vs latest, and previous vs latest),
 * and a flag label for each finding a clinician must not miss. The outcome, relapse and medication
 * engines all read this, so a severe score or a reliable deterioration is seen the same way
 * everywhere and cannot be outweighed by non-symptom sources. Pure; sources in
 * docs/engines/evidence.md.
 */
import {
  classifyScaleChange,
  INSTRUMENT_PROFILES,
  type KnownInstrument,
  recogniseInstrument,
  type ScaleChange,
  type SeverityBand,
  severityBand,
} from "./instruments.js";
import { fmt, instrumentKeyOf, parseTime, signed } from "./shared.js";
import type { Assessment } from "./types.js";

/**
 * Expert-set: on a scale without published reliable-change figures, a rise (or fall) of at least
 * this many percentage points of the scale maximum is read as a deterioration (improvement). It
 * sits between the PHQ-9 (6/27 = 22 %) and GAD-7 (4/21 = 19 %) reliable changes rounded down, so
 * an unknown scale is never held to a stricter standard than the known ones.
 */
export const UNKNOWN_SCALE_CHANGE_PP = 15;

/**
 * Percentages of different maxima do not subtract exactly (11/20 to 14/20 is 14.999999999999993
 * points): comparisons with a percentage-point threshold allow this much rounding error.
 */
export const PP_EPSILON = 1e-9;

export interface Administration {
  score: number;
  maxScore: number;
  /** Epoch milliseconds. */
  at: number;
  /** Percent of maxScore, clamped to 0-100. */
  pct: number;
  severity?: string;
}

export interface InstrumentFinding {
  /** Recognised instrument key, else the normalised instrumentId (or name). */
  key: string;
  display: string;
  known: KnownInstrument | null;
  /** Readable administrations (a readable date and finite score and maxScore > 0). */
  n: number;
  latest: Administration;
  /** Published band of the latest score (recognised instruments on their published maximum). */
  band: SeverityBand | null;
  /** The latest score is in the severe band, or the caller labelled it severe. */
  severe: boolean;
  severeBy: "published_band" | "caller_severity" | null;
  /** Recognised instrument whose administrations use a maxScore other than the published one. */
  offScale: boolean;
  /** First vs latest and previous vs latest, by the service definitions (recognised, on scale). */
  overall: ScaleChange | null;
  recent: ScaleChange | null;
  /** Percentage-point change first vs latest and previous vs latest (any scale; null with one date). */
  overallPp: number | null;
  recentPp: number | null;
  /** Reliable deterioration (recognised) or a rise of UNKNOWN_SCALE_CHANGE_PP or more (other scales). */
  deteriorated: boolean;
  /** Reliable improvement first vs latest (recognised) or a fall of UNKNOWN_SCALE_CHANGE_PP or more. */
  improved: boolean;
  /** The sentence for a deterioration, and for a severe latest score; null when there is none. */
  deteriorationFlag: string | null;
  severityFlag: string | null;
  /** Both sentences that are present, deterioration first. */
  flags: string[];
}

export interface SymptomFindings {
  instruments: InstrumentFinding[];
  severe: InstrumentFinding[];
  deteriorated: InstrumentFinding[];
  /** Every finding's flags, deteriorations first, then severe scores, in instrument order. */
  flags: string[];
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
  known: KnownInstrument | null;
  items: Administration[];
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
      g = { key, display: known ? INSTRUMENT_PROFILES[known].display : a.instrumentName, known, items: [] };
      groups.set(key, g);
    }
    const pct = Math.min(100, Math.max(0, (a.score / a.maxScore) * 100));
    const item: Administration = { score: a.score, maxScore: a.maxScore, at, pct };
    if (a.severity !== undefined) item.severity = a.severity;
    g.items.push(item);
  }
  return [...groups.values()];
}

function describeBand(display: string, profileMax: number, score: number, b: SeverityBand): string {
  return `${display} ${fmt(score)} of ${profileMax}: ${b.label} band (${b.min}-${b.max})`;
}

function readGroup(g: Group, unknownPp: number): InstrumentFinding {
  // Stable sort: equal times keep input order, so "latest" is the last sent among equals.
  const items = g.items.sort((x, y) => x.at - y.at);
  const first = items[0] as Administration;
  const latest = items[items.length - 1] as Administration;
  const previous = items.length >= 2 ? (items[items.length - 2] as Administration) : null;
  const distinctDates = latest.at > first.at;
  const profile = g.known ? INSTRUMENT_PROFILES[g.known] : null;
  const offScale = profile !== null && items.some((i) => i.maxScore !== profile.maxScore);
  const onScale = profile !== null && !offScale;

  const bandOf = onScale && g.known ? severityBand(g.known, latest.score) : null;
  const byBand = bandOf?.key === "severe";
  const byCaller = callerSaysSevere(latest.severity);
  const overall =
    onScale && g.known && distinctDates ? classifyScaleChange(g.known, first.score, latest.score) : null;
  const recent =
    onScale && g.known && previous && latest.at > previous.at
      ? classifyScaleChange(g.known, previous.score, latest.score)
      : null;
  const overallPp = distinctDates ? latest.pct - first.pct : null;
  const recentPp = previous && latest.at > previous.at ? latest.pct - previous.pct : null;

  const deteriorated = onScale
    ? overall?.category === "reliable_deterioration" || recent?.category === "reliable_deterioration"
    : (overallPp ?? 0) >= unknownPp - PP_EPSILON || (recentPp ?? 0) >= unknownPp - PP_EPSILON;
  const improved = onScale
    ? overall?.category === "reliable_improvement"
    : (overallPp ?? 0) <= -unknownPp + PP_EPSILON;

  let deteriorationFlag: string | null = null;
  if (deteriorated) {
    if (onScale && profile) {
      const worst = [overall, recent]
        .filter((c): c is ScaleChange => c?.category === "reliable_deterioration")
        .sort((x, y) => y.change - x.change)[0] as ScaleChange;
      deteriorationFlag = `${g.display} reliable deterioration: ${fmt(worst.before)} -> ${fmt(worst.after)} (${signed(worst.change)} points; ${profile.reliableChangePoints} or more is reliable)`;
    } else {
      const rise = Math.max(overallPp ?? 0, recentPp ?? 0);
      deteriorationFlag = `${g.display} rose ${fmt(rise)} percentage points of the scale maximum (${unknownPp} or more is counted as deterioration here, an expert-set threshold)`;
    }
  }
  const severityFlag =
    byBand && profile && bandOf
      ? describeBand(g.display, profile.maxScore, latest.score, bandOf)
      : byCaller
        ? `${g.display} latest administration reported as "${latest.severity}" by the caller`
        : null;

  return {
    key: g.key,
    display: g.display,
    known: g.known,
    n: items.length,
    latest,
    band: bandOf,
    severe: byBand || byCaller,
    severeBy: byBand ? "published_band" : byCaller ? "caller_severity" : null,
    offScale,
    overall,
    recent,
    overallPp,
    recentPp,
    deteriorated,
    improved,
    deteriorationFlag,
    severityFlag,
    flags: [deteriorationFlag, severityFlag].filter((f): f is string => f !== null),
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
  const flags: string[] = [];
  for (const f of deteriorated) if (f.deteriorationFlag) flags.push(f.deteriorationFlag);
  for (const f of severe) if (f.severityFlag) flags.push(f.severityFlag);
  return { instruments, severe, deteriorated, flags };
}
