export { buildIntelligenceApi } from "./app.js";
