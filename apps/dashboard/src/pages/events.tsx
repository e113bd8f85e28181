/** @jsxRuntime automatic */
/** @jsxImportSource hono/jsx */
import { TEST_EVENT_TYPE } from "@svc/delivery";
import type { listEvents } from "@svc/records";
import { EVENT_TYPES, EventTypes } from "@svc/webhooks";
import { EmptyRow, Page, type Viewer, when } from "./layout.js";

/** The types an account's events have: the contract's list and the endpoint test event. */
const ACCOUNT_EVENT_TYPES = [...EVENT_TYPES, TEST_EVENT_TYPE] as const;

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
        <label for="type">{`Type (exact, e.g. ${EventTypes.labOrderResultsReady}; empty for all)`}</label>
        <input id="type" name="type" type="text" list="event-types" value={props.type} />
        <datalist id="event-types">
          {ACCOUNT_EVENT_TYPES.map((t) => (
            <option value={t} />
          ))}
        </datalist>
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
          {props.rows.length === 0 ? (
            <EmptyRow columns={2}>
              {props.type
                ? `No ${props.mode} events of type ${props.type} in the last 30 days.`
                : `No ${props.mode} events yet. They appear as lab orders and wearable connections change; a webhook endpoint's "Send test event" adds one.`}
            </EmptyRow>
          ) : null}
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
