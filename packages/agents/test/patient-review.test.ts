import { reviewPatient } from "@svc/engines";
import { describe, expect, it } from "vitest";
import {
  CONTEXT_NOT_READ_ITEM,
  checkInteractionsTool,
  patientContextSchema,
  RECORD_AGENT_TOOLS,
  reviewPatientTool,
  runMseAgent,
  runRecordAgent,
} from "../src/index.js";
import { biomarkerAgent, medicationAgent, outcomeAgent } from "../src/products.js";

/**
 * The patient context and review in the agents and their tools (decisions 198-200): the one
 * strict schema, the age in the dose check, the review as a tool and in the agent's risk, and a
 * context without a model said to be unread.
 */

const NOW = new Date("2026-08-01T00:00:00Z");

describe("patientContextSchema", () => {
  it("refuses an unknown key naming it and the fields it takes", () => {
    const result = patientContextSchema().safeParse({ ageYears: 30, pregnant: true });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toMatch(/"pregnant".*ageYears, birthDate, sex, pregnancy/);
  });

  it("takes every field at its bounds and refuses beyond them", () => {
    const full = {
      ageYears: 130,
      birthDate: "1950-02-28",
      sex: "female",
      pregnancy: "possible",
      breastfeeding: false,
      weightKg: 0.2,
      egfr: 250,
      creatinineClearance: 300,
      hepaticImpairment: "severe",
    };
    expect(patientContextSchema().parse(full)).toEqual(full);
    for (const bad of [
      { ageYears: 131 },
      { weightKg: 0.1 },
      { egfr: -1 },
      { creatinineClearance: 301 },
      { birthDate: "1850-01-01" },
    ])
      expect(patientContextSchema().safeParse(bad).success, JSON.stringify(bad)).toBe(false);
  });
});

describe("the tools", () => {
  it("checkInteractions reads the age: citalopram 40 mg is a high dose alert at 70, not evaluated without an age", async () => {
    const older = await checkInteractionsTool.execute({
      medications: ["citalopram 40 mg"],
      patient: { ageYears: 70 },
    });
    expect(older.risk.level).toBe("high");
    expect(older.doseAlerts[0]).toMatchObject({ maximumMg: 20, severity: "high" });
    const unknown = await checkInteractionsTool.execute({ medications: ["citalopram 40 mg"] });
    expect(unknown.doseAlerts).toEqual([]);
    expect(unknown.risk.labels.join(" ")).toMatch(/age not given/);
    const byBirth = await checkInteractionsTool.execute({
      medications: ["citalopram 40 mg"],
      patient: { birthDate: "1956-07-31" },
      asOf: "2026-08-01",
    });
    expect(byBirth.doseAlerts[0]?.label).toMatch(/at age 70/);
  });

  it("reviewPatient is a record tool (so MCP lists it) and answers the engines' review at asOf", async () => {
    expect(RECORD_AGENT_TOOLS.map((tool) => tool.name)).toContain("reviewPatient");
    const input = {
      patient: { birthDate: "1990-08-02", sex: "female" as const },
      medicines: [{ name: "lithium 800 mg", startedAt: "2025-01-01" }],
      readings: [{ analyte: "lithium", value: 0.7, unit: "mmol/L", observedAt: "2026-06-01" }],
      asOf: "2026-08-01",
    };
    const answer = await reviewPatientTool.execute(reviewPatientTool.inputSchema.parse(input));
    const engine = reviewPatient({
      patient: input.patient,
      medicines: [
        {
          name: "lithium 800 mg",
          startedAt: "2025-01-01",
          doseChangedAt: null,
          startSource: "caller's startedAt",
        },
      ],
      readings: [{ analyte: "lithium", value: 0.7, unit: "mmol/L", observedAt: "2026-06-01", flag: null }],
      now: NOW,
    });
    expect(answer).toMatchObject({ ...engine, asOf: NOW.toISOString() });
    expect(answer.ageYears).toBe(35);
    expect(
      reviewPatientTool.inputSchema.safeParse({ readings: [{ analyte: "x", value: 1, when: "today" }] })
        .success,
    ).toBe(false);
  });
});

describe("the agents", () => {
  it("medication: the age reaches the dose check; the review is carried and named in toolCalls", async () => {
    const envelope = await runRecordAgent(
      medicationAgent,
      { patientId: "p", body: { medications: ["Citalopram 40 mg"], patient: { ageYears: 70 } } },
      { now: () => NOW },
    );
    expect(envelope.risk.level).toBe("high");
    expect(envelope.risk.labels.join(" ")).toMatch(/above the 20 mg\/day maximum at age 70/);
    expect(envelope.patientReview).toMatchObject({ ageYears: 70, asOf: NOW.toISOString() });
    expect(envelope.toolCalls).toEqual(["checkInteractions", "reviewPatient"]);
    expect(envelope.steps).toBe(2);
  });

  it("medication: starts are matched to their entries, spacing and case aside", () => {
    const input = medicationAgent.reviewInput?.({
      medications: ["Clozapine  200 mg", "lithium"],
      medicationStarts: [
        { medication: "clozapine 200 MG", startedAt: "2026-07-01", doseChangedAt: "2026-07-20" },
      ],
    });
    expect(input?.medicines).toEqual([
      { name: "Clozapine  200 mg", startedAt: "2026-07-01", doseChangedAt: "2026-07-20" },
      { name: "lithium" },
    ]);
  });

  it("biomarker: dated panel readings and medicines reach the review", () => {
    const input = biomarkerAgent.reviewInput?.({
      panel: [{ analyte: "ANC", value: 1.2, unit: "10^9/L", observedAt: "2026-07-25" }],
      medicines: [{ name: "clozapine", startedAt: "2026-06-01" }],
    });
    expect(input).toEqual({
      medicines: [{ name: "clozapine", startedAt: "2026-06-01" }],
      readings: [{ analyte: "ANC", value: 1.2, unit: "10^9/L", observedAt: "2026-07-25" }],
    });
  });

  it("a context without a model is said to be unread: warning and a not-evaluated risk item; the MSE agent warns too", async () => {
    const medication = await runRecordAgent(medicationAgent, {
      patientId: "p",
      body: { medications: ["sodium valproate 500 mg"] },
      context: "Pregnant, 9 weeks.",
    });
    expect(medication.warnings.join(" ")).toMatch(
      /context was not read: no language model is configured.*`patient`/,
    );
    expect(medication.risk.level).not.toBe("none");
    expect(medication.risk.labels).toContain(
      `Not evaluated: ${CONTEXT_NOT_READ_ITEM.what} (${CONTEXT_NOT_READ_ITEM.why})`,
    );
    const outcome = await runRecordAgent(outcomeAgent, {
      patientId: "p",
      body: { instruments: [{ instrument: "GAD-7", total: 6 }] },
      context: "Aged 70.",
    });
    expect(outcome.warnings.join(" ")).toMatch(/context was not read/);
    expect(outcome.warnings.join(" ")).not.toMatch(/`patient`/);
    const blank = await runRecordAgent(medicationAgent, {
      patientId: "p",
      body: { medications: ["sertraline"] },
      context: "   ",
    });
    expect(blank.warnings.join(" ")).not.toMatch(/context was not read/);
    const mse = await runMseAgent({
      visitId: "v",
      patientId: "p",
      telemetry: { speechRateWpm: 80 },
      context: "Pregnant.",
    });
    expect(mse.warnings.join(" ")).toMatch(/context was not read/);
  });
});
