/** @jsxRuntime automatic */
/** @jsxImportSource hono/jsx */
import {
  and,
  apiKeys,
  createApiKey,
  eq,
  keyOwnerMatch,
  listKeys,
  MAX_ROLL_GRACE_HOURS,
  MSE_SCOPES,
  revokeApiKey,
  rollApiKey,
  setPublishableOrigins,
} from "@svc/db";
import { accountOf, isOrganization } from "@svc/records";
import { z } from "zod";
import { KeysPage, RevokeConfirmPage, SecretOncePage } from "../pages/keys.js";
import { when } from "../pages/layout.js";
import { type DashboardApp, type DashboardContext, formOf, lines } from "./context.js";
import type { Page } from "./page.js";

const CreateKeySchema = z.object({
  kind: z.enum(["secret_test", "secret_live", "publishable", "organization"]),
  origins: z.string().max(4000).default(""),
});
/** Checkbox fields `scope_mse_read`... of the organization key form. */
const scopesOf = (form: Record<string, string>) =>
  MSE_SCOPES.filter((s) => form[`scope_${s.replace(":", "_")}`]);
const RollSchema = z.object({
  graceHours: z.coerce.number().int().min(0).max(MAX_ROLL_GRACE_HOURS).default(0),
});
const OriginsSchema = z.object({ origins: z.string().max(4000) });
const BACK = "/dashboard/keys";

async function listKeysPage(c: Page<"/keys">, ctx: DashboardContext) {
  const { db } = ctx;
  const viewer = c.get("viewer");
  const rows = await listKeys(db, viewer.workspace);
  return c.html(<KeysPage viewer={viewer} rows={rows} notice={ctx.notice(c)} />);
}

async function createKey(c: Page<"/keys">, ctx: DashboardContext) {
  const { db } = ctx;
  const viewer = c.get("viewer");
  const form = await formOf(c);
  const parsed = CreateKeySchema.safeParse(form);
  if (!parsed.success) return ctx.problem(c, 400, "Not changed", "Choose a key kind.", BACK);
  const origins = lines(parsed.data.origins);
  // The kind must fit the workspace: createApiKey refuses an organization key without an
  // organization, and an account key without an account.
  const orgKey = parsed.data.kind === "organization";
  if (orgKey !== isOrganization(viewer.workspace))
    return ctx.problem(c, 400, "Not changed", "That kind of key does not belong here.", BACK);
  try {
    const created = await createApiKey(db, {
      kind: parsed.data.kind,
      ...viewer.workspace,
      origins: parsed.data.kind === "publishable" ? origins : undefined,
      scopes: orgKey ? scopesOf(form) : undefined,
    });
    await ctx.audit(c, "key.created", created.id, {
      kind: created.kind,
      prefix: created.prefix,
      ...(orgKey ? { scopes: created.scopes } : { origins }),
    });
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
}

/** The confirmation step: Revoke on the list opens this page, whose form posts the change. */
async function confirmRevoke(c: Page<"/keys/:id/revoke">, ctx: DashboardContext) {
  const { db } = ctx;
  const viewer = c.get("viewer");
  if (viewer.role === "viewer")
    return ctx.problem(c, 403, "Refused", "Viewers can look but not change anything.", BACK);
  const now = new Date();
  const row = (await listKeys(db, viewer.workspace)).find((k) => k.id === c.req.param("id"));
  if (!row || (row.revokedAt && row.revokedAt <= now))
    return ctx.problem(c, 404, "Not found", "There is no such key here, or it is revoked already.", BACK);
  return c.html(<RevokeConfirmPage viewer={viewer} row={row} now={now} />);
}

async function revokeKey(c: Page<"/keys/:id/revoke">, ctx: DashboardContext) {
  const { db, options } = ctx;
  const viewer = c.get("viewer");
  const [key] = await db
    .select({ id: apiKeys.id })
    .from(apiKeys)
    .where(and(eq(apiKeys.id, c.req.param("id")), keyOwnerMatch(viewer.workspace)));
  if (!key) return ctx.problem(c, 404, "Not found", "There is no such key here.", BACK);
  await revokeApiKey(db, key.id);
  await options.onKeysChanged?.(key.id);
  await ctx.audit(c, "key.revoked", key.id);
  return c.redirect(`${BACK}?done=revoked`, 303);
}

async function rollKey(c: Page<"/keys/:id/roll">, ctx: DashboardContext) {
  const { db, options } = ctx;
  const viewer = c.get("viewer");
  const parsed = RollSchema.safeParse(await formOf(c));
  if (!parsed.success)
    return ctx.problem(
      c,
      400,
      "Not changed",
      `Choose a grace period of 0 to ${MAX_ROLL_GRACE_HOURS} hours.`,
      BACK,
    );
  const { graceHours } = parsed.data;
  try {
    const rolled = await rollApiKey(db, { owner: viewer.workspace, keyId: c.req.param("id"), graceHours });
    await options.onKeysChanged?.(rolled.replaced);
    await ctx.audit(c, "key.rolled", rolled.replaced, {
      kind: rolled.kind,
      newKeyId: rolled.id,
      prefix: rolled.prefix,
      graceHours,
    });
    return c.html(
      <SecretOncePage
        viewer={viewer}
        section="keys"
        title="Key rolled"
        label={
          graceHours === 0
            ? `The new ${rolled.kind} key; the old one is revoked.`
            : `The new ${rolled.kind} key; the old one keeps working until ${when(rolled.oldStopsAt)} (${graceHours} h).`
        }
        secret={rolled.key}
        back={BACK}
        // A key rolled because it leaked: its grace period can be ended at once.
        revokeOld={graceHours === 0 ? undefined : `${BACK}/${rolled.replaced}/revoke`}
      />,
    );
  } catch (error) {
    return ctx.refusal(c, error, BACK);
  }
}

async function setOrigins(c: Page<"/keys/:id/origins">, ctx: DashboardContext) {
  const { db, options } = ctx;
  const viewer = c.get("viewer");
  if (isOrganization(viewer.workspace))
    return ctx.problem(c, 404, "Not found", "There is no such key here.", BACK);
  const parsed = OriginsSchema.safeParse(await formOf(c));
  if (!parsed.success) return ctx.problem(c, 400, "Not changed", "List the origins.", BACK);
  try {
    const updated = await setPublishableOrigins(db, {
      accountId: accountOf(viewer.workspace),
      keyId: c.req.param("id"),
      origins: lines(parsed.data.origins),
    });
    await options.onKeysChanged?.(updated.id);
    await ctx.audit(c, "key.origins_changed", updated.id, { origins: updated.origins });
    return c.redirect(`${BACK}?done=origins`, 303);
  } catch (error) {
    return ctx.refusal(c, error, BACK);
  }
}

/**
 * API keys of the workspace: list (with last use), create (shown once), roll (with an optional
 * grace period), revoke, publishable origins; the CLI's functions. Organizations create
 * organization keys with scopes; accounts the other kinds.
 */
export function registerKeys(app: DashboardApp, ctx: DashboardContext): void {
  app.get("/keys", (c) => listKeysPage(c, ctx));
  app.post("/keys", (c) => createKey(c, ctx));
  app.get("/keys/:id/revoke", (c) => confirmRevoke(c, ctx));
  app.post("/keys/:id/revoke", (c) => revokeKey(c, ctx));
  app.post("/keys/:id/roll", (c) => rollKey(c, ctx));
  app.post("/keys/:id/origins", (c) => setOrigins(c, ctx));
}
