import { appBundle } from "../scripts/app-bundle.js";

// `pnpm start` (both APIs and the worker in one process) and `pnpm svc` (the operator CLI).
export default appBundle({ start: "src/start.ts", main: "src/main.ts" });
