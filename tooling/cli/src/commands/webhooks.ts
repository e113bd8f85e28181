import {
  addWebhookEndpoint,
  listWebhookDeliveries,
  listWebhookEndpoints,
  redeliverWebhook,
  removeWebhookEndpoint,
} from "@svc/delivery";
import { loopbackWebhooksAllowed, parseEnv } from "@svc/http/runtime";
import { Refusal } from "@svc/refusal";
import { type CommandTable, integer, text } from "../command.js";
import { handingOffDeliveries } from "../hand-off.js";

/** The mode asked for; unset leaves the default to the endpoint's owner (organizations: live). */
function mode(value: string | undefined): "test" | "live" | undefined {
  if (value === undefined) return undefined;
  if (value !== "test" && value !== "live")
    throw new Refusal("invalid_request", "--mode must be test or live.");
  return value;
}

/** Webhook endpoints and deliveries (operator commands in the README; decision 48). */
export const webhookCommands: CommandTable = {
  "webhooks add": async (args, { db }) =>
    addWebhookEndpoint(db, {
      accountId: text(args, "account", false),
      orgId: text(args, "org", false),
      url: text(args, "url") as string,
      mode: mode(text(args, "mode", false)),
      allowPrivate: args.flags.get("allow-private") === true,
      // A test-mode endpoint on loopback follows the deployment's setting, as its deliveries will.
      allowLoopbackWebhooks: loopbackWebhooksAllowed(parseEnv()),
    }),
  // An owner has at most 16 endpoints a mode (decision 158): the CLI prints them all, no paging.
  "webhooks list": async (args, { db }) => {
    const owner = { accountId: text(args, "account", false), orgId: text(args, "org", false) };
    const { endpoints } = await listWebhookEndpoints(db, owner);
    return { endpoints };
  },
  "webhooks remove": async (args, { db }) => removeWebhookEndpoint(db, text(args, "id") as string),
  "webhooks deliveries": async (args, { db }) =>
    listWebhookDeliveries(db, {
      endpointId: text(args, "endpoint", false),
      eventId: text(args, "event", false),
      limit: integer(args, "limit"),
    }),
  "webhooks redeliver": async (args, { db }) => {
    // Best effort: without Redis the worker's outbox sweeper picks the row up.
    const { result, enqueued } = await handingOffDeliveries(() =>
      redeliverWebhook(db, text(args, "id") as string),
    );
    return { ...result, enqueued };
  },
};

export const webhookUsage = [
  "webhooks add --account ID|--org ID --url URL [--mode test|live] [--allow-private]   (prints the secret once)",
  "webhooks list --account ID|--org ID",
  "webhooks remove --id ENDPOINT_ID   (pending deliveries are cancelled)",
  "webhooks deliveries --endpoint ID|--event ID [--limit N]",
  "webhooks redeliver --id DELIVERY_ID",
];
