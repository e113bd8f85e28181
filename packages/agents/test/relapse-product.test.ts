import { scoreRelapse } from "@svc/engines";
import { describe, expect, it } from "vitest";
import { relapseAgent } from "../src/products.js";

describe("relapse agent product", () => {
  it("leads its summary with the review rule that set the band, before the weighted contributions", () => {
    const grounded = relapseAgent.ground(
      scoreRelapse([
        { indicator: "suicidal ideation", severity: 1 },
        { indicator: "insomnia", severity: 0.4 },
      ]),
    );
    expect(grounded.risk.level).toBe("high");
    expect(grounded.summary[0]).toMatch(/^Immediate clinician review: Suicidal ideation/);
    expect(grounded.summary[1]).toMatch(/^The relapse early-warning composite is/);
  });

  it("says a combination rule (a stopped mood stabiliser with short sleep) first", () => {
    const grounded = relapseAgent.ground(
      scoreRelapse([
        { indicator: "stopped lithium", severity: 1 },
        { indicator: "short sleep", severity: 0.6 },
      ]),
    );
    expect(grounded.summary[0]).toMatch(/Stopped mood stabiliser/);
  });

  it("keeps the composite sentence first when no rule fired", () => {
    const grounded = relapseAgent.ground(scoreRelapse([{ indicator: "insomnia", severity: 0.3 }]));
    expect(grounded.summary[0]).toMatch(/^The relapse early-warning composite is/);
  });
});
