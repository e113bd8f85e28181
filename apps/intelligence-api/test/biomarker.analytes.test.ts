import { call } from "@svc/testkit";
import { useTestService } from "@svc/testkit/vitest";
import { beforeAll, describe, expect, it } from "vitest";
import type {
  BiomarkerAgentRequest,
  BiomarkerAgentResponse,
  BiomarkerAnalysisResponse,
  BiomarkerAnalyzeRequest,
} from "../src/index.js";

/**
 * The analyte table over HTTP (decisions 64-67): units are converted before a value is read, a
 * value beyond a critical limit is never silent. That the sandbox lab results agree with the table
 * the engines read is tested beside them, in the records package.
 */
const svc = useTestService();
let key: string;

beforeAll(async () => {
  key = (await svc.seed.caller("enterprise")).key;
});

describe("POST /v1/biomarker/analyze", () => {
  it("an unflagged lithium of 2.6 mmol/L is flagged in the summary, reviewed and listed in valueFindings", async () => {
    const res = await call<BiomarkerAnalysisResponse, BiomarkerAnalyzeRequest>(
      svc.url,
      "/v1/biomarker/analyze",
      {
        key,
        body: {
          labs: [
            {
              id: "p1",
              labName: "Chemistry",
              observedAt: "2026-06-20",
              results: { biomarkers: [{ name: "Lithium", value: 2.6, unit: "mmol/L" }] },
            },
          ],
        },
      },
    );
    expect(res.status).toBe(200);
    const data = res.json.data;
    expect(data.signals).toEqual([]);
    expect(data.intelligence.summary).toMatchObject({ status: "critical", requiresClinicianReview: true });
    expect(data.intelligence.summary.flagged).toEqual([
      "Lithium 2.6 mmol/L: at or above the 1.5 mmol/L toxicity threshold (not flagged by the laboratory)",
    ]);
    expect(data.valueFindings).toEqual([
      expect.objectContaining({ analyte: "lithium", finding: "critical", current: true, labFlag: null }),
    ]);
  });

  it("a neutrophil count in cells/uL is converted: 400 cells/uL flagged low is critical, not high", async () => {
    const res = await call<BiomarkerAnalysisResponse, BiomarkerAnalyzeRequest>(
      svc.url,
      "/v1/biomarker/analyze",
      {
        key,
        body: {
          labs: [
            {
              id: "p1",
              labName: "Haematology",
              observedAt: "2026-06-20",
              results: { biomarkers: [{ name: "ANC", value: 400, unit: "cells/uL", flag: "low" }] },
            },
          ],
        },
      },
    );
    expect(res.status).toBe(200);
    expect(res.json.data.signals[0]).toMatchObject({ tone: "critical", signalKey: "bio_anc" });
    expect(res.json.data.signals[0]?.detail).toContain("0.4 x10^9/L: below the 1.5 x10^9/L");
  });
});

describe("POST /v1/biomarker/{patientId}/agent", () => {
  it("takes an optional unit per reading; a unitless multi-unit analyte is not evaluated", async () => {
    const res = await call<BiomarkerAgentResponse, BiomarkerAgentRequest>(
      svc.url,
      "/v1/biomarker/pt_9/agent",
      {
        key,
        body: {
          panel: [
            { analyte: "ANC", value: 1200, unit: "cells/uL" },
            { analyte: "valproate", value: 700, unit: "umol/L" },
            { analyte: "carbamazepine", value: 9 },
          ],
          benignEthnicNeutropenia: true,
        },
      },
    );
    expect(res.status).toBe(200);
    const data = res.json.data;
    expect(data.assessment?.results.map((r) => [r.analyte, r.flag])).toEqual([
      ["Neutrophils (absolute)", "critical_low"],
      ["Valproate", "normal"],
    ]);
    expect(data.assessment?.unrecognized).toEqual(["carbamazepine"]);
    expect(data.warnings.join(" ")).toMatch(/not evaluated: unit \(unit missing/);
    expect(data.assessment?.observations.map((o) => o.note).join(" ")).toContain("normal BEN range");
    expect(data.risk.level).toBe("high");
  });

  it("refuses a unit that is not a string or is too long", async () => {
    const res = await call<BiomarkerAgentResponse>(svc.url, "/v1/biomarker/pt_9/agent", {
      key,
      body: { panel: [{ analyte: "lithium", value: 1, unit: "x".repeat(65) }] },
    });
    expect(res.status).toBe(400);
    for (const body of [
      { panel: [{ analyte: "lithium", value: 1, unit: 5 }] },
      { panel: [{ analyte: "lithium", value: 1, unit: "   " }] },
      { panel: [{ analyte: "lithium", value: 1 }], benignEthnicNeutropenia: "yes" },
    ]) {
      const refused = await call<{ ok: boolean; error: { code: string; issues?: { path: string }[] } }>(
        svc.url,
        "/v1/biomarker/pt_9/agent",
        { key, body },
      );
      expect(refused.status).toBe(400);
      expect(refused.json.error.code).toBe("invalid_request");
      expect(refused.json.error.issues?.length).toBeGreaterThan(0);
    }
  });
});
