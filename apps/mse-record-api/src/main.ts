import { apiDeliveryEnqueuer } from "@svc/delivery";
import { redisUrlOf, runStandalone } from "@svc/http";
import { buildMseRecordApi } from "./app.js";

// After commit, delivery ids go to the queue; the worker's sweeper covers a Redis outage.
await runStandalone("mse-record-api", (deps) => buildMseRecordApi(deps), {
  prepare: (deps, env) => {
    const enqueuer = apiDeliveryEnqueuer({ redisUrl: redisUrlOf(env), db: deps.db, logger: deps.logger });
    deps.deliveries = enqueuer;
    return enqueuer;
  },
});
