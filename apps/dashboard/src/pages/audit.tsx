/** @jsxRuntime automatic */
/** @jsxImportSource hono/jsx */
import type { listAudit } from "@svc/records";
import { ListTable, Page, type Viewer, when } from "./layout.js";

type AuditRow = Awaited<ReturnType<typeof listAudit>>[number];

/** Who made the change: the signed-in user, the API key that made it through the API, or the operator. */
function actorOf(row: AuditRow): string {
  if (row.actorEmail) return row.actorEmail;
  const detail = row.detail as Record<string, unknown> | null;
  return typeof detail?.apiKeyId === "string" ? `API key ${detail.apiKeyId}` : "operator";
}

/** An audit row's detail as "name: value" lines (long values wrap in the cell). */
function DetailList(props: { detail: unknown }) {
  const entries =
    props.detail && typeof props.detail === "object"
      ? Object.entries(props.detail as Record<string, unknown>)
      : [];
  if (entries.length === 0) return null;
  return (
    <ul class="detail">
      {entries.map(([name, value]) => (
        <li>
          {name}: <code>{typeof value === "string" ? value : JSON.stringify(value)}</code>
        </li>
      ))}
    </ul>
  );
}

export function AuditPage(props: { viewer: Viewer; rows: AuditRow[] }) {
  return (
    <Page title="Audit log" viewer={props.viewer} section="audit">
      <ListTable
        class="audit"
        caption="Every change here made through the dashboard, the API or an invitation, newest first"
        columns={["When", "Who", "Action", "Target", "Detail"]}
        isEmpty={props.rows.length === 0}
        empty="No changes recorded yet: each change made here is listed as it happens."
      >
        {props.rows.map((row) => (
          <tr>
            <td>{when(row.createdAt)}</td>
            <td>{actorOf(row)}</td>
            <td data-testid="audit-action">{row.action}</td>
            <td>
              <code>{row.targetId ?? ""}</code>
            </td>
            <td>
              <DetailList detail={row.detail} />
            </td>
          </tr>
        ))}
      </ListTable>
    </Page>
  );
}
