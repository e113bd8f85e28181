import type { DbHandle } from "@svc/db";
import { LabResultsSchema } from "@svc/http";
import { LAB_ORDER_STATUSES, transitionLabOrder } from "@svc/records";
import { Refusal } from "@svc/refusal";
import type { ParsedArgs } from "../args.js";
import { type CommandTable, readJsonFile, text } from "../command.js";

/**
 * Operator lab commands (decision 34): provider authorization and the later moves of a lab order, in
 * any mode, through the same transition function and events as the API. A live order enters
 * `resulted` only with the laboratory's results (`--results-file`); test orders get sandbox
 * results. Webhook deliveries written here are picked up by the outbox sweeper.
 */

function readResults(args: ParsedArgs) {
  const file = text(args, "results-file", false);
  if (file === undefined) return undefined;
  const cannotRead = `Cannot read JSON results from ${file}.`;
  const raw = readJsonFile(file, file, { cannotRead, notJson: cannotRead });
  const parsed = LabResultsSchema.safeParse(raw);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    throw new Refusal(
      "invalid_request",
      `The results in ${file} are not { observedAt, biomarkers: [...] }: ${first?.path.join(".") || "(root)"} ${first?.message ?? ""}`.trim(),
    );
  }
  return parsed.data;
}

async function move(
  handle: DbHandle,
  input: { id: string; to?: string; expectFrom?: "requested"; results?: ReturnType<typeof readResults> },
) {
  if (input.to !== undefined && !(LAB_ORDER_STATUSES as readonly string[]).includes(input.to)) {
    throw new Refusal(
      "invalid_request",
      `Unknown status "${input.to}"; valid: ${LAB_ORDER_STATUSES.join(", ")}.`,
    );
  }
  try {
    const outcome = await transitionLabOrder(handle.db, input);
    return {
      id: outcome.order.id,
      mode: outcome.order.mode,
      from: outcome.from,
      status: outcome.order.status,
      events: outcome.eventIds,
      hasResults: outcome.order.results !== null,
    };
  } catch (error) {
    // The operator gave the id: name it (the API's not_found message does not).
    if (error instanceof Refusal && error.code === "not_found") {
      throw new Refusal("not_found", `No lab order ${input.id}.`);
    }
    throw error;
  }
}

export const labCommands: CommandTable = {
  "labs authorize": async (args, handle) =>
    move(handle, { id: text(args, "id") as string, to: "authorized", expectFrom: "requested" }),
  "labs advance": async (args, handle) =>
    move(handle, {
      id: text(args, "id") as string,
      to: text(args, "to", false),
      results: readResults(args),
    }),
};

export const labUsage = [
  "labs authorize --id LABORD_ID   (provider authorization: requested -> authorized)",
  "labs advance --id LABORD_ID [--to STATUS] [--results-file FILE.json]   (next state, or STATUS when legal)",
];
