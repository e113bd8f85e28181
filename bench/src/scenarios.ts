/** The requests the bench sends. Each needs a matching baseline handler in baseline.ts. */
export interface Scenario {
  name: string;
  method: "GET" | "POST";
  path: string;
  body?: unknown;
}

export const scenarios: Scenario[] = [{ name: "ping", method: "GET", path: "/v1/ping" }];
