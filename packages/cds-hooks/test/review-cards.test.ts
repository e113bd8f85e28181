import { DOOR_LEVELS, type PatientFinding } from "@svc/engines";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { patientFindingArb } from "../../fhir/test/analysis-fixtures.js";
import { limitCards } from "../src/card-limit.js";
import {
  escapeMarkdown,
  findingCard,
  findingCards,
  findingIndicator,
  findingNamesMedicine,
  findingRuleId,
  isCleanJson,
  REVIEW_RULE_IDS,
  ruleById,
} from "../src/index.js";
import { newRecorder, type RunContext } from "../src/run-context.js";
import { BASE, NOW } from "./fixtures.js";

/**
 * The patient review's findings as cards (decision 203), on hand-built findings: the door table's
 * indicator per level, a not-assessed finding never below info and never dropped, the title as
 * summary, the detail and source on the card, the rule page of the finding's part.
 */

let n = 0;
const ctx = { baseUrl: BASE, uuid: () => `00000000-0000-4000-a000-${String(++n).padStart(12, "0")}` };

const teratogen: PatientFinding = {
  kind: "patient_factor",
  rule: "teratogen_pregnancy",
  level: "high",
  assessed: true,
  title: "Valproate in pregnancy: contraindicated unless no alternative",
  detail: "Valproate is taken by a patient recorded as pregnant.",
  medicines: ["valproate 1000 mg per day"],
  source: "MHRA Drug Safety Update (valproate Pregnancy Prevention Programme)",
};
const ancDue: PatientFinding = {
  kind: "monitoring",
  rule: "monitoring_overdue",
  level: "moderate",
  assessed: true,
  title: "Neutrophil count due: last 94 days ago, monthly after week 52",
  detail: "Clozapine since 2024-02-01; the last neutrophil count is from 2026-08-24.",
  medicines: ["clozapine"],
  analyte: "anc",
  since: "2026-09-24",
  source: "Clozaril SmPC 4.4",
};
const startUnknown: PatientFinding = {
  kind: "monitoring",
  rule: "start_unknown",
  level: "low",
  assessed: false,
  title: "Clozapine start date unknown",
  detail: "Only a renewal date is known: the monitoring phase cannot be placed.",
  medicines: ["clozapine"],
  source: "Clozaril SmPC 4.4",
};

describe("finding cards", () => {
  it("a high patient factor is a critical card titled by the finding, with its detail, medicines and source", () => {
    const found = findingCard(teratogen, ctx);
    const card = found?.card;
    expect(found?.rule.id).toBe(REVIEW_RULE_IDS.patient_factor);
    expect(card?.indicator).toBe("critical");
    expect(card?.summary).toBe(teratogen.title);
    expect(card?.detail).toContain(escapeMarkdown(teratogen.detail));
    expect(card?.detail).toContain(`**Source:** ${escapeMarkdown(teratogen.source)}`);
    expect(card?.detail).toContain("**Medicines:** valproate 1000 mg per day");
    expect(card?.source.url).toBe(`${BASE}/cds-rules/${REVIEW_RULE_IDS.patient_factor}`);
  });

  it("a moderate monitoring finding is a warning saying since when; a not-assessed one an info card saying so", () => {
    const [due, unknown] = findingCards([ancDue, startUnknown], ctx).map((item) => item.card);
    expect(due?.indicator).toBe("warning");
    expect(due?.detail).toContain("**Since:** 2026\\-09\\-24");
    expect(due?.source.url).toBe(`${BASE}/cds-rules/${REVIEW_RULE_IDS.monitoring}`);
    expect(unknown?.indicator).toBe("info");
    expect(unknown?.summary).toBe("Not evaluated: Clozapine start date unknown");
    expect(unknown?.detail).toMatch(/could not be judged/);
    expect(unknown?.source.url).toBe(`${BASE}/cds-rules/${REVIEW_RULE_IDS.notAssessed}`);
  });

  it("a judged finding at none gives no card; a title over 140 characters is clipped", () => {
    expect(findingCard({ ...ancDue, level: "none" }, ctx)).toBeNull();
    const long = findingCard({ ...ancDue, title: "x".repeat(400) }, ctx)?.card;
    expect(long?.summary.length).toBeLessThan(140);
  });

  it("a finding is about a draft when it names the draft as given or one of its ingredients", () => {
    expect(findingNamesMedicine(teratogen, "valproate 1000 mg per day", ["valproate"])).toBe(true);
    expect(
      findingNamesMedicine({ ...teratogen, medicines: ["Valproate"] }, "Epilim 500 mg", ["valproate"]),
    ).toBe(true);
    expect(findingNamesMedicine(teratogen, "lithium 800 mg per day", ["lithium"])).toBe(false);
    expect(findingNamesMedicine({ ...teratogen, medicines: undefined }, "valproate", ["valproate"])).toBe(
      false,
    );
  });

  it("every review rule id has a rule page", () => {
    for (const id of Object.values(REVIEW_RULE_IDS)) expect(ruleById(id)?.engine.name).toBe("patient-review");
  });

  it("property: the indicator is the door table's; a not-assessed finding is never silent; the card limit keeps the most severe", () => {
    const finding = patientFindingArb({ title: 200, detail: 200, source: 80 });
    fc.assert(
      fc.property(fc.array(finding, { maxLength: 30 }), (findings) => {
        const found = findingCards(findings, ctx);
        const cards = found.map((item) => item.card);
        const carded = findings.filter((f) => !f.assessed || DOOR_LEVELS[f.level].cds !== null);
        expect(cards).toHaveLength(carded.length);
        carded.forEach((f, i) => {
          const card = cards[i];
          expect(card?.indicator).toBe(findingIndicator(f));
          expect(found[i]?.rule.id).toBe(findingRuleId(f));
          if (f.assessed) expect(card?.indicator).toBe(DOOR_LEVELS[f.level].cds);
          else expect(["info", "warning", "critical"]).toContain(card?.indicator);
          expect(isCleanJson(card)).toBe(true);
          expect(card?.summary.length).toBeLessThan(140);
        });
        const run: RunContext = {
          now: NOW,
          baseUrl: BASE,
          models: {},
          uuid: ctx.uuid,
          recorder: newRecorder(),
          patientId: "p",
          missingPrefetch: [],
          unreadablePrefetch: [],
          notUsed: [],
        };
        const limited = limitCards(found, run).cards.map((item) => item.card);
        expect(limited.length).toBeLessThanOrEqual(20);
        if (cards.some((c) => c.indicator === "critical")) expect(limited[0]?.indicator).toBe("critical");
      }),
      { numRuns: 80 },
    );
  });
});
