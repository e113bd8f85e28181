import type { LimitDecision, LimitRule, RateLimiter } from "./limiter.js";
import { MemoryRateLimiter } from "./memory.js";

/**
 * Redis first; while Redis is unreachable, decide in process (the API keeps answering,
 * decision 8) and warn at most once a minute.
 */
export class FallbackRateLimiter implements RateLimiter {
  private readonly memory = new MemoryRateLimiter();
  private lastWarn = 0;
  constructor(
    private readonly primary: RateLimiter,
    private readonly warn: (message: string) => void,
  ) {}
  get backend() {
    return this.primary.backend;
  }
  async close(): Promise<void> {
    await this.primary.close?.();
  }
  async consume(rule: LimitRule, now?: Date): Promise<LimitDecision> {
    try {
      return await this.primary.consume(rule, now);
    } catch {
      if (Date.now() - this.lastWarn > 60_000) {
        this.lastWarn = Date.now();
        this.warn("Redis unreachable: rate limits are enforced per process until it is back.");
      }
      return this.memory.consume(rule, now);
    }
  }
}
