import { describe, expect, it } from "vitest";
import { type Card, escapeMarkdown, isCleanJson, parseHookRequest, runCdsService } from "../src/index.js";
import {
  draft,
  EMPTY_SEARCH,
  medicationRequest,
  options,
  orderRequest,
  searchset,
  service,
  withOrderFacts,
} from "./fixtures.js";

function run(
  serviceId: string,
  body: ReturnType<typeof orderRequest>,
  extraPrefetch?: Record<string, unknown>,
) {
  const parsed = parseHookRequest(service(serviceId), body);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
  return runCdsService(parsed, withOrderFacts({ ...(body.prefetch ?? {}), ...extraPrefetch }), options());
}

const activeSertraline = searchset([medicationRequest("m1", { rxnorm: "36437" }, "active", "2026-10-01")]);

function expectCardRules(cards: Card[]) {
  for (const card of cards) {
    expect(isCleanJson(card)).toBe(true);
    expect(card.summary.length).toBeLessThan(140);
    if (card.suggestions) expect(card.selectionBehavior).toBe("at-most-one");
  }
}

describe("order hooks: patient facts a rule lacks", () => {
  it("a renally cleared draft with no renal function on file is named on the not-checked card, not a card of its own", () => {
    const result = run(
      "psych-interactions-sign",
      orderRequest("order-sign", [draft("d1", { text: "Tramadol 50 mg" })], {
        medications: activeSertraline,
      }),
      { labs: EMPTY_SEARCH },
    );
    const rules = result.cards.map((c) => c.source.url?.split("/cds-rules/")[1]);
    expect(rules).toContain("interaction-serotonergic-tramadol");
    expect(rules).not.toContain("patient-not-evaluated");
    const notChecked = result.cards.find((c) => c.source.url?.endsWith("/interaction-not-checked"));
    expect(notChecked?.detail).toContain("Not evaluated: Renal function not given: tramadol");
  });
});

describe("order-sign: drafts against active medications", () => {
  it("a serotonergic combination (tramadol draft, sertraline active) is one critical card with a delete suggestion", () => {
    const result = run(
      "psych-interactions-sign",
      orderRequest("order-sign", [draft("d1", { text: "Tramadol 50 mg" })], {
        medications: activeSertraline,
      }),
    );
    expect(result.cards).toHaveLength(1);
    const card = result.cards[0] as Card;
    expect(card).toMatchObject({
      indicator: "critical",
      summary: "Tramadol with sertraline: serotonin syndrome and seizure risk (high severity)",
      selectionBehavior: "at-most-one",
      source: { url: "https://cds.example.org/cds-rules/interaction-serotonergic-tramadol" },
    });
    expect(card.suggestions?.[0]?.actions).toEqual([
      {
        type: "delete",
        description: "Remove the draft order MedicationRequest/d1 (tramadol).",
        resourceId: "MedicationRequest/d1",
      },
    ]);
    expect(card.overrideReasons?.every((r) => r.display && r.code && r.system)).toBe(true);
    expect(result.engines).toEqual([{ name: "interactions", version: "rules 2026-11-23" }]);
    expect(result.rules).toEqual(["interaction-serotonergic-tramadol"]);
    expectCardRules(result.cards);
  });

  it("a moderate interaction is a warning (sertraline draft with fluoxetine active)", () => {
    const result = run(
      "psych-interactions-sign",
      orderRequest("order-sign", [draft("d1", { rxnorm: "36437" })], {
        medications: searchset([
          medicationRequest("m9", { rxnorm: "4493", display: "fluoxetine" }, "active"),
        ]),
      }),
    );
    // Two SSRIs: serotonin toxicity and, since decision 173, duplicate therapy (one class twice).
    expect(result.cards.map((c) => c.indicator)).toEqual(["warning", "warning"]);
    expect(result.rules.sort()).toEqual([
      "interaction-derived-same-subclass",
      "interaction-serotonergic-antidepressant-combination",
    ]);
  });

  it("two interacting drafts give one card with a suggestion to remove either", () => {
    const result = run(
      "psych-interactions-sign",
      orderRequest(
        "order-sign",
        [draft("d1", { text: "Lithium carbonate 400 mg" }), draft("d2", { text: "Ibuprofen 400 mg" })],
        {
          medications: searchset([]),
        },
      ),
    );
    expect(result.cards).toHaveLength(1);
    expect(result.cards[0]?.suggestions?.map((s) => s.actions[0]?.resourceId)).toEqual([
      "MedicationRequest/d1",
      "MedicationRequest/d2",
    ]);
    expect(result.cards[0]?.suggestions?.filter((s) => s.isRecommended)).toHaveLength(1);
  });

  it("a draft the EHR also lists as active is compared once, as the draft", () => {
    const tramadol = draft("d1", { text: "Tramadol 50 mg" });
    const result = run(
      "psych-interactions-sign",
      orderRequest("order-sign", [tramadol], {
        medications: searchset([
          { ...tramadol, status: "active" },
          medicationRequest("m1", { rxnorm: "36437" }, "active"),
        ]),
      }),
    );
    expect(result.cards).toHaveLength(1);
    expect(result.cards[0]?.suggestions).toHaveLength(1);
  });

  it("no interaction and everything read: no card (no 'all clear' card)", () => {
    const result = run(
      "psych-interactions-sign",
      orderRequest("order-sign", [draft("d1", { rxnorm: "28439" })], { medications: searchset([]) }),
    );
    expect(result.cards).toEqual([]);
  });

  it("an unreadable draft, a null or missing medication list, and an unreadable active medicine are said", () => {
    const unknown = run(
      "psych-interactions-sign",
      orderRequest("order-sign", [draft("d1", { text: "Unobtainium 5 mg" })], {
        medications: activeSertraline,
      }),
    );
    expect(unknown.cards).toHaveLength(1);
    expect(unknown.cards[0]).toMatchObject({
      indicator: "info",
      source: { url: expect.stringMatching(/interaction-not-checked$/) },
    });
    expect(unknown.cards[0]?.detail).toContain(
      escapeMarkdown("MedicationRequest/d1 names no medicine the service knows"),
    );
    expect(unknown.notUsed).toEqual({ unknown_code: 1 });

    const nullList = run(
      "psych-interactions-sign",
      orderRequest("order-sign", [draft("d1", { rxnorm: "36437" })], { medications: null }),
    );
    expect(nullList.cards[0]?.detail).toContain("The EHR sent no medication list (null)");

    const missing = run(
      "psych-interactions-sign",
      orderRequest("order-sign", [draft("d1", { rxnorm: "36437" })]),
    );
    expect(missing.missingPrefetch).toEqual(["medications"]);
    expect(missing.cards[0]?.detail).toContain("active medication list was not available");

    const badActive = run(
      "psych-interactions-sign",
      orderRequest("order-sign", [draft("d1", { rxnorm: "36437" })], {
        medications: searchset([medicationRequest("m1", { text: "Some herbal tea" }, "active")]),
      }),
    );
    expect(badActive.cards[0]?.detail).toContain(escapeMarkdown("MedicationRequest/m1"));
    expectCardRules([...unknown.cards, ...nullList.cards, ...missing.cards, ...badActive.cards]);
  });

  it("a stopped active-list medicine is not checked as current, and is said", () => {
    const result = run(
      "psych-interactions-sign",
      orderRequest("order-sign", [draft("d1", { text: "Tramadol 50 mg" })], {
        medications: searchset([medicationRequest("m1", { rxnorm: "36437" }, "stopped")]),
      }),
    );
    expect(result.cards.map((c) => c.indicator)).toEqual(["info"]);
    expect(result.cards[0]?.detail).toContain("status stopped");
  });
});

describe("order-select: only the new selections are checked", () => {
  it("checks the selected draft against active medicines and the other drafts, not the earlier drafts among themselves", () => {
    const drafts = [
      draft("d1", { text: "Lithium carbonate 400 mg" }),
      draft("d2", { text: "Ibuprofen 400 mg" }),
      draft("d3", { text: "Tramadol 50 mg" }),
    ];
    const result = run(
      "psych-interactions-select",
      orderRequest("order-select", drafts, { medications: activeSertraline }, ["MedicationRequest/d3"]),
    );
    // Tramadol with active sertraline (label pair) and with the earlier lithium draft: both are
    // serotonergic (the tramadol label names lithium), derived since decision 173.
    expect(result.rules.sort()).toEqual([
      "interaction-derived-serotonergic-pair",
      "interaction-serotonergic-tramadol",
    ]);
    const both = run(
      "psych-interactions-select",
      orderRequest("order-select", drafts, { medications: activeSertraline }, [
        "MedicationRequest/d2",
        "MedicationRequest/d3",
      ]),
    );
    // Ibuprofen (d2) with lithium (an earlier draft) and with sertraline (active); tramadol (d3) with sertraline.
    expect(both.rules.sort()).toEqual([
      "interaction-derived-serotonergic-pair",
      "interaction-lithium-nsaid",
      "interaction-serotonergic-tramadol",
      "interaction-ssri-snri-nsaid",
    ]);
  });
});

/** A draft MedicationRequest with a structured dose: `mg` per administration, `perDay` times a day. */
function dosedDraft(id: string, medication: { rxnorm?: string; text?: string }, mg: number, perDay: number) {
  return medicationRequest(id, medication, "draft", "2026-11-26", {
    dosageInstruction: [
      {
        timing: { repeat: { frequency: perDay, period: 1, periodUnit: "d" } },
        doseAndRate: [
          { doseQuantity: { value: mg, unit: "mg", system: "http://unitsofmeasure.org", code: "mg" } },
        ],
      },
    ],
  });
}

describe("order-sign: a dose above the label maximum (decision 184)", () => {
  it("sertraline 100 mg three times a day (300 mg/day) is a critical card citing the label", () => {
    const body = orderRequest("order-sign", [dosedDraft("d1", { rxnorm: "36437" }, 100, 3)], {
      medications: searchset([]),
    });
    const cards = run("psych-interactions-sign", body).cards;
    expectCardRules(cards);
    const dose = cards.filter((card) => card.source.url.includes("/cds-rules/dose-"));
    expect(dose).toHaveLength(1);
    expect(dose[0]?.indicator).toBe("critical");
    expect(dose[0]?.source.url).toMatch(/\/cds-rules\/dose-sertraline$/);
    expect(dose[0]?.summary).toContain("Sertraline 300 mg/day");
    expect(dose[0]?.summary).toContain("200 mg/day");
    expect(dose[0]?.detail).toContain("Zoloft (sertraline) US label");
    expect(dose[0]?.detail).toContain(escapeMarkdown("MedicationRequest/d1"));
    expect(dose[0]?.suggestions?.[0]?.actions[0]?.resourceId).toBe("MedicationRequest/d1");
  });

  it("a dose written in the order's text is read too; a dose within the label gives no dose card", () => {
    const high = run(
      "psych-interactions-sign",
      orderRequest("order-sign", [draft("d1", { text: "Quetiapine 1000 mg daily" })], {
        medications: searchset([]),
      }),
    ).cards;
    expect(high.find((c) => c.source.url.endsWith("/dose-quetiapine"))?.indicator).toBe("critical");
    const within = run(
      "psych-interactions-sign",
      orderRequest("order-sign", [dosedDraft("d1", { rxnorm: "36437" }, 100, 2)], {
        medications: searchset([]),
      }),
    ).cards;
    expect(within.filter((c) => c.source.url.includes("/cds-rules/dose-"))).toEqual([]);
  });

  it.each([
    ["quetiapine", 500, 2, 1000],
    ["escitalopram", 30, 1, 30],
    ["mirtazapine", 30, 2, 60],
    ["olanzapine", 15, 2, 30],
    ["aripiprazole", 15, 3, 45],
    ["venlafaxine", 150, 3, 450],
  ])("%s %i mg %i times a day is one critical card naming the %i mg/day dose", (name, mg, perDay, daily) => {
    const cards = run(
      "psych-interactions-sign",
      orderRequest("order-sign", [dosedDraft("d1", { text: String(name) }, Number(mg), Number(perDay))], {
        medications: searchset([]),
      }),
    ).cards;
    const dose = cards.filter((c) => c.source.url.endsWith(`/dose-${name}`));
    expect(dose).toHaveLength(1);
    expect(dose[0]?.indicator).toBe("critical");
    expect(dose[0]?.summary).toContain(`${daily} mg/day`);
  });

  it("a limit that needs the age the hook does not have is said on the not-checked card", () => {
    const cards = run(
      "psych-interactions-sign",
      orderRequest("order-sign", [draft("d1", { text: "Citalopram 30 mg" })], {
        medications: searchset([]),
        patient: null,
      }),
    ).cards;
    expect(cards.filter((c) => c.source.url.includes("/cds-rules/dose-"))).toEqual([]);
    const notChecked = cards.find((c) => c.source.url.endsWith("/interaction-not-checked"));
    expect(notChecked?.detail).toContain("age not given");
  });
});
