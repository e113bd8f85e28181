export { buildDashboard, type DashboardOptions } from "./app.js";
