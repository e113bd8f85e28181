/**
 * The MSE record as FHIR R4: the Questionnaire of the 17-domain catalog (served at a stable URL),
 * a record's QuestionnaireResponse against it, one Observation per coded finding (SNOMED CT only
 * where the catalog carries a verified code), an Observation of the record's risk level and C-SSRS
 * screen, and each signature as a Provenance. Pure. C-SSRS items carry no LOINC code: none of the
 * candidate item codes could be verified on loinc.org (docs/fhir.md, "C-SSRS and LOINC").
 */
import type {
  Bundle,
  Observation,
  ObservationComponent,
  Patient,
  Provenance,
  Questionnaire,
  QuestionnaireItem,
  QuestionnaireResponse,
  QuestionnaireResponseItem,
  QuestionnaireResponseItemAnswer,
  Reference,
} from "@medplum/fhirtypes";
import {
  CATALOG_VERSION,
  CONFIDENCE_VALUES,
  CSSRS,
  CSSRS_RECENCY_KEY,
  type CssrsAnswers,
  type CssrsStatus,
  DOMAINS,
  getOption,
  type Line,
  PROVENANCE_VALUES,
  type Selection,
  type SelectionEntry,
} from "@svc/mse-catalog";
import {
  identifierSystem,
  MSE_QUESTIONNAIRE_ID,
  mseQuestionnaireUrl,
  STANDARD_SYSTEMS,
} from "./canonical.js";
import { CONFORMANCE_VERSION, MSE_CODES, ourCoding } from "./code-systems.js";
import { collection, compact, type Entry, entry, type NewId, notes, randomId, ref } from "./resources.js";

/** linkIds of the Questionnaire: `<domain>`, `<domain>.values`, `<domain>.text`, ... */
const LINK = {
  objectiveBlock: "objective_block",
  group: (domain: string) => domain,
  values: (domain: string) => `${domain}.values`,
  note: (domain: string) => `${domain}.text`,
  line: (domain: string) => `${domain}.line`,
  provenance: (domain: string) => `${domain}.provenance`,
  confidence: (domain: string) => `${domain}.confidence`,
  confidenceScore: (domain: string) => `${domain}.confidenceScore`,
  supportingSignals: (domain: string) => `${domain}.supportingSignals`,
  cssrs: "risk.cssrs",
  cssrsItem: (id: string) => `risk.cssrs.${id}`,
} as const;

/** C-SSRS items asked only after a yes to another item (the screener's skip rule). */
const CSSRS_ENABLED_BY: Readonly<Record<string, string>> = {
  q3: "q2",
  q4: "q2",
  q5: "q2",
  [CSSRS_RECENCY_KEY]: "q6",
};

function cssrsGroup(): QuestionnaireItem {
  const items = [
    ...CSSRS.questions.map((q) => ({ id: q.id, text: q.text })),
    { id: CSSRS_RECENCY_KEY, text: CSSRS.recency.text },
  ];
  return {
    linkId: LINK.cssrs,
    text: "C-SSRS screener (our paraphrases of the items; use the official form when administering)",
    type: "group",
    item: items.map((q): QuestionnaireItem => {
      const enabler = CSSRS_ENABLED_BY[q.id];
      return compact({
        linkId: LINK.cssrsItem(q.id),
        text: q.text,
        type: "boolean",
        enableWhen: enabler
          ? [{ question: LINK.cssrsItem(enabler), operator: "=", answerBoolean: true }]
          : undefined,
      }) as QuestionnaireItem;
    }),
  };
}

function domainGroup(base: string, domain: (typeof DOMAINS)[number]): QuestionnaireItem {
  const items: QuestionnaireItem[] = [
    {
      linkId: LINK.values(domain.key),
      text: domain.label,
      type: "choice",
      repeats: domain.multi,
      answerOption: domain.options.map((o) => ({
        valueCoding: ourCoding(base, "mse", MSE_CODES.option(domain.key, o.value)),
      })),
    },
  ];
  if (domain.hasNote) items.push({ linkId: LINK.note(domain.key), text: "Note", type: "text" });
  items.push(
    {
      linkId: LINK.provenance(domain.key),
      text: "Provenance",
      type: "open-choice",
      answerOption: PROVENANCE_VALUES.map((v) => ({ valueString: v })),
    },
    {
      linkId: LINK.confidence(domain.key),
      text: "Confidence",
      type: "open-choice",
      answerOption: CONFIDENCE_VALUES.map((v) => ({ valueString: v })),
    },
    { linkId: LINK.confidenceScore(domain.key), text: "Confidence score (0-1)", type: "decimal" },
    { linkId: LINK.supportingSignals(domain.key), text: "Supporting signals", type: "string", repeats: true },
  );
  if (domain.key === "risk") items.push(cssrsGroup());
  items.push({
    linkId: LINK.line(domain.key),
    text: "Narrative line (generated)",
    type: "string",
    readOnly: true,
  });
  return { linkId: LINK.group(domain.key), text: domain.label, type: "group", item: items };
}

/** The Questionnaire of the MSE catalog: one group per domain in catalog order, the C-SSRS screener under `risk`. */
export function mseQuestionnaire(publicBaseUrl: string): Questionnaire {
  return {
    resourceType: "Questionnaire",
    id: MSE_QUESTIONNAIRE_ID,
    url: mseQuestionnaireUrl(publicBaseUrl),
    version: `${CONFORMANCE_VERSION}.catalog-${CATALOG_VERSION}`,
    name: "MentalStatusExam",
    title: "Mental status exam (17 domains)",
    status: "active",
    experimental: false,
    publisher: "Clinical Intelligence Service",
    description:
      "The 17-domain MSE catalog as recorded by the MSE Record API. Options are coded in our CodeSystem; SNOMED CT codes, where the catalog has verified ones, are on the Observations of a record.",
    subjectType: ["Patient"],
    item: [
      { linkId: LINK.objectiveBlock, text: "Objective block (generated)", type: "string", readOnly: true },
      ...DOMAINS.map((d) => domainGroup(publicBaseUrl, d)),
    ],
  };
}

// ---------------------------------------------------------------------------------------------
// A record

/** A signature of the record, as GET /v1/mse/{visitId} shows it. */
export interface MseSignatureInput {
  id: string;
  version: number;
  contentHash: string;
  signedByName: string;
  credential: string | null;
  license: string | null;
  organization: string | null;
  signedAt: string;
  attestation: string | null;
  signedAtLocal?: string | null;
}

/** What the mapping reads of the current MSE of a visit (the `mse` of GET /v1/mse/{visitId}). */
export interface MseRecordInput {
  visitId: string;
  patientId: string;
  selection: Selection;
  lines: Line[];
  objectiveBlock: string;
  riskFlag: boolean;
  riskLevel: string;
  riskLabels: string[];
  version: number;
  savedAt: string;
  clinicianId: string | null;
  contentHash: string;
  cssrs: CssrsStatus | null;
  safetyEventId?: string | null;
  /** The signatures to state as Provenance: every signature of the current version, oldest first. */
  signatures: MseSignatureInput[];
}

const answer = (value: QuestionnaireResponseItemAnswer) => [value];

function cssrsResponse(answers: CssrsAnswers): QuestionnaireResponseItem | undefined {
  const keys = [...CSSRS.questions.map((q) => q.id), CSSRS_RECENCY_KEY] as const;
  const items = keys.flatMap((id): QuestionnaireResponseItem[] => {
    const value = answers[id];
    // Unanswered items stay out: an absent answer is "not asked", never "no".
    return value === "yes" || value === "no"
      ? [{ linkId: LINK.cssrsItem(id), answer: answer({ valueBoolean: value === "yes" }) }]
      : [];
  });
  return items.length > 0 ? { linkId: LINK.cssrs, item: items } : undefined;
}

function domainResponse(
  base: string,
  key: string,
  entry: SelectionEntry,
  line: Line | undefined,
): QuestionnaireResponseItem {
  const items: QuestionnaireResponseItem[] = [];
  if (entry.values.length > 0) {
    items.push({
      linkId: LINK.values(key),
      answer: entry.values.map((v) => ({ valueCoding: ourCoding(base, "mse", MSE_CODES.option(key, v)) })),
    });
  }
  if (filled(entry.text)) items.push({ linkId: LINK.note(key), answer: answer({ valueString: entry.text }) });
  if (entry.provenance)
    items.push({ linkId: LINK.provenance(key), answer: answer({ valueString: entry.provenance }) });
  if (entry.confidence)
    items.push({ linkId: LINK.confidence(key), answer: answer({ valueString: entry.confidence }) });
  if (entry.confidenceScore !== undefined)
    items.push({
      linkId: LINK.confidenceScore(key),
      answer: answer({ valueDecimal: entry.confidenceScore }),
    });
  const signals = (entry.supportingSignals ?? []).filter((s) => filled(s));
  if (signals.length > 0)
    items.push({ linkId: LINK.supportingSignals(key), answer: signals.map((s) => ({ valueString: s })) });
  const cssrs = key === "risk" && entry.cssrs ? cssrsResponse(entry.cssrs) : undefined;
  if (cssrs) items.push(cssrs);
  if (line) items.push({ linkId: LINK.line(key), answer: answer({ valueString: line.line }) });
  return { linkId: LINK.group(key), ...(items.length > 0 ? { item: items } : {}) };
}

/**
 * Whether a stored text has content: the record's free text may be blank, and an R4 string needs
 * non-whitespace content, so a blank one is left out of the Bundle like an absent one.
 */
function filled(value: string | null | undefined): value is string {
  return typeof value === "string" && value.trim() !== "";
}

function patientRef(patientId: string): Reference<Patient> {
  // The organization's own patient id: a logical reference by identifier, never an invented Patient id.
  return { type: "Patient", identifier: { value: patientId } };
}

function questionnaireResponse(base: string, record: MseRecordInput): QuestionnaireResponse {
  const lines = new Map(record.lines.map((l) => [l.key, l]));
  const domains = DOMAINS.filter((d) => record.selection[d.key] !== undefined).map((d) =>
    domainResponse(base, d.key, record.selection[d.key] as SelectionEntry, lines.get(d.key)),
  );
  return compact({
    resourceType: "QuestionnaireResponse",
    identifier: {
      system: identifierSystem(base, "mse-version"),
      value: `${record.visitId}:v${record.version}`,
    },
    questionnaire: mseQuestionnaireUrl(base),
    status: record.signatures.length > 0 ? "completed" : "in-progress",
    subject: patientRef(record.patientId),
    encounter: { type: "Encounter", identifier: { value: record.visitId } },
    authored: record.savedAt,
    author: filled(record.clinicianId)
      ? { type: "Practitioner", identifier: { value: record.clinicianId } }
      : undefined,
    item: [
      ...(filled(record.objectiveBlock)
        ? [{ linkId: LINK.objectiveBlock, answer: answer({ valueString: record.objectiveBlock }) }]
        : []),
      ...domains,
    ],
  }) as QuestionnaireResponse;
}

/** One Observation per selected option that the catalog codes (SNOMED CT), its value the option's codes. */
function findingObservations(
  base: string,
  record: MseRecordInput,
  qr: Entry<QuestionnaireResponse>,
  newId: NewId,
): Entry<Observation>[] {
  return DOMAINS.flatMap((domain) => {
    const selected = record.selection[domain.key];
    return (selected?.values ?? []).flatMap((value) => {
      const option = getOption(domain.key, value);
      if (!option || option.codes.length === 0) return [];
      const resource: Observation = {
        resourceType: "Observation",
        status: "final",
        code: { coding: [ourCoding(base, "mse", MSE_CODES.domain(domain.key))], text: domain.label },
        subject: patientRef(record.patientId),
        encounter: { type: "Encounter", identifier: { value: record.visitId } },
        effectiveDateTime: record.savedAt,
        valueCodeableConcept: {
          coding: [ourCoding(base, "mse", MSE_CODES.option(domain.key, value)), ...option.codes],
          text: option.label,
        },
        derivedFrom: [ref(qr)],
      };
      return [entry(newId, resource)];
    });
  });
}

function cssrsComponents(base: string, cssrs: CssrsStatus | null): ObservationComponent[] {
  if (!cssrs) return [];
  const code = { coding: [ourCoding(base, "mse", MSE_CODES.cssrsStatus)] };
  return [
    { code: { ...code, text: "C-SSRS screen complete" }, valueBoolean: cssrs.complete },
    {
      code: { ...code, text: "C-SSRS triage level" },
      valueCodeableConcept: { coding: [ourCoding(base, "mse", MSE_CODES.riskLevel(cssrs.triageLevel))] },
    },
    ...(cssrs.missingItems.length > 0
      ? [{ code: { ...code, text: "C-SSRS items not answered" }, valueString: cssrs.missingItems.join(", ") }]
      : []),
  ];
}

function riskObservation(
  base: string,
  record: MseRecordInput,
  qr: Entry<QuestionnaireResponse>,
  newId: NewId,
): Entry<Observation> {
  const resource: Observation = compact({
    resourceType: "Observation",
    status: "final",
    code: { coding: [ourCoding(base, "mse", MSE_CODES.recordRisk)] },
    subject: patientRef(record.patientId),
    encounter: { type: "Encounter", identifier: { value: record.visitId } },
    effectiveDateTime: record.savedAt,
    valueCodeableConcept: { coding: [ourCoding(base, "mse", MSE_CODES.riskLevel(record.riskLevel))] },
    interpretation: [{ text: record.riskFlag ? "risk flagged" : "risk not flagged" }],
    component: (() => {
      const c = cssrsComponents(base, record.cssrs);
      return c.length > 0 ? c : undefined;
    })(),
    note: notes(
      ...record.riskLabels,
      record.safetyEventId ? `Safety event ${record.safetyEventId}.` : undefined,
    ),
    derivedFrom: [ref(qr)],
  }) as Observation;
  return entry(newId, resource);
}

function signerDisplay(s: MseSignatureInput): string {
  const license = filled(s.license);
  return [s.signedByName, s.credential, license ? `licence ${license}` : null].filter(filled).join(", ");
}

/** A signature as a Provenance of the QuestionnaireResponse, the signer as agent, with an ASTM author signature. */
function signatureProvenance(
  record: MseRecordInput,
  s: MseSignatureInput,
  targets: Entry[],
  newId: NewId,
): Entry<Provenance> {
  const who: Reference = { display: signerDisplay(s) };
  const resource: Provenance = compact({
    resourceType: "Provenance",
    target: targets.map((t) => ref(t)),
    recorded: s.signedAt,
    agent: [compact({ who, onBehalfOf: filled(s.organization) ? { display: s.organization } : undefined })],
    entity: [
      {
        role: "source",
        what: {
          display: `MSE ${record.visitId} version ${s.version}, content SHA-256 ${s.contentHash}, signature ${s.id}${s.signedAtLocal ? `, signed ${s.signedAtLocal} local time` : ""}`,
        },
      },
    ],
    signature: [
      {
        type: [
          {
            system: STANDARD_SYSTEMS.astmSignatureType,
            code: "1.2.840.10065.1.12.1.1",
            display: "Author's Signature",
          },
        ],
        when: s.signedAt,
        who,
      },
    ],
    reason: filled(s.attestation) ? [{ text: s.attestation }] : undefined,
  }) as Provenance;
  return entry(newId, resource);
}

/**
 * The current MSE of a visit as a `collection` Bundle: the QuestionnaireResponse, an Observation
 * per coded finding, the risk Observation, and a Provenance per signature (targets: all of them).
 */
export function mseRecordBundle(
  record: MseRecordInput,
  options: { publicBaseUrl: string; newId?: NewId },
): Bundle {
  const newId = options.newId ?? randomId;
  const base = options.publicBaseUrl;
  const qr = entry(newId, questionnaireResponse(base, record));
  const observations = [
    ...findingObservations(base, record, qr, newId),
    riskObservation(base, record, qr, newId),
  ];
  const targets: Entry[] = [qr, ...observations];
  const signatures = record.signatures.map((s) => signatureProvenance(record, s, targets, newId));
  return collection([...targets, ...signatures], record.savedAt);
}
