export * from "../knowledge/instrument-catalog.js";
export * from "./interactions.js";
export * from "./panels.js";
export * from "./relapse-signals.js";
export * from "./score-instruments.js";
export * from "./types.js";
