/** @jsxRuntime automatic */
/** @jsxImportSource hono/jsx */
import type { listLabOrders } from "@svc/records";
import { ActionButton, BothModesPage, ListTable, type Viewer, when } from "./layout.js";

type LabOrderRow = Awaited<ReturnType<typeof listLabOrders>>["rows"][number];

function OrderTable(props: { viewer: Viewer; rows: LabOrderRow[]; mode: "test" | "live" }) {
  const helpers = props.mode === "test" && props.viewer.role !== "viewer";
  return (
    <ListTable
      caption={`${props.mode} lab orders, newest first`}
      columns={["Order", "Patient ref", "Panel", "Status", "Updated", helpers ? "Test helpers" : null]}
      isEmpty={props.rows.length === 0}
      empty={`No ${props.mode} lab orders yet. Create one with POST /v1/labs/orders and a ${props.mode === "test" ? "test" : "live"} secret key.`}
    >
      {props.rows.map((row) => (
        <tr>
          <td>
            <code>{row.id}</code>
          </td>
          <td>{row.patientRef}</td>
          <td>{row.panelName}</td>
          <td data-testid="lab-status">{row.status}</td>
          <td>{when(row.updatedAt)}</td>
          {helpers ? (
            <td>
              {row.status === "requested" ? (
                <ActionButton
                  viewer={props.viewer}
                  action={`/dashboard/labs/${row.id}/authorize`}
                  label="Authorize"
                  target={row.id}
                />
              ) : null}{" "}
              {row.status !== "completed" && row.status !== "cancelled" ? (
                <ActionButton
                  viewer={props.viewer}
                  action={`/dashboard/labs/${row.id}/advance`}
                  label="Advance"
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

export function LabsPage(props: {
  viewer: Viewer;
  test: LabOrderRow[];
  live: LabOrderRow[];
  notice?: string | undefined;
}) {
  return (
    <BothModesPage
      title="Lab orders"
      section="labs"
      viewer={props.viewer}
      notice={props.notice}
      intro={
        <>
          The 100 newest orders of each mode. In test mode the sandbox helpers move an order as the provider
          and laboratory would (the same moves as POST /v1/test_helpers/labs/orders/{"{id}"}/authorize and
          /advance), with their events and webhooks.
        </>
      }
      rows={props}
      table={(rows, mode) => <OrderTable viewer={props.viewer} rows={rows} mode={mode} />}
    />
  );
}
