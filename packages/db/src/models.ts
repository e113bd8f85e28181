import { ENGINE_NAMES, type EngineName, isEngineName } from "@svc/intelligence";
import { Refusal } from "@svc/refusal";
import { and, asc, eq, sql } from "drizzle-orm";
import type { Db } from "./client.js";
import { modelVersions } from "./schema.js";

/**
 * Redis channel announcing a promotion (`pnpm svc models promote`): API replicas drop their cached
 * active versions at once instead of waiting for the cache to expire.
 */
export const MODELS_CHANGED_CHANNEL = "svc:models:changed";

/** The engines a model version may belong to: those of the engine registry (decision 101). */
export const ENGINES = ENGINE_NAMES;
export type EngineKey = EngineName;

function checkEngine(engine: string): EngineKey {
  if (!isEngineName(engine)) {
    throw new Refusal("invalid_request", `Unknown engine "${engine}"; engines: ${ENGINES.join(", ")}.`);
  }
  return engine;
}

/** Calibration proposes candidates; they stay inactive until a reviewer promotes one (decision 44). */
export async function proposeModelVersion(db: Db, input: { engine: string; params: unknown; note?: string }) {
  const engine = checkEngine(input.engine);
  if (typeof input.params !== "object" || input.params === null || Array.isArray(input.params)) {
    throw new Refusal("invalid_request", "Model parameters must be a JSON object.");
  }
  return db.transaction(async (tx) => {
    // Serialise proposals per engine so version numbers stay consecutive.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`model_versions:${engine}`}))`);
    const [row] = await tx
      .select({ max: sql<number>`coalesce(max(${modelVersions.version}), 0)::int` })
      .from(modelVersions)
      .where(eq(modelVersions.engine, engine));
    const version = (row?.max ?? 0) + 1;
    await tx
      .insert(modelVersions)
      .values({ engine, version, params: input.params, note: input.note ?? null });
    return { engine, version, active: false };
  });
}

export async function listModelVersions(db: Db, engine?: string) {
  const rows = await db
    .select()
    .from(modelVersions)
    .where(engine ? eq(modelVersions.engine, checkEngine(engine)) : undefined)
    .orderBy(asc(modelVersions.engine), asc(modelVersions.version));
  return rows.map((r) => ({
    engine: r.engine,
    version: r.version,
    active: r.active,
    note: r.note,
    createdAt: r.createdAt.toISOString(),
    promotedAt: r.promotedAt?.toISOString() ?? null,
    promotedBy: r.promotedBy,
  }));
}

/** Make one version the active one for its engine, recording who did it. */
export async function promoteModelVersion(
  db: Db,
  input: { engine: string; version: number; by: string; now?: Date },
) {
  const engine = checkEngine(input.engine);
  if (!input.by.trim())
    throw new Refusal("invalid_request", "--by must name the reviewer who promotes the version.");
  return db.transaction(async (tx) => {
    const [target] = await tx
      .select({ version: modelVersions.version })
      .from(modelVersions)
      .where(and(eq(modelVersions.engine, engine), eq(modelVersions.version, input.version)))
      .for("update");
    if (!target) throw new Refusal("not_found", `No version ${input.version} of the ${engine} model.`);
    await tx
      .update(modelVersions)
      .set({ active: false })
      .where(and(eq(modelVersions.engine, engine), eq(modelVersions.active, true)));
    const now = input.now ?? new Date();
    await tx
      .update(modelVersions)
      .set({ active: true, promotedAt: now, promotedBy: input.by.trim() })
      .where(and(eq(modelVersions.engine, engine), eq(modelVersions.version, input.version)));
    return {
      engine,
      version: input.version,
      active: true,
      promotedBy: input.by.trim(),
      promotedAt: now.toISOString(),
    };
  });
}

/** Active calibrated versions, keyed by engine; engines without one run their default model. */
export async function activeModelVersions(
  db: Db,
): Promise<Partial<Record<EngineKey, { version: number; params: unknown }>>> {
  const rows = await db
    .select({ engine: modelVersions.engine, version: modelVersions.version, params: modelVersions.params })
    .from(modelVersions)
    .where(eq(modelVersions.active, true));
  const out: Partial<Record<EngineKey, { version: number; params: unknown }>> = {};
  for (const row of rows) out[row.engine as EngineKey] = { version: row.version, params: row.params };
  return out;
}
