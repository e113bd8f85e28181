export * from "./analytes.js";
export * from "./instruments.js";
export * from "./medicines.js";
export * from "./staleness.js";
