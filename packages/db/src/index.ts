export * from "./client.js";
export * from "./events.js";
export * from "./keys.js";
export * from "./models.js";
export * from "./repo.js";
export * from "./schema.js";
