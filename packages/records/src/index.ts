// The service's records, read and written the same way by the APIs, the dashboard and the CLI
// (decision 103): Drizzle queries and domain rules only, no routes and no queue.

export * from "./cds/clients.js";
export * from "./cds/feedback.js";
export * from "./cds/jti-store.js";
export * from "./cursor.js";
export * from "./dashboard/audit.js";
export * from "./dashboard/invites.js";
export * from "./dashboard/workspace.js";
export * from "./events/store.js";
export * from "./labs/catalog.js";
export * from "./labs/results.js";
export * from "./labs/store.js";
export * from "./labs/transitions.js";
export * from "./mse/safety-events.js";
export type { Scope } from "./scope.js";
export * from "./wearables/connect-token.js";
export * from "./wearables/providers.js";
export * from "./wearables/store.js";
