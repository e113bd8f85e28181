/**
 * What the baseline server does per route: validate the same request schema with zod and answer
 * a JSON body of similar size. No auth, no rate limit, no engine, no framework.
 */
export type BaselineHandler = (body: unknown) => { status: number; body: unknown };

const pingAnswer = {
  ok: true,
  data: {
    object: "ping",
    mode: "test",
    keyKind: "secret_test",
    plan: "enterprise",
    accountId: "acct_01m82vw5hceda1390xcsbxatm7",
    time: new Date(0).toISOString(),
  },
};

export const baselineHandlers: Record<string, BaselineHandler> = {
  "GET /v1/ping": () => ({ status: 200, body: pingAnswer }),
};
