/**
 * Prefetch semantics (CDS Hooks 2.0.1, "Providing FHIR Resources to a CDS Service"): a key the
 * request lacks means the EHR did not provide it, so the service fetches it itself; a key present
 * with `null` means the EHR has no data, and it is never fetched. This module only says which
 * relative FHIR queries to run (tokens resolved and URL-encoded); the app fetches them.
 */
import type { HookCall } from "./request.js";

export type PrefetchQueries =
  | { ok: true; queries: Record<string, string> }
  | {
      ok: false;
      /**
       * 412: the data the service needs cannot be had (decision 113). The request itself was
       * valid (parseHookRequest passed), but a template's token has no value to put in the query:
       * an optional context field that is absent, or one that is not a primitive.
       */
      status: 412;
      reason: string;
    };

const TOKEN = /\{\{\s*([^{}]+?)\s*\}\}/g;

/** User tokens and the resource type of `context.userId` each takes its id from. */
const USER_TOKENS: Readonly<Record<string, string>> = {
  userPractitionerId: "Practitioner",
  userPractitionerRoleId: "PractitionerRole",
  userPatientId: "Patient",
  userRelatedPersonId: "RelatedPerson",
};

function tokenValue(name: string, context: Record<string, unknown>): string | { error: string } {
  const userType = USER_TOKENS[name];
  if (userType !== undefined) {
    const userId = context.userId;
    const prefix = `${userType}/`;
    if (typeof userId === "string" && userId.startsWith(prefix)) return userId.slice(prefix.length);
    return { error: `the token {{${name}}} needs context.userId to be a ${userType} reference` };
  }
  if (!name.startsWith("context.") || name.slice(8).includes("."))
    return { error: `the token {{${name}}} is not a root-level context field or user token` };
  const field = name.slice(8);
  const value = context[field];
  if (value === undefined) return { error: `the token {{${name}}} has no value: context.${field} is absent` };
  if (typeof value !== "string" && typeof value !== "number" && typeof value !== "boolean")
    return { error: `the token {{${name}}} needs a primitive value; context.${field} is not one` };
  return String(value);
}

/** A template with every token replaced by its URL-encoded value, or the first token's problem. */
export function resolveTemplate(
  template: string,
  context: Record<string, unknown>,
): string | { error: string } {
  let problem: string | null = null;
  const query = template.replace(TOKEN, (_whole, name: string) => {
    const value = tokenValue(name, context);
    if (typeof value === "string") return encodeURIComponent(value);
    problem ??= value.error;
    return "";
  });
  return problem === null ? query : { error: problem };
}

/**
 * The relative FHIR queries for every template key the call's prefetch lacks (absent, not null).
 * An empty `queries` means nothing needs fetching.
 */
export function prefetchQueries({ service, request }: HookCall): PrefetchQueries {
  const given = request.prefetch ?? {};
  const queries: Record<string, string> = {};
  for (const [key, template] of Object.entries(service.descriptor.prefetch)) {
    if (Object.hasOwn(given, key)) continue;
    const query = resolveTemplate(template, request.context as Record<string, unknown>);
    if (typeof query !== "string")
      return { ok: false, status: 412, reason: `prefetch ${key} cannot be fetched: ${query.error}` };
    queries[key] = query;
  }
  return { ok: true, queries };
}
