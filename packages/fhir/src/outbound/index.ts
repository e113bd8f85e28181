export * from "./analysis.js";
export * from "./canonical.js";
export * from "./code-systems.js";
export * from "./conformance.js";
export * from "./mse.js";
export * from "./negotiate.js";
export type { NewId } from "./resources.js";
