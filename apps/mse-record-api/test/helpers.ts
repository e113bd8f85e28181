import { call, startTestService, type TestService } from "@svc/testkit";
import { afterAll, beforeAll, beforeEach } from "vitest";
import type {
  MseAuditResponse,
  MseCatalog,
  MseHistoryResponse,
  MsePatchResponse,
  MseRecordResponse,
  MseSafetyEventList,
  MseSignResponse,
  MseWriteResponse,
} from "../src/index.js";

/** Small helpers shared by the MSE Record API tests. */

export const baseSelection = {
  mood: { values: ["depressed", "anxious"], text: "Worse in the mornings" },
  affect: { values: ["restricted"] },
  speech: { values: ["normal"] },
  risk: { values: ["denies_si_hi"] },
  insight: { values: ["partial"] },
};

export const riskySelection = {
  mood: { values: ["depressed"] },
  risk: { values: ["active_si"], cssrs: { q1: "yes", q2: "yes" } },
};

let counter = 0;
/** A fresh visit id per test. */
export function visit(prefix = "v"): string {
  counter += 1;
  return `${prefix}-${Date.now().toString(36)}-${counter}`;
}

/**
 * The MSE Record API routes for one organization key. Each call reads the route's 200 body by
 * default; a test expecting a failure names the error body (`api.write<FlatErrorBody>(...)`).
 */
export function mse(base: string, key: string) {
  return {
    write: <Res = MseWriteResponse>(visitId: string, body: unknown) =>
      call<Res>(base, `/v1/mse/${visitId}`, { method: "POST", key, body }),
    patch: <Res = MsePatchResponse>(visitId: string, body: unknown) =>
      call<Res>(base, `/v1/mse/${visitId}`, { method: "PATCH", key, body }),
    get: <Res = MseRecordResponse>(visitId: string, query = "") =>
      call<Res>(base, `/v1/mse/${visitId}${query}`, { key }),
    history: <Res = MseHistoryResponse>(visitId: string) =>
      call<Res>(base, `/v1/mse/${visitId}/history`, { key }),
    audit: <Res = MseAuditResponse>(visitId: string) => call<Res>(base, `/v1/mse/${visitId}/audit`, { key }),
    sign: <Res = MseSignResponse>(visitId: string, body: unknown) =>
      call<Res>(base, `/v1/mse/${visitId}/sign`, { method: "POST", key, body }),
    domains: <Res = MseCatalog>() => call<Res>(base, "/v1/mse/domains", { key }),
    safetyEvents: <Res = MseSafetyEventList>(query = "") =>
      call<Res>(base, `/v1/mse/safety_events${query}`, { key }),
  };
}

/**
 * One running service for the file and a fresh organization per test (its own key, rate limit
 * and safety event list). Read the fields inside tests: hooks fill them.
 */
export function serviceWithOrgPerTest(): { svc: TestService; key: string; api: ReturnType<typeof mse> } {
  const t = {} as { svc: TestService; key: string; api: ReturnType<typeof mse> };
  beforeAll(async () => {
    t.svc = await startTestService();
  });
  beforeEach(async () => {
    t.key = (await t.svc.seed.org()).key;
    t.api = mse(t.svc.url, t.key);
  });
  afterAll(async () => {
    await t.svc.close();
  });
  return t;
}
