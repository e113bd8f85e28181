import { createAccount, createApiKey, type Db } from "@svc/db";

/**
 * A test key on an enterprise account whose per-second limit never binds, so a bench measures the
 * service rather than the rate limiter's refusals.
 */
export async function unlimitedBenchCaller(
  db: Db,
  name: string,
): Promise<{ accountId: string; key: string }> {
  const account = await createAccount(db, {
    name,
    plan: "enterprise",
    ratePerSecond: 1_000_000,
    burst: 1_000_000,
  });
  const { key } = await createApiKey(db, { kind: "secret_test", accountId: account.id });
  return { accountId: account.id, key };
}
