import { runStandalone } from "@svc/http";
import { buildIntelligenceApi } from "./app.js";

await runStandalone("intelligence-api", (deps) => buildIntelligenceApi(deps));
