import type { Observation } from "@medplum/fhirtypes";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  CardSchema,
  CDS_RULES,
  CdsResponseSchema,
  clipSummary,
  isCleanJson,
  parseHookRequest,
  pruneEmpty,
  runCdsService,
  SUMMARY_MAX,
} from "../src/index.js";
import {
  anc,
  draft,
  gad7,
  lithium,
  medicationRequest,
  NOW,
  options,
  orderRequest,
  patientViewRequest,
  phq9,
  searchset,
  service,
  sodium,
  valproate,
} from "./fixtures.js";

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

describe("card rules (property)", () => {
  it("clipSummary: under 140 UTF-16 units, never a split surrogate pair, unchanged when short", () => {
    fc.assert(
      fc.property(
        fc.string({
          unit: fc.constantFrom("grapheme", "binary-ascii", "grapheme-composite"),
          maxLength: 400,
        }),
        (text) => {
          const clipped = clipSummary(text);
          expect(clipped.length).toBeLessThanOrEqual(SUMMARY_MAX);
          expect(LONE_SURROGATE.test(clipped)).toBe(false);
          const collapsed = text.replace(/\s+/g, " ").trim();
          if (collapsed.length <= SUMMARY_MAX) expect(clipped).toBe(collapsed);
          else expect(clipped.endsWith("…")).toBe(true);
        },
      ),
    );
    expect(clipSummary(`${"a".repeat(137)}😀😀`)).toBe(`${"a".repeat(137)}…`);
  });

  it("the response schema refuses what the card rules forbid", () => {
    const card = {
      uuid: "u",
      summary: "s",
      indicator: "info",
      source: { label: "l", url: "https://x.org/cds-rules/r" },
    };
    expect(CardSchema.safeParse(card).success).toBe(true);
    const suggestion = {
      label: "Remove",
      actions: [{ type: "delete", description: "d", resourceId: "MedicationRequest/1" }],
    };
    expect(CardSchema.safeParse({ ...card, suggestions: [suggestion] }).success).toBe(false);
    expect(CardSchema.safeParse({ ...card, summary: "x".repeat(140) }).success).toBe(false);
    expect(CardSchema.safeParse({ ...card, detail: "" }).success).toBe(false);
    expect(CardSchema.safeParse({ ...card, links: [] }).success).toBe(false);
    expect(CardSchema.safeParse({ ...card, indicator: "hard-stop" }).success).toBe(false);
  });

  it("pruneEmpty leaves no null, undefined or empty value anywhere", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const pruned = pruneEmpty(value);
        if (pruned !== undefined) expect(isCleanJson(pruned)).toBe(true);
      }),
    );
  });

  const date = fc.oneof(
    fc.integer({ min: 0, max: 500 }).map((days) => new Date(NOW.getTime() - days * 86_400_000).toISOString()),
    fc.constantFrom("2026-11-20", "2026-11", "garbage", "2030-01-01"),
  );
  const status = fc.constantFrom("final", "final", "amended", "preliminary", "entered-in-error");
  const flag = fc.option(fc.constantFrom("H", "L", "HH", "LL", "N", "A", "AA", "X"), { nil: undefined });
  const score = fc.oneof(fc.integer({ min: -3, max: 30 }), fc.double({ min: -5, max: 40, noNaN: true }));
  const observation = fc.oneof(
    fc.tuple(score, date, status).map(([s, d, st]): Observation => ({ ...phq9("p", s, d), status: st })),
    fc.tuple(score, date, status).map(([s, d, st]): Observation => ({ ...gad7("g", s, d), status: st })),
    fc
      .tuple(
        fc.double({ min: -1, max: 20, noNaN: true }),
        date,
        flag,
        fc.constantFrom("mmol/L", "meq/L", "mg/dL", ""),
      )
      .map(([v, d, f, u]) => lithium("l", v, d, f, u)),
    fc
      .tuple(fc.double({ min: 50, max: 250, noNaN: true }), date, flag)
      .map(([v, d, f]) => sodium("s", v, d, f)),
    fc.tuple(fc.double({ min: 0, max: 30, noNaN: true }), date, flag).map(([v, d, f]) => anc("a", v, d, f)),
    fc
      .tuple(fc.double({ min: 0, max: 300, noNaN: true }), date, flag)
      .map(([v, d, f]) => valproate("v", v, d, f)),
  );
  const withIds = (items: Observation[]): Observation[] =>
    items.map((item, i) => ({ ...item, id: `${item.id}-${i}` }));
  const medicine = fc.constantFrom(
    { rxnorm: "36437" },
    { rxnorm: "2626" },
    { text: "Lithium carbonate 400 mg" },
    { text: "Tramadol 50 mg" },
    { text: "Sodium valproate 500 mg" },
    { text: "Ibuprofen 400 mg" },
    { text: "Unknown herbal" },
  );
  const medStatus = fc.constantFrom("active", "active", "on-hold", "stopped", "draft");
  const meds = fc
    .array(fc.tuple(medicine, medStatus, date), { maxLength: 6 })
    .map((list) => list.map(([m, st, d], i) => medicationRequest(`m${i}`, m, st as "active", d)));
  const keyValue = <T>(bundle: fc.Arbitrary<T>) =>
    fc.oneof(fc.constant("absent" as const), fc.constant(null), bundle);

  it("every patient-view card over random FHIR data follows the card rules", () => {
    fc.assert(
      fc.property(
        keyValue(fc.array(observation, { maxLength: 8 }).map((o) => searchset(withIds(o)))),
        keyValue(fc.array(observation, { maxLength: 8 }).map((o) => searchset(withIds(o)))),
        keyValue(meds.map(searchset)),
        (scores, labs, medications) => {
          const prefetch: Record<string, unknown> = {};
          if (scores !== "absent") prefetch.scores = scores;
          if (labs !== "absent") prefetch.labs = labs;
          if (medications !== "absent") prefetch.medications = medications;
          const parsed = parseHookRequest(service("psych-patient-view"), patientViewRequest(prefetch));
          if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
          const result = runCdsService(parsed, prefetch, options());
          expect(CdsResponseSchema.safeParse({ cards: result.cards }).success).toBe(true);
          for (const card of result.cards) {
            expect(isCleanJson(card)).toBe(true);
            expect(card.summary.length).toBeLessThan(140);
            expect(["info", "warning", "critical"]).toContain(card.indicator);
            expect(card.source.url).toMatch(/^https:\/\/cds\.example\.org\/cds-rules\//);
            expect(CDS_RULES.some((r) => card.source.url.endsWith(`/${r.id}`))).toBe(true);
            expect(card.summary).not.toMatch(/\bnormal\b/i);
          }
        },
      ),
      { numRuns: 150 },
    );
  });

  it("every order-sign card over random orders follows the card rules; suggestions always carry selectionBehavior", () => {
    fc.assert(
      fc.property(
        fc.array(medicine, { minLength: 1, maxLength: 4 }),
        keyValue(meds.map(searchset)),
        (drafts, medications) => {
          const prefetch: Record<string, unknown> = medications === "absent" ? {} : { medications };
          const body = orderRequest(
            "order-sign",
            drafts.map((m, i) => draft(`d${i}`, m)),
            prefetch,
          );
          const parsed = parseHookRequest(service("psych-interactions-sign"), body);
          if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
          const result = runCdsService(parsed, prefetch, options());
          for (const card of result.cards) {
            expect(CardSchema.safeParse(card).success).toBe(true);
            expect(isCleanJson(card)).toBe(true);
            expect(card.summary.length).toBeLessThan(140);
            if (card.suggestions) {
              expect(card.selectionBehavior).toBe("at-most-one");
              for (const s of card.suggestions)
                for (const a of s.actions)
                  expect(a).toMatchObject({
                    type: "delete",
                    resourceId: expect.stringMatching(/^MedicationRequest\/d\d+$/),
                  });
            }
            if (card.overrideReasons) expect(card.overrideReasons.every((r) => r.display !== "")).toBe(true);
          }
        },
      ),
      { numRuns: 150 },
    );
  });
});
