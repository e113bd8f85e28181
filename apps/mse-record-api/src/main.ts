import { runStandalone } from "@svc/http";
import { buildMseRecordApi } from "./app.js";

await runStandalone("mse-record-api", (deps) => buildMseRecordApi(deps));
