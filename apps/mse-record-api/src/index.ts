export { buildMseRecordApi } from "./app.js";
