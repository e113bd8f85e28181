import { sql } from "drizzle-orm";
import { boolean, check, index, integer, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";

/**
 * The one schema of the service. Plans and their limits are data (ruling 1, 18): the rate
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
});

export const accounts = pgTable("accounts", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  planId: text("plan_id")
    .notNull()
    .references(() => plans.id),
  productionApproved: boolean("production_approved").notNull().default(false),
  /** Enterprise per-account limits (ruling 18); null falls back to the plan's. */
  ratePerSecond: integer("rate_per_second"),
  burst: integer("burst"),
  /** Event `apiVersion`, pinned when the account is created (ruling 9). */
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
 * visible prefix to recognise it in listings (ruling 14).
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
    revokedAt: timestamp("revoked_at", { withTimezone: true, mode: "date" }),
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
