import {
  type CdsRunResult,
  cdsService,
  type HookCall,
  parseHookRequest,
  prefetchQueries,
  runCdsService,
} from "@svc/cds-hooks";
import { type EhrAddressPolicy, fetchFhir } from "@svc/ehr-gateway";
import { ApiError, type AppEnv, authOf, type Logger, type ServiceApp, workSignal } from "@svc/http";
import { ENGINE_DESCRIPTORS, type EngineName, resolveCalibration } from "@svc/intelligence";
import { rememberIssuedCards } from "@svc/records";
import type { Context } from "hono";
import type { ActiveModelVersions } from "../model-versions.js";
import { CDS_BASE_PATH, cdsFetchPolicy, cdsJsonBody } from "./cds_guard.js";

/**
 * POST /cds-hooks/{accountId}/cds-services/{id}: one hook call (CDS Hooks 2.0.1, decisions 113,
 * 128 and 147). Behind the CDS Hooks guard (the EHR's JWT, plan and rate limit), so it must be registered after
 * `registerCdsHooks`. The steps: the service (found once in the registry of `@svc/cds-hooks`), the
 * request checked against its hook (400 with the issues), giving the call that every later step
 * reads as it is (decision 210); what prefetch lacks fetched from the EHR's FHIR server under the client's address rules
 * (412 `prefetch_unavailable` when it cannot be had), then the engines through `@svc/cds-hooks`
 * with the account's active calibrated models, answered as `{ cards }`.
 */

type Models = NonNullable<Parameters<typeof runCdsService>[2]["models"]>;

/**
 * The active calibrated parameters per engine, as the analysis endpoints run them (decision 44),
 * read by the registry's one `resolveCalibration` (decision 183).
 */
async function activeCalibrations(models: ActiveModelVersions, logger: Logger): Promise<Models> {
  const active: Models = {};
  for (const engine of ENGINE_DESCRIPTORS) {
    const row = await models.get(engine.name);
    if (!row) continue;
    const read = resolveCalibration(engine, row);
    if (read.rejected !== undefined) {
      // A promoted row the engine cannot read: the card runs the shipped defaults, as an analysis does.
      logger.error(
        { engine: engine.name, version: row.version, err: read.rejected },
        "calibrated parameters rejected; running defaults",
      );
      continue;
    }
    active[engine.name as EngineName] = { version: row.version, params: row.params };
  }
  return active;
}

/** Why a prefetch could not be fetched, for the 412's message (no URL, token or FHIR content). */
const FETCH_FAILURE_TEXT: Readonly<Record<string, string>> = {
  invalid_url: "the query does not stay under fhirServer",
  refused_address: "fhirServer's address is not allowed for this CDS client",
  dns_failure: "fhirServer's host name does not resolve",
  timeout: "the FHIR server did not answer in time",
  too_large: "the FHIR server's answer is over the size limit",
  redirect: "the FHIR server answered with a redirect, which is not followed",
  http_status: "the FHIR server answered with an error status",
  not_json: "the FHIR server's answer is not JSON",
  network: "the FHIR server could not be reached",
  not_fhir: "the FHIR server's answer is not a FHIR resource (a search answers with a Bundle)",
};

/**
 * Whether a fetched answer is a FHIR resource (a JSON object naming its resourceType). Anything
 * else (`[]`, `null`, a bare array of resources) is not a search result: read as a source it
 * would hold no resources and no error, so an empty answer would pass as "no medications, no
 * interaction". It is data the service could not have, hence 412.
 */
function isFhirResource(json: unknown): boolean {
  return (
    typeof json === "object" &&
    json !== null &&
    !Array.isArray(json) &&
    typeof (json as { resourceType?: unknown }).resourceType === "string"
  );
}

/**
 * Every prefetch value the service will use: the request's own, plus each missing key fetched
 * from the EHR (in parallel). A key the request sent as null is never fetched (the EHR has no
 * data); a missing key that cannot be fetched is 412, never silently treated as "no data". A key
 * whose answer arrived but failed the input screen (decision 150: too deep, NUL, lone surrogate,
 * not UTF-8) stays missing and is named in `unreadable`: the run says on a card that this data
 * could not be read, and draws no conclusion from it. An optional key (decision 201) that cannot
 * be had stays missing instead of making the call a 412; the run says its facts are unknown.
 */
async function completePrefetch(
  { service, request }: HookCall,
  queries: Readonly<Record<string, string>>,
  policy: EhrAddressPolicy,
  signal: AbortSignal,
): Promise<{ prefetch: Record<string, unknown>; unreadable: string[] }> {
  const prefetch: Record<string, unknown> = { ...(request.prefetch ?? {}) };
  const unreadable: string[] = [];
  const keys = Object.keys(queries);
  if (keys.length === 0) return { prefetch, unreadable };
  if (!request.fhirServer) {
    const required = keys.filter((key) => !service.optionalPrefetch.has(key));
    if (required.length === 0) return { prefetch, unreadable };
    throw new ApiError(
      "prefetch_unavailable",
      `Prefetch ${required.map((k) => `"${k}"`).join(", ")} was not sent and there is no fhirServer to fetch it from.`,
    );
  }
  const fhirServer = request.fhirServer;
  const token = request.fhirAuthorization?.access_token;
  const results = await Promise.all(
    keys.map(async (key) => ({
      key,
      result: await fetchFhir(fhirServer, queries[key] as string, token, policy, { signal }),
    })),
  );
  for (const { key, result } of results) {
    if (!result.ok && result.reason === "unreadable") {
      unreadable.push(key);
      continue;
    }
    const reason = !result.ok ? result.reason : isFhirResource(result.json) ? null : "not_fhir";
    if (reason !== null && service.optionalPrefetch.has(key)) continue;
    if (reason !== null) {
      const why = FETCH_FAILURE_TEXT[reason] ?? "the FHIR server could not be read";
      throw new ApiError(
        "prefetch_unavailable",
        `Prefetch "${key}" was not sent and could not be fetched: ${why}.`,
      );
    }
    if (result.ok) prefetch[key] = result.json;
  }
  return { prefetch, unreadable };
}

/** How many of each: a count per distinct value. */
function countsOf(values: readonly string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const value of values) counts[value] = (counts[value] ?? 0) + 1;
  return counts;
}

/**
 * One log line per hook call: ids, engines and counts only (decision 145), never a list that
 * grows with the request, a patient id or FHIR content.
 */
function logHookCall(
  c: Context<AppEnv>,
  logger: Logger,
  serviceId: string,
  clientId: string,
  run: CdsRunResult,
) {
  logger.info(
    {
      requestId: c.get("requestId"),
      cdsService: serviceId,
      cdsClient: clientId,
      cards: run.cards.length,
      cardsOmitted: run.omittedCards,
      indicators: countsOf(run.cards.map((card) => card.indicator)),
      rules: countsOf(run.rules),
      engines: run.engines,
      notUsed: run.notUsed,
      missingPrefetch: run.missingPrefetch,
    },
    "cds hook answered",
  );
}

export function registerCdsHookCalls(service: ServiceApp, models: ActiveModelVersions): void {
  const { deps } = service;
  service.plain(
    "POST",
    `${CDS_BASE_PATH}/:id`,
    async (c) => {
      const caller = authOf(c, "ehr_jwt");
      const serviceId = c.req.param("id") ?? "";
      const found = cdsService(serviceId);
      if (!found) {
        throw new ApiError(
          "not_found",
          "No CDS service with this id; discovery (GET on the account's cds-services URL) lists them.",
        );
      }
      const call = parseHookRequest(found, await cdsJsonBody(c));
      if (!call.ok) {
        throw new ApiError("invalid_request", "The hook request is not valid CDS Hooks 2.0.1; see issues.", {
          issues: call.issues,
        });
      }
      const queries = prefetchQueries(call);
      if (!queries.ok) throw new ApiError("prefetch_unavailable", queries.reason);
      const signal = workSignal(c);
      const { prefetch, unreadable } = await completePrefetch(
        call,
        queries.queries,
        cdsFetchPolicy(caller, deps),
        signal,
      );
      const run = runCdsService(call, prefetch, {
        now: new Date(),
        baseUrl: deps.publicBaseUrl,
        models: await activeCalibrations(models, deps.logger),
        unreadablePrefetch: unreadable,
      });
      // Feedback is taken only on cards issued to this client (decision 151).
      await rememberIssuedCards(deps.db, {
        clientId: caller.clientId,
        serviceId,
        cardUuids: run.cards.map((card) => card.uuid),
      });
      logHookCall(c, deps.logger, serviceId, caller.clientId, run);
      return c.json({ cards: run.cards }, 200);
    },
    null,
  );
}
