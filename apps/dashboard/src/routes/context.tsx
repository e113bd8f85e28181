/** @jsxRuntime automatic */
/** @jsxImportSource hono/jsx */
import type { Db } from "@svc/db";
import type { AppDeps } from "@svc/http";
import { recordAudit } from "@svc/records";
import { Refusal } from "@svc/refusal";
import type { Context, Hono } from "hono";
import { createDashboardAuth, type DashboardAuth, loadAuthSecret } from "../auth.js";
import type { Viewer } from "../pages/layout.js";
import { ProblemPage } from "../pages/sign-in.js";

export interface DashboardOptions {
  /** A key was revoked or its origins changed: drop cached key lookups here and on replicas. */
  onKeysChanged?: (keyId: string) => Promise<void> | void;
}

export type SignedIn = Viewer & { userId: string; sessionId: string };
export interface Env {
  Variables: { viewer: SignedIn };
}
export type DashboardApp = Hono<Env>;
export type ProblemStatus = 400 | 403 | 404 | 410 | 413 | 429;

/** What every route module shares: the database, the auth instance, and the refusal pages. */
export interface DashboardContext {
  db: Db;
  deps: AppDeps;
  options: DashboardOptions;
  /** better-auth and the secret, made on first use (the secret is read from the database). */
  init(): Promise<{ auth: DashboardAuth; secret: string }>;
  problem(
    c: Context,
    status: ProblemStatus,
    title: string,
    text: string,
    back?: string,
  ): Response | Promise<Response>;
  /**
   * The one place a `Refusal` becomes a page (decision 206): not found 404 (saying `notFound`),
   * any other code 400 with its message; anything else is rethrown.
   */
  refusal(c: Context, error: unknown, back: string, notFound?: string): Response | Promise<Response>;
  /** An audit row for the signed-in user's change. */
  audit(c: Context<Env>, action: string, targetId: string, detail?: Record<string, unknown>): Promise<void>;
  /** The confirmation a redirect's `?done=` names, if any. */
  notice(c: Context): string | undefined;
}

const NOTICES: Record<string, string> = {
  revoked: "Key revoked: the API refuses it from now on.",
  origins: "Origins saved.",
  test: "Test event queued for delivery.",
  redelivered: "Delivery queued again.",
  disabled: "Endpoint disabled.",
  enabled: "Endpoint enabled.",
  moved: "Order moved; its events and webhooks are on their way.",
  connected: "Connection completed; its event and webhooks are on their way.",
  synced: "Connection synced; its daily metrics and event are stored.",
  role: "Role changed.",
  removed: "User removed from this workspace; their sessions here ended.",
  switched: "Switched workspace.",
  cds_revoked: "CDS client revoked: its next call is refused.",
  cds_added:
    "CDS client registered: its EHR can call this account's CDS Hooks base URL (below) with JWTs signed by these keys.",
  two_factor_on: "Two-factor sign-in is on: sign-in asks for a code from now on.",
  two_factor_off: "Two-factor sign-in is off.",
};

export function createContext(deps: AppDeps, options: DashboardOptions): DashboardContext {
  const { db } = deps;
  let ready: Promise<{ auth: DashboardAuth; secret: string }> | undefined;
  const problem: DashboardContext["problem"] = (c, status, title, text, back) => {
    c.status(status);
    // Signed in (the session guard has set the viewer): the page keeps the menu and Sign out.
    const viewer = (c as Context<Env>).get("viewer") as SignedIn | undefined;
    return c.html(<ProblemPage title={title} text={text} back={back} viewer={viewer} />);
  };
  return {
    db,
    deps,
    options,
    init() {
      ready ??= loadAuthSecret(db).then(async (secret) => ({
        secret,
        auth: await createDashboardAuth({
          db,
          secret,
          publicBaseUrl: deps.publicBaseUrl,
          logger: deps.logger,
        }),
      }));
      return ready;
    },
    problem,
    refusal(c, error, back, notFound = "There is no such resource here.") {
      if (error instanceof Refusal)
        return error.code === "not_found"
          ? problem(c, 404, "Not found", notFound, back)
          : problem(c, 400, "Not changed", error.message, back);
      throw error;
    },
    audit(c, action, targetId, detail = {}) {
      const viewer = c.get("viewer");
      return recordAudit(db, {
        workspace: viewer.workspace,
        userId: viewer.userId,
        actorEmail: viewer.email,
        action,
        targetId,
        detail,
      });
    },
    notice: (c) => NOTICES[c.req.query("done") ?? ""],
  };
}

/** The string fields of a posted form. */
export async function formOf(c: Context): Promise<Record<string, string>> {
  const body = await c.req.parseBody();
  return Object.fromEntries(Object.entries(body).filter(([, v]) => typeof v === "string")) as Record<
    string,
    string
  >;
}

/** A list typed one per line (or separated by commas or spaces). */
export function lines(text: string): string[] {
  return text
    .split(/[\s,]+/)
    .map((s) => s.trim())
    .filter(Boolean);
}

/** One list per mode for the signed-in account, fetched side by side. */
export async function bothModes<T>(
  load: (scope: { accountId: string; mode: "test" | "live" }) => Promise<T>,
  accountId: string,
): Promise<{ test: T; live: T }> {
  const [test, live] = await Promise.all([
    load({ accountId, mode: "test" }),
    load({ accountId, mode: "live" }),
  ]);
  return { test, live };
}
