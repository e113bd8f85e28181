import path from "node:path";
import { loopbackWebhooksAllowed, parseEnv, publicBaseUrl } from "@svc/http/runtime";
import { JWKS_MAX_BYTES, listCdsClients, registerCdsClient, revokeCdsClient } from "@svc/records";
import { Refusal } from "@svc/refusal";
import { type CommandTable, list, readJsonFile, text } from "../command.js";

/** The mode asked for (default test). */
function mode(value: string | undefined): "test" | "live" {
  if (value === undefined) return "test";
  if (value !== "test" && value !== "live")
    throw new Refusal("invalid_request", "--mode must be test or live.");
  return value;
}

/**
 * The JWK Set in FILE (relative to where the command was typed), parsed; checked by the store. A
 * file over the size of a fetched set (64 kB) is refused before it is read (decision 149).
 */
function jwksFile(file: string | undefined): unknown {
  if (file === undefined) return undefined;
  const where = path.resolve(process.env.INIT_CWD ?? process.cwd(), file);
  return readJsonFile(
    where,
    file,
    {
      cannotRead: `Cannot read the JWK Set file ${file}.`,
      notJson: `The JWK Set file ${file} is not JSON.`,
    },
    JWKS_MAX_BYTES,
  );
}

/**
 * CDS clients: the EHRs an account lets call its CDS Hooks services (decisions 121, 123 and 147).
 * `add` prints the account's CDS Hooks base URL, the one to give the EHR.
 */
export const cdsCommands: CommandTable = {
  "cds-clients add": async (args, { db }) => {
    const env = parseEnv();
    const summary = await registerCdsClient(db, {
      accountId: text(args, "account") as string,
      iss: text(args, "iss") as string,
      mode: mode(text(args, "mode", false)),
      jkus: list(args, "jku"),
      jwks: jwksFile(text(args, "jwks", false)),
      allowPrivate: args.flags.get("allow-private") === true,
      // A test-mode client's jku on loopback follows the deployment's setting, as its fetches will.
      allowLoopback: loopbackWebhooksAllowed(env),
    });
    return { ...summary, cdsHooksBaseUrl: `${publicBaseUrl(env)}/cds-hooks/${summary.accountId}` };
  },
  "cds-clients list": async (args, { db }) => listCdsClients(db, text(args, "account") as string),
  "cds-clients revoke": async (args, { db }) => revokeCdsClient(db, text(args, "id") as string),
};

export const cdsUsage = [
  "cds-clients add --account ID --iss URL (--jku URL[,URL] | --jwks FILE) [--mode test|live] [--allow-private]   (prints the EHR's base URL, {PUBLIC_BASE_URL}/cds-hooks/ID)",
  "cds-clients list --account ID",
  "cds-clients revoke --id CLIENT_ID   (its next call is refused)",
];
