export { buildDashboard, type DashboardOptions } from "./app.js";
export { listAudit, recordAudit } from "./audit.js";
export { createInvite, INVITE_HOURS, type InviteInput, inviteUrl } from "./invites.js";
