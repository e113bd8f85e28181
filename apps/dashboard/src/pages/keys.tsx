/** @jsxRuntime automatic */
/** @jsxImportSource hono/jsx */
import { type listKeys, MAX_ROLL_GRACE_HOURS, MSE_SCOPES } from "@svc/db";
import { isOrganization } from "@svc/records";
import { Csrf, EmptyRow, ModeSections, Notice, Page, type Viewer, when } from "./layout.js";

type KeyRow = Awaited<ReturnType<typeof listKeys>>[number];

const MODE_KINDS = { test: ["secret_test", "publishable"], live: ["secret_live"] } as const;
/**
 * Grace periods offered when rolling: at once, a day, a week (the longest allowed). The form
 * preselects a day (decision 92): a planned rotation then causes no outage, and a leaked key is
 * stopped at once with Revoke, which a key in its grace period keeps offering.
 */
const GRACE_CHOICES = [0, 24, MAX_ROLL_GRACE_HOURS] as const;
const DEFAULT_GRACE_HOURS = 24;
const graceLabel = (hours: number) =>
  hours === 0
    ? "old key stops now"
    : hours === DEFAULT_GRACE_HOURS
      ? "old key works 24 h more"
      : `old key works ${hours} h (${hours / 24} days) more`;

/** Still accepted by the API: never revoked, or rolled and inside its grace period. */
const stillWorks = (row: KeyRow, now: Date) => !row.revokedAt || row.revokedAt > now;

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
          <option value={String(hours)} selected={hours === DEFAULT_GRACE_HOURS}>
            {graceLabel(hours)}
          </option>
        ))}
      </select>{" "}
      <button type="submit">
        Roll<span class="sr-only"> {props.row.prefix}…</span>
      </button>
    </form>
  );
}

/**
 * Revoke leads to a confirmation page first (a GET form: no JavaScript needed); the change is the
 * confirmation page's own CSRF-guarded POST.
 */
function RevokeButton(props: { row: KeyRow }) {
  return (
    <form method="get" action={`/dashboard/keys/${props.row.id}/revoke`} class="inline">
      <button type="submit">
        Revoke<span class="sr-only"> {props.row.prefix}…</span>
      </button>
    </form>
  );
}

function KeyTable(props: { viewer: Viewer; rows: KeyRow[]; caption: string; now: Date; empty: string }) {
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
        {props.rows.length === 0 ? (
          <EmptyRow columns={canChange ? 7 : 6}>
            {canChange ? `${props.empty} Create one with the form below.` : props.empty}
          </EmptyRow>
        ) : null}
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
                  </>
                )}
                {/* A rolled key in its grace period can still be stopped at once (a leak). */}
                {stillWorks(row, props.now) ? <RevokeButton row={row} /> : null}
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
          empty="No organization key yet."
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
            empty={mode === "test" ? "No test or publishable key yet." : "No live key yet."}
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
  /** After a roll with a grace period: the confirmation page that stops the old key now. */
  revokeOld?: string | undefined;
}) {
  return (
    <Page title={props.title} viewer={props.viewer} section={props.section}>
      <p>{props.label} It is shown this once; copy it now.</p>
      <code class="secret" data-testid="secret">
        {props.secret}
      </code>
      {props.revokeOld ? (
        <p>
          If the old key leaked, do not wait for the grace period to end:{" "}
          <a href={props.revokeOld}>revoke the old key now</a>.
        </p>
      ) : null}
      <p>
        <a href={props.back}>Done</a>
      </p>
    </Page>
  );
}

/** The confirmation step before a key is revoked: what stops, and a CSRF-guarded form. */
export function RevokeConfirmPage(props: { viewer: Viewer; row: KeyRow; now: Date }) {
  const { row } = props;
  const inGrace = row.revokedAt !== null && row.revokedAt > props.now;
  return (
    <Page title="Revoke this key?" viewer={props.viewer} section="keys">
      <p>
        The {row.kind} key <code>{row.prefix}…</code>
        {inGrace
          ? ` was rolled and works until ${when(row.revokedAt)}. Revoking it stops it now.`
          : `, created ${when(row.createdAt)}, ${row.lastUsedAt ? `last used ${when(row.lastUsedAt)}` : "never used"}.`}{" "}
        Every request with it is refused from the next one on, and this cannot be undone.
        {inGrace ? null : " To replace the key without an outage, roll it instead."}
      </p>
      <form method="post" action={`/dashboard/keys/${row.id}/revoke`} class="inline">
        <Csrf viewer={props.viewer} />
        <button type="submit">Revoke {row.prefix}…</button>
      </form>{" "}
      <a href="/dashboard/keys">Cancel</a>
    </Page>
  );
}
