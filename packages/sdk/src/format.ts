import type { FhirBundle, MseFhirBundle } from "./resources.js";
import type { RequestOptions } from "./transport.js";

/**
 * The answer format option of the calls that can answer FHIR (the five analyses and
 * `mse.retrieve`): `{ format: "fhir" }` sends `Accept: application/fhir+json`, and the call's type
 * says it answers the FHIR R4 Bundle. Errors stay JSON either way.
 *
 * The media type of a FHIR answer:
 */
export const FHIR_MEDIA_TYPE = "application/fhir+json";

/** Per-call options of a call that can answer FHIR: `format: "fhir"` asks for the FHIR R4 Bundle. */
export interface FormatOptions extends RequestOptions {
  /** `json` (default): the API's JSON answer. `fhir`: the same result as a FHIR R4 Bundle. */
  format?: "json" | "fhir";
}

/** An analysis call: the JSON answer, or with `{ format: "fhir" }` the FHIR Bundle, each typed. */
export interface AnalysisCall<Body, Json> {
  (body: Body, call?: FormatOptions & { format?: "json" }): Promise<Json>;
  (body: Body, call: FormatOptions & { format: "fhir" }): Promise<FhirBundle>;
}

/** `svc.mse.retrieve`: the record, or with `{ format: "fhir" }` the record as a FHIR Bundle. */
export interface MseRetrieveCall<Query, Json> {
  (visitId: string, query?: Query, call?: FormatOptions & { format?: "json" }): Promise<Json>;
  (
    visitId: string,
    query: Query | undefined,
    call: FormatOptions & { format: "fhir" },
  ): Promise<MseFhirBundle>;
}

/** The per-call options a call sends: `format` becomes its Accept header. */
export function withFormat(call: FormatOptions | undefined): RequestOptions | undefined {
  if (call?.format === undefined) return call;
  const { format, ...rest } = call;
  if (format === "json") return rest;
  const headers = new Headers(rest.headers);
  headers.set("accept", FHIR_MEDIA_TYPE);
  return { ...rest, headers };
}

/** An analysis whose answer can be FHIR: `send` makes the call with the Accept header set. */
export function analysisCall<Body, Json>(
  send: (body: Body, call?: RequestOptions) => Promise<Json>,
): AnalysisCall<Body, Json> {
  return ((body: Body, call?: FormatOptions) => send(body, withFormat(call))) as AnalysisCall<Body, Json>;
}
