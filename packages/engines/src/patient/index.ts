export * from "./context.js";
export * from "./doors.js";
export { reviewPatient } from "./review.js";
export * from "./types.js";
