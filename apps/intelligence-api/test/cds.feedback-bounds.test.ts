import { randomUUID } from "node:crypto";
import { cdsFeedback, cdsIssuedCards, eq, purgeExpiredEvents } from "@svc/db";
import { CDS_ISSUED_CARD_DAYS, recordCdsFeedback, rememberIssuedCards } from "@svc/records";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PATIENT_ID, phq9 } from "../../../packages/fhir/test/inbound-fixtures.js";
import { type CdsTestbed, PUBLIC_BASE, startCdsTestbed } from "./cds-ehr.js";

/**
 * Feedback cannot be flooded (decision 151), over real HTTP with the EHR's own JWTs: reports are
 * taken only on cards a hook call answered to this client, once per card and outcome whatever
 * outcome time the client claims, each report counted against the account's daily quota (the
 * sandbox plan's 100 a key), and old rows purged with the events.
 */

const SERVICE = "psych-patient-view";
let bed: CdsTestbed;
let cards: string[];

function daysAgo(days: number): string {
  return new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);
}

beforeAll(async () => {
  bed = await startCdsTestbed();
  const answer = await bed.callHook(SERVICE, {
    hook: "patient-view",
    hookInstance: randomUUID(),
    context: { userId: "Practitioner/abc", patientId: PATIENT_ID },
    prefetch: {
      scores: {
        resourceType: "Bundle",
        type: "searchset",
        entry: [phq9("p1", 5, daysAgo(80)), phq9("p2", 9, daysAgo(40)), phq9("p3", 17, daysAgo(3))].map(
          (resource) => ({ resource }),
        ),
      },
      labs: null,
      medications: null,
    },
  });
  expect(answer.status).toBe(200);
  cards = (answer.json.cards ?? []).map((card) => card.uuid);
  expect(cards.length).toBeGreaterThan(0);
});
afterAll(() => bed.close());

function report(card: string, extra: Record<string, unknown> = {}) {
  return {
    card,
    outcome: "overridden",
    overrideReason: { userComment: "c".repeat(2_000) },
    outcomeTimestamp: new Date().toISOString(),
    ...extra,
  };
}

async function postFeedback(feedback: unknown[]) {
  const response = await fetch(`${bed.url}${bed.basePath}/${SERVICE}/feedback`, {
    method: "POST",
    headers: {
      authorization: `Bearer ${await bed.jwt(`${PUBLIC_BASE}${bed.basePath}/${SERVICE}/feedback`)}`,
      "content-type": "application/json",
    },
    body: JSON.stringify({ feedback }),
  });
  const text = await response.text();
  return {
    status: response.status,
    remaining: Number(response.headers.get("x-ratelimit-remaining")),
    json: text ? JSON.parse(text) : null,
  };
}

async function storedRows() {
  return bed.db.handle.db.select().from(cdsFeedback);
}

describe("feedback on /cds-services/{id}/feedback (decision 151)", () => {
  it("a report on a card never issued to this client refuses the POST, naming each such report; nothing stored", async () => {
    const known = cards[0] as string;
    const answer = await postFeedback([report(known), report(randomUUID()), report(randomUUID())]);
    expect(answer.status).toBe(400);
    expect(answer.json.error.code).toBe("invalid_request");
    expect(answer.json.error.issues.map((i: { path: string }) => i.path)).toEqual([
      "feedback.1.card",
      "feedback.2.card",
    ]);
    expect(answer.json.error.issues[0].message).toContain(`last ${CDS_ISSUED_CARD_DAYS} days`);
    expect(await storedRows()).toHaveLength(0);
  });

  it("a card issued to the client by another service is not taken on this one", async () => {
    const other = randomUUID();
    const [client] = await bed.db.handle.db.select({ id: cdsIssuedCards.clientId }).from(cdsIssuedCards);
    await rememberIssuedCards(bed.db.handle.db, {
      clientId: client?.id as string,
      serviceId: "psych-interactions-sign",
      cardUuids: [other],
    });
    expect((await postFeedback([report(other)])).status).toBe(400);
  });

  it("the same card and outcome is stored once, whatever outcome time the client claims; each report costs one request", async () => {
    const card = cards[0] as string;
    const first = await postFeedback([report(card)]);
    expect(first.status).toBe(200);
    const times = Array.from({ length: 10 }, (_, i) => new Date(Date.UTC(2020, 0, 1 + i)).toISOString());
    const again = await postFeedback(times.map((outcomeTimestamp) => report(card, { outcomeTimestamp })));
    expect(again.status).toBe(200);
    expect(await storedRows()).toHaveLength(1);
    // The POST itself is one request and each further report one more: 10 reports, 10 requests.
    expect(first.remaining - again.remaining).toBe(10);
  });

  it("a flood of 100 reports with 2,000-character comments draws 100 from the quota: 429 once it is spent, nothing stored", async () => {
    const before = (await storedRows()).length;
    const flood = Array.from({ length: 100 }, () => report(randomUUID()));
    const answer = await postFeedback(flood);
    expect(answer.status).toBe(429);
    expect(answer.json.error.code).toBe("rate_limited");
    expect((await storedRows()).length).toBe(before);
  });
});

describe("issued cards", () => {
  it("an answer of 2,500 cards is remembered in statements PostgreSQL accepts, every card of it", async () => {
    const db = bed.db.handle.db;
    const [client] = await db.select({ id: cdsIssuedCards.clientId }).from(cdsIssuedCards);
    const many = Array.from({ length: 2_500 }, () => randomUUID());
    await rememberIssuedCards(db, { clientId: client?.id as string, serviceId: "bulk", cardUuids: many });
    const stored = await db.select().from(cdsIssuedCards).where(eq(cdsIssuedCards.serviceId, "bulk"));
    expect(stored).toHaveLength(2_500);
  });
});

describe("retention", () => {
  it("purgeExpiredEvents removes feedback older than 30 days and issued cards past their window", async () => {
    const db = bed.db.handle.db;
    const [row] = await storedRows();
    expect(row).toBeDefined();
    const now = new Date();
    const old = new Date(now.getTime() - 31 * 86_400_000);
    await db
      .update(cdsFeedback)
      .set({ receivedAt: old })
      .where(eq(cdsFeedback.id, row?.id as string));
    const cardsBefore = (await db.select().from(cdsIssuedCards)).length;
    await db
      .update(cdsIssuedCards)
      .set({ expiresAt: new Date(now.getTime() - 1_000) })
      .where(eq(cdsIssuedCards.cardUuid, cards[0] as string));
    const result = await purgeExpiredEvents(db, now);
    expect(result).toMatchObject({ cdsFeedback: 1, cdsIssuedCards: 1 });
    expect(await storedRows()).toHaveLength(0);
    expect((await db.select().from(cdsIssuedCards)).length).toBe(cardsBefore - 1);
    // The purged card can no longer receive feedback (the HTTP quota is spent by the flood above).
    const sender = {
      clientId: row?.clientId as string,
      accountId: row?.accountId as string,
      mode: "test" as const,
    };
    const item = {
      card: cards[0] as string,
      outcome: "accepted" as const,
      outcomeTimestamp: now,
      acceptedSuggestions: ["s"],
    };
    expect(await recordCdsFeedback(db, sender, SERVICE, [item])).toEqual({ ok: false, unknownCards: [0] });
  });
});
