/**
 * Door parity for medicines (decisions 173 and 176): one medicine list, run through the JSON
 * medication answer (`data.interactionCheck` and the intelligence block), the FHIR answer
 * (DetectedIssues), the agent tool (`checkInteractions`) and the CDS order-sign cards, reads the
 * same highest interaction severity after each door's documented mapping (CDS: critical = high,
 * warning = moderate, info = low; decision 119 for FHIR). The highest dose finding (a daily dose
 * above the label maximum, decisions 174 and 184) agrees too: JSON `doseAlerts`, FHIR DetectedIssues
 * coded DOSEH, the agent tool's `doseAlerts` and the CDS dose cards, the dose sent to CDS either
 * in the order's text or as its structured dosage instruction.
 */
import type { Bundle, DetectedIssue } from "@medplum/fhirtypes";
import { checkInteractions, prescriptionEntryText } from "@svc/engines";
import { analysisBundle } from "@svc/fhir";
import { ENGINE_REGISTRY } from "@svc/intelligence";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { medicationAnalysis } from "../../fhir/test/analysis-fixtures.js";
import { parseHookRequest, runCdsService } from "../src/index.js";
import { draft, medicationRequest, options, orderRequest, searchset, service } from "./fixtures.js";

const NOW = new Date("2026-11-20T10:00:00Z");
const RANK: Record<string, number> = { none: 0, low: 1, moderate: 2, high: 3 };
const LEVEL = ["none", "low", "moderate", "high"] as const;
const CARD_LEVEL: Record<string, number> = { info: 1, warning: 2, critical: 3 };

const POOL = [
  "sertraline",
  "trazodone",
  "tramadol",
  "mirtazapine",
  "risperidone",
  "paliperidone",
  "olanzapine",
  "haloperidol",
  "citalopram",
  "escitalopram",
  "amisulpride",
  "lithium",
  "ibuprofen",
  "fluoxetine",
  "clozapine",
  "carbamazepine",
  "quetiapine",
  "oxycodone",
  "diazepam",
  "venlafaxine",
  "desvenlafaxine",
  "zuclopenthixol",
  "clarithromycin",
  "ondansetron",
  "sumatriptan",
  "warfarin",
  "methadone",
  "pregabalin",
  "lamotrigine",
  "valproate",
  "hydroxyzine",
  "amitriptyline",
  "nortriptyline",
  "bupropion",
  "zolpidem",
];
const DOSES = ["", " 50 mg", " 10 mg", " 300 mg", " 1000 mg", " 30 mg", " 450 mg"];

/** A draft whose dose is its structured dosage instruction (once a day), not its text. */
function dosedDraft(id: string, name: string, mg: number) {
  return medicationRequest(id, { text: name }, "draft", "2026-11-26", {
    dosageInstruction: [
      {
        timing: { repeat: { frequency: 1, period: 1, periodUnit: "d" } },
        doseAndRate: [
          { doseQuantity: { value: mg, unit: "mg", system: "http://unitsofmeasure.org", code: "mg" } },
        ],
      },
    ],
  });
}

function highest(severities: readonly string[]): number {
  return Math.max(0, ...severities.map((s) => RANK[s] ?? 0));
}

/** The CDS order-sign levels: the highest interaction card and the highest dose card. */
function cdsLevels(orders: readonly { name: string; dose: string; structured: boolean }[]): {
  interaction: number;
  dose: number;
} {
  const drafts = orders.map(({ name, dose, structured }, i) =>
    structured && dose !== ""
      ? dosedDraft(`d${i + 1}`, name, Number.parseFloat(dose))
      : draft(`d${i + 1}`, { text: `${name}${dose}` }),
  );
  const body = orderRequest("order-sign", drafts, { medications: searchset([]) });
  const parsed = parseHookRequest(service("psych-interactions-sign"), body);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
  const result = runCdsService(parsed, body.prefetch ?? {}, options());
  const level = (rulePrefix: string) =>
    Math.max(
      0,
      ...result.cards
        .filter(
          (card) =>
            card.source.url?.includes(`/cds-rules/${rulePrefix}`) &&
            !card.source.url.endsWith("/interaction-not-checked"),
        )
        .map((card) => CARD_LEVEL[card.indicator] ?? 0),
    );
  return { interaction: level("interaction-"), dose: level("dose-") };
}

describe("medicine door parity", () => {
  it("JSON, FHIR, agent tool and CDS cards agree on the highest interaction severity and dose finding", () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.constantFrom(...POOL), { minLength: 1, maxLength: 4 }),
        fc.array(fc.constantFrom(...DOSES), { minLength: 4, maxLength: 4 }),
        fc.array(fc.boolean(), { minLength: 4, maxLength: 4 }),
        (names, doses, structured) => {
          const texts = names.map((name, i) => `${name}${doses[i] ?? ""}`);
          const { run, intelligence, answer, body } = medicationAnalysis(texts, NOW);
          const check = run.data.interactionCheck;
          const json = highest(check.interactions.map((i: { severity: string }) => i.severity));
          const agent = highest(
            checkInteractions(body.prescriptions.map(prescriptionEntryText)).interactions.map(
              (i) => i.severity,
            ),
          );
          const bundle = analysisBundle(answer, { publicBaseUrl: "https://api.example.com" }) as Bundle;
          const issues = (bundle.entry ?? [])
            .map((e) => e.resource)
            .filter((r): r is DetectedIssue => r?.resourceType === "DetectedIssue");
          const codeOf = (issue: DetectedIssue) => issue.code?.coding?.[0]?.code;
          const fhir = highest(
            issues.filter((i) => codeOf(i) === "DRG").map((issue) => issue.severity ?? ""),
          );
          // Dose findings: one High Dose Alert per JSON dose alert, same severity.
          expect(
            issues.filter((i) => codeOf(i) === "DOSEH").map((i) => i.severity),
            texts.join(", "),
          ).toEqual(check.doseAlerts.map((d: { severity: string }) => d.severity));
          const cdsOrders = names.map((name, i) => ({
            name,
            dose: doses[i] ?? "",
            structured: structured[i] ?? false,
          }));
          const cds = cdsLevels(cdsOrders);
          const label = `${texts.join(", ")}: json ${LEVEL[json]}, agent ${LEVEL[agent]}, fhir ${LEVEL[fhir]}, cds ${LEVEL[cds.interaction]}`;
          expect(agent, label).toBe(json);
          expect(fhir, label).toBe(json);
          expect(cds.interaction, label).toBe(json);
          // The highest dose finding, through every door.
          const jsonDose = highest(check.doseAlerts.map((d: { severity: string }) => d.severity));
          const agentDose = highest(
            checkInteractions(body.prescriptions.map(prescriptionEntryText)).doseAlerts.map(
              (d) => d.severity,
            ),
          );
          const fhirDose = highest(
            issues.filter((i) => codeOf(i) === "DOSEH").map((issue) => issue.severity ?? ""),
          );
          const doseLabel = `${label}; dose: json ${LEVEL[jsonDose]}, agent ${LEVEL[agentDose]}, fhir ${LEVEL[fhirDose]}, cds ${LEVEL[cds.dose]} (structured ${structured.join(",")})`;
          expect(agentDose, doseLabel).toBe(jsonDose);
          expect(fhirDose, doseLabel).toBe(jsonDose);
          expect(cds.dose, doseLabel).toBe(jsonDose);
          const highFinding =
            json === 3 || check.doseAlerts.some((d: { severity: string }) => d.severity === "high");
          expect(check.requiresClinicianReview, label).toBe(highFinding);
          if (highFinding) expect(intelligence.summary.requiresClinicianReview, label).toBe(true);
        },
      ),
      { numRuns: 200 },
    );
  });

  it("sertraline + tramadol through the JSON medication answer (before: no interaction field at all)", () => {
    const { run, intelligence } = medicationAnalysis(["Sertraline 50 mg", "Tramadol 50 mg"], NOW);
    expect(run.data.interactionCheck).toMatchObject({
      status: "checked",
      highestSeverity: "high",
      requiresClinicianReview: true,
      interactions: [{ id: "serotonergic-tramadol", a: "sertraline", b: "tramadol", severity: "high" }],
    });
    expect(intelligence.summary.requiresClinicianReview).toBe(true);
    expect(intelligence.summary.flagged).toContain(
      "Interaction (high): sertraline + tramadol (serotonergic-tramadol)",
    );
  });

  it("a dose in the dosage field is read with the name; free text there is not (sertraline 300 mg)", () => {
    const body = {
      prescriptions: [
        {
          id: "rx_1",
          medicationName: "Sertraline",
          dosage: "300 mg",
          frequency: "once daily",
          status: "active",
        },
        {
          id: "rx_2",
          medicationName: "Mirtazapine 15 mg",
          dosage: "as directed by the clinic",
          status: "active",
        },
      ],
      assessments: [],
    };
    // biome-ignore lint/suspicious/noExplicitAny: the registry's run is typed per engine
    const run = (ENGINE_REGISTRY.medication.run as any)(body, { now: NOW });
    expect(run.data.interactionCheck.doseAlerts).toMatchObject([
      { ingredient: "sertraline", dailyMg: 300, maximumMg: 200 },
    ]);
    expect(run.data.interactionCheck.complete).toBe(true);
    expect(run.facts.summary.requiresClinicianReview).toBe(true);
    const { answer } = medicationAnalysis(["Sertraline 300 mg"], NOW);
    const bundle = analysisBundle(answer, { publicBaseUrl: "https://api.example.com" }) as Bundle;
    const dose = (bundle.entry ?? [])
      .map((e) => e.resource)
      .find((r) => r?.resourceType === "DetectedIssue") as DetectedIssue | undefined;
    expect(dose?.code?.coding?.[0]).toEqual({
      system: "http://terminology.hl7.org/CodeSystem/v3-ActCode",
      code: "DOSEH",
      display: "High Dose Alert",
    });
    expect(dose?.severity).toBe("high");
    expect(dose?.implicated?.[0]?.identifier?.value).toBe("rx_1");
  });

  it("an unknown property a rule needed is said on the CDS not-checked card, as in the JSON answer", () => {
    const texts = ["Citalopram 20 mg", "Sertraline 50 mg"];
    const drafts = texts.map((text, i) => draft(`d${i + 1}`, { text }));
    const body = orderRequest("order-sign", drafts, { medications: searchset([]) });
    const parsed = parseHookRequest(service("psych-interactions-sign"), body);
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
    const result = runCdsService(parsed, body.prefetch ?? {}, options());
    const notChecked = result.cards.find((card) => card.source.url?.endsWith("/interaction-not-checked"));
    expect(notChecked?.detail).toContain("QT risk category unknown for sertraline");
    const { run } = medicationAnalysis(texts, NOW);
    expect(run.data.interactionCheck.notEvaluated.join(" ")).toContain(
      "QT risk category unknown for sertraline",
    );
  });
});
