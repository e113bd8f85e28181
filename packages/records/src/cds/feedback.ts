import {
  and,
  type CdsFeedbackOutcome,
  cdsFeedback,
  cdsIssuedCards,
  type Db,
  desc,
  eq,
  gt,
  inArray,
  lt,
} from "@svc/db";
import { newId } from "@svc/ids";

/**
 * Feedback a CDS client sent on our cards (CDS Hooks: accepted suggestions, overrides with their
 * reason), decision 151. Feedback is taken only on cards a hook call of the same service issued
 * to the same client within the last CDS_ISSUED_CARD_DAYS, remembered in the database so every
 * replica agrees. The same card may be reported more than once: a report is stored once per
 * client, card and outcome (the outcome time is the client's to choose, so it is not part of
 * what makes a report new), and a repeat is accepted and not stored again.
 */

/**
 * How long a card answered to a client can receive feedback (decision 151): a clinician acts on
 * a card within the session, and CDS Hooks lets a card ignored at first be acted on later; a week
 * covers a card reopened on a later shift and keeps the table to a week of cards.
 */
export const CDS_ISSUED_CARD_DAYS = 7;
const DAY_MS = 24 * 60 * 60 * 1000;

/** Rows a statement inserts: 5 parameters each, far under PostgreSQL's 65,535 per statement. */
const ISSUED_CARDS_PER_STATEMENT = 1_000;

/**
 * Remember the cards one hook call answered to a client: one statement per 1,000 cards (an answer
 * holds far fewer, its cards being capped), none for an answer without cards.
 */
export async function rememberIssuedCards(
  db: Db,
  issued: { clientId: string; serviceId: string; cardUuids: readonly string[] },
  now: Date = new Date(),
): Promise<void> {
  const expiresAt = new Date(now.getTime() + CDS_ISSUED_CARD_DAYS * DAY_MS);
  for (let start = 0; start < issued.cardUuids.length; start += ISSUED_CARDS_PER_STATEMENT) {
    const batch = issued.cardUuids.slice(start, start + ISSUED_CARDS_PER_STATEMENT);
    await db
      .insert(cdsIssuedCards)
      .values(
        batch.map((cardUuid) => ({
          clientId: issued.clientId,
          cardUuid,
          serviceId: issued.serviceId,
          issuedAt: now,
          expiresAt,
        })),
      )
      .onConflictDoNothing();
  }
}

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

/** The outcome of a feedback POST: what was stored, or the reports naming cards never issued. */
export type CdsFeedbackResult =
  | { ok: true; stored: number; repeated: number }
  | { ok: false; unknownCards: number[] };

/**
 * Store a feedback POST's items in one statement, all or nothing: when any report names a card
 * this service did not issue to this client within CDS_ISSUED_CARD_DAYS, nothing is stored and
 * the indexes of those reports are answered.
 */
export async function recordCdsFeedback(
  db: Db,
  sender: CdsFeedbackSender,
  serviceId: string,
  items: CdsFeedbackItem[],
  now: Date = new Date(),
): Promise<CdsFeedbackResult> {
  if (items.length === 0) return { ok: true, stored: 0, repeated: 0 };
  const named = [...new Set(items.map((item) => item.card))];
  const issued = await db
    .select({ card: cdsIssuedCards.cardUuid })
    .from(cdsIssuedCards)
    .where(
      and(
        eq(cdsIssuedCards.clientId, sender.clientId),
        eq(cdsIssuedCards.serviceId, serviceId),
        inArray(cdsIssuedCards.cardUuid, named),
        gt(cdsIssuedCards.expiresAt, now),
      ),
    );
  const known = new Set(issued.map((row) => row.card));
  const unknownCards = items.flatMap((item, index) => (known.has(item.card) ? [] : [index]));
  if (unknownCards.length > 0) return { ok: false, unknownCards };
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
    .onConflictDoNothing({ target: [cdsFeedback.clientId, cdsFeedback.cardUuid, cdsFeedback.outcome] })
    .returning({ id: cdsFeedback.id });
  return { ok: true, stored: inserted.length, repeated: items.length - inserted.length };
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

/** A feedback id as `listCdsFeedback` takes it for `before` (a page link's cursor). */
export const CDS_FEEDBACK_ID = /^cdsfb_[0-9a-z]{26}$/;

/**
 * An account's feedback, newest first, `limit` at a time (keyset on the time-sortable id:
 * `before` the last one seen); `hasMore` when an older page exists.
 */
export async function listCdsFeedback(
  db: Db,
  input: { accountId: string; limit?: number; before?: string },
): Promise<{ feedback: CdsFeedbackRow[]; hasMore: boolean }> {
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
    .limit(limit + 1);
  return {
    hasMore: rows.length > limit,
    feedback: rows.slice(0, limit).map((row) => ({
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
