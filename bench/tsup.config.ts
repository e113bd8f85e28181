import { appBundle } from "../tooling/scripts/app-bundle.js";

// The servers under test run compiled, as production runs the apps (`pnpm start`, the images):
// the API and both baselines from the same bundle, so no side pays for tsx's on-the-fly compiler.
export default appBundle({ server: "src/server.ts" });
