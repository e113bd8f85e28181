import { getDomain, SUPPORTING_SIGNALS } from "./catalog.js";
import {
  type CatalogDomain,
  CONFIDENCE_VALUES,
  type Confidence,
  CSSRS_ITEM_IDS,
  CSSRS_RECENCY_KEY,
  type CssrsAnswers,
  DOMAIN_KEYS,
  type DomainKey,
  PROVENANCE_VALUES,
  type Provenance,
  type Selection,
  type SelectionEntry,
  type SelectionError,
  type SelectionPatch,
  type ValidateOptions,
  type ValidationResult,
} from "./types.js";

/** Maximum length of a domain note (decision 40). */
export const MAX_TEXT_LENGTH = 2000;

/** Errors reported per call; the rest are summarised in one closing entry. */
export const MAX_ERRORS = 100;

/** Top-level problems (not tied to one domain) use this pseudo-domain. */
export const SELECTION_SCOPE = "selection";

const ENTRY_FIELDS = new Set([
  "values",
  "text",
  "provenance",
  "confidence",
  "confidenceScore",
  "supportingSignals",
  "cssrs",
]);
const CSSRS_KEYS = new Set<string>([...CSSRS_ITEM_IDS, CSSRS_RECENCY_KEY]);
const SIGNALS = new Set<string>(SUPPORTING_SIGNALS);
const PROVENANCE = new Set<string>(PROVENANCE_VALUES);
const CONFIDENCE = new Set<string>(CONFIDENCE_VALUES);

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

class ErrorList {
  readonly items: SelectionError[] = [];
  private dropped = 0;

  add(domain: string, message: string, value?: string): void {
    if (this.items.length >= MAX_ERRORS) {
      this.dropped++;
      return;
    }
    this.items.push(value === undefined ? { domain, message } : { domain, value, message });
  }

  finish(): SelectionError[] {
    if (this.dropped > 0) {
      this.items.push({
        domain: SELECTION_SCOPE,
        message: `${this.dropped} further problems were not listed.`,
      });
    }
    return this.items;
  }
}

function validateCssrs(domain: string, raw: unknown, errors: ErrorList): CssrsAnswers | undefined {
  if (domain !== "risk") {
    errors.add(domain, "C-SSRS answers are accepted only on the risk domain.", "cssrs");
    return undefined;
  }
  if (!isRecord(raw)) {
    errors.add(domain, "C-SSRS answers must be an object keyed q1 to q6.", "cssrs");
    return undefined;
  }
  const keys = Object.keys(raw);
  if (keys.length === 0) {
    errors.add(domain, "C-SSRS answers must include at least one item.", "cssrs");
    return undefined;
  }
  const out: CssrsAnswers = {};
  let ok = true;
  for (const key of keys) {
    if (!CSSRS_KEYS.has(key)) {
      errors.add(domain, "Unknown C-SSRS item.", key);
      ok = false;
      continue;
    }
    const answer = raw[key];
    if (answer !== "yes" && answer !== "no") {
      errors.add(domain, 'C-SSRS answers must be "yes" or "no".', key);
      ok = false;
      continue;
    }
    out[key as keyof CssrsAnswers] = answer;
  }
  if (ok && out.q6_recent !== undefined && out.q6 !== "yes") {
    errors.add(domain, "The recency key q6_recent may be given only when q6 is yes.", CSSRS_RECENCY_KEY);
    ok = false;
  }
  if (!ok) return undefined;
  // Keys in instrument order, so stored selections hash the same whatever order they were sent in.
  const ordered: CssrsAnswers = {};
  for (const id of CSSRS_ITEM_IDS) if (out[id] !== undefined) ordered[id] = out[id];
  if (out.q6_recent !== undefined) ordered.q6_recent = out.q6_recent;
  return ordered;
}

/** Contradictory pairs among the values chosen, reported once per pair in catalog order. */
function checkContradictions(
  key: string,
  domain: CatalogDomain,
  chosen: ReadonlySet<string>,
  errors: ErrorList,
): void {
  for (const option of domain.options) {
    if (!chosen.has(option.value)) continue;
    for (const other of option.excludes ?? []) {
      const otherIndex = domain.options.findIndex((o) => o.value === other);
      const thisIndex = domain.options.indexOf(option);
      if (chosen.has(other) && otherIndex > thisIndex) {
        errors.add(key, `"${option.value}" cannot be combined with "${other}".`, other);
      }
    }
  }
}

/** The values of an entry: options of the domain, each once, one only on a single-choice domain, none contradicting another. */
function validateValues(key: string, domain: CatalogDomain, rawValues: unknown, errors: ErrorList): string[] {
  const values: string[] = [];
  if (rawValues === undefined) {
    errors.add(key, "Values are required.", "values");
    return values;
  }
  if (!Array.isArray(rawValues)) {
    errors.add(key, "Values must be an array of option values.", "values");
    return values;
  }
  if (rawValues.length > domain.options.length) {
    // Bounded before any value is read (decision 169): more values than the domain has options
    // cannot all be distinct options.
    errors.add(
      key,
      `At most ${domain.options.length} values: this domain has ${domain.options.length} options.`,
      "values",
    );
    return values;
  }
  const seen = new Set<string>();
  for (const v of rawValues) {
    if (typeof v !== "string") {
      errors.add(key, "Each value must be a string.");
      continue;
    }
    if (!domain.options.some((o) => o.value === v)) {
      errors.add(key, "Unknown option for this domain.", v);
      continue;
    }
    if (seen.has(v)) {
      errors.add(key, "Duplicate value.", v);
      continue;
    }
    seen.add(v);
    values.push(v);
  }
  if (!domain.multi && rawValues.length > 1) {
    errors.add(key, "This domain accepts only one value.");
  }
  checkContradictions(key, domain, seen, errors);
  return values;
}

/** The note of an entry, on a domain that takes one, at most MAX_TEXT_LENGTH characters (decision 40). */
function validateNote(
  key: string,
  domain: CatalogDomain,
  raw: unknown,
  errors: ErrorList,
): string | undefined {
  if (raw === undefined) return undefined;
  if (!domain.hasNote) {
    errors.add(key, "This domain does not take a note.", "text");
  } else if (typeof raw !== "string") {
    errors.add(key, "The note must be a string.", "text");
  } else if (raw.length > MAX_TEXT_LENGTH) {
    errors.add(key, `The note must be at most ${MAX_TEXT_LENGTH} characters.`, "text");
  } else {
    return raw;
  }
  return undefined;
}

function validateProvenance(key: string, raw: unknown, errors: ErrorList): Provenance | undefined {
  if (raw === undefined) return undefined;
  if (typeof raw === "string" && PROVENANCE.has(raw)) return raw as Provenance;
  errors.add(key, `Provenance must be one of ${PROVENANCE_VALUES.join(", ")}.`, "provenance");
  return undefined;
}

function validateConfidence(key: string, raw: unknown, errors: ErrorList): Confidence | undefined {
  if (raw === undefined) return undefined;
  if (typeof raw === "string" && CONFIDENCE.has(raw)) return raw as Confidence;
  errors.add(key, `Confidence must be one of ${CONFIDENCE_VALUES.join(", ")}.`, "confidence");
  return undefined;
}

function validateConfidenceScore(key: string, raw: unknown, errors: ErrorList): number | undefined {
  if (raw === undefined) return undefined;
  if (typeof raw === "number" && Number.isFinite(raw) && raw >= 0 && raw <= 1) return raw;
  errors.add(key, "The confidence score must be a number from 0 to 1.", "confidenceScore");
  return undefined;
}

/** Supporting signals named by the catalog, each once; bounded by the catalog's count before any is read. */
function validateSupportingSignals(key: string, raw: unknown, errors: ErrorList): string[] | undefined {
  if (raw === undefined) return undefined;
  if (!Array.isArray(raw)) {
    errors.add(key, "Supporting signals must be an array of signal names.", "supportingSignals");
    return undefined;
  }
  if (raw.length > SIGNALS.size) {
    errors.add(
      key,
      `At most ${SIGNALS.size} supporting signals: the catalog names ${SIGNALS.size}.`,
      "supportingSignals",
    );
    return undefined;
  }
  const seen = new Set<string>();
  for (const s of raw) {
    if (typeof s !== "string" || !SIGNALS.has(s)) {
      errors.add(key, "Unknown supporting signal.", typeof s === "string" ? s : undefined);
    } else if (seen.has(s)) {
      errors.add(key, "Duplicate supporting signal.", s);
    } else {
      seen.add(s);
    }
  }
  return [...seen];
}

function validateEntry(key: string, raw: unknown, errors: ErrorList): SelectionEntry | undefined {
  const domain = getDomain(key);
  if (!domain) {
    errors.add(key, "Unknown domain.");
    return undefined;
  }
  if (!isRecord(raw)) {
    errors.add(key, "A domain entry must be an object with a values array.");
    return undefined;
  }
  const before = errors.items.length;

  for (const field of Object.keys(raw)) {
    if (!ENTRY_FIELDS.has(field)) errors.add(key, "Unknown field in domain entry.", field);
  }
  const values = validateValues(key, domain, raw.values, errors);
  const text = validateNote(key, domain, raw.text, errors);
  const provenance = validateProvenance(key, raw.provenance, errors);
  const confidence = validateConfidence(key, raw.confidence, errors);
  const confidenceScore = validateConfidenceScore(key, raw.confidenceScore, errors);
  const supportingSignals = validateSupportingSignals(key, raw.supportingSignals, errors);
  const cssrs = raw.cssrs === undefined ? undefined : validateCssrs(key, raw.cssrs, errors);

  if (
    Array.isArray(raw.values) &&
    raw.values.length === 0 &&
    raw.text === undefined &&
    raw.cssrs === undefined
  ) {
    errors.add(key, "Select at least one value, or record a note or C-SSRS answers.", "values");
  }

  if (errors.items.length !== before) return undefined;
  const entry: SelectionEntry = { values };
  if (text !== undefined) entry.text = text;
  if (provenance !== undefined) entry.provenance = provenance;
  if (confidence !== undefined) entry.confidence = confidence;
  if (confidenceScore !== undefined) entry.confidenceScore = confidenceScore;
  if (supportingSignals !== undefined) entry.supportingSignals = supportingSignals;
  if (cssrs !== undefined) entry.cssrs = cssrs;
  return entry;
}

/**
 * Validates a selection against the catalog. Shared by the full write (POST), the partial amendment
 * (PATCH, `{ partial: true }`) and the MSE agent. Never throws: every problem becomes one entry of
 * `errors`. On success the returned selection is a clean copy with domains in catalog order.
 *
 * Full write: the selection replaces the stored one and must hold at least one domain; domains
 * left out are simply not recorded. Partial: the same rules per domain, and a domain may be `null`
 * to remove it from the stored selection (see mergeSelection).
 */
export function validateSelection(
  selection: unknown,
  opts?: { partial?: false },
): ValidationResult<Selection>;
export function validateSelection(
  selection: unknown,
  opts: { partial: true },
): ValidationResult<SelectionPatch>;
export function validateSelection(
  selection: unknown,
  opts?: ValidateOptions,
): ValidationResult<Selection> | ValidationResult<SelectionPatch>;
export function validateSelection(
  selection: unknown,
  opts: ValidateOptions = {},
): ValidationResult<Selection> | ValidationResult<SelectionPatch> {
  const partial = opts.partial === true;
  const errors = new ErrorList();
  if (!isRecord(selection)) {
    errors.add(SELECTION_SCOPE, "The selection must be an object keyed by domain.");
    return { ok: false, errors: errors.finish() };
  }
  const keys = Object.keys(selection);
  if (keys.length === 0) {
    errors.add(SELECTION_SCOPE, "The selection must include at least one domain.");
    return { ok: false, errors: errors.finish() };
  }
  // Bounded before any entry is read (decision 169): the catalog has DOMAIN_KEYS.length domains.
  if (keys.length > DOMAIN_KEYS.length) {
    errors.add(
      SELECTION_SCOPE,
      `The selection has ${keys.length} keys; the catalog has ${DOMAIN_KEYS.length} domains.`,
    );
    return { ok: false, errors: errors.finish() };
  }
  const entries = new Map<string, SelectionEntry | null>();
  for (const key of keys) {
    const raw = selection[key];
    if (raw === null && partial && getDomain(key)) {
      entries.set(key, null);
      continue;
    }
    const entry = validateEntry(key, raw, errors);
    if (entry) entries.set(key, entry);
  }
  if (errors.items.length > 0) return { ok: false, errors: errors.finish() };
  const out: SelectionPatch = {};
  for (const key of DOMAIN_KEYS) {
    if (entries.has(key)) out[key] = entries.get(key) ?? null;
  }
  return { ok: true, selection: out as Selection };
}

/**
 * Applies a validated patch to a stored selection: supplied domains replace stored ones whole,
 * null removes a domain, everything else is kept. Domains come back in catalog order. The app
 * re-validates the result in full mode (a patch must not leave the record empty).
 */
export function mergeSelection(base: Selection, patch: SelectionPatch): Selection {
  const out: Selection = {};
  for (const key of DOMAIN_KEYS) {
    const next: SelectionEntry | null | undefined = Object.hasOwn(patch, key) ? patch[key] : base[key];
    if (next) out[key] = structuredClone(next);
  }
  return out;
}

/** Keys of the domains a patch touches, in catalog order (the `patchedDomains` of PATCH). */
export function patchedDomains(patch: SelectionPatch): DomainKey[] {
  return DOMAIN_KEYS.filter((k) => Object.hasOwn(patch, k));
}
