/** @jsxRuntime automatic */
/** @jsxImportSource hono/jsx */
import type { CdsClientSummary, CdsFeedbackRow } from "@svc/records";
import { ActionButton, Csrf, ListTable, Notice, Page, type Viewer, when } from "./layout.js";

const at = (iso: string | null) => (iso ? when(new Date(iso)) : "");

function ClientTable(props: { viewer: Viewer; rows: CdsClientSummary[] }) {
  const actions = props.viewer.role !== "viewer";
  return (
    <ListTable
      caption="CDS clients (EHRs) of this account, newest first"
      columns={["Client", "Issuer (iss)", "Mode", "Keys", "Created", "Status", actions ? "Action" : null]}
      isEmpty={props.rows.length === 0}
      empty={
        actions
          ? "No CDS clients yet. Register your EHR with the form below (or the operator with pnpm svc cds-clients add)."
          : "No CDS clients yet."
      }
    >
      {props.rows.map((row) => (
        <tr>
          <td>
            <code>{row.id}</code>
          </td>
          <td>{row.iss}</td>
          <td>{row.mode}</td>
          <td>
            {row.jkus.length > 0
              ? `jku: ${row.jkus.join(", ")}`
              : `inline JWKS, kid: ${row.keyIds.join(", ")}`}
          </td>
          <td>{at(row.createdAt)}</td>
          <td data-testid="cds-client-status">{row.revokedAt ? `revoked ${at(row.revokedAt)}` : "active"}</td>
          {actions ? (
            <td>
              {row.revokedAt ? null : (
                <ActionButton
                  viewer={props.viewer}
                  action={`/dashboard/cds-clients/${row.id}/revoke`}
                  label="Revoke"
                  target={row.iss}
                />
              )}
            </td>
          ) : null}
        </tr>
      ))}
    </ListTable>
  );
}

function FeedbackTable(props: { rows: CdsFeedbackRow[] }) {
  return (
    <ListTable
      caption="Feedback on cards, newest first (each report stored once)"
      columns={["Received", "Mode", "Service", "Card", "Outcome", "Details"]}
      isEmpty={props.rows.length === 0}
      empty="No feedback yet: EHRs send it when a clinician accepts or overrides a card."
    >
      {props.rows.map((row) => (
        <tr>
          <td>{at(row.receivedAt)}</td>
          <td>{row.mode}</td>
          <td>{row.serviceId}</td>
          <td>
            <code>{row.card}</code>
          </td>
          <td>{`${row.outcome} at ${at(row.outcomeTimestamp)}`}</td>
          <td>
            {row.outcome === "accepted" ? `suggestions: ${row.acceptedSuggestions.join(", ")}` : null}
            {row.overrideReason
              ? `reason: ${row.overrideReason.display ?? row.overrideReason.code ?? ""}${
                  row.overrideReason.system ? ` (${row.overrideReason.system})` : ""
                }`
              : null}
            {row.userComment ? (
              <>
                <br />
                {`comment: ${row.userComment}`}
              </>
            ) : null}
          </td>
        </tr>
      ))}
    </ListTable>
  );
}

/** The register form (owners and developers): the issuer, the mode, and `jku` URLs or a public JWK Set. */
function AddClientForm(props: { viewer: Viewer }) {
  if (props.viewer.role === "viewer") return null;
  return (
    <form method="post" action="/dashboard/cds-clients">
      <h2>Register a CDS client</h2>
      <Csrf viewer={props.viewer} />
      <label for="iss">Issuer: the iss of the EHR's JWTs (a URL)</label>
      <input id="iss" name="iss" type="url" required />
      <label for="mode">Mode</label>
      <select id="mode" name="mode">
        <option value="test">test</option>
        <option value="live">live</option>
      </select>
      <label for="jku">JWK Set URL(s), one per line (live: https and a public address)</label>
      <textarea id="jku" name="jku" rows={2} />
      <label for="jwks">or the public JWK Set itself (JSON; private keys are refused)</label>
      <textarea id="jwks" name="jwks" rows={6} />
      <p>
        <button type="submit">Register client</button>
      </p>
    </form>
  );
}

/** The account's CDS clients (revocable by owners and developers) and the feedback they sent. */
export function CdsClientsPage(props: {
  viewer: Viewer;
  clients: CdsClientSummary[];
  feedback: CdsFeedbackRow[];
  /** The link to the next (older) page of feedback, when there is one. */
  next?: string | undefined;
  /** The account whose CDS Hooks base the page names (decision 147). */
  accountId: string;
  notice?: string | undefined;
}) {
  return (
    <Page title="CDS Hooks" viewer={props.viewer} section="cds-clients">
      <Notice text={props.notice} />
      <p>
        The EHRs allowed to call this account's CDS Hooks services, each by the issuer of its signed JWTs and
        its public keys, and the feedback reports they sent in the last 30 days, newest first. A revoked
        client is refused from its next call.
      </p>
      <p>
        Give each EHR this account's CDS Hooks base URL: <code>/cds-hooks/{props.accountId}</code> under the
        service's address (discovery at <code>/cds-hooks/{props.accountId}/cds-services</code>). Its JWTs name
        that URL as <code>aud</code>; another account registering the same EHR gets its own base, and neither
        sees the other's calls.
      </p>
      <ClientTable viewer={props.viewer} rows={props.clients} />
      <AddClientForm viewer={props.viewer} />
      <h2>Feedback</h2>
      <FeedbackTable rows={props.feedback} />
      {props.next ? (
        <p>
          <a href={props.next}>Older feedback</a>
        </p>
      ) : null}
    </Page>
  );
}
