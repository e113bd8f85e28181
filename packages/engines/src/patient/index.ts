export * from "./context.js";
export { reviewPatient } from "./review.js";
export * from "./types.js";
export * from "./doors.js";
