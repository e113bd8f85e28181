export * from "./analytes.js";
