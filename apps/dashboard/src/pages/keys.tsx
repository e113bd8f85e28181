/** @jsxRuntime automatic */
/** @jsxImportSource hono/jsx */
import type { listAccountKeys } from "@svc/db";
import { ActionButton, Csrf, Notice, Page, type Viewer, when } from "./layout.js";

type KeyRow = Awaited<ReturnType<typeof listAccountKeys>>[number];

const MODE_KINDS = { test: ["secret_test", "publishable"], live: ["secret_live"] } as const;

function OriginsForm(props: { viewer: Viewer; row: KeyRow }) {
  const id = `origins-${props.row.id}`;
  return (
    <form method="post" action={`/dashboard/keys/${props.row.id}/origins`}>
      <Csrf viewer={props.viewer} />
      <label for={id}>
        Allowed origins of <code>{props.row.prefix}…</code> (one per line; * only as the port)
      </label>
      <textarea id={id} name="origins" rows={3}>
        {props.row.origins.join("\n")}
      </textarea>
      <button type="submit">Save origins</button>
    </form>
  );
}

function KeyTable(props: { viewer: Viewer; rows: KeyRow[]; caption: string }) {
  const canChange = props.viewer.role !== "viewer";
  return (
    <table>
      <caption>{props.caption}</caption>
      <thead>
        <tr>
          <th scope="col">Kind</th>
          <th scope="col">Prefix</th>
          <th scope="col">Created</th>
          <th scope="col">Status</th>
          <th scope="col">Origins</th>
          {canChange ? <th scope="col">Actions</th> : null}
        </tr>
      </thead>
      <tbody>
        {props.rows.map((row) => (
          <tr>
            <td>{row.kind}</td>
            <td>
              <code>{row.prefix}…</code>
            </td>
            <td>{when(row.createdAt)}</td>
            <td>{row.revokedAt ? `revoked ${when(row.revokedAt)}` : "active"}</td>
            <td class="origins">{row.origins.join(", ")}</td>
            {canChange ? (
              <td>
                {row.revokedAt ? null : (
                  <>
                    <ActionButton
                      viewer={props.viewer}
                      action={`/dashboard/keys/${row.id}/roll`}
                      label="Roll"
                      target={`${row.prefix}…`}
                    />{" "}
                    <ActionButton
                      viewer={props.viewer}
                      action={`/dashboard/keys/${row.id}/revoke`}
                      label="Revoke"
                      target={`${row.prefix}…`}
                    />
                  </>
                )}
              </td>
            ) : null}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function CreateKeyForm(props: { viewer: Viewer }) {
  return (
    <form method="post" action="/dashboard/keys">
      <h2>Create a key</h2>
      <Csrf viewer={props.viewer} />
      <label for="kind">Kind</label>
      <select id="kind" name="kind">
        <option value="secret_test">Secret test key (svc_sk_test_)</option>
        <option value="secret_live">Secret live key (svc_sk_live_)</option>
        <option value="publishable">Publishable key (svc_pk_, browser)</option>
      </select>
      <label for="new-origins">Origins for a publishable key (one per line)</label>
      <textarea id="new-origins" name="origins" rows={2}></textarea>
      <p>
        <button type="submit">Create key</button>
      </p>
    </form>
  );
}

export function KeysPage(props: { viewer: Viewer; rows: KeyRow[]; notice?: string }) {
  const ofMode = (mode: keyof typeof MODE_KINDS) =>
    props.rows.filter((r) => (MODE_KINDS[mode] as readonly string[]).includes(r.kind));
  return (
    <Page title="API keys" viewer={props.viewer} section="keys">
      <Notice text={props.notice} />
      <div class="modes stacked">
        <section aria-labelledby="test-keys">
          <h2 id="test-keys">Test mode</h2>
          <KeyTable viewer={props.viewer} rows={ofMode("test")} caption="Test and publishable keys" />
        </section>
        <section aria-labelledby="live-keys">
          <h2 id="live-keys">Live mode</h2>
          <KeyTable viewer={props.viewer} rows={ofMode("live")} caption="Live keys" />
        </section>
      </div>
      {props.viewer.role !== "viewer" ? (
        <>
          <h2>Publishable key origins</h2>
          {props.rows
            .filter((r) => r.kind === "publishable" && !r.revokedAt)
            .map((row) => (
              <OriginsForm viewer={props.viewer} row={row} />
            ))}
          <CreateKeyForm viewer={props.viewer} />
        </>
      ) : null}
    </Page>
  );
}

/** The one time a secret is shown: a new key or a webhook signing secret. */
export function SecretOncePage(props: {
  viewer: Viewer;
  section: "keys" | "webhooks" | "users";
  title: string;
  label: string;
  secret: string;
  back: string;
}) {
  return (
    <Page title={props.title} viewer={props.viewer} section={props.section}>
      <p>{props.label} It is shown this once; copy it now.</p>
      <code class="secret" data-testid="secret">
        {props.secret}
      </code>
      <p>
        <a href={props.back}>Done</a>
      </p>
    </Page>
  );
}
