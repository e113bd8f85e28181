import { apiDeliveryEnqueuer } from "@svc/delivery";
import { redisUrlOf, runStandalone } from "@svc/http/runtime";
import { chatModelFromEnv } from "@svc/model";
import { buildMseRecordApi } from "./app.js";

// After commit, delivery ids go to the queue; the worker's sweeper covers a Redis outage.
await runStandalone(
  "mse-record-api",
  (deps, env) => buildMseRecordApi(deps, { chatModel: chatModelFromEnv(env) }),
  {
    prepare: (deps, env) => {
      const enqueuer = apiDeliveryEnqueuer({ redisUrl: redisUrlOf(env), db: deps.db, logger: deps.logger });
      deps.deliveries = enqueuer;
      return enqueuer;
    },
  },
);
