import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { PATIENT_FINDING_KINDS } from "@svc/engines";
import type { ErrorEnvelope } from "@svc/http";
import { call } from "@svc/testkit";
import { useTestService } from "@svc/testkit/vitest";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type {
  BiomarkerAgentResponse,
  BiomarkerAnalysisResponse,
  MedicationAgentResponse,
  MedicationAnalysisResponse,
} from "../src/index.js";
import { connectMcp } from "./mcp-client.js";

/**
 * The patient context through the JSON, agent and MCP doors (decisions 198-200), over real HTTP:
 * one strict schema refuses what it cannot read with the field's path and stores nothing; the
 * age given as a field reaches the dose check in every door alike; a context no model read is
 * said to be unread; and the answers carry the patient review in its one shape.
 */
const svc = useTestService();
let key: string;
let mcp: Client;

beforeAll(async () => {
  key = (await svc.seed.caller("enterprise")).key;
  mcp = await connectMcp(svc.url, key, "patient-doors-test");
});
afterAll(async () => {
  await mcp?.close();
});

const TABLES = ["lab_orders", "wearable_connections", "events", "idempotency_keys", "mse_versions"];

async function rowCounts(): Promise<string> {
  const columns = TABLES.map((t) => `(select count(*) from ${t})::int as ${t}`).join(", ");
  const result = await svc.db.handle.db.execute(sql.raw(`select ${columns}`));
  const rows = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as unknown[];
  return JSON.stringify(rows[0]);
}

const medicationBody = (patient: unknown) => ({
  prescriptions: [
    { id: "rx_1", medicationName: "Citalopram 40 mg", status: "active", prescribedAt: "2026-01-10" },
  ],
  assessments: [],
  patient,
});

const tomorrow = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10);

/** Each bad patient, the issue path it must name and words its message must hold. */
const BAD_PATIENTS: [name: string, patient: unknown, path: string, words: RegExp][] = [
  ["an unknown key", { ageYears: 30, pregnant: true }, "patient", /"pregnant".*ageYears/],
  ["a fractional age", { ageYears: 70.5 }, "patient.ageYears", /integer/i],
  ["an age above the bound", { ageYears: 131 }, "patient.ageYears", /130/],
  ["a negative age", { ageYears: -1 }, "patient.ageYears", /0/],
  ["a birth date in the future", { birthDate: tomorrow }, "patient.birthDate", /future/],
  ["a birth date that is no date", { birthDate: "1950-02-30" }, "patient.birthDate", /calendar date/],
  ["a timestamp as birth date", { birthDate: "1950-02-03T10:00:00Z" }, "patient.birthDate", /calendar date/],
  ["a sex outside the enum", { sex: "F" }, "patient.sex", /female/],
  ["a pregnancy status outside the enum", { pregnancy: "yes" }, "patient.pregnancy", /pregnant/],
  [
    "a hepatic impairment outside the enum",
    { hepaticImpairment: "child-pugh b" },
    "patient.hepaticImpairment",
    /moderate/,
  ],
  ["an eGFR above the bound", { egfr: 251 }, "patient.egfr", /250/],
  ["a weight of zero", { weightKg: 0 }, "patient.weightKg", /0\.2/],
  ["a creatinine clearance as text", { creatinineClearance: "45" }, "patient.creatinineClearance", /number/],
  [
    "EHR sources from a caller",
    { ageYears: 40, sources: { ageYears: { kind: "ehr" } } },
    "patient",
    /"sources"/,
  ],
  ["a patient that is not an object", "70 years", "patient", /object/],
];

function expectRefused(
  res: { status: number; json: ErrorEnvelope; text: string },
  path: string,
  words: RegExp,
) {
  expect(res.status, res.text).toBe(400);
  expect(res.json.error.code).toBe("invalid_request");
  const issue = res.json.error.issues?.find((i) => i.path === path);
  expect(issue, JSON.stringify(res.json.error.issues)).toBeDefined();
  expect(issue?.message).toMatch(words);
}

describe("one strict patient schema: 400 naming the field, nothing stored", () => {
  it.each(BAD_PATIENTS)("%s", async (_name, patient, path, words) => {
    const before = await rowCounts();
    const doors: [string, unknown, string][] = [
      ["/v1/medication/analyze", medicationBody(patient), path],
      [
        "/v1/biomarker/analyze",
        { labs: [{ id: "l1", labName: "Lab", results: { biomarkers: [] } }], patient },
        path,
      ],
      ["/v1/medication/pt_1/agent", { medications: ["citalopram 40 mg"], patient }, path],
      ["/v1/biomarker/pt_1/agent", { panel: [{ analyte: "sodium", value: 140 }], patient }, path],
    ];
    for (const [route, body, issuePath] of doors) {
      const res = await call<ErrorEnvelope>(svc.url, route, { key, body });
      expectRefused(res, issuePath, words);
    }
    expect(await rowCounts()).toBe(before);
  });

  it("MCP: the same patient is a tool error naming the field, never a failed request", async () => {
    const result = (await mcp.callTool({
      name: "reviewPatient",
      arguments: { patient: { ageYears: 30, pregnant: true } },
    })) as CallToolResult;
    expect(result.isError).toBe(true);
    const text = result.content.map((part) => (part.type === "text" ? part.text : "")).join(" ");
    expect(text).toMatch(/pregnant/);
  });

  it("labs on the medication answer and prescriptions on the biomarker answer keep their own bounds", async () => {
    const labs = Array.from({ length: 101 }, (_, i) => ({
      id: `l${i}`,
      labName: "Lab",
      results: { biomarkers: [] },
    }));
    const tooMany = await call<ErrorEnvelope>(svc.url, "/v1/medication/analyze", {
      key,
      body: { ...medicationBody(undefined), labs },
    });
    expect(tooMany.status).toBe(400);
    expect(tooMany.json.error.issues?.some((i) => i.path === "labs")).toBe(true);
    const badPrescription = await call<ErrorEnvelope>(svc.url, "/v1/biomarker/analyze", {
      key,
      body: {
        labs: [{ id: "l1", labName: "Lab", results: { biomarkers: [] } }],
        prescriptions: [{ id: "rx", medicationName: "", status: "active" }],
      },
    });
    expect(badPrescription.status).toBe(400);
    expect(badPrescription.json.error.issues?.some((i) => i.path === "prescriptions.0.medicationName")).toBe(
      true,
    );
  });

  it("medication agent: a start naming no entry of medications is a 400 naming it", async () => {
    const res = await call<ErrorEnvelope>(svc.url, "/v1/medication/pt_1/agent", {
      key,
      body: {
        medications: ["clozapine 100 mg"],
        medicationStarts: [{ medication: "olanzapine", startedAt: "2026-01-01" }],
      },
    });
    expectRefused(res, "medicationStarts.0.medication", /not an entry of medications/);
  });
});

describe("the age given as a field reaches the dose check in every door", () => {
  // Citalopram label: 40 mg/day maximum, 20 mg/day over 60 (DAILY_DOSE_LIMITS, decision 174).
  const LABEL = /citalopram 40 mg\/day: above the 20 mg\/day maximum at age 70/;

  it("JSON medication answer: a high dose alert at age 70, flagged and reviewed; without the age, not evaluated", async () => {
    const res = await call<MedicationAnalysisResponse>(svc.url, "/v1/medication/analyze", {
      key,
      body: medicationBody({ ageYears: 70 }),
    });
    expect(res.status, res.text).toBe(200);
    const check = res.json.data.interactionCheck;
    expect(check?.doseAlerts).toEqual([
      expect.objectContaining({ ingredient: "citalopram", dailyMg: 40, maximumMg: 20, severity: "high" }),
    ]);
    expect(check?.doseAlerts[0]?.label).toMatch(LABEL);
    expect(res.json.data.intelligence.summary.requiresClinicianReview).toBe(true);
    expect(res.json.data.intelligence.summary.flagged.some((line) => LABEL.test(line))).toBe(true);

    const unknownAge = await call<MedicationAnalysisResponse>(svc.url, "/v1/medication/analyze", {
      key,
      body: medicationBody(undefined),
    });
    expect(unknownAge.json.data.interactionCheck?.doseAlerts).toEqual([]);
    expect(unknownAge.json.data.interactionCheck?.notEvaluated.join(" ")).toMatch(/age not given/);
  });

  it("a birth date gives the same answer as the age it makes", async () => {
    const born = new Date();
    born.setUTCFullYear(born.getUTCFullYear() - 70);
    born.setUTCDate(born.getUTCDate() - 10);
    const res = await call<MedicationAnalysisResponse>(svc.url, "/v1/medication/analyze", {
      key,
      body: medicationBody({ birthDate: born.toISOString().slice(0, 10) }),
    });
    expect(res.json.data.interactionCheck?.doseAlerts[0]?.label).toMatch(LABEL);
    expect(res.json.data.patientReview?.ageYears).toBe(70);
  });

  it("medication agent: the same alert in risk, high", async () => {
    const res = await call<MedicationAgentResponse>(svc.url, "/v1/medication/pt_1/agent", {
      key,
      body: { medications: ["Citalopram 40 mg"], patient: { ageYears: 70 } },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.json.data.risk.level).toBe("high");
    expect(res.json.data.risk.labels.some((label) => LABEL.test(label))).toBe(true);
    expect(res.json.data.toolCalls).toEqual(["checkInteractions", "reviewPatient"]);
  });

  it("MCP checkInteractions: the same alert with the patient's age", async () => {
    const result = (await mcp.callTool({
      name: "checkInteractions",
      arguments: { medications: ["Citalopram 40 mg"], patient: { ageYears: 70 } },
    })) as CallToolResult;
    expect(result.isError ?? false).toBe(false);
    const check = result.structuredContent as {
      doseAlerts: { maximumMg: number; severity: string; label: string }[];
      risk: { level: string };
    };
    expect(check.doseAlerts).toEqual([expect.objectContaining({ maximumMg: 20, severity: "high" })]);
    expect(check.doseAlerts[0]?.label).toMatch(LABEL);
    expect(check.risk.level).toBe("high");
  });
});

describe("free-text context no model read is said to be unread", () => {
  it("medication agent without a model: a warning naming the patient fields, and a not-evaluated risk item", async () => {
    const res = await call<MedicationAgentResponse>(svc.url, "/v1/medication/pt_1/agent", {
      key,
      body: { medications: ["sodium valproate 500 mg"], context: "She is 9 weeks pregnant." },
    });
    expect(res.status, res.text).toBe(200);
    const data = res.json.data;
    expect(data.runner).toBe("deterministic");
    const warning = data.warnings.find((w) => /context was not read/.test(w));
    expect(warning).toMatch(/no language model is configured/);
    expect(warning).toMatch(/pregnancy/);
    expect(warning).toMatch(/`patient`/);
    expect(data.risk.flag).toBe(true);
    expect(data.risk.level).not.toBe("none");
    expect(data.risk.labels).toContain(
      "Not evaluated: the free-text context (not read: no language model is configured)",
    );
  });

  it("without context nothing is said about it", async () => {
    const res = await call<MedicationAgentResponse>(svc.url, "/v1/medication/pt_1/agent", {
      key,
      body: { medications: ["sertraline 50 mg"] },
    });
    expect(res.json.data.warnings.join(" ")).not.toMatch(/context was not read/);
    expect(res.json.data.patientReview).toBeUndefined();
    expect(res.json.data.toolCalls).toEqual(["checkInteractions"]);
  });

  it("the outcome agent says so too, without the patient fields it does not take", async () => {
    const res = await call<{ data: { warnings: string[]; risk: { labels: string[] } } }>(
      svc.url,
      "/v1/outcome/pt_1/agent",
      { key, body: { instruments: [{ instrument: "GAD-7", total: 6 }], context: "Aged 70." } },
    );
    const warning = res.json.data.warnings.find((w) => /context was not read/.test(w));
    expect(warning).toBeDefined();
    expect(warning).not.toMatch(/`patient`/);
  });
});

/** Every field of a PatientReview as the answers carry it. */
function expectReviewShape(review: unknown) {
  expect(review).toEqual(
    expect.objectContaining({
      level: expect.stringMatching(/^(none|low|moderate|high)$/),
      requiresClinicianReview: expect.any(Boolean),
      findings: expect.any(Array),
      patient: expect.any(Object),
    }),
  );
  const { findings, level, requiresClinicianReview } = review as {
    findings: { kind: string; level: string; assessed: boolean; title: string; source: string }[];
    level: string;
    requiresClinicianReview: boolean;
  };
  expect(requiresClinicianReview).toBe(level === "high");
  for (const finding of findings) {
    expect(PATIENT_FINDING_KINDS).toContain(finding.kind);
    expect(typeof finding.assessed).toBe("boolean");
    expect(finding.title.length).toBeGreaterThan(0);
    expect(finding.source.length).toBeGreaterThan(0);
    if (!finding.assessed) expect(finding.level).not.toBe("none");
  }
}

describe("data.patientReview: present when the request sent what the review reads", () => {
  const patient = { ageYears: 34, sex: "female", pregnancy: "possible", egfr: 88 } as const;
  const panel = {
    id: "lab_1",
    labName: "Reference Lab",
    observedAt: "2026-06-01",
    results: { biomarkers: [{ name: "Lithium", value: 0.7, unit: "mmol/L", flag: "normal" as const }] },
  };

  it("medication answer: the patient facts used, the age, the findings", async () => {
    const res = await call<MedicationAnalysisResponse>(svc.url, "/v1/medication/analyze", {
      key,
      body: { ...medicationBody(patient), labs: [panel] },
    });
    expect(res.status, res.text).toBe(200);
    const review = res.json.data.patientReview;
    expectReviewShape(review);
    expect(review?.ageYears).toBe(34);
    expect(review?.patient).toMatchObject(patient);
  });

  it("biomarker answer: with a patient or prescriptions; absent with readings alone and nothing found", async () => {
    const withPatient = await call<BiomarkerAnalysisResponse>(svc.url, "/v1/biomarker/analyze", {
      key,
      body: { labs: [panel], patient },
    });
    expect(withPatient.status, withPatient.text).toBe(200);
    expectReviewShape(withPatient.json.data.patientReview);
    expect(withPatient.json.data.patientReview?.patient).toMatchObject(patient);

    const withPrescriptions = await call<BiomarkerAnalysisResponse>(svc.url, "/v1/biomarker/analyze", {
      key,
      body: {
        labs: [panel],
        prescriptions: [
          {
            id: "rx_1",
            medicationName: "Lithium carbonate 800 mg",
            status: "active",
            prescribedAt: "2025-01-01",
          },
        ],
      },
    });
    expectReviewShape(withPrescriptions.json.data.patientReview);
    expect(withPrescriptions.json.data.patientReview?.ageYears).toBeNull();

    const alone = await call<BiomarkerAnalysisResponse>(svc.url, "/v1/biomarker/analyze", {
      key,
      body: { labs: [panel] },
    });
    if ((alone.json.data.patientReview?.findings.length ?? 0) === 0)
      expect(alone.json.data.patientReview).toBeUndefined();
  });

  it("an empty patient object is no patient: the answer is as it was", async () => {
    const res = await call<MedicationAnalysisResponse>(svc.url, "/v1/medication/analyze", {
      key,
      body: medicationBody({}),
    });
    expect(res.status).toBe(200);
    if ((res.json.data.patientReview?.findings.length ?? 0) === 0)
      expect(res.json.data.patientReview).toBeUndefined();
  });

  it("the agents carry the same review, with its date and risk; the MCP tool answers it whole", async () => {
    const agent = await call<MedicationAgentResponse>(svc.url, "/v1/medication/pt_1/agent", {
      key,
      body: {
        medications: ["lithium 800 mg"],
        patient,
        medicationStarts: [{ medication: "Lithium 800 mg", startedAt: "2025-01-01" }],
        readings: [{ analyte: "lithium", value: 0.7, unit: "mmol/L", observedAt: "2026-06-01" }],
      },
    });
    expect(agent.status, agent.text).toBe(200);
    const review = agent.json.data.patientReview;
    expectReviewShape(review);
    expect(review?.asOf).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    if (review?.findings.length === 0)
      expect(review.risk).toEqual({ flag: false, level: "none", labels: [] });

    const biomarker = await call<BiomarkerAgentResponse>(svc.url, "/v1/biomarker/pt_1/agent", {
      key,
      body: {
        panel: [{ analyte: "lithium", value: 0.7, unit: "mmol/L", observedAt: "2026-06-01" }],
        patient,
        medicines: [{ name: "lithium 800 mg", startedAt: "2025-01-01" }],
      },
    });
    expect(biomarker.status, biomarker.text).toBe(200);
    expectReviewShape(biomarker.json.data.patientReview);
    expect(biomarker.json.data.toolCalls).toEqual(["getPanels", "evaluatePanel", "reviewPatient"]);

    // The tool at the agent's own date runs the same review on the same data.
    const tool = (await mcp.callTool({
      name: "reviewPatient",
      arguments: {
        patient,
        medicines: [{ name: "lithium 800 mg", startedAt: "2025-01-01" }],
        readings: [{ analyte: "lithium", value: 0.7, unit: "mmol/L", observedAt: "2026-06-01" }],
        asOf: review?.asOf,
      },
    })) as CallToolResult;
    expect(tool.isError ?? false).toBe(false);
    const answer = tool.structuredContent as {
      asOf: string;
      ageYears: number;
      level: string;
      findings: unknown[];
      risk: unknown;
    };
    expectReviewShape(answer);
    expect(answer.asOf).toBe(review?.asOf);
    expect(answer.ageYears).toBe(34);
    expect({ level: answer.level, findings: answer.findings, risk: answer.risk }).toEqual({
      level: review?.level,
      findings: review?.findings,
      risk: review?.risk,
    });

    const dated = (await mcp.callTool({
      name: "reviewPatient",
      arguments: { patient: { birthDate: "1990-07-02" }, asOf: "2026-07-01" },
    })) as CallToolResult;
    expect((dated.structuredContent as { asOf: string; ageYears: number }).asOf).toBe(
      "2026-07-01T00:00:00.000Z",
    );
    expect((dated.structuredContent as { ageYears: number }).ageYears).toBe(35);
  });
});
