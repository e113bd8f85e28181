import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { buildLines, DOMAINS, toPhrase } from "../src/index.js";

/**
 * Every line the narrative writes, for any options of any domain and any note a clinician may
 * type: each chosen finding can be read back on its own (no finding reads as part of another, so
 * "denies ... ideation" never reaches "protective factors identified"), and no end mark is doubled
 * or follows a comma, semicolon or colon.
 */
const domainWithOptions = fc
  .constantFrom(...DOMAINS)
  .chain((domain) =>
    fc.tuple(
      fc.constant(domain),
      fc.uniqueArray(fc.constantFrom(...domain.options), { minLength: 1, maxLength: domain.options.length }),
    ),
  );

const NOTE_ENDINGS = [
  "",
  ".",
  "!",
  "?",
  ".)",
  '."',
  ".\u201D",
  ";",
  ",",
  ":",
  " .",
  "\u2026",
  "...",
  " -",
  "  ",
];
const note = fc
  .tuple(
    fc.array(fc.constantFrom("calm", "Worse", "in", "the", "mornings", "(reported)", "said", '"fine"'), {
      minLength: 1,
      maxLength: 6,
    }),
    fc.constantFrom(...NOTE_ENDINGS),
  )
  .map(([words, end]) => `${words.join(" ")}${end}`);

/** The chosen findings read back from the first sentence after "Label: ". */
function readBack(line: string, label: string, count: number): string[] {
  const first = line.slice(`${label}: `.length).replace(/\.(\s.*)?$/s, "");
  if (count === 1) return [first];
  if (first.includes("; ")) return first.split("; ");
  const last = first.lastIndexOf(" and ");
  if (last < 0) return [first];
  return [...first.slice(0, last).split(", "), first.slice(last + " and ".length)];
}

/** End marks doubled or after a separator: "..;", "fine.\".", "calm;.", "note:.", "calm ." */
const BROKEN = /[,;:]\.|(?<!\.)\.\.(?!\.)|\.{4,}|[.!?\u2026]["'\u201D\u2019)\]]+\.|\s\.|\u2026\./u;

describe("narrative properties", () => {
  it("every chosen finding reads back on its own, in every domain and combination", () => {
    fc.assert(
      fc.property(domainWithOptions, ([domain, options]) => {
        const values = options.map((o) => o.value);
        const [line] = buildLines({ [domain.key]: { values } });
        const chosen = domain.options.filter((o) => values.includes(o.value)).map((o) => toPhrase(o.label));
        expect(line).toBeDefined();
        expect(readBack(line?.line ?? "", domain.label, chosen.length)).toEqual(chosen);
        expect(line?.line).not.toMatch(BROKEN);
      }),
      { numRuns: 500 },
    );
  });

  it("the risk line never joins a denial to protective factors", () => {
    const [risk] = buildLines({ risk: { values: ["denies_si_hi", "protective_factors"] } });
    expect(risk?.line).toBe("Risk: denies suicidal and homicidal ideation; protective factors identified.");
  });

  it("a note ends in exactly one end mark whatever the clinician typed", () => {
    fc.assert(
      fc.property(domainWithOptions, note, ([domain, options], text) => {
        const [line] = buildLines({ [domain.key]: { values: options.map((o) => o.value), text } });
        expect(line?.line).not.toMatch(BROKEN);
        expect(line?.line).toMatch(/[.!?\u2026]["'\u201D\u2019)\]]*$/u);
      }),
      { numRuns: 500 },
    );
  });
});
