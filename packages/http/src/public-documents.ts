import type { ServiceApp } from "./app.js";
import { ApiError } from "./errors.js";

/**
 * Read-only documents served at `<prefix>/<type>/<id>` with no key: each app names what it serves
 * (FHIR conformance resources at their canonical URLs, decision 118), and this serves them the one
 * way: the document as JSON in its content type, cacheable, or 404 `not_found` in the envelope.
 */
export interface PublicDocuments {
  /** "/fhir". */
  prefix: string;
  /** The types served, each a path segment: "CodeSystem", "Questionnaire". */
  types: readonly string[];
  /** The document of this type and id, or undefined when there is none. */
  find(type: string, id: string): object | undefined;
  contentType: string;
  /** How long a cache may keep a document (they change only with a release). */
  maxAgeSeconds: number;
}

export function registerPublicDocuments(service: ServiceApp, documents: PublicDocuments): void {
  const cacheControl = `public, max-age=${documents.maxAgeSeconds}`;
  for (const type of documents.types) {
    service.plain(
      "GET",
      `${documents.prefix}/${type}/:id`,
      (c) => {
        const document = documents.find(type, c.req.param("id") ?? "");
        if (!document) throw new ApiError("not_found", `No ${type} with this id.`);
        return c.body(JSON.stringify(document), 200, {
          "Content-Type": documents.contentType,
          "Cache-Control": cacheControl,
        });
      },
      null,
    );
  }
}
