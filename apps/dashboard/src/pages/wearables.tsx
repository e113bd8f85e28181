/** @jsxRuntime automatic */
/** @jsxImportSource hono/jsx */
import type { listConnections } from "@svc/records";
import { ActionButton, BothModesPage, Csrf, ListTable, type Viewer, when } from "./layout.js";

type ConnectionRow = Awaited<ReturnType<typeof listConnections>>["rows"][number];

/** The sandbox "patient completes the connect page" step: one of the connection's providers. */
function ConnectForm(props: { viewer: Viewer; row: ConnectionRow }) {
  const id = `provider-${props.row.id}`;
  return (
    <form method="post" action={`/dashboard/wearables/${props.row.id}/connect`} class="inline">
      <Csrf viewer={props.viewer} />
      <label for={id} class="sr-only">
        Provider for {props.row.id}
      </label>
      <select id={id} name="provider">
        {props.row.providers.map((code) => (
          <option value={code}>{code}</option>
        ))}
      </select>{" "}
      <button type="submit">
        Connect<span class="sr-only"> {props.row.id}</span>
      </button>
    </form>
  );
}

function ConnectionTable(props: { viewer: Viewer; rows: ConnectionRow[]; mode: "test" | "live" }) {
  const helpers = props.mode === "test" && props.viewer.role !== "viewer";
  return (
    <ListTable
      caption={`${props.mode} wearable connections, newest first`}
      columns={[
        "Connection",
        "Patient ref",
        "Status",
        "Provider",
        "Last sync",
        helpers ? "Test helpers" : null,
      ]}
      isEmpty={props.rows.length === 0}
      empty={`No ${props.mode} wearable connections yet. Start one with POST /v1/wearables/connect and a ${props.mode} secret key.`}
    >
      {props.rows.map((row) => (
        <tr>
          <td>
            <code>{row.id}</code>
          </td>
          <td>{row.patientRef}</td>
          <td data-testid="wearable-status">{row.status}</td>
          <td>{row.provider ?? `offered: ${row.providers.join(", ")}`}</td>
          <td>{row.lastSyncAt ? when(row.lastSyncAt) : "never"}</td>
          {helpers ? (
            <td>
              {row.status === "pending" ? <ConnectForm viewer={props.viewer} row={row} /> : null}
              {row.status === "connected" ? (
                <ActionButton
                  viewer={props.viewer}
                  action={`/dashboard/wearables/${row.id}/sync`}
                  label="Sync"
                  target={row.id}
                />
              ) : null}
            </td>
          ) : null}
        </tr>
      ))}
    </ListTable>
  );
}

export function WearablesPage(props: {
  viewer: Viewer;
  test: ConnectionRow[];
  live: ConnectionRow[];
  notice?: string | undefined;
}) {
  return (
    <BothModesPage
      title="Wearable connections"
      section="wearables"
      viewer={props.viewer}
      notice={props.notice}
      intro={
        <>
          The 100 newest connections of each mode. In test mode the sandbox helpers complete a pending
          connection as the patient would on the connect page (POST /v1/test_helpers/wearables/connections/
          {"{id}"}/complete) and sync a connected one (POST /v1/wearables/connections/{"{id}"}/sync), with
          their events and webhooks.
        </>
      }
      rows={props}
      table={(rows, mode) => <ConnectionTable viewer={props.viewer} rows={rows} mode={mode} />}
    />
  );
}
