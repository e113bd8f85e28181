/**
 * Decisions this module follows (docs/decisions.md): 30, sandbox quota; 37, the event apiVersion;
 * 42, issuing and storing keys; 44, model versions; 46, limits follow the plan; 47, idempotency
 * keys; 48, webhook endpoint addresses; 57, the developer dashboard: server-rendered, better-auth,
 * one-time links; 58, dashboard usage, key last use, rolling grace, organization workspaces; 83, a
 * person may work in several dashboard workspaces; 84, a session works in one workspace, chosen by
 * the user; 120, how an EHR's JWT is verified; 121, CDS clients are registered per account; 122,
 * EHR fetches follow the webhook address rules; 123, CDS clients count against the account's plan;
 * 124, feedback is stored once per report; 147, an EHR's issuer belongs to no account; 151,
 * feedback is bounded.
 */
import { sql } from "drizzle-orm";
import {
  type AnyPgColumn,
  bigint,
  boolean,
  check,
  customType,
  date,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";

/**
 * The one schema of the service. Plans and their limits are data: the rate
 * limiter reads them from here, never from code branches.
 */
export const plans = pgTable("plans", {
  id: text("id").primaryKey(),
  displayName: text("display_name").notNull(),
  paid: boolean("paid").notNull(),
  /** Requests per UTC day per key; null = no daily quota. */
  dailyKeyQuota: integer("daily_key_quota"),
  /** Requests per UTC day per account, pooled across the account's keys; null = none. */
  dailyAccountQuota: integer("daily_account_quota"),
  /** Sustained requests per second (token-bucket refill); null = no per-second limit. */
  ratePerSecond: integer("rate_per_second"),
  /** Token-bucket capacity: how many requests may arrive at once. */
  burst: integer("burst"),
  /** Requests included per calendar month; calls beyond are counted as overage, never refused. */
  monthlyAllowance: integer("monthly_allowance"),
  /** Active CDS clients (EHRs) an account may register; null = no limit. */
  cdsClientLimit: integer("cds_client_limit"),
});

export const accounts = pgTable("accounts", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  planId: text("plan_id")
    .notNull()
    .references(() => plans.id),
  productionApproved: boolean("production_approved").notNull().default(false),
  /** Enterprise per-account limits; null falls back to the plan's. */
  ratePerSecond: integer("rate_per_second"),
  burst: integer("burst"),
  /** Event `apiVersion`, pinned when the account is created. */
  apiVersion: text("api_version").notNull(),
  createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
});

export const organizations = pgTable("organizations", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
});

export const KEY_KINDS = ["secret_test", "secret_live", "publishable", "organization"] as const;
export type KeyKind = (typeof KEY_KINDS)[number];

/**
 * API keys of accounts and of organizations. Only the SHA-256 of a key is stored, plus a short
 * visible prefix to recognise it in listings.
 */
export const apiKeys = pgTable(
  "api_keys",
  {
    id: text("id").primaryKey(),
    kind: text("kind").$type<KeyKind>().notNull(),
    accountId: text("account_id").references(() => accounts.id),
    orgId: text("org_id").references(() => organizations.id),
    /** Hex SHA-256 of the whole key. */
    keyHash: text("key_hash").notNull(),
    /** The key's kind prefix plus its first characters, e.g. `svc_sk_test_Ab12`. */
    displayPrefix: text("display_prefix").notNull(),
    scopes: text("scopes").array().notNull().default(sql`'{}'::text[]`),
    /** Origin allow-list of a publishable key; `*` matches a port, e.g. `http://localhost:*`. */
    origins: text("origins").array().notNull().default(sql`'{}'::text[]`),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    /**
     * When the key stops working. Revoking sets it to now; rolling with a grace period sets it in
     * the future, so the old key keeps working until then.
     */
    revokedAt: timestamp("revoked_at", { withTimezone: true, mode: "date" }),
    /** Last accepted request, to within the usage meter's flush interval. */
    lastUsedAt: timestamp("last_used_at", { withTimezone: true, mode: "date" }),
  },
  (t) => [
    uniqueIndex("api_keys_key_hash_idx").on(t.keyHash),
    index("api_keys_account_idx").on(t.accountId),
    index("api_keys_org_idx").on(t.orgId),
    check(
      "api_keys_owner_check",
      sql`(${t.kind} = 'organization' and ${t.orgId} is not null and ${t.accountId} is null) or (${t.kind} <> 'organization' and ${t.accountId} is not null and ${t.orgId} is null)`,
    ),
    check(
      "api_keys_kind_check",
      sql`${t.kind} in ('secret_test', 'secret_live', 'publishable', 'organization')`,
    ),
  ],
);

// ---------------------------------------------------------------------------------------------
// Model versions: calibrated parameter sets per engine; exactly one active per engine
// (partial unique index). No active row = the engine's shipped `default` model.

export const modelVersions = pgTable(
  "model_versions",
  {
    engine: text("engine").notNull(),
    version: integer("version").notNull(),
    params: jsonb("params").notNull(),
    note: text("note"),
    active: boolean("active").notNull().default(false),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    promotedAt: timestamp("promoted_at", { withTimezone: true, mode: "date" }),
    promotedBy: text("promoted_by"),
  },
  (t) => [
    primaryKey({ columns: [t.engine, t.version] }),
    uniqueIndex("model_versions_one_active_idx").on(t.engine).where(sql`${t.active}`),
  ],
);

// ---------------------------------------------------------------------------------------------
// Events: the outbox. A state change and its event are written in one transaction. `xactId` is
// the writing transaction's id: the event list shows only rows whose transaction is older than
// every transaction still in flight and pages by (xactId, seq), so a row that commits late can
// never fall behind a cursor already handed out.

const xid8 = customType<{ data: string; driverData: string }>({ dataType: () => "xid8" });

export const events = pgTable(
  "events",
  {
    seq: bigint("seq", { mode: "number" }).generatedAlwaysAsIdentity(),
    id: text("id").primaryKey(),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id),
    mode: text("mode").$type<"test" | "live">().notNull(),
    type: text("type").notNull(),
    apiVersion: text("api_version").notNull(),
    data: jsonb("data").notNull(),
    xactId: xid8("xact_id").notNull().default(sql`pg_current_xact_id()`),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [
    index("events_account_page_idx").on(t.accountId, t.mode, t.xactId, t.seq),
    index("events_account_type_page_idx").on(t.accountId, t.mode, t.type, t.xactId, t.seq),
    index("events_created_idx").on(t.createdAt),
  ],
);

// ---------------------------------------------------------------------------------------------
// Webhook endpoints and deliveries. An endpoint belongs to an account (lab and wearable events)
// or to an organization (MSE safety events). The signing secret must be readable to sign, so it
// is stored; it is never returned after creation.

export const webhookEndpoints = pgTable(
  "webhook_endpoints",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id").references(() => accounts.id),
    orgId: text("org_id").references(() => organizations.id),
    url: text("url").notNull(),
    mode: text("mode").$type<"test" | "live">().notNull(),
    secret: text("secret").notNull(),
    allowPrivate: boolean("allow_private").notNull().default(false),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    disabledAt: timestamp("disabled_at", { withTimezone: true, mode: "date" }),
    disabledReason: text("disabled_reason"),
    removedAt: timestamp("removed_at", { withTimezone: true, mode: "date" }),
  },
  (t) => [
    index("webhook_endpoints_account_idx").on(t.accountId),
    index("webhook_endpoints_org_idx").on(t.orgId),
  ],
);

export const DELIVERY_STATUSES = ["pending", "delivered", "failed", "cancelled"] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

export const webhookDeliveries = pgTable(
  "webhook_deliveries",
  {
    id: text("id").primaryKey(),
    endpointId: text("endpoint_id")
      .notNull()
      .references(() => webhookEndpoints.id),
    /** `evt_...` (events) or `sev_...` (MSE safety events). */
    eventId: text("event_id").notNull(),
    source: text("source").$type<"event" | "safety_event">().notNull(),
    status: text("status").$type<DeliveryStatus>().notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    firstAttemptAt: timestamp("first_attempt_at", { withTimezone: true, mode: "date" }),
    lastStatusCode: integer("last_status_code"),
    lastLatencyMs: integer("last_latency_ms"),
    lastError: text("last_error"),
    /** When the sweeper last handed it to the queue (the sweeper re-enqueues stale ones). */
    enqueuedAt: timestamp("enqueued_at", { withTimezone: true, mode: "date" }),
    deliveredAt: timestamp("delivered_at", { withTimezone: true, mode: "date" }),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("webhook_deliveries_event_endpoint_idx").on(t.eventId, t.endpointId),
    index("webhook_deliveries_due_idx").on(t.status, t.nextAttemptAt),
    index("webhook_deliveries_endpoint_idx").on(t.endpointId, t.createdAt),
  ],
);

export const webhookAttempts = pgTable(
  "webhook_attempts",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    deliveryId: text("delivery_id")
      .notNull()
      .references(() => webhookDeliveries.id),
    attempt: integer("attempt").notNull(),
    statusCode: integer("status_code"),
    latencyMs: integer("latency_ms").notNull(),
    /** Short machine reason (timeout, connection_refused, forbidden_address, http_500...). */
    error: text("error"),
    /** At most the first 1 kB of the receiver's body. */
    responseSnippet: text("response_snippet"),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true, mode: "date" }),
    attemptedAt: timestamp("attempted_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [index("webhook_attempts_delivery_idx").on(t.deliveryId, t.attempt)],
);

// ---------------------------------------------------------------------------------------------
// Lab orders and wearable connections (account-scoped, keyed by the caller's patientRef).

export const labOrders = pgTable(
  "lab_orders",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id),
    mode: text("mode").$type<"test" | "live">().notNull(),
    patientRef: text("patient_ref").notNull(),
    panelId: text("panel_id").notNull(),
    panelName: text("panel_name").notNull(),
    category: text("category").notNull(),
    priceCents: integer("price_cents").notNull(),
    status: text("status").notNull(),
    note: text("note").notNull().default(""),
    requisitionNumber: text("requisition_number").notNull(),
    metadata: jsonb("metadata").notNull().default(sql`'{}'::jsonb`),
    results: jsonb("results"),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [
    index("lab_orders_account_idx").on(t.accountId, t.mode, t.createdAt),
    index("lab_orders_patient_idx").on(t.accountId, t.mode, t.patientRef, t.createdAt),
  ],
);

export const wearableConnections = pgTable(
  "wearable_connections",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id),
    mode: text("mode").$type<"test" | "live">().notNull(),
    patientRef: text("patient_ref").notNull(),
    status: text("status").$type<"pending" | "connected" | "disconnected">().notNull(),
    providers: text("providers").array().notNull(),
    provider: text("provider"),
    language: text("language").notNull().default("en"),
    /** Random token in the hosted connect URL; unguessable, single connection. */
    connectToken: text("connect_token").notNull(),
    metadata: jsonb("metadata").notNull().default(sql`'{}'::jsonb`),
    connectedAt: timestamp("connected_at", { withTimezone: true, mode: "date" }),
    disconnectedAt: timestamp("disconnected_at", { withTimezone: true, mode: "date" }),
    lastSyncAt: timestamp("last_sync_at", { withTimezone: true, mode: "date" }),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("wearable_connections_token_idx").on(t.connectToken),
    index("wearable_connections_patient_idx").on(t.accountId, t.mode, t.patientRef, t.createdAt),
  ],
);

export const wearableDailyMetrics = pgTable(
  "wearable_daily_metrics",
  {
    connectionId: text("connection_id")
      .notNull()
      .references(() => wearableConnections.id),
    day: date("day", { mode: "string" }).notNull(),
    sleepHours: doublePrecision("sleep_hours"),
    steps: integer("steps"),
    restingHeartRate: doublePrecision("resting_heart_rate"),
    hrvMs: doublePrecision("hrv_ms"),
    syncedAt: timestamp("synced_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.connectionId, t.day] })],
);

// Idempotency-Key records: scoped to the account, kept 24 h.
export const idempotencyKeys = pgTable(
  "idempotency_keys",
  {
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id),
    key: text("key").notNull(),
    /** Method and route the key was first used on, plus a SHA-256 of the body. */
    requestFingerprint: text("request_fingerprint").notNull(),
    status: text("status").$type<"in_progress" | "completed">().notNull(),
    responseStatus: integer("response_status"),
    responseBody: jsonb("response_body"),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true, mode: "date" }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.accountId, t.key] }),
    index("idempotency_keys_expiry_idx").on(t.expiresAt),
  ],
);

// ---------------------------------------------------------------------------------------------
// MSE Record API (organization-scoped). `mseVisits.currentVersion` is incremented with an
// upsert inside the write transaction: concurrent writers get consecutive versions with no gap
// (a rolled-back write rolls its increment back too).

export const mseVisits = pgTable(
  "mse_visits",
  {
    orgId: text("org_id")
      .notNull()
      .references(() => organizations.id),
    visitId: text("visit_id").notNull(),
    patientId: text("patient_id").notNull(),
    currentVersion: integer("current_version").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.orgId, t.visitId] })],
);

/** Immutable, append-only versions; each hashes its content and chains to the previous one. */
export const mseVersions = pgTable(
  "mse_versions",
  {
    orgId: text("org_id")
      .notNull()
      .references(() => organizations.id),
    visitId: text("visit_id").notNull(),
    version: integer("version").notNull(),
    patientId: text("patient_id").notNull(),
    selection: jsonb("selection").notNull(),
    lines: jsonb("lines").notNull(),
    objectiveBlock: text("objective_block").notNull(),
    riskFlag: boolean("risk_flag").notNull(),
    riskLevel: text("risk_level").notNull(),
    riskLabels: text("risk_labels").array().notNull(),
    /** `write` (POST) or `patch`; patches list their domains. */
    operation: text("operation").$type<"write" | "patch">().notNull(),
    patchedDomains: text("patched_domains").array(),
    clinicianId: text("clinician_id"),
    keyId: text("key_id").notNull(),
    safetyEventId: text("safety_event_id"),
    contentHash: text("content_hash").notNull(),
    prevHash: text("prev_hash"),
    chainHash: text("chain_hash").notNull(),
    savedAt: timestamp("saved_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.orgId, t.visitId, t.version] })],
);

export const mseSignatures = pgTable(
  "mse_signatures",
  {
    id: text("id").primaryKey(),
    orgId: text("org_id")
      .notNull()
      .references(() => organizations.id),
    visitId: text("visit_id").notNull(),
    version: integer("version").notNull(),
    patientId: text("patient_id").notNull(),
    contentHash: text("content_hash").notNull(),
    signedByName: text("signed_by_name").notNull(),
    credential: text("credential"),
    license: text("license"),
    organization: text("organization"),
    timezone: text("timezone"),
    attestation: text("attestation"),
    signedAt: timestamp("signed_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    /** The signing time as the signer's wall clock in `timezone` (ISO with offset). */
    signedAtLocal: text("signed_at_local"),
    keyId: text("key_id").notNull(),
  },
  (t) => [index("mse_signatures_visit_idx").on(t.orgId, t.visitId, t.version)],
);

export const mseSafetyEvents = pgTable(
  "mse_safety_events",
  {
    id: text("id").primaryKey(),
    orgId: text("org_id")
      .notNull()
      .references(() => organizations.id),
    visitId: text("visit_id").notNull(),
    patientId: text("patient_id").notNull(),
    version: integer("version").notNull(),
    risk: jsonb("risk").notNull(),
    payload: jsonb("payload").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [index("mse_safety_events_org_idx").on(t.orgId, t.createdAt)],
);

// ---------------------------------------------------------------------------------------------
// Dashboard sign-in. The four `dashboard_*` auth tables are the ones better-auth
// reads and writes through its Drizzle adapter: their property names are better-auth's field
// names. Membership, invitations and the audit log are ours.

export const dashboardUsers = pgTable("dashboard_users", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  email: text("email").notNull().unique(),
  emailVerified: boolean("email_verified").notNull().default(false),
  image: text("image"),
  /** better-auth's two-factor plugin: true once a TOTP app is confirmed with a code. */
  twoFactorEnabled: boolean("two_factor_enabled").notNull().default(false),
  createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  updatedAt: timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
});

export const dashboardSessions = pgTable(
  "dashboard_sessions",
  {
    id: text("id").primaryKey(),
    /** better-auth's session token (random); the cookie carries it signed. */
    token: text("token").notNull().unique(),
    userId: text("user_id")
      .notNull()
      .references(() => dashboardUsers.id, { onDelete: "cascade" }),
    expiresAt: timestamp("expires_at", { withTimezone: true, mode: "date" }).notNull(),
    ipAddress: text("ip_address"),
    userAgent: text("user_agent"),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [index("dashboard_sessions_user_idx").on(t.userId)],
);

/** better-auth's "account" model: a user's credential (here only email + password hash). */
export const dashboardCredentials = pgTable(
  "dashboard_credentials",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id").notNull(),
    providerId: text("provider_id").notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => dashboardUsers.id, { onDelete: "cascade" }),
    accessToken: text("access_token"),
    refreshToken: text("refresh_token"),
    idToken: text("id_token"),
    accessTokenExpiresAt: timestamp("access_token_expires_at", { withTimezone: true, mode: "date" }),
    refreshTokenExpiresAt: timestamp("refresh_token_expires_at", { withTimezone: true, mode: "date" }),
    scope: text("scope"),
    password: text("password"),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [index("dashboard_credentials_user_idx").on(t.userId)],
);

export const dashboardVerifications = pgTable(
  "dashboard_verifications",
  {
    id: text("id").primaryKey(),
    identifier: text("identifier").notNull(),
    value: text("value").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true, mode: "date" }).notNull(),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [index("dashboard_verifications_identifier_idx").on(t.identifier)],
);

/**
 * better-auth's "twoFactor" model: a user's TOTP secret and backup codes, both encrypted by
 * better-auth with the auth secret; `verified` turns true when the first code is confirmed.
 */
export const dashboardTwoFactors = pgTable(
  "dashboard_two_factors",
  {
    id: text("id").primaryKey(),
    secret: text("secret").notNull(),
    backupCodes: text("backup_codes").notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => dashboardUsers.id, { onDelete: "cascade" }),
    verified: boolean("verified").notNull().default(true),
    failedVerificationCount: integer("failed_verification_count").notNull().default(0),
    lockedUntil: timestamp("locked_until", { withTimezone: true, mode: "date" }),
  },
  (t) => [index("dashboard_two_factors_user_idx").on(t.userId)],
);

/**
 * TOTP codes already accepted, so one is accepted once (RFC 6238 section 5.2): a user's code is
 * kept until the last moment it could still verify. The primary key makes the claim atomic: of
 * two requests with one code, one inserts the row and the other finds it.
 */
export const dashboardUsedTotpCodes = pgTable(
  "dashboard_used_totp_codes",
  {
    userId: text("user_id")
      .notNull()
      .references(() => dashboardUsers.id, { onDelete: "cascade" }),
    code: text("code").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true, mode: "date" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.code] })],
);

export const DASHBOARD_ROLES = ["owner", "developer", "viewer"] as const;
export type DashboardRole = (typeof DASHBOARD_ROLES)[number];

/** Exactly one of account_id and org_id is set: a dashboard workspace is one or the other. */
const oneWorkspace = (name: string, t: { accountId: AnyPgColumn; orgId: AnyPgColumn }) =>
  check(name, sql`(${t.accountId} is null) <> (${t.orgId} is null)`);

/**
 * Which workspaces a dashboard user works in, and as what: an account (the intelligence API) or
 * an organization (the MSE Record API). A user may belong to several workspaces, with one role in
 * each; `workspace_id` is whichever of the two ids is set (account and organization
 * ids have different prefixes), so the key is one row per user and workspace.
 */
export const dashboardMembers = pgTable(
  "dashboard_members",
  {
    userId: text("user_id")
      .notNull()
      .references(() => dashboardUsers.id, { onDelete: "cascade" }),
    accountId: text("account_id").references(() => accounts.id),
    orgId: text("org_id").references(() => organizations.id),
    workspaceId: text("workspace_id").notNull().generatedAlwaysAs(sql`coalesce(account_id, org_id)`),
    role: text("role").$type<DashboardRole>().notNull(),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.workspaceId] }),
    index("dashboard_members_workspace_idx").on(t.workspaceId),
    oneWorkspace("dashboard_members_workspace_check", t),
  ],
);

/**
 * The workspace a session works in, chosen with the dashboard's switcher. Without a
 * row, or when the user has since left that workspace, the session works in the user's most
 * recently joined workspace; membership is checked on every request either way.
 */
export const dashboardSessionWorkspaces = pgTable("dashboard_session_workspaces", {
  sessionId: text("session_id")
    .primaryKey()
    .references(() => dashboardSessions.id, { onDelete: "cascade" }),
  workspaceId: text("workspace_id").notNull(),
  updatedAt: timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
});

/**
 * One-time set-password links (first start, `svc users invite`). Only the SHA-256 of the link's
 * token is stored; `usedAt` makes the link single-use.
 */
export const dashboardInvites = pgTable(
  "dashboard_invites",
  {
    id: text("id").primaryKey(),
    tokenHash: text("token_hash").notNull().unique(),
    accountId: text("account_id").references(() => accounts.id),
    orgId: text("org_id").references(() => organizations.id),
    /** Null for the first start's owner link: whoever opens it chooses the email. */
    email: text("email"),
    role: text("role").$type<DashboardRole>().notNull(),
    /**
     * Made by the operator (`svc users invite`, first start) rather than by a workspace's owner:
     * only such a link may set the password of a user who also works in another workspace.
     */
    byOperator: boolean("by_operator").notNull().default(false),
    expiresAt: timestamp("expires_at", { withTimezone: true, mode: "date" }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true, mode: "date" }),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [oneWorkspace("dashboard_invites_workspace_check", t)],
);

/** Every change made through the dashboard: who, what, on which resource; never a secret. */
export const dashboardAuditLog = pgTable(
  "dashboard_audit_log",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    accountId: text("account_id").references(() => accounts.id),
    orgId: text("org_id").references(() => organizations.id),
    /** Null for changes made outside a session (an operator invite). */
    userId: text("user_id"),
    actorEmail: text("actor_email"),
    action: text("action").notNull(),
    targetId: text("target_id"),
    detail: jsonb("detail").notNull().default(sql`'{}'::jsonb`),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [
    index("dashboard_audit_log_account_idx").on(t.accountId, t.createdAt),
    index("dashboard_audit_log_org_idx").on(t.orgId, t.createdAt),
    oneWorkspace("dashboard_audit_log_workspace_check", t),
  ],
);

/** The random secret better-auth signs session cookies with, made once and shared by replicas. */
export const dashboardAuthSecret = pgTable("dashboard_auth_secret", {
  id: integer("id").primaryKey(),
  secret: text("secret").notNull(),
  createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
});

// ---------------------------------------------------------------------------------------------
// Usage: requests per UTC day, key and operation, counted in each process and added
// here every few seconds, for the dashboard's usage page. Quotas are enforced by the rate limiter,
// never from this table.

export const apiUsageDaily = pgTable(
  "api_usage_daily",
  {
    day: date("day", { mode: "string" }).notNull(),
    keyId: text("key_id")
      .notNull()
      .references(() => apiKeys.id),
    /** The operation, e.g. `POST /v1/dmse/analyze`; `unmatched` for a path no operation has. */
    operation: text("operation").notNull(),
    /** Every request made with the key, refused ones included. */
    requests: integer("requests").notNull().default(0),
    /** The 429s among them. */
    rateLimited: integer("rate_limited").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.day, t.keyId, t.operation] })],
);

// ---------------------------------------------------------------------------------------------
// CDS Hooks: the EHRs (CDS clients) an account registered, the JWT ids each
// has used (replay store), and the feedback they sent on our cards.

/** A JWK as stored: public members only (checked at registration). */
export type StoredJwk = Record<string, string>;

export const cdsClients = pgTable(
  "cds_clients",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id),
    /**
     * The JWT `iss` the EHR signs with: one active client per issuer within an account; several
     * accounts may each register the same EHR.
     */
    iss: text("iss").notNull(),
    mode: text("mode").$type<"test" | "live">().notNull(),
    /** `jku` URLs the client may name, matched exactly. */
    jkus: text("jkus").array().notNull().default(sql`'{}'::text[]`),
    /** An inline public JWK Set, when registered instead of (or besides) a `jku`. */
    jwks: jsonb("jwks").$type<{ keys: StoredJwk[] }>(),
    /** Operator's `--allow-private`: its `jku` and FHIR server may be on private addresses. */
    allowPrivate: boolean("allow_private").notNull().default(false),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    revokedAt: timestamp("revoked_at", { withTimezone: true, mode: "date" }),
  },
  (t) => [
    uniqueIndex("cds_clients_account_active_iss_idx").on(t.accountId, t.iss).where(sql`revoked_at is null`),
    index("cds_clients_account_idx").on(t.accountId),
  ],
);

/** JWT ids a client has used, kept until its token could no longer be accepted. */
export const cdsSeenJtis = pgTable(
  "cds_seen_jtis",
  {
    clientId: text("client_id")
      .notNull()
      .references(() => cdsClients.id, { onDelete: "cascade" }),
    jti: text("jti").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true, mode: "date" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.clientId, t.jti] }), index("cds_seen_jtis_expires_idx").on(t.expiresAt)],
);

export const CDS_FEEDBACK_OUTCOMES = ["accepted", "overridden"] as const;
export type CdsFeedbackOutcome = (typeof CDS_FEEDBACK_OUTCOMES)[number];

/**
 * The cards a hook call answered to a client, remembered for `CDS_ISSUED_CARD_DAYS` in the
 * database so every replica agrees: feedback is accepted only on these.
 */
export const cdsIssuedCards = pgTable(
  "cds_issued_cards",
  {
    clientId: text("client_id")
      .notNull()
      .references(() => cdsClients.id, { onDelete: "cascade" }),
    cardUuid: text("card_uuid").notNull(),
    serviceId: text("service_id").notNull(),
    issuedAt: timestamp("issued_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true, mode: "date" }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.clientId, t.cardUuid] }),
    index("cds_issued_cards_expires_idx").on(t.expiresAt),
  ],
);

/**
 * Feedback on a card, stored once per client, card and outcome (replacing decision
 * 124's outcome time in the key: the time is the client's to choose), kept 30 days.
 */
export const cdsFeedback = pgTable(
  "cds_feedback",
  {
    id: text("id").primaryKey(),
    clientId: text("client_id")
      .notNull()
      .references(() => cdsClients.id),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id),
    mode: text("mode").$type<"test" | "live">().notNull(),
    serviceId: text("service_id").notNull(),
    cardUuid: text("card_uuid").notNull(),
    outcome: text("outcome").$type<CdsFeedbackOutcome>().notNull(),
    outcomeTimestamp: timestamp("outcome_timestamp", { withTimezone: true, mode: "date" }).notNull(),
    /** The accepted suggestions' uuids (`accepted` only). */
    acceptedSuggestions: text("accepted_suggestions").array(),
    /** The override reason's coding, when one was chosen. */
    overrideReasonSystem: text("override_reason_system"),
    overrideReasonCode: text("override_reason_code"),
    overrideReasonDisplay: text("override_reason_display"),
    /** The clinician's free-text comment: shown to the account, never logged. */
    overrideComment: text("override_comment"),
    receivedAt: timestamp("received_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("cds_feedback_report_idx").on(t.clientId, t.cardUuid, t.outcome),
    index("cds_feedback_account_idx").on(t.accountId, t.receivedAt),
    index("cds_feedback_received_idx").on(t.receivedAt),
  ],
);
