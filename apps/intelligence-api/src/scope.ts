import { ApiError, type AppEnv } from "@svc/http";
import type { Scope } from "@svc/records";
import type { Context } from "hono";

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
