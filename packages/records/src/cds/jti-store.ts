import { cdsSeenJtis, type Db, lt, sql } from "@svc/db";
import type { JtiStore } from "@svc/ehr-gateway";

/** One call in this many also deletes expired rows (the table stays small without a job). */
const PURGE_ONE_IN = 50;

/**
 * The replay store in PostgreSQL (decision 120): it works with a server and with embedded PGlite,
 * and every replica shares it. A (client, jti) row lives until the token could no longer be
 * accepted; an expired row is taken over by a new token with the same jti.
 */
export function pgJtiStore(db: Db): JtiStore {
  return {
    async remember(clientId, jti, until, now) {
      if (Math.floor(Math.random() * PURGE_ONE_IN) === 0)
        await db.delete(cdsSeenJtis).where(lt(cdsSeenJtis.expiresAt, now));
      const rows = await db
        .insert(cdsSeenJtis)
        .values({ clientId, jti, expiresAt: until })
        .onConflictDoUpdate({
          target: [cdsSeenJtis.clientId, cdsSeenJtis.jti],
          set: { expiresAt: until },
          setWhere: sql`${cdsSeenJtis.expiresAt} <= ${now.toISOString()}`,
        })
        .returning({ jti: cdsSeenJtis.jti });
      return rows.length === 1;
    },
  };
}
