/**
 * The runtime beside the HTTP layer: the service's environment, the state one process holds
 * (database, Redis, limiter, key cache, usage meter), the servers and the start of one app. It
 * builds on the HTTP layer (`@svc/http`); the HTTP layer never imports it (decision 105).
 */
export * from "./env.js";
export * from "./runtime.js";
export * from "./server.js";
export * from "./standalone.js";
export * from "./startup.js";
