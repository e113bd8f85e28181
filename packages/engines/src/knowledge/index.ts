export * from "./analytes.js";
export * from "./instruments.js";
export * from "./lab-panels.js";
export * from "./medicines.js";
export * from "./monitoring-schedules.js";
export type { Evidence, EvidenceLevel } from "./parameter-evidence.js";
export * from "./safety-concepts.js";
export * from "./staleness.js";
