export * from "./core.js";
export * from "./engine-block.js";
export * from "./engine-codes.js";
export * from "./model-text.js";
export * from "./reasoning.js";
export * from "./reassurance.js";
export * from "./terminology.js";
export * from "./types.js";
