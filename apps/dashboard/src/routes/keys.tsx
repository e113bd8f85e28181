/** @jsxRuntime automatic */
/** @jsxImportSource hono/jsx */
import {
  and,
  apiKeys,
  createApiKey,
  eq,
  listAccountKeys,
  revokeApiKey,
  rollApiKey,
  setPublishableOrigins,
} from "@svc/db";
import { z } from "zod";
import { KeysPage, SecretOncePage } from "../pages/keys.js";
import { type DashboardApp, type DashboardContext, formOf, lines } from "./context.js";

const CreateKeySchema = z.object({
  kind: z.enum(["secret_test", "secret_live", "publishable"]),
  origins: z.string().max(4000),
});
const OriginsSchema = z.object({ origins: z.string().max(4000) });
const BACK = "/dashboard/keys";

/** API keys: list, create (shown once), roll, revoke, publishable origins; the CLI's functions. */
export function registerKeys(app: DashboardApp, ctx: DashboardContext): void {
  const { db, options } = ctx;
  app.get("/keys", async (c) => {
    const viewer = c.get("viewer");
    const rows = await listAccountKeys(db, viewer.accountId);
    return c.html(<KeysPage viewer={viewer} rows={rows} notice={ctx.notice(c)} />);
  });
  app.post("/keys", async (c) => {
    const viewer = c.get("viewer");
    const parsed = CreateKeySchema.safeParse(await formOf(c));
    if (!parsed.success) return ctx.problem(c, 400, "Not changed", "Choose a key kind.", BACK);
    const origins = lines(parsed.data.origins);
    try {
      const created = await createApiKey(db, {
        kind: parsed.data.kind,
        accountId: viewer.accountId,
        origins: parsed.data.kind === "publishable" ? origins : undefined,
      });
      await ctx.audit(c, "key.created", created.id, { kind: created.kind, prefix: created.prefix, origins });
      return c.html(
        <SecretOncePage
          viewer={viewer}
          section="keys"
          title="Key created"
          label={`Your new ${created.kind} key.`}
          secret={created.key}
          back={BACK}
        />,
      );
    } catch (error) {
      return ctx.refusal(c, error, BACK);
    }
  });
  app.post("/keys/:id/revoke", async (c) => {
    const viewer = c.get("viewer");
    const [key] = await db
      .select({ id: apiKeys.id })
      .from(apiKeys)
      .where(and(eq(apiKeys.id, c.req.param("id")), eq(apiKeys.accountId, viewer.accountId)));
    if (!key) return ctx.problem(c, 404, "Not found", "There is no such key in this account.", BACK);
    await revokeApiKey(db, key.id);
    await options.onKeysChanged?.(key.id);
    await ctx.audit(c, "key.revoked", key.id);
    return c.redirect(`${BACK}?done=revoked`, 303);
  });
  app.post("/keys/:id/roll", async (c) => {
    const viewer = c.get("viewer");
    try {
      const rolled = await rollApiKey(db, { accountId: viewer.accountId, keyId: c.req.param("id") });
      await options.onKeysChanged?.(rolled.replaced);
      await ctx.audit(c, "key.rolled", rolled.replaced, {
        kind: rolled.kind,
        newKeyId: rolled.id,
        prefix: rolled.prefix,
      });
      return c.html(
        <SecretOncePage
          viewer={viewer}
          section="keys"
          title="Key rolled"
          label={`The new ${rolled.kind} key; the old one is revoked.`}
          secret={rolled.key}
          back={BACK}
        />,
      );
    } catch (error) {
      return ctx.refusal(c, error, BACK);
    }
  });
  app.post("/keys/:id/origins", async (c) => {
    const viewer = c.get("viewer");
    const parsed = OriginsSchema.safeParse(await formOf(c));
    if (!parsed.success) return ctx.problem(c, 400, "Not changed", "List the origins.", BACK);
    try {
      const updated = await setPublishableOrigins(db, {
        accountId: viewer.accountId,
        keyId: c.req.param("id"),
        origins: lines(parsed.data.origins),
      });
      await options.onKeysChanged?.(updated.id);
      await ctx.audit(c, "key.origins_changed", updated.id, { origins: updated.origins });
      return c.redirect(`${BACK}?done=origins`, 303);
    } catch (error) {
      return ctx.refusal(c, error, BACK);
    }
  });
}
