export * from "./biomarker.js";
export * from "./dmse.js";
export * from "./medication.js";
export * from "./outcome.js";
export * from "./relapse.js";
export * from "./tools/index.js";
export * from "./types.js";
