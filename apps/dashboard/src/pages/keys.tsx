/** @jsxRuntime automatic */
/** @jsxImportSource hono/jsx */
import { type listKeys, MAX_ROLL_GRACE_HOURS, MSE_SCOPES } from "@svc/db";
import { isOrganization } from "../workspace.js";
import { ActionButton, Csrf, ModeSections, Notice, Page, type Viewer, when } from "./layout.js";

type KeyRow = Awaited<ReturnType<typeof listKeys>>[number];

const MODE_KINDS = { test: ["secret_test", "publishable"], live: ["secret_live"] } as const;
/** Grace periods offered when rolling: at once, a day, a week (the longest allowed). */
const GRACE_CHOICES = [0, 24, MAX_ROLL_GRACE_HOURS] as const;

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

/** "active", "revoked <when>", or "works until <when>" for a rolled key in its grace period. */
function keyStatus(row: KeyRow, now: Date): string {
  if (!row.revokedAt) return "active";
  return row.revokedAt > now
    ? `rolled; works until ${when(row.revokedAt)}`
    : `revoked ${when(row.revokedAt)}`;
}

function RollForm(props: { viewer: Viewer; row: KeyRow }) {
  const id = `grace-${props.row.id}`;
  return (
    <form method="post" action={`/dashboard/keys/${props.row.id}/roll`} class="inline">
      <Csrf viewer={props.viewer} />
      <label for={id} class="sr-only">
        Old key of {props.row.prefix}… keeps working for
      </label>
      <select id={id} name="graceHours">
        {GRACE_CHOICES.map((hours) => (
          <option value={String(hours)}>
            {hours === 0 ? "old key stops now" : `old key works ${hours} h`}
          </option>
        ))}
      </select>{" "}
      <button type="submit">
        Roll<span class="sr-only"> {props.row.prefix}…</span>
      </button>
    </form>
  );
}

function KeyTable(props: { viewer: Viewer; rows: KeyRow[]; caption: string; now: Date }) {
  const canChange = props.viewer.role !== "viewer";
  const org = isOrganization(props.viewer.workspace);
  return (
    <table>
      <caption>{props.caption}</caption>
      <thead>
        <tr>
          <th scope="col">Kind</th>
          <th scope="col">Prefix</th>
          <th scope="col">Created</th>
          <th scope="col">Last used</th>
          <th scope="col">Status</th>
          <th scope="col">{org ? "Scopes" : "Origins"}</th>
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
            <td>{row.lastUsedAt ? when(row.lastUsedAt) : "never"}</td>
            <td>{keyStatus(row, props.now)}</td>
            <td class="origins">{(org ? row.scopes : row.origins).join(", ")}</td>
            {canChange ? (
              <td>
                {row.revokedAt ? null : (
                  <>
                    <RollForm viewer={props.viewer} row={row} />{" "}
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

function CreateAccountKeyForm(props: { viewer: Viewer }) {
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

function CreateOrganizationKeyForm(props: { viewer: Viewer }) {
  return (
    <form method="post" action="/dashboard/keys">
      <h2>Create an organization key</h2>
      <Csrf viewer={props.viewer} />
      <input type="hidden" name="kind" value="organization" />
      <fieldset>
        <legend>Scopes (the MSE Record API operations the key may call)</legend>
        {MSE_SCOPES.map((scope) => {
          const id = `scope_${scope.replace(":", "_")}`;
          return (
            <label for={id} class="check">
              <input type="checkbox" id={id} name={id} value="on" /> {scope}
            </label>
          );
        })}
      </fieldset>
      <p>
        <button type="submit">Create key</button>
      </p>
    </form>
  );
}

export function KeysPage(props: { viewer: Viewer; rows: KeyRow[]; notice?: string }) {
  const now = new Date();
  const canChange = props.viewer.role !== "viewer";
  if (isOrganization(props.viewer.workspace)) {
    return (
      <Page title="API keys" viewer={props.viewer} section="keys">
        <Notice text={props.notice} />
        <KeyTable
          viewer={props.viewer}
          rows={props.rows}
          caption="Organization keys (MSE Record API)"
          now={now}
        />
        {canChange ? <CreateOrganizationKeyForm viewer={props.viewer} /> : null}
      </Page>
    );
  }
  const ofMode = (mode: keyof typeof MODE_KINDS) =>
    props.rows.filter((r) => (MODE_KINDS[mode] as readonly string[]).includes(r.kind));
  return (
    <Page title="API keys" viewer={props.viewer} section="keys">
      <Notice text={props.notice} />
      <ModeSections
        idPrefix="keys"
        render={(mode) => (
          <KeyTable
            viewer={props.viewer}
            rows={ofMode(mode)}
            caption={mode === "test" ? "Test and publishable keys" : "Live keys"}
            now={now}
          />
        )}
      />
      {canChange ? (
        <>
          <h2>Publishable key origins</h2>
          {props.rows
            .filter((r) => r.kind === "publishable" && !r.revokedAt)
            .map((row) => (
              <OriginsForm viewer={props.viewer} row={row} />
            ))}
          <CreateAccountKeyForm viewer={props.viewer} />
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
