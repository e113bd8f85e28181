/**
 * zod schemas of the hook requests (CDS Hooks 2.0.1 "Calling a CDS Service", contexts of the
 * Hook Library 1.0.1) and `parseHookRequest`, which names every problem (path and message) so the
 * app answers 400 with them (decision 113).
 */
import { z } from "zod";
import type { CdsHook, CdsService } from "./service-module.js";

const nonEmpty = z.string().trim().min(1, "must be a non-empty string");
const httpUrl = z.url({ protocol: /^https?$/, error: "must be an absolute http(s) URL" });

/** `fhirAuthorization` (CDS Hooks 2.0.1, "FHIR Resource Access"). */
export const FhirAuthorizationSchema = z.object({
  access_token: nonEmpty,
  token_type: z.literal("Bearer", { error: 'must be "Bearer"' }),
  expires_in: z.number().int("must be an integer").nonnegative("must not be negative"),
  scope: nonEmpty,
  subject: nonEmpty,
  patient: nonEmpty.optional(),
});

const reference = (types: readonly string[]) =>
  z
    .string()
    .regex(
      new RegExp(`^(${types.join("|")})/[A-Za-z0-9\\-.]{1,64}$`),
      `must be a reference of the form ${types.map((t) => `${t}/[id]`).join(" or ")}`,
    );

/** A FHIR id as the hook contexts carry it. */
const fhirId = z
  .string()
  .regex(/^[A-Za-z0-9\-.]{1,64}$/, "must be a FHIR id ([A-Za-z0-9-.], 1-64 characters)");

const resource = z.looseObject({ resourceType: nonEmpty, id: fhirId.optional() });

const draftOrders = z.looseObject({
  resourceType: z.literal("Bundle", { error: 'must be a Bundle (resourceType "Bundle")' }),
  entry: z.array(z.looseObject({ resource })).optional(),
});

const patientViewContext = z.looseObject({
  userId: reference(["Practitioner", "PractitionerRole", "Patient", "RelatedPerson"]),
  patientId: fhirId,
  encounterId: fhirId.optional(),
});

const orderSignContext = z.looseObject({
  userId: reference(["Practitioner", "PractitionerRole"]),
  patientId: fhirId,
  encounterId: fhirId.optional(),
  draftOrders,
});

const orderSelectContext = orderSignContext.extend({
  selections: z
    .array(z.string().regex(/^[A-Za-z]+\/[A-Za-z0-9\-.]{1,64}$/, "must be a [ResourceType]/[id] reference"))
    .min(1, "must name at least one selected order"),
});

const CONTEXTS = {
  "patient-view": patientViewContext,
  "order-select": orderSelectContext,
  "order-sign": orderSignContext,
} as const;

/** A prefetch value: a FHIR resource (often a searchset Bundle) or null (the EHR has no data). */
const prefetchValue = z.union([resource, z.null()], { error: "must be a FHIR resource or null" });

/** A hook's request schema; generic in the hook, so each request type names its own context. */
function requestSchema<H extends CdsHook>(hook: H) {
  return z
    .looseObject({
      hook: z.literal(hook, { error: `must be "${hook}" for this service` }),
      hookInstance: z
        .string()
        .trim()
        .min(1, "must be a non-empty string")
        .max(256, "must be at most 256 characters"),
      fhirServer: httpUrl.optional(),
      fhirAuthorization: FhirAuthorizationSchema.optional(),
      context: CONTEXTS[hook] as (typeof CONTEXTS)[H],
      prefetch: z.record(z.string(), prefetchValue).optional(),
    })
    .superRefine((request, ctx) => {
      if (request.fhirAuthorization !== undefined && request.fhirServer === undefined)
        ctx.addIssue({
          code: "custom",
          path: ["fhirServer"],
          message: "is required when fhirAuthorization is given",
        });
      if (hook !== "order-select") return;
      const context = request.context as z.infer<typeof orderSelectContext>;
      const drafts = new Set(
        (context.draftOrders.entry ?? []).map((e) => `${e.resource.resourceType}/${e.resource.id ?? ""}`),
      );
      context.selections.forEach((selection, index) => {
        if (!drafts.has(selection))
          ctx.addIssue({
            code: "custom",
            path: ["context", "selections", index],
            message: `names ${selection}, which is not in context.draftOrders`,
          });
      });
    });
}

const SCHEMAS = {
  "patient-view": requestSchema("patient-view"),
  "order-select": requestSchema("order-select"),
  "order-sign": requestSchema("order-sign"),
};

export type PatientViewRequest = z.infer<(typeof SCHEMAS)["patient-view"]>;
export type OrderSelectRequest = z.infer<(typeof SCHEMAS)["order-select"]>;
export type OrderSignRequest = z.infer<(typeof SCHEMAS)["order-sign"]>;
export type HookRequest = PatientViewRequest | OrderSelectRequest | OrderSignRequest;

export interface RequestIssue {
  /** Dotted path in the body ("context.patientId", "prefetch.labs"); "" for the body itself. */
  path: string;
  message: string;
}

/**
 * Problems named one by one in a 400; the rest are counted in a last issue, so an answer cannot
 * grow with a request of thousands of bad entries (decision 146).
 */
export const MAX_REQUEST_ISSUES = 50;

/**
 * A validated hook call: the service found by its id and the request checked against its hook.
 * It flows as it is to `prefetchQueries`, the app's fetch and `runCdsService`: nothing looks the
 * service up or reads the body again (decision 210).
 */
export interface HookCall {
  service: CdsService;
  request: HookRequest;
}

export type ParsedHookRequest = ({ ok: true } & HookCall) | { ok: false; issues: RequestIssue[] };

/** The zod schema of a hook's request, for OpenAPI generation and tests. */
export function hookRequestSchema(hook: CdsHook) {
  return SCHEMAS[hook];
}

/**
 * Validates a request body for a service (found by the caller in the registry, `cdsService(id)`;
 * the app answers 404 for an unknown id before reading the body): the call, or every problem with
 * its path.
 */
export function parseHookRequest(service: CdsService, body: unknown): ParsedHookRequest {
  const parsed = SCHEMAS[service.descriptor.hook].safeParse(body);
  if (parsed.success) return { ok: true, service, request: parsed.data as HookRequest };
  const all = parsed.error.issues;
  const issues: RequestIssue[] = all.slice(0, MAX_REQUEST_ISSUES).map((issue) => ({
    path: issue.path.map(String).join("."),
    message: issue.message,
  }));
  if (all.length > MAX_REQUEST_ISSUES)
    issues.push({
      path: "",
      message: `and ${all.length - MAX_REQUEST_ISSUES} more problems of the same request`,
    });
  return { ok: false, issues };
}
