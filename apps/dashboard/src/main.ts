import { apiDeliveryEnqueuer } from "@svc/delivery";
import { KEYS_CHANGED_CHANNEL, readiness } from "@svc/http";
import { redisUrlOf, runStandalone } from "@svc/http/runtime";
import { Hono } from "hono";
import { Redis } from "ioredis";
import { buildDashboard } from "./app.js";

// The dashboard alone, for deployments that route /dashboard to its own replicas (DATABASE_URL
// and REDIS_URL required, like the other standalone apps). Its revocations reach the API
// replicas' key caches on the same channel as `svc keys revoke`; test events and redeliveries
// go to the delivery queue.
let publisher: Redis | undefined;
await runStandalone(
  "dashboard",
  (deps) => {
    const service = new Hono();
    // The balancer's probes, as on the API replicas: alive, and ready while the database answers.
    service.get("/healthz", (c) => c.json({ ok: true, status: "alive" }));
    service.get("/readyz", async (c) => {
      const { body, status } = await readiness(deps);
      return c.json(body, status);
    });
    service.route(
      "/",
      buildDashboard(deps, {
        onKeysChanged: async (keyId) => {
          await publisher?.publish(KEYS_CHANGED_CHANNEL, keyId).catch(() => 0);
        },
      }),
    );
    return { app: service };
  },
  {
    prepare: (deps, env) => {
      const enqueuer = apiDeliveryEnqueuer({ redisUrl: redisUrlOf(env), db: deps.db, logger: deps.logger });
      deps.deliveries = enqueuer;
      const redis = new Redis(redisUrlOf(env), { maxRetriesPerRequest: 1, lazyConnect: false });
      redis.on("error", () => {});
      publisher = redis;
      return {
        async close() {
          redis.disconnect();
          await enqueuer.close();
        },
      };
    },
  },
);
