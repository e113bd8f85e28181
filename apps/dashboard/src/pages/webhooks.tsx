/** @jsxRuntime automatic */
/** @jsxImportSource hono/jsx */
import type { listDeliveryAttempts, listWebhookDeliveries, listWebhookEndpoints } from "@svc/delivery";
import { isOrganization } from "@svc/records";
import { ActionButton, Csrf, EmptyRow, ModeSections, Notice, Page, type Viewer, when } from "./layout.js";

type EndpointRow = Awaited<ReturnType<typeof listWebhookEndpoints>>["endpoints"][number];
type DeliveryRow = Awaited<ReturnType<typeof listWebhookDeliveries>>["deliveries"][number];
type AttemptRow = Awaited<ReturnType<typeof listDeliveryAttempts>>[number];

function EndpointTable(props: { viewer: Viewer; rows: EndpointRow[]; caption: string; empty: string }) {
  return (
    <table>
      <caption>{props.caption}</caption>
      <thead>
        <tr>
          <th scope="col">URL</th>
          <th scope="col">Created</th>
          <th scope="col">Status</th>
        </tr>
      </thead>
      <tbody>
        {props.rows.length === 0 ? (
          <EmptyRow columns={3}>
            {props.viewer.role === "viewer"
              ? props.empty
              : `${props.empty} Add one with the form below to receive events.`}
          </EmptyRow>
        ) : null}
        {props.rows.map((row) => (
          <tr>
            <td>
              <a href={`/dashboard/webhooks/${row.id}`}>{row.url}</a>
            </td>
            <td>{when(row.createdAt)}</td>
            <td>{row.disabledAt ? `disabled: ${row.disabledReason ?? ""}` : "enabled"}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The add form (owners and developers): organizations' endpoints are always live. */
function AddEndpointForm(props: { viewer: Viewer }) {
  if (props.viewer.role === "viewer") return null;
  const organization = isOrganization(props.viewer.workspace);
  return (
    <form method="post" action="/dashboard/webhooks">
      <h2>Add an endpoint</h2>
      <Csrf viewer={props.viewer} />
      {organization ? <input type="hidden" name="mode" value="live" /> : null}
      <label for="url">
        {organization
          ? "URL (https and a public address)"
          : "URL (live: https and a public address; test may use loopback)"}
      </label>
      <input id="url" name="url" type="url" required />
      {organization ? null : (
        <>
          <label for="mode">Mode</label>
          <select id="mode" name="mode">
            <option value="test">test</option>
            <option value="live">live</option>
          </select>
        </>
      )}
      <p>
        <button type="submit">Add endpoint</button>
      </p>
    </form>
  );
}

/** An organization's endpoints: live only, for its MSE safety events. */
function OrganizationWebhooksPage(props: { viewer: Viewer; rows: EndpointRow[] }) {
  return (
    <Page title="Webhooks" viewer={props.viewer} section="webhooks">
      <p>
        The organization's endpoints receive its MSE safety events (<code>mse.risk_flagged</code>), signed in{" "}
        <code>x-mse-signature</code>. They are live endpoints: https and a public address.
      </p>
      <EndpointTable
        viewer={props.viewer}
        rows={props.rows}
        caption="Safety event endpoints"
        empty="No webhook endpoints yet."
      />
      <AddEndpointForm viewer={props.viewer} />
    </Page>
  );
}

export function WebhooksPage(props: { viewer: Viewer; rows: EndpointRow[] }) {
  if (isOrganization(props.viewer.workspace)) return <OrganizationWebhooksPage {...props} />;
  return (
    <Page title="Webhooks" viewer={props.viewer} section="webhooks">
      <ModeSections
        idPrefix="endpoints"
        render={(mode) => (
          <EndpointTable
            viewer={props.viewer}
            rows={props.rows.filter((r) => r.mode === mode)}
            caption={mode === "test" ? "Test endpoints" : "Live endpoints"}
            empty={`No ${mode} webhook endpoints yet.`}
          />
        )}
      />
      <AddEndpointForm viewer={props.viewer} />
    </Page>
  );
}

function AttemptList(props: { attempts: AttemptRow[] }) {
  if (props.attempts.length === 0) return <span>no attempt yet</span>;
  return (
    <ol>
      {props.attempts.map((a) => (
        <li>
          {`#${a.attempt} ${when(a.attemptedAt)}: ${a.statusCode ?? a.error ?? "no answer"}, ${a.latencyMs} ms`}
          {a.nextAttemptAt ? `, next retry ${when(a.nextAttemptAt)}` : ""}
          {a.responseSnippet ? <pre>{a.responseSnippet}</pre> : null}
        </li>
      ))}
    </ol>
  );
}

/** Send a test event (not for an organization's endpoints), roll the signing secret, and enable or disable. */
function EndpointActions(props: { viewer: Viewer; endpoint: EndpointRow }) {
  const { endpoint, viewer } = props;
  return (
    <p>
      {isOrganization(viewer.workspace) ? null : (
        <>
          <ActionButton
            viewer={viewer}
            action={`/dashboard/webhooks/${endpoint.id}/test`}
            label="Send test event"
          />{" "}
        </>
      )}
      <ActionButton
        viewer={viewer}
        action={`/dashboard/webhooks/${endpoint.id}/roll-secret`}
        label="Roll signing secret"
      />{" "}
      <ActionButton
        viewer={viewer}
        action={`/dashboard/webhooks/${endpoint.id}/${endpoint.disabledAt ? "enable" : "disable"}`}
        label={endpoint.disabledAt ? "Enable" : "Disable"}
      />
    </p>
  );
}

/** What an empty deliveries table says: how deliveries come for an organization, or how to try the endpoint. */
function noDeliveryText(viewer: Viewer, canChange: boolean): string {
  return isOrganization(viewer.workspace)
    ? "No delivery yet: each safety event the organization records is delivered here."
    : canChange
      ? "No delivery yet. Send a test event to try this endpoint."
      : "No delivery yet.";
}

/** The deliveries, newest first, each with its attempts and (for who may change) a redeliver button. */
function DeliveriesTable(props: {
  viewer: Viewer;
  deliveries: DeliveryRow[];
  attempts: AttemptRow[];
  canChange: boolean;
}) {
  const { viewer, canChange } = props;
  return (
    <table>
      <caption>Newest first; each attempt with its status, latency and the start of the answer</caption>
      <thead>
        <tr>
          <th scope="col">Event</th>
          <th scope="col">Status</th>
          <th scope="col">Attempts</th>
          {canChange ? <th scope="col">Actions</th> : null}
        </tr>
      </thead>
      <tbody>
        {props.deliveries.length === 0 ? (
          <EmptyRow columns={canChange ? 4 : 3}>{noDeliveryText(viewer, canChange)}</EmptyRow>
        ) : null}
        {props.deliveries.map((d) => (
          <tr>
            <td>
              <code>{d.eventId}</code>
              <br />
              {when(d.createdAt)}
            </td>
            <td data-testid="delivery-status">{d.status}</td>
            <td>
              <AttemptList attempts={props.attempts.filter((a) => a.deliveryId === d.id)} />
            </td>
            {canChange ? (
              <td>
                <ActionButton
                  viewer={viewer}
                  action={`/dashboard/deliveries/${d.id}/redeliver`}
                  label="Redeliver"
                />
              </td>
            ) : null}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function EndpointPage(props: {
  viewer: Viewer;
  endpoint: EndpointRow;
  deliveries: DeliveryRow[];
  attempts: AttemptRow[];
  notice?: string;
}) {
  const { endpoint, viewer } = props;
  const canChange = viewer.role !== "viewer";
  return (
    <Page title={`Endpoint ${endpoint.url}`} viewer={viewer} section="webhooks">
      <Notice text={props.notice} />
      <p>
        {endpoint.mode} mode,{" "}
        {endpoint.disabledAt ? `disabled (${endpoint.disabledReason ?? ""})` : "enabled"}, id{" "}
        <code>{endpoint.id}</code>
      </p>
      {canChange ? <EndpointActions viewer={viewer} endpoint={endpoint} /> : null}
      <h2>Deliveries</h2>
      <DeliveriesTable
        viewer={viewer}
        deliveries={props.deliveries}
        attempts={props.attempts}
        canChange={canChange}
      />
    </Page>
  );
}
