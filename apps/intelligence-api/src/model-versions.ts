import { activeModelVersions, type Db } from "@svc/db";
import { ENGINE_NAMES, type EngineName } from "@svc/intelligence";

export interface ActiveModelVersion {
  version: number;
  params: unknown;
}

/**
 * The active calibrated version per engine, cached in process so an analysis request costs no
 * extra query. A promotion takes effect without a restart: at once on replicas that hear the Redis
 * message, and within `ttlMs` everywhere (the cache refreshes in the background, serving the
 * previous snapshot meanwhile).
 */
export class ActiveModelVersions {
  private snapshot: Partial<Record<EngineName, ActiveModelVersion>> | null = null;
  private loadedAt = 0;
  private loading: Promise<void> | null = null;

  constructor(
    private readonly db: Db,
    private readonly ttlMs = 5_000,
  ) {}

  invalidate(): void {
    this.loadedAt = 0;
  }

  private refresh(): Promise<void> {
    this.loading ??= activeModelVersions(this.db, ENGINE_NAMES)
      .then((rows) => {
        this.snapshot = rows;
        this.loadedAt = Date.now();
      })
      .finally(() => {
        this.loading = null;
      });
    return this.loading;
  }

  async get(engine: EngineName): Promise<ActiveModelVersion | undefined> {
    if (this.snapshot === null || this.loadedAt === 0) {
      await this.refresh();
    } else if (Date.now() - this.loadedAt > this.ttlMs) {
      this.refresh().catch(() => {}); // stale-while-revalidate
    }
    return this.snapshot?.[engine];
  }
}
