/** @jsxRuntime automatic */
/** @jsxImportSource hono/jsx */
import type { Child } from "hono/jsx";

export interface Viewer {
  email: string;
  role: "owner" | "developer" | "viewer";
  accountId: string;
  csrf: string;
}

const NAV = [
  ["keys", "API keys"],
  ["webhooks", "Webhooks"],
  ["events", "Events"],
  ["labs", "Lab orders"],
  ["wearables", "Wearables"],
  ["audit", "Audit log"],
  ["users", "Users"],
] as const;

export type Section = (typeof NAV)[number][0];

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
                {NAV.map(([section, label]) => (
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
          {props.viewer ? (
            <form method="post" action="/dashboard/sign-out" class="who">
              <span>
                {props.viewer.email} ({props.viewer.role}, account {props.viewer.accountId})
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

export function when(date: Date | null | undefined): string {
  return date ? date.toISOString().replace("T", " ").slice(0, 19) : "";
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
