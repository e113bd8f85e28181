export * from "./core.js";
export * from "./reasoning.js";
export * from "./terminology.js";
export * from "./types.js";
