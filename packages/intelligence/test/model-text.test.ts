import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  boundedWarnings,
  clipModelList,
  clipModelText,
  MODEL_TEXT_CLIP_CHARS,
  readModelText,
  screenModelNarrative,
} from "../src/index.js";

describe("clipModelText", () => {
  it("keeps text within the bound and cuts longer text with an ellipsis", () => {
    expect(clipModelText("getPanels")).toBe("getPanels");
    expect(clipModelText("x".repeat(3_000))).toBe(`${"x".repeat(77)}...`);
  });

  it("never splits a surrogate pair and keeps a quoted string on one line", () => {
    expect(clipModelText(`${"x".repeat(76)}😀😀😀`)).toBe(`${"x".repeat(76)}...`);
    expect(clipModelText("a\nb\r\nc\u2028d")).toBe("a b c d");
  });

  it("is at most the bound, for any text and bound", () => {
    fc.assert(
      fc.property(
        fc.string({ unit: "binary", maxLength: 400 }),
        fc.integer({ min: 4, max: 200 }),
        (text, max) => {
          const clipped = clipModelText(text, max);
          expect(clipped.length).toBeLessThanOrEqual(Math.max(max, 3));
          expect(clipped).not.toMatch(/[\n\r]/);
          expect(clipped).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/);
        },
      ),
    );
  });
});

describe("clipModelList and boundedWarnings", () => {
  it("lists the first few, clipped, and counts the rest", () => {
    const many = Array.from({ length: 8 }, (_, i) => `${"y".repeat(100)}${i}`);
    expect(clipModelList(many)).toBe(
      `${Array.from({ length: 5 }, () => `${"y".repeat(MODEL_TEXT_CLIP_CHARS - 3)}...`).join(", ")} and 3 more`,
    );
    expect(boundedWarnings(["a", "b"], "dropped citations")).toEqual(["a", "b"]);
    expect(boundedWarnings(["a", "b", "c"], "dropped citations", 1)).toEqual([
      "a",
      "2 further dropped citations were not listed.",
    ]);
  });
});

describe("readModelText (decision 168)", () => {
  it("keeps a text within the bound as it is", () => {
    expect(readModelText("One. Two.", 20)).toBe("One. Two.");
  });
  it("keeps the whole sentences within the bound", () => {
    expect(readModelText("First one. Second one. Third one.", 25)).toBe("First one. Second one.");
  });
  it("cuts a text with no sentence end at the bound, never inside a surrogate pair", () => {
    expect(readModelText("abcdefgh", 5)).toBe("abcde");
    expect(readModelText("abcd\u{1F600}x", 5)).toBe("abcd");
  });
  it("a language model's 900 kB narrative is screened in bounded time", () => {
    const started = performance.now();
    const kept = screenModelNarrative("The patient is safe. ".repeat(43_000), {
      headline: "Lithium 1.6 mmol/L.",
      requiresClinicianReview: true,
      riskLevel: "high",
    } as never);
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(kept).toBeNull();
  });
});
