import { appBundle } from "../../tooling/scripts/app-bundle.js";

export default appBundle({ main: "src/main.ts" });
