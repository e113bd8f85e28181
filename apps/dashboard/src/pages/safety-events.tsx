/** @jsxRuntime automatic */
/** @jsxImportSource hono/jsx */
import type { deliveriesOfEvents } from "@svc/delivery";
import type { SafetyEventPayload } from "@svc/webhooks";
import { EmptyRow, Page, type Viewer, when } from "./layout.js";

type DeliveryRow = Awaited<ReturnType<typeof deliveriesOfEvents>>[number];

function Deliveries(props: { rows: DeliveryRow[] }) {
  if (props.rows.length === 0) return <span>no endpoint was active</span>;
  return (
    <ul>
      {props.rows.map((d) => (
        <li>
          <a href={`/dashboard/webhooks/${d.endpointId}`}>{d.url}</a>: {d.status}
          {d.attempts > 0 ? ` after ${d.attempts} attempt${d.attempts === 1 ? "" : "s"}` : ""}
        </li>
      ))}
    </ul>
  );
}

/**
 * The organization's MSE safety events, newest first, as GET /v1/mse/safety_events lists them,
 * with where each was delivered. Payloads carry ids and catalog-derived risk only (decision 38).
 */
export function SafetyEventsPage(props: {
  viewer: Viewer;
  events: SafetyEventPayload[];
  deliveries: DeliveryRow[];
  next?: string | undefined;
}) {
  return (
    <Page title="Safety events" viewer={props.viewer} section="safety-events">
      <table>
        <caption>MSE safety events (mse.risk_flagged), newest first</caption>
        <thead>
          <tr>
            <th scope="col">Created</th>
            <th scope="col">Visit and version</th>
            <th scope="col">Patient</th>
            <th scope="col">Risk</th>
            <th scope="col">Deliveries</th>
          </tr>
        </thead>
        <tbody>
          {props.events.length === 0 ? (
            <EmptyRow columns={5}>
              No safety events yet: a risk flagged by an MSE write (POST /v1/mse/{"{visitId}"}) appears here
              and goes to the organization's webhook endpoints.
            </EmptyRow>
          ) : null}
          {props.events.map((event) => (
            <tr>
              <td>{when(new Date(event.createdAt))}</td>
              <td>
                <code>{event.visitId}</code> v{event.version}
                <br />
                <code>{event.id}</code>
              </td>
              <td>
                <code>{event.patientId}</code>
              </td>
              <td>
                <strong>{event.risk.level}</strong>
                {event.risk.labels.length ? `: ${event.risk.labels.join(", ")}` : ""}
              </td>
              <td>
                <Deliveries rows={props.deliveries.filter((d) => d.eventId === event.id)} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {props.next ? (
        <p>
          <a href={props.next}>Older events</a>
        </p>
      ) : null}
    </Page>
  );
}
