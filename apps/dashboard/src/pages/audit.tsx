/** @jsxRuntime automatic */
/** @jsxImportSource hono/jsx */
import type { listAudit } from "@svc/records";
import { EmptyRow, Page, type Viewer, when } from "./layout.js";

type AuditRow = Awaited<ReturnType<typeof listAudit>>[number];

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
      <table class="audit">
        <caption>Every change here made through the dashboard or an invitation, newest first</caption>
        <thead>
          <tr>
            <th scope="col">When</th>
            <th scope="col">Who</th>
            <th scope="col">Action</th>
            <th scope="col">Target</th>
            <th scope="col">Detail</th>
          </tr>
        </thead>
        <tbody>
          {props.rows.length === 0 ? (
            <EmptyRow columns={5}>
              No changes recorded yet: each change made here is listed as it happens.
            </EmptyRow>
          ) : null}
          {props.rows.map((row) => (
            <tr>
              <td>{when(row.createdAt)}</td>
              <td>{row.actorEmail ?? "operator"}</td>
              <td data-testid="audit-action">{row.action}</td>
              <td>
                <code>{row.targetId ?? ""}</code>
              </td>
              <td>
                <DetailList detail={row.detail} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </Page>
  );
}
