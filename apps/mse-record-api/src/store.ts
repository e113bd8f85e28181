import { createHash } from "node:crypto";
import {
  and,
  asc,
  type Db,
  type DbOrTx,
  desc,
  eq,
  lt,
  type MseSafetyEventPayload,
  mseSafetyEvents,
  mseSignatures,
  mseVersions,
  mseVisits,
  or,
  recordSafetyEvent,
  sql,
} from "@svc/db";
import { newId } from "@svc/ids";
import {
  assessRisk,
  buildLines,
  canonicalJson,
  DOMAIN_KEYS,
  type DomainKey,
  type Line,
  mergeSelection,
  objectiveBlock,
  patchedDomains,
  type RiskAssessment,
  type RiskLevel,
  type Selection,
  type SelectionError,
  type SelectionPatch,
  validateSelection,
} from "@svc/mse-catalog";

/**
 * Persistence of the MSE Record API. Every query is scoped to the caller's organization; versions
 * are immutable, append-only rows whose content is hashed and chained to the previous version.
 */

export type StoreErrorKind = "not_found" | "patient_mismatch" | "invalid_selection" | "no_mse";

/** A refusal the routes turn into an HTTP error (the store knows nothing of HTTP). */
export class StoreError extends Error {
  constructor(
    readonly kind: StoreErrorKind,
    readonly errors: SelectionError[] = [],
  ) {
    super(kind);
    this.name = "StoreError";
  }
}

// ---------------------------------------------------------------------------------------------
// Hashes

/** The fields a version's content hash covers. */
export interface VersionContent {
  visitId: string;
  patientId: string;
  version: number;
  selection: Selection;
  lines: Line[];
  objectiveBlock: string;
  riskFlag: boolean;
  riskLevel: string;
  riskLabels: string[];
}

const sha256 = (text: string) => createHash("sha256").update(text, "utf8").digest("hex");

/** SHA-256 hex of the canonical JSON of the version's content. */
export function contentHashOf(content: VersionContent): string {
  return sha256(
    canonicalJson({
      visitId: content.visitId,
      patientId: content.patientId,
      version: content.version,
      selection: content.selection,
      lines: content.lines,
      objectiveBlock: content.objectiveBlock,
      riskFlag: content.riskFlag,
      riskLevel: content.riskLevel,
      riskLabels: content.riskLabels,
    }),
  );
}

/** SHA-256 hex of `${previous chain hash or ""}:${content hash}`. */
export function chainHashOf(prevChainHash: string | null, contentHash: string): string {
  return sha256(`${prevChainHash ?? ""}:${contentHash}`);
}

type VersionRow = typeof mseVersions.$inferSelect;
type SignatureRow = typeof mseSignatures.$inferSelect;

/**
 * jsonb keeps object keys in its own order; domains are given back in catalog order, as they
 * were written (the validator orders them).
 */
export function storedSelection(raw: unknown): Selection {
  const stored = (raw ?? {}) as Selection;
  const out: Selection = {};
  for (const key of DOMAIN_KEYS) {
    const entry = stored[key];
    if (entry) out[key] = entry;
  }
  return out;
}

function contentOf(row: VersionRow): VersionContent {
  return {
    visitId: row.visitId,
    patientId: row.patientId,
    version: row.version,
    selection: row.selection as Selection,
    lines: row.lines as Line[],
    objectiveBlock: row.objectiveBlock,
    riskFlag: row.riskFlag,
    riskLevel: row.riskLevel,
    riskLabels: row.riskLabels,
  };
}

export interface ChainCheck {
  valid: boolean;
  /** Per row (same order as given): content hash, previous link and chain hash all recompute. */
  rows: boolean[];
}

/**
 * Recompute every version's content hash and chain hash from the stored rows (ascending by
 * version). Any edited column, a broken link, a gap in the numbering or a missing latest
 * version makes the chain invalid.
 */
export function verifyChain(rowsAsc: readonly VersionRow[], currentVersion: number): ChainCheck {
  let prevChain: string | null = null;
  const rows: boolean[] = [];
  let valid = rowsAsc.length === currentVersion;
  rowsAsc.forEach((row, i) => {
    const content = contentHashOf(contentOf(row));
    const ok =
      row.version === i + 1 &&
      content === row.contentHash &&
      row.prevHash === prevChain &&
      chainHashOf(prevChain, content) === row.chainHash;
    rows.push(ok);
    if (!ok) valid = false;
    // Continue from the stored link so one bad row does not mark every later row bad.
    prevChain = row.chainHash;
  });
  return { valid, rows };
}

// ---------------------------------------------------------------------------------------------
// Writes

export interface WriteInput {
  orgId: string;
  keyId: string;
  visitId: string;
  patientId: string;
  clinicianId?: string | undefined;
}

export type Change = { kind: "write"; selection: Selection } | { kind: "patch"; patch: SelectionPatch };

export interface WriteResult {
  version: number;
  risk: RiskAssessment;
  safetyEventId: string | null;
  patchedDomains: DomainKey[];
  /** Webhook deliveries written with the safety event; enqueue them after commit. */
  deliveryIds: string[];
}

/**
 * Append a version: a full write (POST) or a patch merged over the latest version (PATCH).
 *
 * The visit row is taken first (upsert or update, both `current_version + 1`), which numbers the
 * version and holds the row lock until commit; only then is the latest version read. Concurrent
 * writers therefore queue on the row, get consecutive numbers, and each patch merges over the
 * version committed just before it, so no update is lost. A refusal rolls the increment back.
 */
export async function appendVersion(db: Db, input: WriteInput, change: Change): Promise<WriteResult> {
  return db.transaction(async (tx) => {
    const now = new Date();
    const where = and(eq(mseVisits.orgId, input.orgId), eq(mseVisits.visitId, input.visitId));
    const next = sql`${mseVisits.currentVersion} + 1`;
    const returning = { currentVersion: mseVisits.currentVersion, patientId: mseVisits.patientId };
    const [visit] =
      change.kind === "write"
        ? await tx
            .insert(mseVisits)
            .values({
              orgId: input.orgId,
              visitId: input.visitId,
              patientId: input.patientId,
              currentVersion: 1,
              createdAt: now,
              updatedAt: now,
            })
            .onConflictDoUpdate({
              target: [mseVisits.orgId, mseVisits.visitId],
              set: { currentVersion: next, updatedAt: now },
            })
            .returning(returning)
        : await tx
            .update(mseVisits)
            .set({ currentVersion: next, updatedAt: now })
            .where(where)
            .returning(returning);
    if (!visit) throw new StoreError("not_found");
    if (visit.patientId !== input.patientId) throw new StoreError("patient_mismatch");
    const version = visit.currentVersion;

    let prev: { selection: unknown; chainHash: string } | undefined;
    if (version > 1) {
      [prev] = await tx
        .select({ selection: mseVersions.selection, chainHash: mseVersions.chainHash })
        .from(mseVersions)
        .where(
          and(
            eq(mseVersions.orgId, input.orgId),
            eq(mseVersions.visitId, input.visitId),
            eq(mseVersions.version, version - 1),
          ),
        );
      if (!prev) throw new Error("mse store: the previous version is missing");
    }

    let selection: Selection;
    let patched: DomainKey[] = [];
    if (change.kind === "write") {
      selection = change.selection;
    } else {
      const merged = mergeSelection((prev?.selection ?? {}) as Selection, change.patch);
      // Full mode: a patch must not leave the record without a domain.
      const checked = validateSelection(merged);
      if (!checked.ok) throw new StoreError("invalid_selection", checked.errors);
      selection = checked.selection;
      patched = patchedDomains(change.patch);
    }

    const lines = buildLines(selection);
    const block = objectiveBlock(lines);
    const risk = assessRisk(selection);
    const contentHash = contentHashOf({
      visitId: input.visitId,
      patientId: input.patientId,
      version,
      selection,
      lines,
      objectiveBlock: block,
      riskFlag: risk.flag,
      riskLevel: risk.level,
      riskLabels: risk.labels,
    });
    const prevHash = prev?.chainHash ?? null;

    let safetyEventId: string | null = null;
    let deliveryIds: string[] = [];
    if (risk.flag) {
      const recorded = await recordSafetyEvent(tx, {
        orgId: input.orgId,
        visitId: input.visitId,
        patientId: input.patientId,
        version,
        risk,
        now,
      });
      safetyEventId = recorded.event.id;
      deliveryIds = recorded.deliveryIds;
    }

    await tx.insert(mseVersions).values({
      orgId: input.orgId,
      visitId: input.visitId,
      version,
      patientId: input.patientId,
      selection,
      lines,
      objectiveBlock: block,
      riskFlag: risk.flag,
      riskLevel: risk.level,
      riskLabels: risk.labels,
      operation: change.kind,
      patchedDomains: change.kind === "patch" ? patched : null,
      clinicianId: input.clinicianId ?? null,
      keyId: input.keyId,
      safetyEventId,
      contentHash,
      prevHash,
      chainHash: chainHashOf(prevHash, contentHash),
      savedAt: now,
    });
    return { version, risk, safetyEventId, patchedDomains: patched, deliveryIds };
  });
}

// ---------------------------------------------------------------------------------------------
// Reads

const visitScope = (orgId: string, visitId: string) =>
  and(eq(mseVersions.orgId, orgId), eq(mseVersions.visitId, visitId));

export interface LatestVersion {
  row: VersionRow;
  /** Signatures of this version, newest first. */
  signatures: SignatureRow[];
}

/** The latest version of an organization's visit and its signatures, or undefined. */
export async function latestVersion(
  db: Db,
  orgId: string,
  visitId: string,
): Promise<LatestVersion | undefined> {
  const [row] = await db
    .select()
    .from(mseVersions)
    .where(visitScope(orgId, visitId))
    .orderBy(desc(mseVersions.version))
    .limit(1);
  if (!row) return undefined;
  const signatures = await db
    .select()
    .from(mseSignatures)
    .where(
      and(
        eq(mseSignatures.orgId, orgId),
        eq(mseSignatures.visitId, visitId),
        eq(mseSignatures.version, row.version),
      ),
    )
    .orderBy(desc(mseSignatures.signedAt), desc(mseSignatures.id));
  return { row, signatures };
}

export interface FullRecord {
  patientId: string;
  currentVersion: number;
  /** Ascending by version. */
  versions: VersionRow[];
  /** Ascending by signing time. */
  signatures: SignatureRow[];
  chain: ChainCheck;
}

/** Every version and signature of an organization's visit, with the chain verified; or undefined. */
export async function fullRecord(db: Db, orgId: string, visitId: string): Promise<FullRecord | undefined> {
  // One snapshot: a write committing between the reads must not look like a broken chain.
  return db.transaction((tx) => readFullRecord(tx, orgId, visitId), {
    isolationLevel: "repeatable read",
    accessMode: "read only",
  });
}

async function readFullRecord(db: DbOrTx, orgId: string, visitId: string): Promise<FullRecord | undefined> {
  const [visit] = await db
    .select({ patientId: mseVisits.patientId, currentVersion: mseVisits.currentVersion })
    .from(mseVisits)
    .where(and(eq(mseVisits.orgId, orgId), eq(mseVisits.visitId, visitId)));
  if (!visit) return undefined;
  const versions = await db
    .select()
    .from(mseVersions)
    .where(visitScope(orgId, visitId))
    .orderBy(asc(mseVersions.version));
  const signatures = await db
    .select()
    .from(mseSignatures)
    .where(and(eq(mseSignatures.orgId, orgId), eq(mseSignatures.visitId, visitId)))
    .orderBy(asc(mseSignatures.signedAt), asc(mseSignatures.id));
  return {
    patientId: visit.patientId,
    currentVersion: visit.currentVersion,
    versions,
    signatures,
    chain: verifyChain(versions, visit.currentVersion),
  };
}

// ---------------------------------------------------------------------------------------------
// Signatures

export interface SignInput {
  orgId: string;
  keyId: string;
  visitId: string;
  patientId: string;
  signedByName: string;
  credential?: string | undefined;
  license?: string | undefined;
  organization?: string | undefined;
  timezone?: string | undefined;
  attestation?: string | undefined;
}

/** `2026-06-01T14:03:07.123+02:00`: the instant on the wall clock of an IANA time zone. */
export function localIsoTime(at: Date, timeZone: string): string {
  const parts = new Intl.DateTimeFormat("en-US", {
    timeZone,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
    hourCycle: "h23",
    timeZoneName: "longOffset",
  }).formatToParts(at);
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? "";
  const zone = part("timeZoneName"); // "GMT", "GMT+02:00", "GMT-03:30"
  const offset = zone === "GMT" || zone === "" ? "+00:00" : zone.replace(/^GMT/, "");
  const ms = String(at.getUTCMilliseconds()).padStart(3, "0");
  return `${part("year")}-${part("month")}-${part("day")}T${part("hour")}:${part("minute")}:${part("second")}.${ms}${offset}`;
}

/**
 * Sign the latest version: the signature binds to its number and content hash. Signing again
 * adds another signature (a co-signature); a later write creates a new, unsigned version.
 */
export async function signLatest(db: Db, input: SignInput): Promise<SignatureRow> {
  const latest = await latestVersion(db, input.orgId, input.visitId);
  if (!latest) throw new StoreError("no_mse");
  if (latest.row.patientId !== input.patientId) throw new StoreError("patient_mismatch");
  const now = new Date();
  const [row] = await db
    .insert(mseSignatures)
    .values({
      id: newId("sig"),
      orgId: input.orgId,
      visitId: input.visitId,
      version: latest.row.version,
      patientId: latest.row.patientId,
      contentHash: latest.row.contentHash,
      signedByName: input.signedByName,
      credential: input.credential ?? null,
      license: input.license ?? null,
      organization: input.organization ?? null,
      timezone: input.timezone ?? null,
      attestation: input.attestation ?? null,
      signedAt: now,
      signedAtLocal: input.timezone ? localIsoTime(now, input.timezone) : null,
      keyId: input.keyId,
    })
    .returning();
  if (!row) throw new Error("mse store: the signature was not written");
  return row;
}

// ---------------------------------------------------------------------------------------------
// Safety events

export interface SafetyEventPage {
  events: MseSafetyEventPayload[];
  nextCursor: string | null;
  hasMore: boolean;
}

/** Opaque keyset cursor: the last event's creation time and id. */
export function encodeCursor(createdAt: Date, id: string): string {
  return Buffer.from(JSON.stringify([createdAt.toISOString(), id]), "utf8").toString("base64url");
}

export function decodeCursor(cursor: string): { createdAt: Date; id: string } | undefined {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
    if (!Array.isArray(parsed) || parsed.length !== 2) return undefined;
    const [time, id] = parsed as unknown[];
    if (typeof time !== "string" || typeof id !== "string") return undefined;
    const createdAt = new Date(time);
    if (Number.isNaN(createdAt.getTime()) || !/^sev_[0-9a-z]{26}$/.test(id)) return undefined;
    return { createdAt, id };
  } catch {
    return undefined;
  }
}

/** The organization's safety events, newest first, keyset-paged on (createdAt, id). */
export async function listSafetyEvents(
  db: Db,
  input: { orgId: string; limit: number; after?: { createdAt: Date; id: string }; visitId?: string },
): Promise<SafetyEventPage> {
  const conditions = [eq(mseSafetyEvents.orgId, input.orgId)];
  if (input.visitId) conditions.push(eq(mseSafetyEvents.visitId, input.visitId));
  if (input.after) {
    const after = or(
      lt(mseSafetyEvents.createdAt, input.after.createdAt),
      and(eq(mseSafetyEvents.createdAt, input.after.createdAt), lt(mseSafetyEvents.id, input.after.id)),
    );
    if (after) conditions.push(after);
  }
  const rows = await db
    .select({
      id: mseSafetyEvents.id,
      createdAt: mseSafetyEvents.createdAt,
      payload: mseSafetyEvents.payload,
    })
    .from(mseSafetyEvents)
    .where(and(...conditions))
    .orderBy(desc(mseSafetyEvents.createdAt), desc(mseSafetyEvents.id))
    .limit(input.limit + 1);
  const hasMore = rows.length > input.limit;
  const page = rows.slice(0, input.limit);
  const last = page[page.length - 1];
  return {
    events: page.map((r) => r.payload as MseSafetyEventPayload),
    nextCursor: hasMore && last ? encodeCursor(last.createdAt, last.id) : null,
    hasMore,
  };
}

export type { RiskLevel, SignatureRow, VersionRow };
