import { checkInteractions } from "@svc/engines";
import { describe, expect, it } from "vitest";
import { medicationAgent } from "../src/products.js";

describe("medication agent product", () => {
  it("is complete (ok) only when every entry was recognised in full", () => {
    const full = medicationAgent.ground(checkInteractions(["lithium 800 mg", "Hyzaar 50/12.5"]));
    expect(full.complete).toBe(true);
    expect(full.risk.level).toBe("high");
    expect(full.risk.labels).toContain("lithium + hydrochlorothiazide: lithium toxicity");
    const partial = medicationAgent.ground(checkInteractions(["lithium", "losartan/zorbazide"]));
    expect(partial.complete).toBe(false);
    expect(partial.warnings.some((w) => w.includes('"zorbazide"'))).toBe(true);
    expect(partial.summary.join(" ")).toContain("only partly recognised");
  });

  it("says a dose above the label maximum in its summary", () => {
    const grounded = medicationAgent.ground(checkInteractions(["citalopram 60 mg"]));
    expect(grounded.risk.level).toBe("high");
    expect(grounded.summary.join(" ")).toContain(
      "Dose above the label maximum: citalopram 60 mg/day: above the 40 mg/day label maximum",
    );
  });

  it("knows combination product names for grounding: in the vocabulary and as aliases of each ingredient", () => {
    expect(medicationAgent.vocabulary()).toContain("hyzaar");
    const grounded = medicationAgent.ground(checkInteractions(["lithium", "Hyzaar 50/12.5"]));
    const hctz = grounded.entities.find((entity) => entity.name === "hydrochlorothiazide");
    expect(hctz?.aliases).toEqual(expect.arrayContaining(["Hyzaar 50/12.5", "hyzaar"]));
  });
});
