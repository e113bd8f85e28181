import type { mseSignatures, mseVersions } from "@svc/db";

/** A stored MSE version (immutable, append-only). */
export type VersionRow = typeof mseVersions.$inferSelect;

/** A stored signature of one version. */
export type SignatureRow = typeof mseSignatures.$inferSelect;
