export * from "./events.js";
export * from "./schedule.js";
export * from "./signing.js";
