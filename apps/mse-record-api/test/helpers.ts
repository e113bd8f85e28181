import { call } from "@svc/testkit";

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

export function mse(base: string, key: string) {
  return {
    write: (visitId: string, body: unknown) =>
      call(base, `/v1/mse/${visitId}`, { method: "POST", key, body }),
    patch: (visitId: string, body: unknown) =>
      call(base, `/v1/mse/${visitId}`, { method: "PATCH", key, body }),
    get: (visitId: string, query = "") => call(base, `/v1/mse/${visitId}${query}`, { key }),
    history: (visitId: string) => call(base, `/v1/mse/${visitId}/history`, { key }),
    audit: (visitId: string) => call(base, `/v1/mse/${visitId}/audit`, { key }),
    sign: (visitId: string, body: unknown) =>
      call(base, `/v1/mse/${visitId}/sign`, { method: "POST", key, body }),
    domains: () => call(base, "/v1/mse/domains", { key }),
    safetyEvents: (query = "") => call(base, `/v1/mse/safety_events${query}`, { key }),
  };
}
