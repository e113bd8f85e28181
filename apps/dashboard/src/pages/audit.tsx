/** @jsxRuntime automatic */
/** @jsxImportSource hono/jsx */
import type { listAudit } from "../audit.js";
import { Page, type Viewer, when } from "./layout.js";

type AuditRow = Awaited<ReturnType<typeof listAudit>>[number];

export function AuditPage(props: { viewer: Viewer; rows: AuditRow[] }) {
  return (
    <Page title="Audit log" viewer={props.viewer} section="audit">
      <table>
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
          {props.rows.map((row) => (
            <tr>
              <td>{when(row.createdAt)}</td>
              <td>{row.actorEmail ?? "operator"}</td>
              <td data-testid="audit-action">{row.action}</td>
              <td>
                <code>{row.targetId ?? ""}</code>
              </td>
              <td>
                <code>{JSON.stringify(row.detail)}</code>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </Page>
  );
}
