/** @jsxRuntime automatic */
/** @jsxImportSource hono/jsx */
import type { listEvents } from "@svc/intelligence-api";
import { Page, type Viewer, when } from "./layout.js";

type EventRow = Awaited<ReturnType<typeof listEvents>>["rows"][number];

export function EventsPage(props: {
  viewer: Viewer;
  mode: "test" | "live";
  type: string;
  rows: EventRow[];
  next?: string | undefined;
}) {
  return (
    <Page title="Events" viewer={props.viewer} section="events">
      <form method="get" action="/dashboard/events">
        <label for="mode">Mode</label>
        <select id="mode" name="mode">
          <option value="test" selected={props.mode === "test"}>
            test
          </option>
          <option value="live" selected={props.mode === "live"}>
            live
          </option>
        </select>
        <label for="type">Type (exact, e.g. lab_order.resulted)</label>
        <input id="type" name="type" type="text" value={props.type} />
        <button type="submit">Filter</button>
      </form>
      <table>
        <caption>{`${props.mode} events, oldest first (retained 30 days)`}</caption>
        <thead>
          <tr>
            <th scope="col">Created</th>
            <th scope="col">Type and payload</th>
          </tr>
        </thead>
        <tbody>
          {props.rows.map((row) => (
            <tr>
              <td>{when(row.createdAt)}</td>
              <td>
                <details>
                  <summary>
                    {row.type} <code>{row.id}</code>
                  </summary>
                  <pre>{JSON.stringify(row.data, null, 2)}</pre>
                </details>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {props.next ? (
        <p>
          <a href={props.next}>Next page</a>
        </p>
      ) : null}
    </Page>
  );
}
