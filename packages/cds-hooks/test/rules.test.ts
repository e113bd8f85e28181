import { ANALYTES, INTERACTION_RULES } from "@svc/engines";
import { ENGINE_NAMES } from "@svc/intelligence";
import { describe, expect, it } from "vitest";
import { CDS_RULES, isCleanJson, ruleById, ruleUrl } from "../src/index.js";

describe("rule catalog", () => {
  it("has one rule per interaction rule and per coded analyte, unique URL-safe ids, and every source attribute", () => {
    const ids = CDS_RULES.map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^[a-z0-9-]+$/);
    for (const rule of INTERACTION_RULES)
      expect(ruleById(`interaction-${rule.id}`)?.citation).toBe(rule.source);
    for (const analyte of ANALYTES.filter((a) => (a.loinc ?? []).length > 0))
      expect(ruleById(`lab-${analyte.key.replaceAll("_", "-")}`)).toBeDefined();
    for (const rule of CDS_RULES) {
      expect(isCleanJson(rule)).toBe(true);
      expect(rule.lastRevised).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect([...ENGINE_NAMES, "interactions", "fhir-inbound", "cds-hooks", "patient-review"]).toContain(
        rule.engine.name,
      );
    }
  });

  it("the lithium rule cites the analyte table's therapeutic range and toxicity threshold sources", () => {
    const rule = ruleById("lab-lithium");
    expect(rule?.citation).toContain("NICE QS95");
    expect(rule?.citation).toContain("critical high");
    expect(ruleById("relapse-early-warning")?.evidenceLevel).toContain("not a validated prediction model");
  });

  it("builds a rule page's URL under the public rule pages", () => {
    expect(ruleUrl("https://x.org/", "lab-anc")).toBe("https://x.org/cds-rules/lab-anc");
    expect(ruleById("nope")).toBeUndefined();
  });
});
