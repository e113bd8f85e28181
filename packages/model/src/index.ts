export * from "./model-narrator.js";
