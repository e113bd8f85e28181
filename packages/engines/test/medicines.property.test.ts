/**
 * Metamorphic properties of the interaction checker over the medicine model: what holds for
 * every list of known medicines, not only for the examples.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { COMBINATION_PRODUCTS, MEDICATION_QUALIFIERS } from "../src/knowledge/medicines.js";
import { normaliseMedicationText, readEntry } from "../src/tools/drug-names.js";
import {
  checkInteractions,
  INTERACTION_RULES,
  type InteractionCheck,
  listKnownIngredients,
} from "../src/tools/interactions.js";

const RANK = { low: 1, moderate: 2, high: 3 } as const;
const GROUP_OF = new Map(INTERACTION_RULES.map((rule) => [rule.id, rule.group]));

/** Unordered pair + harm group -> the severity reported for it. */
function findings(check: InteractionCheck): Map<string, number> {
  const found = new Map<string, number>();
  for (const i of check.interactions) {
    const key = `${[i.a, i.b].sort().join("+")}|${GROUP_OF.get(i.id)}`;
    found.set(key, Math.max(found.get(key) ?? 0, RANK[i.severity]));
  }
  return found;
}

function interactionSet(check: InteractionCheck): string[] {
  return check.interactions.map((i) => `${i.id}|${[i.a, i.b].sort().join("+")}|${i.severity}`).sort();
}

const known = listKnownIngredients();
const ingredientList = fc.shuffledSubarray(known, { minLength: 1, maxLength: 10 });

/** Entries as people write them: the name alone, with a dose, or with a form and timing. */
const writtenEntry = fc
  .tuple(
    fc.constantFrom(...known),
    fc.constantFrom("", " 10 mg", " 100mg daily", " tablets bd", " XL 50 mg at night", " gel"),
  )
  .map(([name, tail]) => `${name}${tail}`);

/** Lower-case words that are neither part of a known name nor a form, strength or timing word. */
const unknownWord = fc
  .stringMatching(/^[a-z]{4,10}$/)
  .filter((word) => !MEDICATION_QUALIFIERS.has(word) && readEntry(word).ingredients.length === 0)
  .filter((word) => known.every((name) => !name.split(" ").includes(word)));

describe("interaction checker properties", () => {
  it("adding a medicine never removes or lowers an interaction", () => {
    fc.assert(
      fc.property(fc.array(writtenEntry, { minLength: 1, maxLength: 8 }), writtenEntry, (list, added) => {
        const before = findings(checkInteractions(list));
        const after = findings(checkInteractions([...list, added]));
        for (const [key, severity] of before)
          expect(after.get(key) ?? 0, key).toBeGreaterThanOrEqual(severity);
        expect(RANK[checkInteractions([...list, added]).risk.level as "low"] ?? 0).toBeGreaterThanOrEqual(
          RANK[checkInteractions(list).risk.level as "low"] ?? 0,
        );
      }),
      { numRuns: 300 },
    );
  });

  it("the order of the list does not change the set of interactions or the risk level", () => {
    fc.assert(
      fc.property(
        fc
          .array(writtenEntry, { minLength: 2, maxLength: 8 })
          .chain((list) =>
            fc.tuple(
              fc.constant(list),
              fc.shuffledSubarray(list, { minLength: list.length, maxLength: list.length }),
            ),
          ),
        ([list, shuffled]) => {
          const a = checkInteractions(list);
          const b = checkInteractions(shuffled);
          expect(interactionSet(b)).toEqual(interactionSet(a));
          expect(b.risk.level).toBe(a.risk.level);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("a combination product gives the same interactions as its ingredients listed apart", () => {
    const products = COMBINATION_PRODUCTS.flatMap((product) =>
      product.names.map((name) => ({ name, product })),
    );
    fc.assert(
      fc.property(fc.constantFrom(...products), ingredientList, ({ name, product }, others) => {
        const combined = checkInteractions([...others, name]);
        const apart = checkInteractions([...others, ...product.ingredients]);
        expect(interactionSet(combined)).toEqual(interactionSet(apart));
        expect(combined.risk.level).toBe(apart.risk.level);
        for (const ingredient of product.ingredients) expect(combined.recognized).toContain(ingredient);
      }),
      { numRuns: 300 },
    );
  });

  it("every ingredient joined with / or - is matched as if listed separately", () => {
    fc.assert(
      fc.property(
        fc.shuffledSubarray(known, { minLength: 2, maxLength: 3 }),
        fc.constantFrom("/", "-", " and ", " + "),
        ingredientList,
        (joined, separator, others) => {
          const combined = checkInteractions([...others, joined.join(separator)]);
          const apart = checkInteractions([...others, ...joined]);
          expect(interactionSet(combined)).toEqual(interactionSet(apart));
        },
      ),
      { numRuns: 300 },
    );
  });

  it("an unknown word is never dropped: it is named in a warning and the check is incomplete", () => {
    fc.assert(
      fc.property(ingredientList, fc.constantFrom(...known), unknownWord, (others, name, word) => {
        const entry = `${name} ${word} 10 mg`;
        const check = checkInteractions([...others, entry]);
        expect(check.complete).toBe(false);
        expect(check.warnings.some((w) => w.includes(`"${word}"`))).toBe(true);
        const alone = checkInteractions([...others, word]);
        expect(alone.unrecognized).toContain(word);
        expect(alone.complete).toBe(false);
      }),
      { numRuns: 300 },
    );
  });

  it("normalising an entry twice changes nothing", () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        const once = normaliseMedicationText(text);
        expect(normaliseMedicationText(once)).toBe(once);
      }),
    );
  });
});
