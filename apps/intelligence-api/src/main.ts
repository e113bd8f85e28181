import { apiDeliveryEnqueuer } from "@svc/delivery";
import { redisUrlOf, runStandalone } from "@svc/http/runtime";
import { chatModelFromEnv, languageModelNarratorFromEnv } from "@svc/model";
import { buildIntelligenceApi } from "./app.js";

// `explain: true` narrates through the model MODEL_BASE_URL names, else the template narrator.
// After commit, delivery ids go to the queue; the worker's sweeper covers a Redis outage.
await runStandalone(
  "intelligence-api",
  (deps, env) =>
    buildIntelligenceApi(deps, {
      narrator: languageModelNarratorFromEnv(env),
      chatModel: chatModelFromEnv(env),
    }),
  {
    prepare: (deps, env) => {
      const enqueuer = apiDeliveryEnqueuer({ redisUrl: redisUrlOf(env), db: deps.db, logger: deps.logger });
      deps.deliveries = enqueuer;
      return enqueuer;
    },
  },
);
