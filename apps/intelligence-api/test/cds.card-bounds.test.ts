import { randomUUID } from "node:crypto";
import type { MedicationRequest } from "@medplum/fhirtypes";
import { type Card, MAX_CARDS, MAX_DRAFT_ORDERS } from "@svc/cds-hooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PATIENT_ID } from "../../../packages/fhir/test/inbound-fixtures.js";
import { type CdsTestbed, type HookAnswer, startCdsTestbed } from "./cds-ehr.js";

/**
 * A hostile order hook over real HTTP: many draft orders of one medicine against many active
 * requests of another that interacts with it. The answer must stay bounded in time, memory, size
 * and card count, and the service must keep answering `GET /healthz` within a second while such
 * calls run against it. The bounds are generous: they show "bounded", not "fast".
 */

let bed: CdsTestbed;
beforeAll(async () => {
  bed = await startCdsTestbed();
});
afterAll(() => bed.close());

const RXNORM = "http://www.nlm.nih.gov/research/umls/rxnorm";

/** A compact MedicationRequest of an RxNorm ingredient (tramadol 10689, sertraline 36437). */
const order = (id: string, rxcui: string, status: "draft" | "active"): MedicationRequest => ({
  resourceType: "MedicationRequest",
  id,
  status,
  intent: "order",
  subject: { reference: `Patient/${PATIENT_ID}` },
  medicationCodeableConcept: { coding: [{ system: RXNORM, code: rxcui }] },
});

/** order-sign with `n` tramadol drafts against `n` active sertraline requests. */
function explosiveBody(n: number) {
  const ids = Array.from({ length: n }, (_, i) => i);
  return JSON.stringify({
    hook: "order-sign",
    hookInstance: randomUUID(),
    context: {
      userId: "Practitioner/abc",
      patientId: PATIENT_ID,
      draftOrders: {
        resourceType: "Bundle",
        type: "collection",
        entry: ids.map((i) => ({ resource: order(`d-${i}`, "10689", "draft") })),
      },
    },
    prefetch: {
      medications: {
        resourceType: "Bundle",
        type: "searchset",
        entry: ids.map((i) => ({ resource: order(`m-${i}`, "36437", "active") })),
      },
      // Who the patient is (decision 201), so the only cards are the interaction and the cuts.
      patient: { resourceType: "Patient", id: PATIENT_ID, gender: "male", birthDate: "1981-03-14" },
      labs: { resourceType: "Bundle", type: "searchset", entry: [] },
    },
  });
}

/** order-sign with one draft whose medicine name is `chars` long (a name is read up to 256). */
function longNameBody(chars: number) {
  const draft = {
    ...order("d-long", "10689", "draft"),
    medicationCodeableConcept: { text: `Tramadol ${"x".repeat(chars)}` },
  };
  return JSON.stringify({
    hook: "order-sign",
    hookInstance: randomUUID(),
    context: {
      userId: "Practitioner/abc",
      patientId: PATIENT_ID,
      draftOrders: { resourceType: "Bundle", type: "collection", entry: [{ resource: draft }] },
    },
    prefetch: {
      medications: {
        resourceType: "Bundle",
        type: "searchset",
        entry: [{ resource: order("m-1", "36437", "active") }],
      },
    },
  });
}

interface Timed {
  answer: HookAnswer;
  ms: number;
}

async function timedCall(body: string): Promise<Timed> {
  const started = performance.now();
  const answer = await bed.callHook("psych-interactions-sign", body);
  return { answer, ms: performance.now() - started };
}

/** Polls /healthz every 50 ms until `work` settles; the slowest answer and the highest RSS seen. */
async function probeWhile<T>(work: Promise<T>): Promise<{ result: T; slowestMs: number; peakRss: number }> {
  let done = false;
  let slowestMs = 0;
  let peakRss = process.memoryUsage().rss;
  const settled = work.finally(() => {
    done = true;
  });
  while (!done) {
    const started = performance.now();
    const response = await fetch(`${bed.url}/healthz`);
    expect(response.status).toBe(200);
    await response.text();
    slowestMs = Math.max(slowestMs, performance.now() - started);
    peakRss = Math.max(peakRss, process.memoryUsage().rss);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { result: await settled, slowestMs, peakRss };
}

function expectBounded({ answer, ms }: Timed) {
  expect(answer.status).toBe(200);
  const cards = answer.json.cards as Card[];
  expect(cards.length).toBeGreaterThan(0);
  expect(cards.length).toBeLessThanOrEqual(MAX_CARDS);
  expect(answer.text.length).toBeLessThan(256 * 1024);
  expect(ms).toBeLessThan(10_000);
  // One card for the medicine pair, naming the orders and offering to remove every draft read.
  const interaction = cards.filter((c) => c.source.url.endsWith("/interaction-serotonergic-tramadol"));
  expect(interaction).toHaveLength(1);
  expect(interaction[0]?.indicator).toBe("critical");
  expect(cards[0]).toBe(interaction[0]);
  const deletes = interaction[0]?.suggestions?.flatMap((s) => s.actions) ?? [];
  expect(deletes).toHaveLength(MAX_DRAFT_ORDERS);
  // The truncation is said on a card, never silence.
  const notChecked = cards.find((c) => c.source.url.endsWith("/interaction-not-checked"));
  expect(notChecked?.detail).toMatch(/only the first 50 were read/);
  return cards;
}

describe("order hooks under a card explosion", () => {
  it("1,000 drafts x 1,000 active requests: one interaction card, bounded time, memory and size", async () => {
    const body = explosiveBody(1_000);
    const before = process.memoryUsage().rss;
    const { result, slowestMs, peakRss } = await probeWhile(timedCall(body));
    expectBounded(result);
    expect(slowestMs).toBeLessThan(1_000);
    expect(peakRss - before).toBeLessThan(512 * 1024 * 1024);
    // The request's log line carries counts, not a list per card.
    const line = bed.logs.map((l) => JSON.parse(l)).findLast((l) => l.msg === "cds hook answered");
    expect(line).toMatchObject({
      cards: 2,
      cardsOmitted: 0,
      indicators: { critical: 1, info: 1 },
      rules: { "interaction-serotonergic-tramadol": 1, "interaction-not-checked": 1 },
    });
    expect(JSON.stringify(line).length).toBeLessThan(2_048);
  }, 120_000);

  it("keeps answering /healthz within 1 s while 1,000 x 1,000, 1,500 x 1,500 (near the 1 MB body limit) and a 900 kB medicine name run", async () => {
    const near = explosiveBody(1_500);
    expect(near.length).toBeGreaterThan(512 * 1024);
    expect(near.length).toBeLessThan(1024 * 1024);
    const { result, slowestMs } = await probeWhile(
      Promise.all([
        timedCall(explosiveBody(1_000)),
        timedCall(near),
        timedCall(longNameBody(900_000)),
        timedCall(explosiveBody(1_000)),
      ]),
    );
    const [first, second, longName, fourth] = result;
    for (const timed of [first, second, fourth]) expectBounded(timed as Timed);
    // A 900 kB medicine name is not read: said as not checked, answered without parsing it.
    expect(longName?.answer.status).toBe(200);
    expect(longName?.answer.json.cards?.map((c) => c.source.url.split("/").pop())).toEqual([
      "interaction-not-checked",
    ]);
    expect(slowestMs).toBeLessThan(1_000);
  }, 120_000);
});
