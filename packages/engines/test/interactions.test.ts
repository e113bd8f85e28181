import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ROUTE_CLASSES } from "../src/knowledge/medicines.js";
import {
  checkInteractions,
  DRUG_CLASSES,
  type DrugSelector,
  INGREDIENTS,
  INTERACTION_RULES,
  type InteractionCheck,
  type InteractionRule,
  listKnownIngredients,
  MAX_MEDICATIONS,
  parseMedication,
} from "../src/tools/interactions.js";
import { ToolInputError } from "../src/tools/types.js";

/** Words that would read as reassurance; none may appear when nothing (or not everything) matched. */
const REASSURANCE = /\bsafe\b|\bno (known )?interactions?\b|\bno risk\b|\bdo(es)? not interact\b|\bnormal\b/i;

/** Unordered identity of a reported interaction, so input order cannot matter. */
function pairKeys(check: InteractionCheck): string[] {
  return check.interactions.map((i) => `${i.id}|${[i.a, i.b].sort().join("+")}|${i.severity}`).sort();
}

/** One way of entering an ingredient: as itself, or (for an NSAID) as a topical gel (decision 71). */
interface Candidate {
  ingredient: string;
  input: string;
  classes: readonly string[];
}

function candidates(): Candidate[] {
  return INGREDIENTS.flatMap((item) => {
    const systemic = { ingredient: item.ingredient, input: item.ingredient, classes: item.classes };
    if (!item.classes.includes("nsaid")) return [systemic];
    const topicalClasses = [...item.classes.filter((c) => c !== "nsaid"), "topical_nsaid"];
    return [
      systemic,
      { ingredient: item.ingredient, input: `${item.ingredient} gel`, classes: topicalClasses },
    ];
  });
}

function selects(selector: DrugSelector, candidate: Candidate): boolean {
  return (
    (selector.ingredients?.includes(candidate.ingredient) ?? false) ||
    (selector.classes?.some((c) => candidate.classes.includes(c)) ?? false)
  );
}

/** Two entries naming distinct known ingredients that the rule's two sides select, or null. */
function examplePair(rule: InteractionRule): [string, string] | null {
  for (const a of candidates()) {
    if (!selects(rule.a, a)) continue;
    for (const b of candidates())
      if (b.ingredient !== a.ingredient && selects(rule.b, b)) return [a.input, b.input];
  }
  return null;
}

describe("knowledge base", () => {
  it("holds at least 80 rules with unique ids and every field filled", () => {
    expect(INTERACTION_RULES.length).toBeGreaterThanOrEqual(80);
    expect(new Set(INTERACTION_RULES.map((r) => r.id)).size).toBe(INTERACTION_RULES.length);
    for (const rule of INTERACTION_RULES) {
      expect(rule.id, rule.id).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
      for (const text of [rule.mechanism, rule.recommendation, rule.source, rule.effect]) {
        expect(text.trim().length, rule.id).toBeGreaterThan(3);
      }
      expect(["high", "moderate", "low"]).toContain(rule.severity);
    }
  });

  it("names only known ingredients and classes some ingredient holds", () => {
    const known = new Set(listKnownIngredients());
    const heldClasses = new Set<string>([...INGREDIENTS.flatMap((item) => item.classes), ...ROUTE_CLASSES]);
    for (const rule of INTERACTION_RULES) {
      for (const side of [rule.a, rule.b]) {
        expect((side.ingredients?.length ?? 0) + (side.classes?.length ?? 0), rule.id).toBeGreaterThan(0);
        for (const ingredient of side.ingredients ?? [])
          expect(known.has(ingredient), `${rule.id}: ${ingredient}`).toBe(true);
        for (const drugClass of side.classes ?? [])
          expect(heldClasses.has(drugClass), `${rule.id}: ${drugClass}`).toBe(true);
      }
    }
    const ingredientClasses = new Set(INGREDIENTS.flatMap((item) => item.classes));
    for (const drugClass of DRUG_CLASSES) expect(ingredientClasses.has(drugClass), drugClass).toBe(true);
  });

  it("reports every rule for a pair it selects (or a same-group rule at least as severe)", () => {
    const rank = { low: 1, moderate: 2, high: 3 } as const;
    for (const rule of INTERACTION_RULES) {
      const pair = examplePair(rule);
      expect(pair, rule.id).not.toBeNull();
      const [a, b] = pair as [string, string];
      const reported = checkInteractions([a, b]).interactions;
      const sameGroup = reported.filter((i) =>
        INTERACTION_RULES.some((r) => r.id === i.id && r.group === rule.group),
      );
      expect(sameGroup.length, `${rule.id} on ${a} + ${b}`).toBe(1);
      const kept = sameGroup[0];
      if (kept?.id !== rule.id)
        expect(rank[kept?.severity ?? "low"], rule.id).toBeGreaterThanOrEqual(rank[rule.severity]);
    }
  });

  it("gives every verified RxNorm code as digits, and no code twice", () => {
    const codes = INGREDIENTS.flatMap((item) => (item.rxcui === null ? [] : [item.rxcui]));
    expect(codes.length).toBeGreaterThan(40);
    for (const code of codes) expect(code).toMatch(/^\d+$/);
    expect(new Set(codes).size).toBe(codes.length);
    // Codes public sources disagree on stay unmapped (docs/terminology.md).
    for (const unmapped of [
      "lithium",
      "quetiapine",
      "lorazepam",
      "clonazepam",
      "trazodone",
      "zolpidem",
      "valproate",
    ]) {
      expect(parseMedication(unmapped)?.rxnormIngredient, unmapped).toBeNull();
    }
  });
});

describe("real combinations", () => {
  const cases: [string[], string, "high" | "moderate" | "low"][] = [
    [["Sertraline 100 mg", "tramadol 50 mg"], "serotonergic-tramadol", "high"],
    [["phenelzine 15 mg", "sertraline 50 mg"], "maoi-ssri", "high"],
    [["Lithium carbonate 400mg", "ibuprofen 400 mg"], "lithium-nsaid", "high"],
    [["lithium 800 mg", "lisinopril 10 mg"], "lithium-ace-inhibitor", "moderate"],
    [["lithium 800 mg", "theophylline 200 mg"], "lithium-theophylline", "moderate"],
    [["Priadel 400 mg", "losartan"], "lithium-arb", "moderate"],
    [["lithium", "hydrochlorothiazide 25 mg"], "lithium-thiazide", "high"],
    [["clozapine 300 mg", "fluvoxamine 100 mg"], "clozapine-strong-cyp1a2-inhibitor", "high"],
    [["Clozaril", "ciprofloxacin 500 mg"], "clozapine-strong-cyp1a2-inhibitor", "high"],
    [["Depakote 500 mg", "lamotrigine 100 mg"], "valproate-lamotrigine", "high"],
    [["carbamazepine 400 mg", "quetiapine XR 300 mg"], "inducer-quetiapine", "moderate"],
    [["oxycodone 10 mg", "alprazolam 0.5 mg"], "opioid-benzodiazepine", "high"],
    [["morphine", "pregabalin 150 mg"], "opioid-gabapentinoid", "high"],
    [["bupropion XL 300 mg", "tramadol"], "bupropion-tramadol", "high"],
    [["linezolid 600 mg", "escitalopram 10 mg"], "linezolid-ssri-snri", "high"],
    [["methylene blue", "duloxetine"], "methylene-blue-ssri-snri", "high"],
    [["sumatriptan 50 mg", "venlafaxine 150 mg"], "triptan-ssri-snri", "moderate"],
    [["citalopram 40 mg", "methadone 60 mg"], "qt-prolonging-pair", "high"],
    [["fluoxetine 20 mg", "tamoxifen 20 mg"], "tamoxifen-strong-cyp2d6-inhibitor", "high"],
    [["Paxil", "tamoxifen"], "tamoxifen-strong-cyp2d6-inhibitor", "high"],
    [["aripiprazole 10 mg", "fluoxetine"], "aripiprazole-strong-cyp2d6-inhibitor", "moderate"],
    [["St John's wort", "sertraline"], "st-johns-wort-serotonergic", "high"],
    [["tranylcypromine", "methylphenidate 10 mg"], "maoi-stimulant", "high"],
    [["sertraline", "warfarin 5 mg"], "ssri-snri-anticoagulant", "moderate"],
    [["disulfiram", "alcohol"], "disulfiram-alcohol", "high"],
    [["naltrexone 50 mg", "oxycodone"], "naltrexone-opioid", "high"],
    [["amitriptyline 50 mg", "procyclidine 5 mg"], "anticholinergic-burden", "moderate"],
  ];

  it.each(cases)("%j reports %s (%s)", (inputs, id, severity) => {
    const check = checkInteractions(inputs);
    const hit = check.interactions.find((i) => i.id === id);
    expect(hit, JSON.stringify(check.interactions.map((i) => i.id))).toBeDefined();
    expect(hit?.severity).toBe(severity);
    expect(check.recognized).toHaveLength(2);
    expect([hit?.a, hit?.b]).toEqual(check.recognized);
    expect(check.risk.flag).toBe(true);
    expect(["moderate", "high"]).toContain(check.risk.level);
    expect(check.complete).toBe(true);
  });

  it.each(cases)("%j gives the same result in reverse order", (inputs) => {
    expect(pairKeys(checkInteractions([...inputs].reverse()))).toEqual(pairKeys(checkInteractions(inputs)));
  });

  it("labels a moderate or high interaction in one short line", () => {
    const check = checkInteractions(["sertraline 100 mg", "tramadol 50 mg"]);
    expect(check.risk).toEqual({
      flag: true,
      level: "high",
      labels: ["sertraline + tramadol: serotonin syndrome and seizure risk"],
    });
  });

  it("reports a specific rule once, not again through a broader rule of the same group", () => {
    const clozapineCarbamazepine = checkInteractions(["clozapine", "carbamazepine"]).interactions.map(
      (i) => i.id,
    );
    expect(clozapineCarbamazepine).toContain("clozapine-carbamazepine");
    expect(clozapineCarbamazepine).not.toContain("clozapine-strong-inducer");
    const linezolidClomipramine = checkInteractions(["linezolid", "clomipramine"]).interactions.map(
      (i) => i.id,
    );
    expect(linezolidClomipramine).toEqual(["linezolid-ssri-snri"]);
  });

  it("reports interactions of different kinds for the same pair separately", () => {
    const ids = checkInteractions(["fluoxetine", "tramadol"]).interactions.map((i) => i.id);
    expect(ids).toEqual(["serotonergic-tramadol", "codeine-tramadol-strong-cyp2d6-inhibitor"]);
  });

  it("keeps a low-only finding low and unlabelled, and never lets it outweigh a high one", () => {
    const smoking = checkInteractions(["clozapine 400 mg", "nicotine patch 21 mg"]);
    expect(smoking.interactions.map((i) => i.id)).toEqual(["clozapine-nicotine-smoking"]);
    // The QT category of nicotine is not recorded, so the QT pair with clozapine is named as not
    // evaluated (decision 173); the low interaction itself still carries no label.
    expect(smoking.risk.level).toBe("low");
    expect(smoking.risk.labels.filter((label) => !label.startsWith("Not evaluated:"))).toEqual([]);
    expect(smoking.risk.labels).toEqual([
      "Not evaluated: nicotine (QT risk category unknown for nicotine (needed for the QT-prolonging pair rule with clozapine))",
    ]);
    const mixed = checkInteractions([
      "clozapine",
      "nicotine",
      "lithium",
      "sertraline",
      "oxycodone",
      "diazepam",
    ]);
    expect(mixed.risk.level).toBe("high");
    expect(mixed.risk.labels).toContain("oxycodone + diazepam: respiratory depression and death");
    expect(mixed.interactions[0]?.severity).toBe("high");
  });

  it("is symmetric for any subset of known ingredients in any order", () => {
    fc.assert(
      fc.property(fc.shuffledSubarray(listKnownIngredients(), { minLength: 2, maxLength: 8 }), (subset) => {
        const forward = checkInteractions(subset);
        const backward = checkInteractions([...subset].reverse());
        expect(pairKeys(backward)).toEqual(pairKeys(forward));
        expect(backward.risk.level).toBe(forward.risk.level);
      }),
      { numRuns: 200 },
    );
  });
});

describe("parsing", () => {
  it.each([
    ["Sertraline 100 mg", "sertraline", { value: 100, unit: "mg" }],
    ["sertraline 100mg daily", "sertraline", { value: 100, unit: "mg" }],
    ["Lithium carbonate 400mg", "lithium", { value: 400, unit: "mg" }],
    ["Zoloft", "sertraline", null],
    ["quetiapine XR 300 mg", "quetiapine", { value: 300, unit: "mg" }],
    ["SERTRALINE-50MG.", "sertraline", { value: 50, unit: "mg" }],
    ["clonazepam 0.5 mg at night", "clonazepam", { value: 0.5, unit: "mg" }],
    ["Lorazepam 0,5 mg", "lorazepam", { value: 0.5, unit: "mg" }],
    ["levonorgestrel 1.5 mg", "levonorgestrel", { value: 1.5, unit: "mg" }],
    ["fentanyl patch 25 micrograms/hour", "fentanyl", { value: 25, unit: "mcg" }],
    ["Fentanyl 12 µg/h", "fentanyl", { value: 12, unit: "mcg" }],
    ["Lexapro 10 mg", "escitalopram", { value: 10, unit: "mg" }],
    ["Prozac", "fluoxetine", null],
    ["Seroquel XL 300mg", "quetiapine", { value: 300, unit: "mg" }],
    ["sodium valproate 500 mg bd", "valproate", { value: 500, unit: "mg" }],
    ["Wellbutrin XL", "bupropion", null],
    ["St. John's Wort 300 mg", "st johns wort", { value: 300, unit: "mg" }],
    ["Café-au-lait Sertralíne", "sertraline", null],
  ])("%s -> %s", (text, ingredient, dose) => {
    const parsed = parseMedication(text);
    expect(parsed?.ingredient).toBe(ingredient);
    expect(parsed?.dose).toEqual(dose);
    expect(parsed?.input).toBe(text.trim());
  });

  it("gives the verified RxNorm ingredient code, or null", () => {
    expect(parseMedication("Zoloft 50 mg")?.rxnormIngredient).toBe("36437");
    expect(parseMedication("tramadol")?.rxnormIngredient).toBe("10689");
    expect(parseMedication("lithium")?.rxnormIngredient).toBeNull();
  });

  it("matches whole words only", () => {
    expect(parseMedication("escitalopram")?.ingredient).toBe("escitalopram");
    expect(parseMedication("citalopram")?.ingredient).toBe("citalopram");
    expect(parseMedication("pregabalinx")).toBeNull();
    expect(parseMedication("imipenem")).toBeNull();
  });

  it.each(["", "   ", "asdfgh", "100 mg", "the blue one", "vitamin"])("%j is not recognised", (text) => {
    expect(parseMedication(text)).toBeNull();
  });

  it("lists the known ingredients sorted and once each", () => {
    const known = listKnownIngredients();
    expect(known).toEqual([...known].sort());
    expect(new Set(known).size).toBe(known.length);
    expect(known).toEqual(expect.arrayContaining(["sertraline", "lithium", "clozapine", "tramadol"]));
  });
});

describe("safety: what was not checked never reads as reassurance", () => {
  it("lists unrecognised entries and says interactions involving them were not checked", () => {
    const check = checkInteractions(["sertraline", "tramadol", "foo bar", " xyzzy ", "levothyroxine 50 mcg"]);
    expect(check.unrecognized).toEqual(["foo bar", "xyzzy", "levothyroxine 50 mcg"]);
    expect(check.recognized).toEqual(["sertraline", "tramadol"]);
    expect(check.complete).toBe(false);
    expect(check.warnings[0]).toMatch(
      /^3 of 5 medications were not recognised; interactions involving them were not checked: "foo bar", "xyzzy", "levothyroxine 50 mcg"\.$/,
    );
    expect(check.risk.level).toBe("high");
  });

  it("an empty interaction list with an unknown entry is 'not checked', not 'no interactions'", () => {
    const check = checkInteractions(["sertraline 50 mg", "mystery pill"]);
    expect(check.interactions).toEqual([]);
    expect(check.complete).toBe(false);
    expect(check.warnings.join(" ")).toContain("1 of 2 medications was not recognised");
    expect(check.warnings.join(" ")).toContain("no pair could be checked");
    for (const text of [...check.warnings, ...check.risk.labels]) expect(text).not.toMatch(REASSURANCE);
  });

  it("an unrelated pair gives risk none without any reassuring wording", () => {
    const check = checkInteractions(["sertraline 100 mg", "metformin 500 mg"]);
    expect(check.interactions).toEqual([]);
    expect(check.risk).toEqual({ flag: false, level: "none", labels: [] });
    expect(check.complete).toBe(true);
    expect(check.warnings).toHaveLength(1);
    expect(check.warnings[0]).toContain("does not show that the combination is free of interactions");
    for (const text of check.warnings) expect(text).not.toMatch(REASSURANCE);
  });

  it("an empty list, or only unknown or empty entries, says nothing was checked", () => {
    const none = checkInteractions([]);
    expect(none.warnings).toEqual(["No medications were given; nothing was checked."]);
    expect(none.complete).toBe(false);
    const unknown = checkInteractions(["", "zzz"]);
    expect(unknown.unrecognized).toEqual(["", "zzz"]);
    expect(unknown.warnings[0]).toBe(
      '2 of 2 medications were not recognised; interactions involving them were not checked: (empty entry), "zzz".',
    );
    for (const text of unknown.warnings) expect(text).not.toMatch(REASSURANCE);
  });
});

describe("duplicates, combined entries and limits", () => {
  it("recognises a duplicate ingredient once and says so", () => {
    const check = checkInteractions(["sertraline 50 mg", "Zoloft 100 mg", "tramadol"]);
    expect(check.recognized).toEqual(["sertraline", "tramadol"]);
    expect(check.medications.map((m) => m.ingredient)).toEqual(["sertraline", "sertraline", "tramadol"]);
    expect(
      check.warnings.some((w) => w.startsWith("sertraline listed twice (sertraline 50 mg; Zoloft 100 mg)")),
    ).toBe(true);
    expect(check.interactions.filter((i) => i.id === "serotonergic-tramadol")).toHaveLength(1);
    expect(checkInteractions(["lithium", "Priadel", "lithium citrate"]).warnings[0]).toMatch(
      /^lithium listed 3 times/,
    );
  });

  it("checks every medicine named in one entry, without guessing a dose", () => {
    const check = checkInteractions(["sertraline and tramadol 50 mg"]);
    expect(check.recognized).toEqual(["sertraline", "tramadol"]);
    expect(check.medications.every((m) => m.dose === null)).toBe(true);
    expect(check.interactions[0]?.id).toBe("serotonergic-tramadol");
    expect(check.warnings.some((w) => w.includes("names 2 medicines (sertraline, tramadol)"))).toBe(true);
  });

  it("runs on 50 medications", () => {
    const fifty = listKnownIngredients().slice(0, MAX_MEDICATIONS);
    const check = checkInteractions(fifty);
    expect(check.recognized).toHaveLength(50);
    expect(check.interactions.length).toBeGreaterThan(0);
    for (const i of check.interactions) expect(fifty.indexOf(i.a)).toBeLessThan(fifty.indexOf(i.b));
  });

  it("refuses more than 50 entries, a non-array and non-string entries", () => {
    expect(() => checkInteractions(listKnownIngredients().slice(0, 51))).toThrow(ToolInputError);
    const notAList: unknown = "sertraline";
    expect(() => checkInteractions(notAList as readonly string[])).toThrow(ToolInputError);
    const mixed: unknown[] = ["sertraline", 5];
    try {
      checkInteractions(mixed as readonly string[]);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ToolInputError);
      expect((error as ToolInputError).issues).toEqual([
        { path: [1], message: "medication 2 must be a string" },
      ]);
    }
  });
});
