import { Refusal } from "@svc/refusal";
import { and, asc, eq, sql } from "drizzle-orm";
import type { Db } from "./client.js";
import { modelVersions } from "./schema.js";

/**
 * Redis channel announcing a promotion (`pnpm svc models promote`): API replicas drop their cached
 * active versions at once instead of waiting for the cache to expire.
 */
export const MODELS_CHANGED_CHANNEL = "svc:models:changed";

/**
 * The engines a model version may belong to, given by the caller: the engine registry's
 * `ENGINE_NAMES` (decision 101). The store keeps no list of its own, so `@svc/db` depends on no
 * domain package (decision 212); it refuses a name outside the list it is given.
 */
export type KnownEngines<E extends string> = readonly E[];

function checkEngine<E extends string>(engines: KnownEngines<E>, engine: string): E {
  if (!(engines as readonly string[]).includes(engine)) {
    throw new Refusal("invalid_request", `Unknown engine "${engine}"; engines: ${engines.join(", ")}.`);
  }
  return engine as E;
}

/** Calibration proposes candidates; they stay inactive until a reviewer promotes one (decision 44). */
export async function proposeModelVersion<E extends string>(
  db: Db,
  engines: KnownEngines<E>,
  input: { engine: string; params: unknown; note?: string },
) {
  const engine = checkEngine(engines, input.engine);
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

export async function listModelVersions<E extends string>(db: Db, engines: KnownEngines<E>, engine?: string) {
  const rows = await db
    .select()
    .from(modelVersions)
    .where(engine ? eq(modelVersions.engine, checkEngine(engines, engine)) : undefined)
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
export async function promoteModelVersion<E extends string>(
  db: Db,
  engines: KnownEngines<E>,
  input: { engine: string; version: number; by: string; now?: Date },
) {
  const engine = checkEngine(engines, input.engine);
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

/**
 * Active calibrated versions of the given engines, keyed by engine; engines without one run their
 * default model. A row of an engine outside the list (one no longer registered) is left out.
 */
export async function activeModelVersions<E extends string>(
  db: Db,
  engines: KnownEngines<E>,
): Promise<Partial<Record<E, { version: number; params: unknown }>>> {
  const rows = await db
    .select({ engine: modelVersions.engine, version: modelVersions.version, params: modelVersions.params })
    .from(modelVersions)
    .where(eq(modelVersions.active, true));
  const out: Partial<Record<E, { version: number; params: unknown }>> = {};
  for (const row of rows) {
    if ((engines as readonly string[]).includes(row.engine))
      out[row.engine as E] = { version: row.version, params: row.params };
  }
  return out;
}
