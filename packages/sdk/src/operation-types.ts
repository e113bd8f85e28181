import type { paths } from "./generated/openapi.js";

/** The POST operation at a path of the document (exported so callers can name the wrappers' types). */
export type PostOperation<P extends keyof paths> = paths[P] extends { post: infer O } ? O : never;
/** The PATCH operation at a path of the document. */
export type PatchOperation<P extends keyof paths> = paths[P] extends { patch: infer O } ? O : never;
/** The GET operation at a path of the document. */
export type GetOperation<P extends keyof paths> = paths[P] extends { get: infer O } ? O : never;
/** The JSON body an operation takes. */
export type BodyOf<O> = O extends { requestBody?: infer R }
  ? NonNullable<R> extends { content: { "application/json": infer B } }
    ? B
    : never
  : never;
/** The query parameters an operation takes. */
export type QueryOf<O> = O extends { parameters: { query?: infer Q } } ? NonNullable<Q> : never;
/** The 200 JSON an operation answers. */
export type ResultOf<O> = O extends { responses: { 200: { content: { "application/json": infer R } } } }
  ? R
  : O extends { responses: { 201: { content: { "application/json": infer R } } } }
    ? R
    : never;
