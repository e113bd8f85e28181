import type { Bundle, MedicationRequest } from "@medplum/fhirtypes";
import { MAX_DISPLAYS_READ } from "@svc/fhir";
import { describe, expect, it } from "vitest";
import { firstResources } from "../src/bounded-source.js";
import { limitCards } from "../src/card-limit.js";
import {
  type Card,
  escapeMarkdown,
  foundCard,
  type Indicator,
  MAX_ACTIVE_REQUESTS,
  MAX_CARDS,
  MAX_DRAFT_ORDERS,
  MAX_LAB_ENTRIES,
  MAX_REQUEST_ISSUES,
  ORDERS_NAMED,
  parseHookRequest,
  requireRule,
  runCdsService,
} from "../src/index.js";
import { newRecorder, type RunContext } from "../src/run-context.js";
import {
  BASE,
  draft,
  lithium,
  medicationRequest,
  NOW,
  options,
  orderRequest,
  patientViewRequest,
  searchset,
  service,
  withOrderFacts,
  withPatientFacts,
} from "./fixtures.js";

/**
 * Every list a caller controls is cut before it is read, every cut is said, and no answer holds
 * more than MAX_CARDS cards, the most severe first (decisions 142 and 143).
 */

function run(serviceId: string, body: { prefetch?: Record<string, unknown> }) {
  const parsed = parseHookRequest(service(serviceId), body);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
  const facts = serviceId === "psych-patient-view" ? withPatientFacts : withOrderFacts;
  return runCdsService(parsed, facts(body.prefetch), options());
}

const tramadol = (i: number) => draft(`d${i}`, { rxnorm: "10689", display: "tramadol" });
const sertraline = (i: number) => medicationRequest(`m${i}`, { rxnorm: "36437" }, "active", "2026-10-01");

describe("order hooks: one card per interaction rule and pair of medicines", () => {
  it("3 tramadol drafts x 2 active sertraline requests: one card naming the 5 orders, one suggestion removing the 3 drafts", () => {
    const result = run(
      "psych-interactions-sign",
      orderRequest("order-sign", [0, 1, 2].map(tramadol), { medications: searchset([0, 1].map(sertraline)) }),
    );
    expect(result.rules).toEqual(["interaction-serotonergic-tramadol"]);
    const card = result.cards[0] as Card;
    expect(card.summary).toBe(
      "Tramadol with sertraline: serotonin syndrome and seizure risk (high severity)",
    );
    expect(card.detail).toContain("**Orders with tramadol:** 3 draft orders, 0 active medications.");
    expect(card.detail).toContain("**Orders with sertraline:** 0 draft orders, 2 active medications.");
    expect(card.detail).toContain(
      `- Active medication ${escapeMarkdown("MedicationRequest/m1")}: sertraline`,
    );
    expect(card.suggestions).toHaveLength(1);
    expect(card.suggestions?.[0]).toMatchObject({
      label: "Remove the 3 draft orders for tramadol",
      isRecommended: true,
    });
    expect(card.suggestions?.[0]?.actions.map((a) => a.resourceId)).toEqual([
      "MedicationRequest/d0",
      "MedicationRequest/d1",
      "MedicationRequest/d2",
    ]);
  });

  it("200 x 200 (the issue's 87 MB answer) is one card plus the cuts, named orders bounded", () => {
    const result = run(
      "psych-interactions-sign",
      orderRequest(
        "order-sign",
        Array.from({ length: 200 }, (_, i) => tramadol(i)),
        {
          medications: searchset(Array.from({ length: 200 }, (_, i) => sertraline(i))),
        },
      ),
    );
    expect(result.rules).toEqual(["interaction-serotonergic-tramadol", "interaction-not-checked"]);
    const [card, notChecked] = result.cards as [Card, Card];
    expect(card.detail?.match(/^- (Draft order|Active medication) /gm)).toHaveLength(2 * ORDERS_NAMED);
    expect(card.detail).toContain(`- and ${MAX_DRAFT_ORDERS - ORDERS_NAMED} more.`);
    expect(card.detail).toContain(`- and ${MAX_ACTIVE_REQUESTS - ORDERS_NAMED} more.`);
    expect(card.suggestions?.[0]?.actions).toHaveLength(MAX_DRAFT_ORDERS);
    expect(notChecked.detail).toContain(
      `The draft orders hold 200 MedicationRequests; only the first ${MAX_DRAFT_ORDERS} were read: the other ${200 - MAX_DRAFT_ORDERS} were not checked for interactions.`,
    );
    expect(notChecked.detail).toContain(
      `The active medication list holds 200 entries; only the first ${MAX_ACTIVE_REQUESTS} were read: interactions with the other ${200 - MAX_ACTIVE_REQUESTS} were not checked.`,
    );
    expect(JSON.stringify(result.cards).length).toBeLessThan(64 * 1024);
  });

  it("order sessions holding other resources: only MedicationRequests count toward the draft bound", () => {
    const others = Array.from({ length: 80 }, (_, i) => ({ resourceType: "ServiceRequest", id: `s${i}` }));
    const body = orderRequest("order-sign", [tramadol(1)], { medications: searchset([sertraline(1)]) });
    const bundle = body.context.draftOrders as Bundle;
    bundle.entry = [...others.map((resource) => ({ resource })), ...(bundle.entry ?? [])] as Bundle["entry"];
    expect(run("psych-interactions-sign", body).rules).toEqual(["interaction-serotonergic-tramadol"]);
  });

  it("more distinct medicines than one check compares: the rest are said, never silently dropped", () => {
    const names = ["Lithium carbonate", "Ibuprofen", "Tramadol"];
    const drafts: MedicationRequest[] = Array.from({ length: 60 }, (_, i) =>
      draft(`d${i}`, { text: `${names[i % 3]} ${i + 1} mg` }),
    );
    const result = run(
      "psych-interactions-sign",
      orderRequest("order-sign", drafts, { medications: searchset([]) }),
    );
    const notChecked = result.cards.find((c) => c.source.url.endsWith("/interaction-not-checked"));
    expect(notChecked?.detail).toContain("only the first 50 were read");
    expect(result.cards.length).toBeLessThanOrEqual(MAX_CARDS);
  });

  it("a hostile mix of many interacting medicines stays under MAX_CARDS and a few hundred kB, most severe first", () => {
    const x = "tramadol lithium clozapine phenelzine linezolid warfarin";
    const y = "sertraline ibuprofen fluoxetine citalopram carbamazepine clarithromycin";
    const drafts = Array.from({ length: MAX_DRAFT_ORDERS }, (_, i) =>
      draft(`d${"9".repeat(60)}${i}`, { text: i % 2 === 0 ? x : y }),
    );
    const actives = Array.from({ length: 2 * MAX_ACTIVE_REQUESTS }, (_, i) =>
      medicationRequest(`m${i}`, { text: i % 2 === 0 ? x : y }, "active"),
    );
    const result = run(
      "psych-interactions-sign",
      orderRequest("order-sign", drafts, { medications: searchset(actives) }),
    );
    expect(result.cards.length).toBeLessThanOrEqual(MAX_CARDS);
    expect(JSON.stringify(result.cards).length).toBeLessThan(512 * 1024);
    const ranks = result.cards.slice(0, -1).map((c) => ["critical", "warning", "info"].indexOf(c.indicator));
    expect(ranks).toEqual([...ranks].sort((a, b) => a - b));
    if (result.omittedCards > 0) expect(result.rules.at(-1)).toBe("cards-not-shown");
  });
});

describe("a medicine name is read only up to a length", () => {
  it("a draft whose name is 900 kB is not read, and is said, never parsed", () => {
    const long = `Tramadol ${"x".repeat(900_000)}`;
    const result = run(
      "psych-interactions-sign",
      orderRequest("order-sign", [draft("d1", { text: long })], { medications: searchset([sertraline(1)]) }),
    );
    expect(result.notUsed).toEqual({ unknown_code: 1 });
    expect(result.rules).toEqual(["interaction-not-checked"]);
    expect(result.cards[0]?.detail).toContain(escapeMarkdown("display or text of at most 256 characters"));
  });

  it(`of a concept with thousands of codings, only the first ${MAX_DISPLAYS_READ} displays are tried as names`, () => {
    const junk = Array.from({ length: 3_000 }, (_, i) => ({
      system: "http://www.nlm.nih.gov/research/umls/rxnorm",
      code: `9${i}`,
      display: `unknown product ${i} ${"y".repeat(200)}`,
    }));
    const named = (at: number) => {
      const coding = [...junk];
      coding.splice(at, 0, {
        system: "http://www.nlm.nih.gov/research/umls/rxnorm",
        code: "1",
        display: "tramadol",
      });
      return { ...draft("d1", {}), medicationCodeableConcept: { coding } };
    };
    const sign = (order: MedicationRequest) =>
      run(
        "psych-interactions-sign",
        orderRequest("order-sign", [order], { medications: searchset([sertraline(1)]) }),
      );
    expect(sign(named(MAX_DISPLAYS_READ - 1)).rules).toEqual(["interaction-serotonergic-tramadol"]);
    expect(sign(named(MAX_DISPLAYS_READ)).notUsed).toEqual({ unknown_code: 1 });
  });
});

describe("a request's problems are named up to a bound", () => {
  it("10,000 selections that are not draft orders: 50 issues named, the rest counted", () => {
    const selections = Array.from({ length: 10_000 }, (_, i) => `MedicationRequest/x${i}`);
    const parsed = parseHookRequest(
      service("psych-interactions-select"),
      orderRequest("order-select", [tramadol(1)], {}, selections),
    );
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.issues).toHaveLength(MAX_REQUEST_ISSUES + 1);
    expect(parsed.issues.at(-1)).toEqual({
      path: "",
      message: `and ${10_000 - MAX_REQUEST_ISSUES} more problems of the same request`,
    });
  });
});

describe("patient-view: prefetch lists are cut before reading, and the cut is said", () => {
  it(`more than ${MAX_LAB_ENTRIES} lab entries: the first are read, the data card says how many were not`, () => {
    const labs = Array.from({ length: MAX_LAB_ENTRIES + 50 }, (_, i) =>
      lithium(`l${i}`, 0.7, "2026-11-20", "N"),
    );
    const result = run(
      "psych-patient-view",
      patientViewRequest({ scores: searchset([]), labs: searchset(labs), medications: searchset([]) }),
    );
    const data = result.cards.find((c) => c.source.url.endsWith("/insufficient-data"));
    expect(data?.detail).toContain(
      `laboratory results: ${MAX_LAB_ENTRIES + 50} entries; only the first ${MAX_LAB_ENTRIES} were read.`,
    );
  });
});

describe("patient-view: the biomarker engine's bounded findings (decision 171)", () => {
  it(`${MAX_LAB_ENTRIES} lithium values beyond the plausible range: the card counts every one, though the engine lists a few`, () => {
    const day = (i: number) =>
      new Date(Date.parse("2026-01-01T00:00:00Z") + i * 86_400_000).toISOString().slice(0, 10);
    const labs = Array.from({ length: MAX_LAB_ENTRIES }, (_, i) => lithium(`l${i}`, 50 + i, day(i), "N"));
    const result = run(
      "psych-patient-view",
      patientViewRequest({ scores: searchset([]), labs: searchset(labs), medications: searchset([]) }),
    );
    const unread = result.cards.find((c) => c.summary.endsWith("laboratory value(s) could not be evaluated"));
    expect(unread?.summary).toBe(`${MAX_LAB_ENTRIES} laboratory value(s) could not be evaluated`);
    expect(unread?.detail).toMatch(/and \d+ more\./);
  });
});

describe("the bound on cards per answer (every service)", () => {
  const ctx: RunContext = {
    now: NOW,
    baseUrl: BASE,
    models: {},
    uuid: options().uuid,
    recorder: newRecorder(),
    patientId: "p",
    missingPrefetch: [],
    unreadablePrefetch: [],
    notUsed: [],
  };
  const card = (indicator: Indicator, ruleId: string, n: number) =>
    foundCard(
      { rule: requireRule(ruleId), indicator, summary: `${indicator} ${n}`, detail: [] },
      { baseUrl: BASE, uuid: ctx.uuid },
    );
  /** The cards the bound keeps, as the EHR gets them (the rule each came from stays in the package). */
  const limited = (found: Parameters<typeof limitCards>[0]) => {
    const result = limitCards(found, ctx);
    return { cards: result.cards.map((item) => item.card), omitted: result.omitted };
  };

  it("keeps MAX_CARDS - 1 cards, most severe first (missing-data info before other info), then says how many more", () => {
    const mixed = [
      ...Array.from({ length: 12 }, (_, i) => card("info", "relapse-early-warning", i)),
      card("info", "insufficient-data", 0),
      ...Array.from({ length: 8 }, (_, i) => card("warning", "interaction-ssri-snri-nsaid", i)),
      ...Array.from({ length: 5 }, (_, i) => card("critical", "interaction-serotonergic-tramadol", i)),
    ];
    const { cards, omitted } = limited(mixed);
    expect(cards).toHaveLength(MAX_CARDS);
    expect(omitted).toBe(mixed.length - (MAX_CARDS - 1));
    expect(cards.slice(0, 5).every((c) => c.indicator === "critical")).toBe(true);
    expect(cards.slice(5, 13).every((c) => c.indicator === "warning")).toBe(true);
    expect(cards[13]?.source.url).toMatch(/\/insufficient-data$/);
    expect(cards[13 + 1]?.summary).toBe("info 0");
    const last = cards.at(-1) as Card;
    expect(last.source.url).toBe(`${BASE}/cds-rules/cards-not-shown`);
    expect(last.indicator).toBe("info");
    expect(last.summary).toBe(
      `${omitted} more cards not shown (at most ${MAX_CARDS} per answer); review the patient's record`,
    );
    expect(last.detail).toContain(`Not shown: 0 critical, 0 warning, ${omitted} info.`);
    expect(last.detail).toContain(`- Symptom trajectory and relapse early warning: ${omitted} cards`);
  });

  it("more critical cards than fit: the closing card is critical itself", () => {
    const many = Array.from({ length: MAX_CARDS + 3 }, (_, i) =>
      card("critical", "interaction-serotonergic-tramadol", i),
    );
    const { cards } = limited([card("info", "insufficient-data", 0), ...many]);
    expect(cards.at(-1)?.indicator).toBe("critical");
    expect(cards.at(-1)?.detail).toContain("Not shown: 4 critical, 0 warning, 1 info.");
    expect(cards.filter((c) => c.source.url.endsWith("/insufficient-data"))).toEqual([]);
  });

  it("at most MAX_CARDS: unchanged but ordered", () => {
    const few = [
      card("info", "insufficient-data", 0),
      card("critical", "interaction-serotonergic-tramadol", 0),
    ];
    expect(limitCards(few, ctx)).toEqual({ cards: [few[1], few[0]], omitted: 0 });
  });
});

describe("firstResources: the cut before reading", () => {
  it("keeps the first items in reading order, counts all, keeps the next-page stub after its entries", () => {
    const bundle = {
      resourceType: "Bundle",
      id: "b",
      link: [{ relation: "next", url: "x" }],
      entry: [
        { resource: { n: 1 } },
        { resource: { resourceType: "Bundle", entry: [{ resource: { n: 2 } }] } },
        7,
        {},
      ],
    };
    expect(firstResources([bundle, { n: 3 }], 10)).toEqual({
      items: [
        { n: 1 },
        { n: 2 },
        7,
        { resourceType: "Bundle", id: "b", link: [{ relation: "next" }] },
        { n: 3 },
      ],
      total: 5,
    });
    expect(firstResources([bundle, { n: 3 }], 2)).toEqual({ items: [{ n: 1 }, { n: 2 }], total: 5 });
  });

  it("walks 100,000 nested Bundles without recursion", () => {
    let nested: unknown = { n: 0 };
    for (let i = 0; i < 100_000; i += 1) nested = { resourceType: "Bundle", entry: [{ resource: nested }] };
    expect(firstResources(nested, 5)).toEqual({ items: [{ n: 0 }], total: 1 });
  });
});
