import type { KeyOwner } from "@svc/db";

/**
 * Where a dashboard user works: an account (the intelligence API: keys, webhooks, events, labs,
 * wearables) or an organization (the MSE Record API: organization keys with scopes, the safety
 * webhook, MSE safety events). Stored as exactly one of `account_id` and `org_id`.
 */
export type Workspace = KeyOwner;

export function isOrganization(workspace: Workspace): workspace is { orgId: string } {
  return "orgId" in workspace;
}

/** "account acct_…" or "organization org_…", for pages. */
export function workspaceLabel(workspace: Workspace): string {
  return isOrganization(workspace) ? `organization ${workspace.orgId}` : `account ${workspace.accountId}`;
}

/** The row columns of a workspace (one of the two is null). */
export function workspaceColumns(workspace: Workspace): { accountId: string | null; orgId: string | null } {
  return isOrganization(workspace)
    ? { accountId: null, orgId: workspace.orgId }
    : { accountId: workspace.accountId, orgId: null };
}

/** The workspace stored in a row's two columns. */
export function workspaceOf(row: { accountId: string | null; orgId: string | null }): Workspace {
  if (row.orgId) return { orgId: row.orgId };
  if (row.accountId) return { accountId: row.accountId };
  throw new Error("A dashboard row has neither an account nor an organization.");
}

/**
 * The workspace's id, as `dashboard_members.workspace_id` stores it: account and organization ids
 * have different prefixes, so one text column names either.
 */
export function workspaceIdOf(workspace: Workspace): string {
  return isOrganization(workspace) ? workspace.orgId : workspace.accountId;
}

/**
 * The account of an account workspace. Account-only pages are refused to organization users by
 * the session guard before their handlers run, so reaching this with an organization is a bug.
 */
export function accountOf(workspace: Workspace): string {
  if (isOrganization(workspace)) throw new Error("An account page was reached from an organization.");
  return workspace.accountId;
}
