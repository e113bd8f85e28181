import { ApiError, type AppEnv } from "@svc/http";
import type { Context } from "hono";

/** The account and mode a key acts in: every lab order, wearable and event query is bounded by both. */
export interface Scope {
  accountId: string;
  mode: "test" | "live";
}

/** The calling key's scope (these routes accept account secret keys only, so there is an account). */
export function scopeOf(c: Context<AppEnv>): Scope {
  const auth = c.get("auth");
  return { accountId: auth.accountId as string, mode: auth.mode };
}

/** Test helpers and sandbox-only routes act on test-mode data only: a live key is 403 `forbidden`. */
export function requireTestMode(c: Context<AppEnv>): void {
  if (c.get("auth").mode !== "test") {
    throw new ApiError("forbidden", "Test helpers accept test keys only (svc_sk_test_...).");
  }
}
