/**
 * A sourced diagnostic threshold above the range (decision 188): HbA1c at or above 48 mmol/mol
 * (6.5 %), the diabetes range, is read at the elevated tone (moderate) in every door, in either
 * unit, flagged or not; between the range and the threshold it stays `watch` (low). Found by a
 * blind case (HbA1c 60 mmol/mol on an antipsychotic read low everywhere).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { analyzeBiomarkers } from "../src/biomarker.js";
import { judgeLabReading } from "../src/judgement.js";
import { findAnalyte } from "../src/knowledge/analytes.js";
import { evaluatePanel } from "../src/tools/panels.js";

const NOW = new Date("2026-12-07T00:00:00Z");
const hba1c = findAnalyte("HbA1c");

function doors(value: number, unit: string, flag?: "high") {
  const bio = analyzeBiomarkers(
    {
      labs: [
        {
          id: "p",
          labName: "Lab",
          observedAt: "2026-12-01",
          results: { biomarkers: [{ name: "HbA1c", value, unit, ...(flag ? { flag } : {}) }] },
        },
      ],
    },
    { now: NOW },
  );
  return {
    judgement: judgeLabReading(hba1c, value, unit, flag ?? null).level,
    panel: evaluatePanel([{ analyte: "HbA1c", value, unit }]).risk.level,
    status: bio.facts.summary.status,
    review: bio.facts.summary.requiresClinicianReview,
  };
}

describe("HbA1c in the diabetes range (decision 188)", () => {
  it("60 mmol/mol is moderate in the judgement and the panels tool, elevated with review in the JSON answer", () => {
    expect(doors(60, "mmol/mol")).toEqual({
      judgement: "moderate",
      panel: "moderate",
      status: "elevated",
      review: true,
    });
    expect(doors(60, "mmol/mol", "high")).toMatchObject({ judgement: "moderate", status: "elevated" });
  });

  it("property: at or above 6.5 % (48 mmol/mol) is moderate; above the range and below it, low; the doors agree", () => {
    fc.assert(
      fc.property(
        fc.double({ min: 5.7, max: 14, noNaN: true }),
        fc.boolean(),
        fc.boolean(),
        (percent, asIfcc, flagged) => {
          const value = asIfcc
            ? Math.round(((percent - 2.152) / 0.09148) * 10) / 10
            : Math.round(percent * 100) / 100;
          const unit = asIfcc ? "mmol/mol" : "%";
          const canonical = asIfcc ? value * 0.09148 + 2.152 : value;
          const out = doors(value, unit, flagged ? "high" : undefined);
          const expected = canonical >= 6.5 - 1e-9 ? "moderate" : "low";
          expect(out.judgement).toBe(expected);
          expect(out.panel).toBe(expected);
          expect(out.status).toBe(expected === "moderate" ? "elevated" : "watch");
        },
      ),
      { numRuns: 300 },
    );
  });
});
