/**
 * The JSON screen (decision 29, extended to every door by decision 150): one implementation of
 * what a JSON document must be before any code walks it, used for `/v1` bodies (the request
 * guard), CDS Hooks bodies (the CDS door) and documents fetched from an EHR's FHIR server or JWK
 * Set URL (`@svc/ehr-gateway`). Pure functions: no framework, no I/O, no recursion, no
 * dependencies, so a package that fetches (not serves) uses it without the HTTP layer
 * (decision 219).
 *
 * What it refuses: strict UTF-8 only; NUL and the other C0 controls except tab, line feed and
 * carriage return, and unpaired surrogates, in every string and key; the keys `__proto__`,
 * `constructor` and `prototype`; nesting past MAX_JSON_DEPTH, objects past MAX_OBJECT_KEYS keys,
 * documents past MAX_JSON_VALUES values; optionally duplicate keys. The reasons are in
 * `@svc/http`'s hygiene.ts, which turns a finding into the API's 400.
 */

/**
 * Deepest nesting accepted (the root object is level 1). The deepest body the schemas accept is
 * a biomarker request mirrored in `previous.inputs` (body, previous, inputs, labs, panel, results,
 * biomarkers, biomarker: 8 levels); 32 leaves room and keeps every recursive consumer (zod,
 * JSON.stringify, the change explanations) far from the stack limit.
 */
export const MAX_JSON_DEPTH = 32;
/** Most keys in one object. The widest object the schemas accept is `metadata` (50 keys). */
export const MAX_OBJECT_KEYS = 1_000;
/**
 * Most values (objects, arrays, strings, numbers, booleans, nulls) in one body. The largest body
 * the schemas accept (100 lab panels of 200 biomarkers, also mirrored in `previous.inputs`) fits
 * within the 1 MB body limit at about 150,000 values; a 1 MB body of bare `0,` has 500,000.
 */
export const MAX_JSON_VALUES = 200_000;
/** Findings reported per request (the first ones found, shallowest first). */
export const MAX_REPORTED_ISSUES = 20;
/** Keys refused at any depth. */
export const RESERVED_KEYS: ReadonlySet<string> = new Set(["__proto__", "constructor", "prototype"]);

export const CONTROL_MESSAGE =
  "Must not contain NUL or other control characters (U+0000 to U+001F other than tab, line feed and carriage return).";
export const SURROGATE_MESSAGE =
  "Must not contain unpaired surrogates (a \\ud800-\\udfff escape without its other half).";

export type FindingKind = "value" | "key" | "structure";

/** One finding: where (`at`, and as the dotted `path` of the contract's issues) and what. */
export interface HygieneIssue {
  /** The dotted path, as the contract's `issues` name it. */
  path: string;
  message: string;
  at: readonly (string | number)[];
  /** `value`: a string; `key`: an object key; `structure`: nesting, size, duplicate keys. */
  kind: FindingKind;
}

// Any C0 control but tab, LF and CR, or any surrogate code unit (paired ones are let through by
// the second, Unicode-aware test). One regex test per string is the whole cost for clean input.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point.
const SUSPECT = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uD800-\uDFFF]/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point.
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F]/;
/** With the `u` flag a paired surrogate is one code point, so only a lone one matches. */
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;

/** Why a string may not be accepted, or undefined when it is fine. */
export function textProblem(value: string): string | undefined {
  if (!SUSPECT.test(value)) return undefined;
  if (CONTROL.test(value)) return CONTROL_MESSAGE;
  if (LONE_SURROGATE.test(value)) return SURROGATE_MESSAGE;
  return undefined;
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: escaping control characters is the point.
const UNPRINTABLE = /[\u0000-\u001F\u007F]|[\uD800-\uDFFF]/gu;
/** A key as it may appear in an issue path: refused characters written as `\uXXXX`. */
function printable(segment: string | number): string {
  if (typeof segment === "number") return String(segment);
  return segment.replace(UNPRINTABLE, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

export function finding(at: (string | number)[], kind: FindingKind, message: string): HygieneIssue {
  return { path: at.map(printable).join("."), message, at, kind };
}

// ---------------------------------------------------------------------------------------------
// Raw JSON text: nesting before JSON.parse, and duplicate keys

/**
 * Below this length JSON.parse of even the most deeply nested text costs about a millisecond,
 * less than a raw-text scan would cost every ordinary body, so the text is parsed first and its
 * nesting checked on the parsed value. Above it the scan refuses deep nesting before JSON.parse
 * pays for it (1 MB of brackets costs JSON.parse 160-360 ms).
 */
export const SCAN_BEFORE_PARSE_CHARS = 16 * 1024;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;

interface ScanFrame {
  array: boolean;
  /** The current key (object) or index (array): the path of the value being read. */
  at: string | number;
  keys: Set<string> | undefined;
}

/** True when the quote at `index` is escaped (an odd run of backslashes before it). */
function escapedQuote(text: string, index: number): boolean {
  let run = 0;
  for (let i = index - 1; i >= 0 && text.charCodeAt(i) === BACKSLASH; i--) run++;
  return run % 2 === 1;
}

/**
 * One pass over the text: nesting past MAX_JSON_DEPTH and, with `uniqueKeys`, a key repeated in
 * one object. Without `track` it keeps no path and, on a finding, scans again with `track` to
 * name where: the rare case pays for the path, the common one does not.
 */
function scan(text: string, track: boolean, uniqueKeys: boolean): HygieneIssue | undefined {
  const frames: ScanFrame[] = [];
  let depth = 0;
  let expectKey = false;
  let problem = "";
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (ch === QUOTE) {
      let end = text.indexOf('"', i + 1);
      while (end !== -1 && escapedQuote(text, end)) end = text.indexOf('"', end + 1);
      // Unterminated: JSON.parse reports it.
      if (end === -1) return undefined;
      if (expectKey) {
        const frame = frames[frames.length - 1] as ScanFrame;
        const raw = text.slice(i + 1, end);
        let key = raw;
        if (raw.includes("\\")) {
          try {
            key = JSON.parse(text.slice(i, end + 1)) as string;
          } catch {
            // An invalid escape: JSON.parse of the whole body reports it.
          }
        }
        frame.at = key;
        if (frame.keys?.has(key)) {
          problem = "This key appears more than once in its object.";
          break;
        }
        frame.keys?.add(key);
        expectKey = false;
      }
      i = end;
    } else if (ch === OPEN_BRACE || ch === OPEN_BRACKET) {
      depth += 1;
      if (depth > MAX_JSON_DEPTH) {
        problem = `Nested deeper than ${MAX_JSON_DEPTH} levels.`;
        break;
      }
      if (track) {
        const array = ch === OPEN_BRACKET;
        frames.push({ array, at: array ? 0 : "", keys: uniqueKeys && !array ? new Set() : undefined });
        expectKey = !array;
      }
    } else if (ch === CLOSE_BRACE || ch === CLOSE_BRACKET) {
      depth -= 1;
      if (track) {
        frames.pop();
        expectKey = false;
      }
    } else if (ch === COMMA && track) {
      const frame = frames[frames.length - 1];
      if (frame?.array) frame.at = (frame.at as number) + 1;
      else expectKey = frame !== undefined;
    }
  }
  if (problem === "") return undefined;
  if (!track) return scan(text, true, uniqueKeys);
  return finding(
    frames.map((f) => f.at),
    "structure",
    problem,
  );
}

/**
 * Nesting (and, when asked, duplicate keys) of a JSON text in one iterative pass that stops at
 * the first problem, before any parsing. Invalid JSON is left to JSON.parse.
 */
export function scanJsonText(text: string, options: { uniqueKeys?: boolean } = {}): HygieneIssue | undefined {
  const unique = options.uniqueKeys === true;
  return scan(text, unique, unique);
}

// ---------------------------------------------------------------------------------------------
// Parsed JSON: nesting, sizes, strings and keys

interface WalkFrame {
  value: object;
  depth: number;
  /** Undefined for the root value, which has no path segment of its own. */
  parent: WalkFrame | undefined;
  at: string | number;
}

function walkPath(frame: WalkFrame, last?: string | number): (string | number)[] {
  const at: (string | number)[] = last === undefined ? [] : [last];
  for (let f: WalkFrame | undefined = frame; f?.parent !== undefined; f = f.parent) at.push(f.at);
  return at.reverse();
}

/**
 * A parsed JSON value, walked breadth first with an explicit queue (no recursion, whatever the
 * depth): nesting, keys per object and values per body always; with `text`, also refused
 * characters in every string and key and the reserved keys. Findings come shallowest first; a
 * size finding is returned alone.
 */
export function inspectJsonValue(root: unknown, options: { text?: boolean } = {}): HygieneIssue[] {
  const text = options.text !== false;
  if (typeof root !== "object" || root === null) {
    const problem = text && typeof root === "string" ? textProblem(root) : undefined;
    return problem ? [finding([], "value", problem)] : [];
  }
  // Containers only and nothing found: the quick walk says so without building any path.
  if (!text && withinSizes(root)) return [];
  const issues: HygieneIssue[] = [];
  const queue: WalkFrame[] = [{ value: root, depth: 1, parent: undefined, at: "" }];
  let values = 1;
  const visit = (parent: WalkFrame, at: string | number, value: unknown) => {
    if (typeof value === "object" && value !== null) {
      queue.push({ value, depth: parent.depth + 1, parent, at });
    } else if (text && typeof value === "string") {
      const problem = textProblem(value);
      if (problem) issues.push(finding(walkPath(parent, at), "value", problem));
    }
  };
  for (let head = 0; head < queue.length && issues.length < MAX_REPORTED_ISSUES; head++) {
    const frame = queue[head] as WalkFrame;
    if (frame.depth > MAX_JSON_DEPTH) {
      return [finding(walkPath(frame), "structure", `Nested deeper than ${MAX_JSON_DEPTH} levels.`)];
    }
    const value = frame.value;
    if (Array.isArray(value)) {
      values += value.length;
      if (values > MAX_JSON_VALUES) return [tooManyValues()];
      for (let i = 0; i < value.length; i++) visit(frame, i, value[i]);
      continue;
    }
    const keys = Object.keys(value);
    values += keys.length;
    if (values > MAX_JSON_VALUES) return [tooManyValues()];
    if (keys.length > MAX_OBJECT_KEYS) {
      return [finding(walkPath(frame), "structure", `Has more than ${MAX_OBJECT_KEYS} keys.`)];
    }
    for (const key of keys) {
      const problem = !text
        ? undefined
        : RESERVED_KEYS.has(key)
          ? `"${key}" is a reserved name and cannot be a key.`
          : textProblem(key);
      if (problem) issues.push(finding(walkPath(frame, key), "key", problem));
      else visit(frame, key, (value as Record<string, unknown>)[key]);
    }
  }
  return issues.slice(0, MAX_REPORTED_ISSUES);
}

/** Nesting, keys per object and values per body within the limits (no paths: the quick pass). */
function withinSizes(root: object): boolean {
  const stack: object[] = [root];
  const depths: number[] = [1];
  let values = 1;
  while (stack.length > 0) {
    const value = stack.pop() as object;
    const depth = depths.pop() as number;
    if (depth > MAX_JSON_DEPTH) return false;
    const children = Array.isArray(value) ? value : Object.values(value);
    if (children.length > MAX_OBJECT_KEYS && !Array.isArray(value)) return false;
    values += children.length;
    if (values > MAX_JSON_VALUES) return false;
    for (let i = 0; i < children.length; i++) {
      const child: unknown = children[i];
      if (typeof child === "object" && child !== null) {
        stack.push(child);
        depths.push(depth + 1);
      }
    }
  }
  return true;
}

function tooManyValues(): HygieneIssue {
  return finding([], "structure", `The body holds more than ${MAX_JSON_VALUES} values.`);
}

/**
 * True when some string or key of the text may hold a refused character or name. JSON forbids
 * raw control characters in strings and valid UTF-8 cannot hold a surrogate, so a refused
 * character can only come from a `\u`, `\b` or `\f` escape (`\t`, `\n`, `\r` are allowed).
 */
function riskyText(text: string): boolean {
  return (
    text.includes("\\u") ||
    text.includes("\\b") ||
    text.includes("\\f") ||
    text.includes("__proto__") ||
    text.includes("constructor") ||
    text.includes("prototype")
  );
}

/** The outcome of checking a JSON body text: the parsed value, or why it is refused. */
export type JsonTextCheck =
  | { ok: true; value: unknown }
  | { ok: false; invalidJson: true }
  | { ok: false; invalidJson?: false; issues: HygieneIssue[] };

/**
 * The whole body check on a decoded text: the raw scan when the text is long or duplicate keys
 * are refused, JSON.parse, then the walk (strings and keys only when the text could hide a
 * refused one).
 */
export function checkJsonText(text: string, options: { uniqueKeys?: boolean } = {}): JsonTextCheck {
  if (options.uniqueKeys || text.length > SCAN_BEFORE_PARSE_CHARS) {
    const structure = scanJsonText(text, options);
    if (structure) return { ok: false, issues: [structure] };
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, invalidJson: true };
  }
  const issues = inspectJsonValue(value, { text: riskyText(text) });
  return issues.length > 0 ? { ok: false, issues } : { ok: true, value };
}

const UTF8 = new TextDecoder("utf-8", { fatal: true });

/** The outcome of screening raw bytes: the decoded text and parsed value, or why not. */
export type JsonBytesCheck =
  | { ok: true; text: string; value: unknown }
  | { ok: false; problem: "not_utf8"; issues?: undefined }
  | { ok: false; problem: "not_json"; issues?: undefined }
  | { ok: false; problem: "refused"; issues: HygieneIssue[] };

/**
 * The whole screen over raw bytes: strict UTF-8 decoding (never U+FFFD in place of what was
 * sent), then `checkJsonText`. The one entry point for a document that arrives as bytes.
 */
export function screenJsonBytes(
  bytes: ArrayBuffer | Uint8Array,
  options: { uniqueKeys?: boolean } = {},
): JsonBytesCheck {
  let text: string;
  try {
    text = UTF8.decode(bytes);
  } catch {
    return { ok: false, problem: "not_utf8" };
  }
  const checked = checkJsonText(text, options);
  if (checked.ok) return { ok: true, text, value: checked.value };
  if (checked.invalidJson) return { ok: false, problem: "not_json" };
  return { ok: false, problem: "refused", issues: checked.issues };
}
