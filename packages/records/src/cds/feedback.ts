import { and, type CdsFeedbackOutcome, cdsFeedback, type Db, desc, eq, lt } from "@svc/db";
import { newId } from "@svc/ids";

/**
 * Feedback a CDS client sent on our cards (CDS Hooks: accepted suggestions, overrides with their
 * reason). The same card may be reported more than once: a report is stored once per client,
 * card, outcome and outcome time (decision 124), and a repeat is accepted and not stored again.
 */

export interface CdsFeedbackItem {
  card: string;
  outcome: CdsFeedbackOutcome;
  outcomeTimestamp: Date;
  acceptedSuggestions?: string[];
  overrideReason?: {
    reason?: { system?: string; code?: string; display?: string };
    userComment?: string;
  };
}

export interface CdsFeedbackSender {
  clientId: string;
  accountId: string;
  mode: "test" | "live";
}

/** Store a feedback POST's items in one statement; how many were new and how many repeats. */
export async function recordCdsFeedback(
  db: Db,
  sender: CdsFeedbackSender,
  serviceId: string,
  items: CdsFeedbackItem[],
): Promise<{ stored: number; repeated: number }> {
  if (items.length === 0) return { stored: 0, repeated: 0 };
  const rows = items.map((item) => ({
    id: newId("cdsfb"),
    clientId: sender.clientId,
    accountId: sender.accountId,
    mode: sender.mode,
    serviceId,
    cardUuid: item.card,
    outcome: item.outcome,
    outcomeTimestamp: item.outcomeTimestamp,
    acceptedSuggestions: item.acceptedSuggestions ?? null,
    overrideReasonSystem: item.overrideReason?.reason?.system ?? null,
    overrideReasonCode: item.overrideReason?.reason?.code ?? null,
    overrideReasonDisplay: item.overrideReason?.reason?.display ?? null,
    overrideComment: item.overrideReason?.userComment ?? null,
  }));
  const inserted = await db
    .insert(cdsFeedback)
    .values(rows)
    .onConflictDoNothing({
      target: [cdsFeedback.clientId, cdsFeedback.cardUuid, cdsFeedback.outcome, cdsFeedback.outcomeTimestamp],
    })
    .returning({ id: cdsFeedback.id });
  return { stored: inserted.length, repeated: items.length - inserted.length };
}

/** One stored report, as the dashboard lists it. */
export interface CdsFeedbackRow {
  id: string;
  clientId: string;
  mode: "test" | "live";
  serviceId: string;
  card: string;
  outcome: CdsFeedbackOutcome;
  outcomeTimestamp: string;
  acceptedSuggestions: string[];
  overrideReason: { system: string | null; code: string | null; display: string | null } | null;
  userComment: string | null;
  receivedAt: string;
}

/** An account's feedback, newest first, `limit` at a time (keyset on id: `before` the last one seen). */
export async function listCdsFeedback(
  db: Db,
  input: { accountId: string; limit?: number; before?: string },
): Promise<{ feedback: CdsFeedbackRow[] }> {
  const limit = Math.min(Math.max(input.limit ?? 50, 1), 200);
  const rows = await db
    .select()
    .from(cdsFeedback)
    .where(
      and(
        eq(cdsFeedback.accountId, input.accountId),
        input.before ? lt(cdsFeedback.id, input.before) : undefined,
      ),
    )
    .orderBy(desc(cdsFeedback.id))
    .limit(limit);
  return {
    feedback: rows.map((row) => ({
      id: row.id,
      clientId: row.clientId,
      mode: row.mode,
      serviceId: row.serviceId,
      card: row.cardUuid,
      outcome: row.outcome,
      outcomeTimestamp: row.outcomeTimestamp.toISOString(),
      acceptedSuggestions: row.acceptedSuggestions ?? [],
      overrideReason:
        row.overrideReasonSystem || row.overrideReasonCode || row.overrideReasonDisplay
          ? {
              system: row.overrideReasonSystem,
              code: row.overrideReasonCode,
              display: row.overrideReasonDisplay,
            }
          : null,
      userComment: row.overrideComment,
      receivedAt: row.receivedAt.toISOString(),
    })),
  };
}
