import { listModelVersions, MODELS_CHANGED_CHANNEL, promoteModelVersion, proposeModelVersion } from "@svc/db";
import { ENGINE_NAMES, ENGINE_REGISTRY, isEngineName } from "@svc/intelligence";
import { Refusal } from "@svc/refusal";
import { announce } from "../announce.js";
import { type CommandTable, integer, readJsonFile, text } from "../command.js";

export const modelCommands: CommandTable = {
  "models list": async (args, { db }) => ({
    versions: await listModelVersions(db, ENGINE_NAMES, text(args, "engine", false)),
  }),
  "models propose": async (args, { db }) => {
    const file = text(args, "params-file") as string;
    const cannotRead = `Cannot read JSON parameters from ${file}.`;
    const params = readJsonFile(file, file, { cannotRead, notJson: cannotRead });
    const engine = text(args, "engine") as string;
    // Each engine's own parameter check (its registry descriptor): a candidate the engine cannot
    // run is refused at proposal. An unknown engine is refused by the model-version store.
    if (isEngineName(engine)) {
      try {
        ENGINE_REGISTRY[engine].resolveParams(params);
      } catch (error) {
        throw new Refusal(
          "invalid_request",
          `The ${engine} engine cannot use these parameters: ${(error as Error).message}`,
        );
      }
    }
    return proposeModelVersion(db, ENGINE_NAMES, {
      engine,
      params,
      note: text(args, "note", false),
    });
  },
  "models promote": async (args, { db }) => {
    const version = integer(args, "version");
    if (version === undefined) throw new Refusal("invalid_request", "Missing --version.");
    const result = await promoteModelVersion(db, ENGINE_NAMES, {
      engine: text(args, "engine") as string,
      version,
      by: text(args, "by") as string,
    });
    return { ...result, announced: await announce(MODELS_CHANGED_CHANNEL, result.engine) };
  },
};

export const modelUsage = [
  "models list [--engine E]",
  "models propose --engine E --params-file FILE.json [--note TEXT]   (calibration candidate; never active)",
  "models promote --engine E --version N --by NAME",
];
