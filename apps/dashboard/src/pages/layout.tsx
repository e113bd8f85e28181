/** @jsxRuntime automatic */
/** @jsxImportSource hono/jsx */

import { isOrganization, type Workspace, workspaceLabel } from "@svc/records";
import type { Child } from "hono/jsx";
import { WorkspaceSwitcher } from "./workspaces.js";

export interface Viewer {
  email: string;
  role: "owner" | "developer" | "viewer";
  workspace: Workspace;
  /** Whether the user signs in with a second factor (TOTP). */
  twoFactorEnabled: boolean;
  csrf: string;
  /** Every workspace the user works in (the switcher shows when there is more than one). */
  workspaces?: WorkspaceChoice[];
}

/** A workspace the signed-in user may switch to. */
export interface WorkspaceChoice {
  id: string;
  name: string;
  role: "owner" | "developer" | "viewer";
  organization: boolean;
}

/** Each section, its label, and which workspaces have it. */
const NAV = [
  ["keys", "API keys", "both"],
  ["webhooks", "Webhooks", "both"],
  ["events", "Events", "account"],
  ["safety-events", "Safety events", "organization"],
  ["labs", "Lab orders", "account"],
  ["wearables", "Wearables", "account"],
  ["cds-clients", "CDS Hooks", "account"],
  ["usage", "Usage", "both"],
  ["audit", "Audit log", "both"],
  ["users", "Users", "both"],
  ["security", "Security", "both"],
] as const;

export type Section = (typeof NAV)[number][0];

/** The sections a workspace has, as `[section, label]`. */
export function sectionsOf(workspace: Workspace): ReadonlyArray<readonly [Section, string]> {
  const kind = isOrganization(workspace) ? "organization" : "account";
  return NAV.filter(([, , only]) => only === "both" || only === kind).map(
    ([s, label]) => [s, label] as const,
  );
}

/** Sections only one kind of workspace has: the other kind gets 404 there. */
export function sectionBelongsElsewhere(workspace: Workspace, section: string): boolean {
  const entry = NAV.find(([s]) => s === section);
  if (!entry || entry[2] === "both") return false;
  return entry[2] !== (isOrganization(workspace) ? "organization" : "account");
}

/** Every signed-in page: skip link, navigation, the user and sign-out, then the page. */
export function Page(props: { title: string; viewer?: Viewer; section?: Section; children?: Child }) {
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{`${props.title} · Clinical Intelligence Service dashboard`}</title>
        <link rel="stylesheet" href="/dashboard/static/dashboard.css" />
      </head>
      <body>
        <a class="skip" href="#main">
          Skip to content
        </a>
        <header>
          <p class="brand">Clinical Intelligence Service</p>
          {props.viewer ? (
            <nav aria-label="Dashboard">
              <ul>
                {sectionsOf(props.viewer.workspace).map(([section, label]) => (
                  <li>
                    <a
                      href={`/dashboard/${section}`}
                      aria-current={props.section === section ? "page" : undefined}
                    >
                      {label}
                    </a>
                  </li>
                ))}
              </ul>
            </nav>
          ) : null}
          {props.viewer ? <WorkspaceSwitcher viewer={props.viewer} /> : null}
          {props.viewer ? (
            <form method="post" action="/dashboard/sign-out" class="who">
              <span>
                {props.viewer.email} ({props.viewer.role}, {workspaceLabel(props.viewer.workspace)})
              </span>
              <input type="hidden" name="_csrf" value={props.viewer.csrf} />
              <button type="submit">Sign out</button>
            </form>
          ) : null}
        </header>
        <main id="main">
          <h1>{props.title}</h1>
          {props.children}
        </main>
      </body>
    </html>
  );
}

/** The hidden CSRF field every state-changing form carries. */
export function Csrf(props: { viewer: Viewer }) {
  return <input type="hidden" name="_csrf" value={props.viewer.csrf} />;
}

/**
 * A one-line form that posts to `action` (revoke, redeliver, disable...); `target` names what it
 * acts on for screen readers when the row around it is not enough.
 */
export function ActionButton(props: { viewer: Viewer; action: string; label: string; target?: string }) {
  return (
    <form method="post" action={props.action} class="inline">
      <Csrf viewer={props.viewer} />
      <button type="submit">
        {props.label}
        {props.target ? <span class="sr-only"> {props.target}</span> : null}
      </button>
    </form>
  );
}

export function Notice(props: { text?: string | undefined }) {
  return props.text ? (
    <p class="notice" role="status">
      {props.text}
    </p>
  ) : null;
}

export function Problem(props: { text: string }) {
  return (
    <p class="problem" role="alert">
      {props.text}
    </p>
  );
}

/**
 * Every time the dashboard shows, in one format: "2026-11-26 16:35:04 UTC" (to the second, in UTC,
 * the zone of the usage days and the API's timestamps; the same on every page and for every user).
 */
export function when(date: Date | null | undefined): string {
  return date ? `${date.toISOString().replace("T", " ").slice(0, 19)} UTC` : "";
}

/** The one row of an empty table: what is missing and, where there is one, the next step. */
export function EmptyRow(props: { columns: number; children: Child }) {
  return (
    <tr>
      <td colspan={props.columns} class="empty">
        {props.children}
      </td>
    </tr>
  );
}

/**
 * A listing: its caption, the column headings (a null heading is left out), the row saying `empty`
 * when there is nothing to list, then the rows.
 */
export function ListTable(props: {
  caption: Child;
  columns: readonly (string | null)[];
  empty: Child;
  isEmpty: boolean;
  class?: string;
  children: Child;
}) {
  const columns = props.columns.filter((column) => column !== null);
  return (
    <table class={props.class}>
      <caption>{props.caption}</caption>
      <thead>
        <tr>
          {columns.map((column) => (
            <th scope="col">{column}</th>
          ))}
        </tr>
      </thead>
      <tbody>
        {props.isEmpty ? <EmptyRow columns={columns.length}>{props.empty}</EmptyRow> : null}
        {props.children}
      </tbody>
    </table>
  );
}

/** Test mode above live mode, each under its own heading: `render` draws one mode's content. */
export function ModeSections(props: { idPrefix: string; render: (mode: "test" | "live") => Child }) {
  return (
    <div class="modes stacked">
      {(["test", "live"] as const).map((mode) => (
        <section aria-labelledby={`${mode}-${props.idPrefix}`}>
          <h2 id={`${mode}-${props.idPrefix}`}>{mode === "test" ? "Test mode" : "Live mode"}</h2>
          {props.render(mode)}
        </section>
      ))}
    </div>
  );
}

/**
 * A page of one list per mode (lab orders, wearable connections): the notice, an introduction,
 * then test mode above live mode, each drawn by `table`.
 */
export function BothModesPage<Row>(props: {
  title: string;
  section: Section;
  viewer: Viewer;
  notice?: string | undefined;
  intro: Child;
  rows: { test: Row[]; live: Row[] };
  table: (rows: Row[], mode: "test" | "live") => Child;
}) {
  return (
    <Page title={props.title} viewer={props.viewer} section={props.section}>
      <Notice text={props.notice} />
      <p>{props.intro}</p>
      <ModeSections idPrefix={props.section} render={(mode) => props.table(props.rows[mode], mode)} />
    </Page>
  );
}
