import {
  createAccount,
  createApiKey,
  createOrganization,
  PLAN_IDS,
  type PlanId,
  revokeApiKey,
} from "@svc/db";
import { KEYS_CHANGED_CHANNEL } from "@svc/http";
import { Refusal } from "@svc/refusal";
import { announce } from "../announce.js";
import { type CommandTable, integer, list, text } from "../command.js";

/** Accounts, organizations, keys, and the migration step of a deployment. */
export const coreCommands: CommandTable = {
  // Every command migrates before it runs; this one does only that (the deploy's one-shot job).
  migrate: async () => ({ migrated: true }),
  "accounts create": async (args, { db }) => {
    const plan = (text(args, "plan", false) ?? "sandbox") as PlanId;
    if (!PLAN_IDS.includes(plan))
      throw new Refusal("invalid_request", `Unknown plan "${plan}"; valid plans: ${PLAN_IDS.join(", ")}.`);
    return createAccount(db, {
      name: text(args, "name") as string,
      plan,
      production: args.flags.get("production") === true,
      ratePerSecond: integer(args, "rate"),
      burst: integer(args, "burst"),
    });
  },
  "orgs create": async (args, { db }) => createOrganization(db, { name: text(args, "name") as string }),
  "keys create": async (args, { db }) => ({
    ...(await createApiKey(db, {
      kind: text(args, "kind") as string,
      accountId: text(args, "account", false),
      orgId: text(args, "org", false),
      scopes: list(args, "scopes"),
      origins: list(args, "origins"),
    })),
  }),
  "keys revoke": async (args, { db }) => {
    const result = await revokeApiKey(db, text(args, "id") as string);
    // Replicas caching key lookups drop them on this message; without Redis they cache nothing.
    await announce(KEYS_CHANGED_CHANNEL, result.id);
    return result;
  },
};

export const coreUsage = [
  "migrate   (apply the database migrations and exit; safe with many starters at once)",
  "accounts create --name NAME [--plan sandbox|launch|scale|enterprise] [--production] [--rate N --burst N]",
  "orgs create --name NAME",
  "keys create --account ID --kind secret_test|secret_live|publishable [--origins a,b]",
  "keys create --org ID --kind organization --scopes mse:read,mse:write,mse:sign",
  "keys revoke --id KEY_ID",
];
