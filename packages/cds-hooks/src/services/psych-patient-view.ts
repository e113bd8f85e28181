/**
 * The `psych-patient-view` service (patient-view), in one module: its discovery
 * descriptor and prefetch, its rules and its run.
 *
 * patient-view: relapse early warning and symptom trajectory (relapse engine) from the
 * symptom-scale scores and active medications; laboratory review (biomarker engine) from lab
 * Observations; monitoring levels that are missing or old for an active lithium, valproate or
 * clozapine order; and every piece of data that could not be used.
 *
 * Decisions this module follows (docs/decisions.md): 114, a rule catalog with HTI-1 source
 * attributes; 115, cards say what the engines say, and silence is never reassurance; 142, order
 * hooks answer per medicine pair, and every caller's list is cut before it is read; 144, text from
 * the EHR cannot become a link or HTML in a card; 171, the biomarker answer is bounded whatever the
 * number of readings; 180, a value without a unit: one rule; 182, one judgement per fact, every
 * door reads it; 189, the patient over time is one review every door reads; 201, the EHR door reads
 * the patient, a renewal is not a start; 209, a CDS service is one module, found through one
 * registry.
 */
import {
  ANALYTES,
  type AnalyteEntry,
  analyteByKey,
  BIOMARKER_DISCLAIMER,
  type BiomarkerData,
  type BiomarkerParams,
  DOOR_LEVELS,
  hasSingleScale,
  INSTRUMENTS,
  MONITORED_MEDICINES,
  type ModuleSignal,
  RELAPSE_DISCLAIMER,
  RELAPSE_INSUFFICIENT_DATA_RECOMMENDATION,
  RELAPSE_STALE_DATA_RECOMMENDATION,
  type RelapseData,
  type RelapseLevel,
  reviewPatient,
  TONE_LEVEL,
} from "@svc/engines";
import {
  type FhirInbound,
  type LabReading,
  readFhirInputs,
  readPatientReview,
  toBiomarkerInput,
  toRelapseInput,
} from "@svc/fhir";
import { ENGINE_REGISTRY } from "@svc/intelligence";
import { firstResources } from "../bounded-source.js";
import { escapeMarkdown, type FoundCard, foundCard, type Indicator } from "../cards.js";
import {
  MAX_ACTIVE_REQUESTS,
  MAX_LAB_ENTRIES,
  MAX_PATIENT_ENTRIES,
  MAX_SCORE_ENTRIES,
  MAX_STATEMENT_ENTRIES,
} from "../limits.js";
import { findingCards } from "../review-cards.js";
import { type CdsRule, DATA_RULE, KNOWLEDGE_REVISED, RULE_DEVELOPER, SHIPPED } from "../rules.js";
import { cardContext, engineParamsOf, type RunContext, runEngine } from "../run-context.js";
import { insufficientDataCard, NOT_USED_LISTED, notUsedLines } from "../run-shared.js";
import { type CdsService, defineCdsService, type ServiceRun } from "../service-module.js";
import {
  ACTIVE_MEDICATIONS,
  ACTIVE_STATEMENTS,
  PATIENT,
  PATIENT_OBSERVATIONS,
  SCORE_CODES,
} from "./prefetch-templates.js";

// Rules of the patient-view service.

/** Sources of an analyte's ranges and limits, each once. */
function measureSources(entry: AnalyteEntry): string[] {
  const m = entry.measure;
  if (!m) return [];
  const sources = [
    ...(m.therapeutic ?? []).map((r) => `${r.indication} range: ${r.source}`),
    ...(m.reference ? [`reference range: ${m.reference.source}`] : []),
    ...(m.criticalLow ? [`critical low: ${m.criticalLow.source}`] : []),
    ...(m.criticalHigh ? [`critical high: ${m.criticalHigh.source}`] : []),
  ];
  return [...new Set(sources)];
}

function labRule(entry: AnalyteEntry): CdsRule {
  const sources = measureSources(entry);
  return {
    id: `lab-${entry.key.replaceAll("_", "-")}`,
    kind: "lab",
    title: `${entry.display} result review`,
    description: `Reads the newest ${entry.display} result (LOINC, UCUM unit checked against the analyte table) against the table's ranges and the laboratory's interpretation, and says what a high or low result can mean in psychiatric care.`,
    citation:
      sources.length > 0
        ? sources.join("; ")
        : "No sourced range: read by the laboratory's own interpretation only.",
    developer: RULE_DEVELOPER,
    evidenceLevel:
      sources.length > 0
        ? "Published reference, therapeutic or critical limits as cited; relevance text expert-written."
        : "Laboratory interpretation only; relevance text expert-written.",
    lastRevised: KNOWLEDGE_REVISED,
    engine: { name: ENGINE_REGISTRY.biomarker.name, version: SHIPPED },
    intendedUse: "Draw attention to an abnormal result with psychiatric relevance.",
    cautionedUse: BIOMARKER_DISCLAIMER,
  };
}

const RELAPSE_RULE: CdsRule = {
  id: "relapse-early-warning",
  kind: "relapse",
  title: "Symptom trajectory and relapse early warning",
  description:
    "Adds expert-set points for the symptom-scale trajectory, medication changes and the other factors the engine reads, into a 0-100 early-warning score with a level and trend.",
  citation: `Instruments: ${INSTRUMENTS.phq9.display}: ${INSTRUMENTS.phq9.source}; ${INSTRUMENTS.gad7.display}: ${INSTRUMENTS.gad7.source}. Weights, windows and bands: expert-set operational defaults, listed with their sources in the service's evidence table (Relapse early warning).`,
  developer: RULE_DEVELOPER,
  evidenceLevel: "Expert-set composite; not fitted to outcome data and not a validated prediction model.",
  lastRevised: KNOWLEDGE_REVISED,
  engine: { name: ENGINE_REGISTRY.relapse.name, version: SHIPPED },
  intendedUse: "Prompt a clinician to review the contributing factors with the patient.",
  cautionedUse: RELAPSE_DISCLAIMER,
};

const MONITORING_RULE: CdsRule = {
  id: "lab-monitoring-due",
  kind: "monitoring",
  title: "Monitoring level not current",
  description:
    "For an active lithium, valproate or clozapine order, says when no readable result of its monitoring analyte (lithium level, valproate level, absolute neutrophil count) is newer than the biomarker engine's staleness limit.",
  citation:
    "Monitoring panels of the analyte table: lithium monitoring (NICE CG185), clozapine ANC monitoring (US clozapine labels; UK Clozaril SmPC monitoring), valproate level.",
  developer: RULE_DEVELOPER,
  evidenceLevel:
    "Guideline-named monitoring; the age limit is the biomarker engine's expert-set staleness limit.",
  lastRevised: KNOWLEDGE_REVISED,
  engine: { name: ENGINE_REGISTRY.biomarker.name, version: SHIPPED },
  intendedUse:
    "Say that a monitoring result is missing or old, so its absence is not read as a normal result.",
  cautionedUse: "Does not schedule tests or replace the local monitoring protocol.",
};

/** The rules the patient-view cards come from, besides the shared ones (rules.ts). */
const RULES: readonly CdsRule[] = Object.freeze([
  RELAPSE_RULE,
  ...ANALYTES.filter((a) => (a.loinc ?? []).length > 0).map(labRule),
  MONITORING_RULE,
]);

const LAB_RULES: ReadonlyMap<string, CdsRule> = new Map(RULES.map((rule) => [rule.id, rule]));

/** An analyte's lab rule, or the insufficient-data rule for an analyte without a coded rule. */
function labRuleOf(analyteKey: string): CdsRule {
  return LAB_RULES.get(`lab-${analyteKey.replaceAll("_", "-")}`) ?? DATA_RULE;
}

/** Relapse level -> indicator; `low` gives no card (never an "all normal" card). */
const RELAPSE_INDICATOR: Readonly<Record<Exclude<RelapseLevel, "low">, Indicator>> = {
  moderate: "info",
  elevated: "warning",
  high: "critical",
};

/** Biomarker signal tone -> indicator: the door table's mapping of the tone's level. */
const TONE_INDICATOR: Readonly<Partial<Record<ModuleSignal["tone"], Indicator>>> = {
  watch: DOOR_LEVELS[TONE_LEVEL.watch].cds ?? undefined,
  elevated: DOOR_LEVELS[TONE_LEVEL.elevated].cds ?? undefined,
  critical: DOOR_LEVELS[TONE_LEVEL.critical].cds ?? undefined,
};

const date = (iso: string) => iso.slice(0, 10);
const round = (n: number) => String(Math.round(n * 1000) / 1000);

function relapseCards(inbound: FhirInbound, medicationsKnown: boolean, ctx: RunContext): FoundCard[] {
  const { run, version } = runEngine<ReturnType<typeof toRelapseInput>, RelapseData>(
    "relapse",
    toRelapseInput(inbound, ctx.now, medicationsKnown),
    ctx,
  );
  const data = run.data;
  const rule = RELAPSE_RULE;
  const engineLine = `Engine: ${ENGINE_REGISTRY.relapse.label} (relapse, ${version}); confidence ${data.confidence}.`;
  const insufficient =
    data.recommendation === RELAPSE_INSUFFICIENT_DATA_RECOMMENDATION ||
    data.recommendation === RELAPSE_STALE_DATA_RECOMMENDATION;
  if (insufficient) {
    const stale = data.recommendation === RELAPSE_STALE_DATA_RECOMMENDATION;
    return [
      foundCard(
        {
          rule,
          indicator: "info",
          summary: stale
            ? "Relapse risk not judged: the newest symptom score is too old (insufficient current data)"
            : "Relapse risk not judged: not enough symptom-scale data (insufficient data)",
          detail: [data.recommendation, factorLines(data), data.disclaimer],
        },
        cardContext(ctx, engineLine),
      ),
    ];
  }
  if (data.level === "low" && data.trend !== "rising") return [];
  return [
    foundCard(
      {
        rule,
        indicator: data.level === "low" ? "info" : RELAPSE_INDICATOR[data.level],
        summary: `Relapse early warning ${data.level} (${data.score}/100), symptom trend ${data.trend}; main driver: ${data.topDriver}`,
        detail: [
          `**${data.summaryLine}**`,
          `**Recommendation:** ${data.recommendation}`,
          factorLines(data),
          data.disclaimer,
        ],
      },
      cardContext(ctx, engineLine),
    ),
  ];
}

function factorLines(data: RelapseData): string {
  return data.factors
    .map(
      (f) =>
        `- ${f.label}: ${f.available ? `${f.points}/${f.maxPoints} points. ${f.detail}` : `not available. ${f.detail}`}`,
    )
    .join("\n");
}

function biomarkerParams(ctx: RunContext): BiomarkerParams {
  return engineParamsOf("biomarker", ctx);
}

/** A UCUM unit as people write it, where the analyte table says so (10*9/L -> x10^9/L). */
function displayUnit(analyteKey: string, ucum: string): string {
  const measure = analyteByKey(analyteKey)?.measure;
  return measure && measure.canonicalUnit === ucum ? measure.displayUnit : ucum;
}

/**
 * What a card says of a reading sent without a unit: that no unit was given and
 * how the one judgement read it, so the card never presents it as a reading in a stated unit.
 * `detail` is the engine's sentence, which already lists every plausible reading when the value
 * is critical under all of them.
 */
function unitNotGivenLine(reading: LabReading | undefined, detail: string): string[] {
  if (reading === undefined || reading.unit !== null) return [];
  const entry = analyteByKey(reading.analyteKey);
  const measure = entry?.measure;
  const display = entry?.display ?? reading.analyteKey;
  const how =
    measure && hasSingleScale(measure)
      ? `read in ${measure.displayUnit}, the one unit scale ${display} is reported in`
      : /without a unit/.test(detail)
        ? "beyond a critical limit under every plausible unit reading, so critical whichever unit was meant"
        : "read in the only accepted unit in which the value is plausible";
  return [
    `No unit was given on the Observation (value sent: ${reading.value}); ${how} (the service's unit-less rule). Confirm the unit with the laboratory.`,
  ];
}

/** The biomarker run a lab card reads, with the Observation behind each of its panel ids. */
interface LabRun {
  data: BiomarkerData;
  /** The engine's panel id of each Observation (toBiomarkerInput names them the same way). */
  readingOf: Map<string, LabReading>;
  engineLine: string;
  ctx: RunContext;
}

type LabValueFinding = BiomarkerData["valueFindings"][number];

function labRunOf(inbound: FhirInbound, ctx: RunContext): LabRun {
  const input = toBiomarkerInput(inbound, (key) => analyteByKey(key)?.display ?? key);
  const readingOf = new Map<string, LabReading>();
  inbound.labs.forEach((reading, index) => {
    const id = reading.resourceId ?? `observation-${index + 1}`;
    if (!readingOf.has(id)) readingOf.set(id, reading);
  });
  const { run, version } = runEngine<typeof input, BiomarkerData>("biomarker", input, ctx);
  const engineLine = `Engine: ${ENGINE_REGISTRY.biomarker.label} (biomarker, ${version}).`;
  return { data: run.data, readingOf, engineLine, ctx };
}

/** One card per flagged reading the engine signals, at the indicator of its tone. */
function labSignalCards(lab: LabRun): FoundCard[] {
  const cards: FoundCard[] = [];
  for (const signal of lab.data.signals) {
    const indicator = TONE_INDICATOR[signal.tone];
    if (indicator === undefined) continue;
    const key = signal.signalKey.replace(/^bio_/, "");
    const rule = labRuleOf(key);
    const unit = signal.metricUnit === "" ? "" : ` ${displayUnit(key, signal.metricUnit)}`;
    cards.push(
      foundCard(
        {
          rule,
          indicator,
          summary: `${signal.label}: ${round(signal.metricValue)}${unit} on ${date(signal.observedAt)}`,
          // The engine's sentence may quote an Observation id from the EHR.
          detail: [
            escapeMarkdown(signal.detail),
            ...unitNotGivenLine(lab.readingOf.get(signal.sourceRef), signal.detail),
            `Confidence: ${signal.confidence}.`,
            lab.data.disclaimer,
          ],
        },
        cardContext(lab.ctx, lab.engineLine),
      ),
    );
  }
  return cards;
}

/** A card for a current value the laboratory did not flag, with the sentence saying why it is shown. */
function unflaggedValueCard(
  lab: LabRun,
  finding: LabValueFinding,
  indicator: Indicator,
  why: string,
): FoundCard {
  return foundCard(
    {
      rule: labRuleOf(finding.analyte),
      indicator,
      summary: `${finding.detail}${finding.observedAt ? ` (${date(finding.observedAt)})` : ""}`,
      detail: [
        `${escapeMarkdown(finding.detail)}. The laboratory did not flag this result; ${why}`,
        ...unitNotGivenLine(lab.readingOf.get(finding.panelId), finding.detail),
        lab.data.disclaimer,
      ],
    },
    cardContext(lab.ctx, lab.engineLine),
  );
}

/**
 * A current value beyond a sourced critical limit that the laboratory did not flag has no signal
 * (the engine signals flagged readings), but the engine names it: it gets its own card.
 */
function unflaggedCriticalCards(lab: LabRun): FoundCard[] {
  const signalled = new Set(lab.data.signals.map((s) => s.signalKey.replace(/^bio_/, "")));
  return lab.data.valueFindings
    .filter((f) => f.finding === "critical" && f.current && !signalled.has(f.analyte))
    .map((finding) =>
      unflaggedValueCard(
        lab,
        finding,
        // The door table's indicator of a critical value.
        DOOR_LEVELS[TONE_LEVEL.critical].cds ?? "critical",
        "the value is beyond the sourced critical limit.",
      ),
    );
}

/**
 * The current value of an analyte the laboratory did not flag, outside the service's range: the
 * same finding the agent tool and the JSON answer give, at the card indicator the door table maps
 * its level to.
 */
function outOfRangeCards(lab: LabRun): FoundCard[] {
  const cards: FoundCard[] = [];
  for (const finding of lab.data.valueFindings) {
    if (finding.finding !== "out_of_range" || !finding.current || finding.level === undefined) continue;
    const indicator = DOOR_LEVELS[finding.level].cds;
    if (indicator === null) continue;
    cards.push(
      unflaggedValueCard(
        lab,
        finding,
        indicator,
        "it is outside the service's range (reference intervals vary by laboratory: check the reporting laboratory's own range).",
      ),
    );
  }
  return cards;
}

/** Values the engine could not evaluate, in one card; its findings are bounded, so earlier ones it left out are counted. */
function unreadLabsCards(lab: LabRun): FoundCard[] {
  const { data } = lab;
  const unread = data.valueFindings.filter((f) => f.finding !== "critical" && f.finding !== "out_of_range");
  const unreadTotal =
    unread.length + (data.omitted?.notEvaluatedUnit ?? 0) + (data.omitted?.implausible ?? 0);
  if (unreadTotal === 0) return [];
  return [
    insufficientDataCard(
      DATA_RULE,
      `${unreadTotal} laboratory value(s) could not be evaluated`,
      [
        ...unread.slice(0, NOT_USED_LISTED).map((f) => `- ${escapeMarkdown(f.detail)}`),
        ...(unreadTotal > NOT_USED_LISTED
          ? [`- and ${unreadTotal - Math.min(unread.length, NOT_USED_LISTED)} more.`]
          : []),
      ],
      lab.ctx,
    ),
  ];
}

function labCards(inbound: FhirInbound, ctx: RunContext): FoundCard[] {
  if (inbound.labs.length === 0) return [];
  const lab = labRunOf(inbound, ctx);
  // `omitted.unrecognisedSignals` stays 0 here: every Observation read is of an analyte the table
  // knows (the inbound reader keeps no other), so each signal is listed.
  return [
    ...labSignalCards(lab),
    ...unflaggedCriticalCards(lab),
    ...outOfRangeCards(lab),
    ...unreadLabsCards(lab),
  ];
}

function monitoringCards(inbound: FhirInbound, ctx: RunContext): FoundCard[] {
  const staleAfterDays = biomarkerParams(ctx).staleAfterDays;
  const cutoff = ctx.now.getTime() - staleAfterDays * 86_400_000;
  const cards: FoundCard[] = [];
  const done = new Set<string>();
  for (const medication of inbound.medications) {
    for (const ingredient of medication.ingredients) {
      const monitored = MONITORED_MEDICINES[ingredient];
      if (monitored === undefined || done.has(ingredient)) continue;
      done.add(ingredient);
      const readings = inbound.labs.filter((l) => l.analyteKey === monitored.analyte);
      const newest = Math.max(...readings.map((l) => Date.parse(l.observedAt)));
      if (Number.isFinite(newest) && newest >= cutoff) continue;
      const display = analyteByKey(monitored.analyte)?.display ?? monitored.analyte;
      const when = Number.isFinite(newest)
        ? `the newest is from ${date(new Date(newest).toISOString())}`
        : "none was found";
      cards.push(
        insufficientDataCard(
          MONITORING_RULE,
          `${ingredient[0]?.toUpperCase()}${ingredient.slice(1)} is active but no ${display} result from the last ${staleAfterDays} days`,
          [
            `An active order for **${ingredient}** was found, but no readable ${display} result newer than ${staleAfterDays} days (${when}).`,
            "Results that could not be read are listed on the insufficient-data card.",
          ],
          ctx,
        ),
      );
    }
  }
  return cards;
}

const KEY_NAMES: Readonly<Record<string, string>> = {
  scores: "symptom-scale scores",
  labs: "laboratory results",
  medications: "active medications",
  patient: "the patient's record (Patient: birth date, gender)",
  statements: "medication statements (start dates)",
};

/** The prefetch keys patient-view reads, each cut to its bound before reading. */
const SOURCE_LIMITS = [
  { key: "scores", limit: MAX_SCORE_ENTRIES },
  { key: "labs", limit: MAX_LAB_ENTRIES },
  { key: "medications", limit: MAX_ACTIVE_REQUESTS },
  { key: "patient", limit: MAX_PATIENT_ENTRIES },
  { key: "statements", limit: MAX_STATEMENT_ENTRIES },
] as const;

/** The keys the engines' mapping reads; `patient` and `statements` only the patient review reads. */
const ENGINE_KEYS: ReadonlySet<string> = new Set(["scores", "labs", "medications"]);
const REVIEW_KEYS: ReadonlySet<string> = new Set(["labs", "medications", "patient", "statements"]);

/**
 * The patient-over-time review on the EHR's data: one card per finding through the
 * door table (review-cards.ts), and what the patient facts lack on the insufficient-data card.
 */
function reviewCards(
  sources: readonly { key: string; items: unknown[] }[],
  ctx: RunContext,
): { cards: FoundCard[]; lines: string[] } {
  const read = readPatientReview(
    sources.filter((s) => REVIEW_KEYS.has(s.key)).map((s) => s.items),
    { now: ctx.now, patientId: ctx.patientId },
  );
  ctx.notUsed.push(...read.notUsed);
  const review = reviewPatient(read.input);
  const startsUnknown = read.input.medicines
    .filter((m) => m.startedAt === null || m.startedAt === undefined)
    .map((m) => `- ${escapeMarkdown(m.name)}: ${escapeMarkdown(m.startSource ?? "start unknown")}`);
  const lines = [
    ...read.notes.map((note) => `- ${escapeMarkdown(note)}`),
    ...(startsUnknown.length > 0
      ? [`**Start unknown (${startsUnknown.length}):**\n${startsUnknown.join("\n")}`]
      : []),
  ];
  return { cards: findingCards(review.findings, cardContext(ctx)), lines };
}

function dataCard(
  ctx: RunContext,
  cutLines: readonly string[],
  factLines: readonly string[] = [],
): FoundCard[] {
  const lines = [
    ...factLines,
    ...ctx.missingPrefetch.map((key) =>
      ctx.unreadablePrefetch.includes(key)
        ? `- ${KEY_NAMES[key] ?? key}: the EHR's answer could not be read (malformed or unsafe data) and was not used.`
        : `- ${KEY_NAMES[key] ?? key}: not provided by the EHR and could not be fetched.`,
    ),
    ...cutLines,
    ...notUsedLines(ctx.notUsed),
  ];
  if (lines.length === 0) return [];
  const count = ctx.notUsed.length;
  const summary =
    ctx.missingPrefetch.length > 0
      ? `Insufficient data: ${ctx.missingPrefetch.map((k) => KEY_NAMES[k] ?? k).join(", ")} not available${count > 0 ? `; ${count} record(s) not read` : ""}`
      : count > 0
        ? `Insufficient data: ${count} FHIR record(s) could not be read`
        : cutLines.length > 0
          ? "Insufficient data: more FHIR records were sent than are read"
          : "Insufficient data: some patient facts or medicine start dates are unknown";
  return [insufficientDataCard(DATA_RULE, summary, lines, ctx)];
}

function runPatientView({ prefetch, ctx }: ServiceRun<"patient-view">): FoundCard[] {
  const sources = SOURCE_LIMITS.map(({ key, limit }) => ({
    key,
    limit,
    ...firstResources(prefetch[key], limit),
  }));
  const inbound = readFhirInputs(
    sources.filter((source) => ENGINE_KEYS.has(source.key)).map((source) => source.items),
    { now: ctx.now, patientId: ctx.patientId },
  );
  const cutLines = sources
    .filter((source) => source.total > source.items.length)
    .map(
      (source) =>
        `- ${KEY_NAMES[source.key]}: ${source.total} entries; only the first ${source.limit} were read.`,
    );
  ctx.notUsed.push(...inbound.notUsed);
  const medications = prefetch.medications;
  // The medication list is known when the EHR sent (or we fetched) a result that is not an error.
  const medicationsKnown =
    typeof medications === "object" &&
    medications !== null &&
    (medications as { resourceType?: unknown }).resourceType !== "OperationOutcome";
  const review = reviewCards(sources, ctx);
  return [
    ...relapseCards(inbound, medicationsKnown, ctx),
    ...labCards(inbound, ctx),
    ...monitoringCards(inbound, ctx),
    ...review.cards,
    ...dataCard(ctx, cutLines, review.lines),
  ];
}

export const PSYCH_PATIENT_VIEW: CdsService = defineCdsService({
  descriptor: {
    hook: "patient-view",
    id: "psych-patient-view",
    title: "Psychiatric early warning and lab monitoring",
    description:
      "Symptom trajectory and relapse early warning from symptom-scale total scores (PHQ-9, GAD-7 and the other instruments with a verified LOINC code) and active medications; laboratory monitoring (lithium, valproate, clozapine ANC, sodium and the other analytes the service knows) from lab Observations with UCUM units and interpretation codes. Missing or stale data are said as such.",
    prefetch: {
      scores: `Observation?patient={{context.patientId}}&code=${SCORE_CODES}&_sort=-date&_count=100`,
      labs: PATIENT_OBSERVATIONS,
      medications: ACTIVE_MEDICATIONS,
      patient: PATIENT,
      statements: ACTIVE_STATEMENTS,
    },
    usageRequirements:
      "Send the prefetch keys scores, labs, medications, patient and statements (or a fhirServer with fhirAuthorization). Observations count when final, amended or corrected, with an effective time, a LOINC code the service knows and, for labs, a UCUM unit the analyte table accepts. Sleep is not read from FHIR. A medicine's start is its first prescription (followed through priorPrescription) or a MedicationStatement's effective start, never the date of a renewal.",
  },
  // Who the patient is and when medicines started: said unknown on a card when absent.
  optionalPrefetch: new Set(["patient", "statements"]),
  rules: RULES,
  run: runPatientView,
});
