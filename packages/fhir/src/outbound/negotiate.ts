/**
 * Content negotiation for the FHIR answers (decision 117): does an `Accept` header prefer
 * `application/fhir+json` to `application/json`? Media ranges are read with their q-values and
 * the most specific matching range decides each type's quality (RFC 9110, section 12.5.1). FHIR is
 * chosen only when its quality is above zero and above JSON's: a tie, `*` / `*`, no header, or an
 * unknown type keeps today's JSON. A `fhirVersion` parameter other than 4.0 (or 4.0.x) does not
 * match (we serve R4 only).
 */

export const FHIR_JSON = "application/fhir+json";
/** The Content-Type of our FHIR answers. */
export const FHIR_JSON_CONTENT_TYPE = "application/fhir+json; fhirVersion=4.0; charset=utf-8";

interface MediaRange {
  type: string;
  subtype: string;
  params: Map<string, string>;
  q: number;
}

function parseRange(part: string): MediaRange | null {
  const [mediaType, ...rawParams] = part.split(";");
  const [type, subtype] = (mediaType ?? "").trim().toLowerCase().split("/");
  if (!type || !subtype) return null;
  const params = new Map<string, string>();
  let q = 1;
  for (const raw of rawParams) {
    const eq = raw.indexOf("=");
    if (eq < 0) continue;
    const name = raw.slice(0, eq).trim().toLowerCase();
    const value = raw
      .slice(eq + 1)
      .trim()
      .replace(/^"(.*)"$/, "$1");
    if (name === "q") {
      const parsed = /^(0(\.\d{0,3})?|1(\.0{0,3})?)$/.test(value) ? Number(value) : Number.NaN;
      q = Number.isNaN(parsed) ? 0 : parsed;
    } else params.set(name, value);
  }
  return { type: type.trim(), subtype: subtype.trim(), params, q };
}

/** How specifically a range matches `type/subtype` (3 exact, 2 `type/*`, 1 `*` / `*`), or 0. */
function specificity(range: MediaRange, type: string, subtype: string): number {
  if (range.type === type && range.subtype === subtype) return 3;
  if (range.type === type && range.subtype === "*") return 2;
  if (range.type === "*" && range.subtype === "*") return 1;
  return 0;
}

function servesR4(range: MediaRange): boolean {
  const version = range.params.get("fhirversion");
  return version === undefined || version === "4.0" || version.startsWith("4.0.");
}

/** The quality the header gives a media type: its most specific matching range's q, or 0. */
function quality(ranges: readonly MediaRange[], mediaType: string): number {
  const [type = "", subtype = ""] = mediaType.split("/");
  let best = 0;
  let q = 0;
  for (const range of ranges) {
    const s = specificity(range, type, subtype);
    if (s === 0 || (s === 3 && mediaType === FHIR_JSON && !servesR4(range))) continue;
    if (s > best || (s === best && range.q > q)) {
      best = s;
      q = range.q;
    }
  }
  return q;
}

/** Whether the caller asked for FHIR R4 JSON over our JSON. */
export function prefersFhirJson(accept: string | null | undefined): boolean {
  if (!accept) return false;
  const ranges = accept
    .split(",")
    .map(parseRange)
    .filter((r): r is MediaRange => r !== null);
  const fhir = quality(ranges, FHIR_JSON);
  return fhir > 0 && fhir > quality(ranges, "application/json");
}
