/**
 * The analyte table moved to `knowledge/analytes.ts` (decision 64); this module keeps the old
 * import path working for the engine, the tools and the benches.
 */
export * from "./knowledge/analytes.js";
