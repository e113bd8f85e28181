export * from "./medicines.js";
