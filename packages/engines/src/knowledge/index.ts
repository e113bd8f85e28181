export * from "./instruments.js";
export * from "./staleness.js";
