import { DEFAULT_REDIS_URL } from "@svc/http/runtime";
import { Redis } from "ioredis";

/**
 * Publish a change to every running replica (best effort, 1 s). Listeners also have a fallback
 * (caches are bypassed while their subscription is down, or expire), so a missed message delays
 * a change but never loses it.
 */
export async function announce(channel: string, message: string): Promise<boolean> {
  const url = process.env.REDIS_URL || DEFAULT_REDIS_URL;
  const redis = new Redis(url, {
    lazyConnect: true,
    connectTimeout: 1_000,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  redis.on("error", () => {});
  try {
    await redis.connect();
    await redis.publish(channel, message);
    return true;
  } catch {
    return false;
  } finally {
    redis.disconnect();
  }
}
