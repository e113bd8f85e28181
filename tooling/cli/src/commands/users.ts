import { DASHBOARD_ROLES, type DashboardRole } from "@svc/db";
import { parseEnv, publicBaseUrl } from "@svc/http/runtime";
import { createInvite } from "@svc/records";
import { Refusal } from "@svc/refusal";
import { type CommandTable, text } from "../command.js";

/** Dashboard users (decision 57): a one-time set-password link for a user of an account or organization. */
export const userCommands: CommandTable = {
  "users invite": async (args, { db }) => {
    const role = text(args, "role") as string;
    if (!(DASHBOARD_ROLES as readonly string[]).includes(role))
      throw new Refusal(
        "invalid_request",
        `Unknown role "${role}"; valid roles: ${DASHBOARD_ROLES.join(", ")}.`,
      );
    const accountId = text(args, "account", false);
    const orgId = text(args, "org", false);
    if (Boolean(accountId) === Boolean(orgId))
      throw new Refusal("invalid_request", "Give --account ID or --org ID (one of them).");
    const invite = await createInvite(
      db,
      {
        workspace: orgId ? { orgId } : { accountId: accountId as string },
        email: text(args, "email") as string,
        role: role as DashboardRole,
      },
      publicBaseUrl(parseEnv()),
    );
    return { ...invite, expiresAt: invite.expiresAt.toISOString() };
  },
};

export const userUsage = [
  "users invite --account ID|--org ID --email E --role owner|developer|viewer   (prints a one-time set-password link)",
];
