import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { medicineCoverageMarkdown } from "../src/knowledge/coverage.js";
import { MEDICINE_PROPERTIES } from "../src/knowledge/medicine-properties.js";
import {
  ANTIPSYCHOTICS_NOT_MODELLED,
  COMBINATION_PRODUCTS,
  CYP_ROLES,
  DAILY_DOSE_LIMITS,
  INGREDIENTS,
  QT_LABEL_AVOID,
  QT_RISK,
} from "../src/knowledge/medicines.js";
import { checkInteractions, type InteractionCheck } from "../src/tools/interactions.js";

function ids(check: InteractionCheck): string[] {
  return check.interactions.map((i) => i.id);
}

function severityOf(check: InteractionCheck, id: string): string | undefined {
  return check.interactions.find((i) => i.id === id)?.severity;
}

describe("the medicine model", () => {
  it("names only known ingredients in combination products, QT and CYP tables", () => {
    const known = new Set(INGREDIENTS.map((item) => item.ingredient));
    for (const product of COMBINATION_PRODUCTS) {
      expect(product.ingredients.length, product.names[0]).toBeGreaterThan(1);
      for (const ingredient of product.ingredients) expect(known.has(ingredient), ingredient).toBe(true);
      expect(product.source.length).toBeGreaterThan(10);
    }
    for (const ingredient of [
      ...Object.keys(QT_RISK),
      ...Object.keys(CYP_ROLES),
      ...Object.keys(QT_LABEL_AVOID),
    ]) {
      expect(known.has(ingredient), ingredient).toBe(true);
    }
  });

  it("derives the QT and CYP classes from their tables, not from ingredient lists", () => {
    const classesOf = (name: string) => INGREDIENTS.find((item) => item.ingredient === name)?.classes ?? [];
    expect(classesOf("quetiapine")).toContain("qt_conditional_risk");
    expect(classesOf("paliperidone")).toContain("qt_possible_risk");
    expect(classesOf("methadone")).toContain("qt_known_risk");
    expect(classesOf("duloxetine")).toContain("moderate_cyp2d6_inhibitor");
    expect(classesOf("ketoconazole")).toContain("strong_cyp3a4_inhibitor");
    expect(classesOf("tobacco smoke")).toContain("cyp1a2_inducer");
    for (const item of INGREDIENTS) {
      expect(item.classes.includes("qt_known_risk"), item.ingredient).toBe(
        QT_RISK[item.ingredient]?.risk === "known",
      );
      expect(item.qtRisk).toBe(QT_RISK[item.ingredient]?.risk ?? null);
    }
  });
});

describe("combination products (decision 68)", () => {
  it.each([
    ["Hyzaar 50/12.5"],
    ["losartan/hydrochlorothiazide"],
    ["losartan-HCTZ"],
    ["losartan potassium and hydrochlorothiazide 100/25 mg"],
  ])("lithium + %s reads the thiazide interaction (high), not only lithium + ARB", (entry) => {
    const check = checkInteractions(["lithium 800 mg", entry]);
    expect(check.recognized).toEqual(["lithium", "losartan", "hydrochlorothiazide"]);
    expect(severityOf(check, "lithium-thiazide")).toBe("high");
    expect(severityOf(check, "lithium-arb")).toBe("moderate");
    expect(check.risk.level).toBe("high");
    expect(check.risk.labels).toContain("lithium + hydrochlorothiazide: lithium toxicity");
    expect(check.complete).toBe(true);
  });

  it.each([
    ["Diovan HCT 160/12.5", "valsartan"],
    ["Benicar HCT", "olmesartan"],
    ["Zestoretic 20/12.5", "lisinopril"],
  ])("%s is read as %s + hydrochlorothiazide", (entry, first) => {
    const check = checkInteractions(["Priadel 400 mg", entry]);
    expect(check.recognized).toEqual(["lithium", first, "hydrochlorothiazide"]);
    expect(severityOf(check, "lithium-thiazide")).toBe("high");
  });

  it("reads Auvelity as dextromethorphan and bupropion (MAOI contraindication on both)", () => {
    const check = checkInteractions(["Auvelity 45/105 mg bd", "phenelzine 15 mg"]);
    expect(check.recognized).toEqual(["dextromethorphan", "bupropion", "phenelzine"]);
    expect(ids(check)).toEqual(expect.arrayContaining(["maoi-serotonergic-opioid", "maoi-bupropion"]));
  });

  it("reads Tylenol #3 as codeine and paracetamol, not paracetamol alone", () => {
    const check = checkInteractions(["Tylenol #3", "diazepam 5 mg"]);
    expect(check.recognized).toEqual(["codeine", "paracetamol", "diazepam"]);
    expect(severityOf(check, "opioid-benzodiazepine")).toBe("high");
  });

  it("reads Symbyax as olanzapine and fluoxetine, and a contraceptive brand as both hormones", () => {
    const symbyax = checkInteractions(["Symbyax 6/25", "tamoxifen"]);
    expect(symbyax.recognized).toEqual(["olanzapine", "fluoxetine", "tamoxifen"]);
    expect(ids(symbyax)).toContain("tamoxifen-strong-cyp2d6-inhibitor");
    const pill = checkInteractions(["carbamazepine", "Microgynon 30"]);
    expect(pill.recognized).toEqual(["carbamazepine", "ethinylestradiol", "levonorgestrel"]);
    expect(pill.interactions.filter((i) => i.id === "inducer-hormonal-contraceptive")).toHaveLength(2);
  });

  it("reports an entry with an unrecognised part as partly recognised, never dropping the part", () => {
    const check = checkInteractions(["lithium", "losartan/zorbazide 50/12.5"]);
    expect(check.recognized).toEqual(["lithium", "losartan"]);
    expect(check.complete).toBe(false);
    const warning = check.warnings.find((w) => w.includes("only partly recognised"));
    expect(warning).toContain('"zorbazide"');
    expect(warning).toContain("losartan/zorbazide 50/12.5");
  });

  it("reads form, strength, salt and timing words without a warning", () => {
    const check = checkInteractions([
      "Sertraline HCl 100 mg tablets once daily",
      "Lithium carbonate 400mg MR at night",
      "quetiapine XL 300mg nocte",
      "oxycodone 5 mg q6h prn",
    ]);
    expect(check.complete).toBe(true);
    expect(check.warnings.some((w) => w.includes("partly recognised"))).toBe(false);
  });
});

describe("QT risk classes (decision 70)", () => {
  it("quetiapine + methadone is high (the quetiapine label names methadone)", () => {
    const check = checkInteractions(["quetiapine 300 mg", "methadone 80 mg"]);
    expect(ids(check)).toContain("qt-label-avoid-known-risk");
    expect(severityOf(check, "qt-label-avoid-known-risk")).toBe("high");
    expect(check.risk.level).toBe("high");
  });

  it("known + conditional is moderate; conditional + conditional is low; known + known stays high", () => {
    expect(
      severityOf(checkInteractions(["clozapine", "haloperidol"]), "qt-known-with-possible-or-conditional"),
    ).toBe("moderate");
    expect(severityOf(checkInteractions(["clozapine", "trazodone"]), "qt-possible-or-conditional-pair")).toBe(
      "low",
    );
    expect(severityOf(checkInteractions(["citalopram", "ondansetron"]), "qt-prolonging-pair")).toBe("high");
    expect(severityOf(checkInteractions(["quetiapine", "paliperidone"]), "qt-label-avoid-other-qt")).toBe(
      "moderate",
    );
  });

  it("citalopram above 40 mg/day is high and named, with or without another drug", () => {
    const check = checkInteractions(["citalopram 60 mg"]);
    expect(check.risk.level).toBe("high");
    expect(check.doseAlerts).toEqual([
      expect.objectContaining({
        ingredient: "citalopram",
        input: "citalopram 60 mg",
        dailyMg: 60,
        maximumMg: 40,
        severity: "high",
      }),
    ]);
    expect(check.risk.labels[0]).toMatch(/^citalopram 60 mg\/day: above the 40 mg\/day label maximum/);
    expect(check.warnings.some((w) => w.includes("above the label maximum of 40 mg/day"))).toBe(true);
    // 40 mg/day is within the 40 mg/day maximum; without an age the over-60 maximum is not
    // evaluated, which keeps the risk at low, named (decision 80), never high.
    expect(checkInteractions(["citalopram 20 mg bd"]).risk).toEqual({
      flag: true,
      level: "low",
      labels: [
        "Not evaluated: citalopram 40 mg/day (age not given: the 20 mg/day maximum above age 60 was not checked)",
      ],
    });
    expect(checkInteractions(["citalopram 20 mg bd"], { ageYears: 45 }).risk.level).toBe("none");
    expect(checkInteractions(["citalopram 30 mg bd"]).risk.labels[0]).toContain("60 mg/day");
    expect(checkInteractions(["citalopram 2 x 30 mg"]).risk.labels[0]).toContain("60 mg/day");
    expect(checkInteractions(["citalopram 2x20mg bd"]).risk.labels[0]).toContain("80 mg/day");
  });

  it("citalopram 30 mg at 70 years, or with cimetidine, is above the 20 mg/day maximum", () => {
    const older = checkInteractions(["citalopram 30 mg"], { ageYears: 70 });
    expect(older.risk.level).toBe("high");
    expect(older.risk.labels[0]).toContain("above the 20 mg/day maximum at age 70");
    const cimetidine = checkInteractions(["citalopram 30 mg", "cimetidine 400 mg"]);
    expect(cimetidine.risk.level).toBe("high");
    expect(cimetidine.risk.labels.join(" ")).toContain("with cimetidine");
    const younger = checkInteractions(["citalopram 30 mg"], { ageYears: 45 });
    expect(younger.risk.level).toBe("none");
    const notANumber = checkInteractions(["citalopram 30 mg"], { ageYears: Number.NaN });
    expect(notANumber.warnings.some((w) => w.includes("Age was not given"))).toBe(true);
  });

  it("citalopram 30 mg without an age says the over-60 limit was not checked", () => {
    const check = checkInteractions(["citalopram 30 mg"]);
    // Not evaluated is never none (decision 80).
    expect(check.risk.level).toBe("low");
    expect(check.risk.labels).toEqual([
      "Not evaluated: citalopram 30 mg/day (age not given: the 20 mg/day maximum above age 60 was not checked)",
    ]);
    expect(check.doseAlerts).toEqual([]);
    expect(check.warnings.some((w) => w.includes("Age was not given, so this was not checked"))).toBe(true);
  });
});

describe("rows an audit found missing (decision 69)", () => {
  it.each([
    [["clozapine 300 mg", "fluoxetine 20 mg"], "clozapine-cyp2d6-cyp3a4-inhibitor", "moderate"],
    [["clozapine", "sertraline 100 mg"], "clozapine-cyp2d6-cyp3a4-inhibitor", "moderate"],
    [["clozapine", "paroxetine"], "clozapine-cyp2d6-cyp3a4-inhibitor", "moderate"],
    [["clozapine", "erythromycin 500 mg"], "clozapine-cyp2d6-cyp3a4-inhibitor", "moderate"],
    [["clozapine", "bupropion XL 150 mg"], "clozapine-cyp2d6-cyp3a4-inhibitor", "moderate"],
    [["clozapine", "escitalopram 10 mg"], "clozapine-cyp2d6-cyp3a4-inhibitor", "moderate"],
    [["clozapine", "cimetidine 400 mg"], "clozapine-cyp2d6-cyp3a4-inhibitor", "moderate"],
    [["clozapine", "duloxetine 60 mg"], "clozapine-cyp2d6-cyp3a4-inhibitor", "moderate"],
    [["clozapine", "terbinafine 250 mg"], "clozapine-cyp2d6-cyp3a4-inhibitor", "moderate"],
    [["clozapine", "quinidine"], "clozapine-cyp2d6-cyp3a4-inhibitor", "moderate"],
    [["clozapine", "ketoconazole"], "clozapine-cyp2d6-cyp3a4-inhibitor", "moderate"],
    [["clozapine", "omeprazole 20 mg"], "clozapine-omeprazole", "low"],
    [["clozapine", "caffeine"], "clozapine-weak-cyp1a2-inhibitor", "moderate"],
    [["clozapine", "fluvoxamine"], "clozapine-strong-cyp1a2-inhibitor", "high"],
    [["clozapine", "ciprofloxacin"], "clozapine-strong-cyp1a2-inhibitor", "high"],
    [["clozapine", "carbamazepine"], "clozapine-carbamazepine", "high"],
    [["clozapine", "rifampin 600 mg"], "clozapine-strong-inducer", "moderate"],
    [["clozapine", "smoker 20 cigarettes a day"], "clozapine-tobacco-smoking", "moderate"],
    [["clozapine", "Microgynon 30"], "clozapine-weak-cyp1a2-inhibitor", "moderate"],
    [["quetiapine 600 mg", "ketoconazole 200 mg"], "quetiapine-strong-cyp3a4-inhibitor", "high"],
    [["quetiapine", "itraconazole"], "quetiapine-strong-cyp3a4-inhibitor", "high"],
    [["quetiapine", "clarithromycin"], "quetiapine-strong-cyp3a4-inhibitor", "high"],
    [["quetiapine", "ritonavir"], "quetiapine-strong-cyp3a4-inhibitor", "high"],
    [["quetiapine 200 mg", "fluconazole 150 mg"], "quetiapine-moderate-cyp3a4-inhibitor", "moderate"],
    [["lurasidone 40 mg", "clarithromycin 500 mg"], "lurasidone-strong-cyp3a4-inhibitor", "high"],
    [["lurasidone 40 mg", "erythromycin"], "lurasidone-moderate-cyp3a4-inhibitor", "moderate"],
    [["aripiprazole 15 mg", "itraconazole"], "aripiprazole-strong-cyp3a4-inhibitor", "moderate"],
    [["Xanax 0.5 mg", "ketoconazole"], "alprazolam-azole-antifungal", "high"],
    [["lithium", "haloperidol 5 mg"], "lithium-haloperidol", "moderate"],
    [["tamoxifen 20 mg", "duloxetine 60 mg"], "tamoxifen-moderate-cyp2d6-inhibitor", "moderate"],
    [["olanzapine 10 mg", "ciprofloxacin 500 mg"], "olanzapine-strong-cyp1a2-inhibitor", "moderate"],
    [["linezolid 600 mg", "methylene blue"], "linezolid-methylene-blue", "high"],
    [["ondansetron 8 mg", "sertraline 100 mg"], "ondansetron-serotonergic-antidepressant", "moderate"],
  ] as const)("%j reports %s (%s)", (inputs, id, severity) => {
    const check = checkInteractions(inputs);
    expect(severityOf(check, id), JSON.stringify(ids(check))).toBe(severity);
    expect(check.complete).toBe(true);
  });

  it("ondansetron + an SSRI with a known QT risk reports both harms", () => {
    const check = checkInteractions(["ondansetron", "escitalopram"]);
    expect(ids(check)).toEqual(
      expect.arrayContaining(["ondansetron-serotonergic-antidepressant", "qt-prolonging-pair"]),
    );
  });
});

describe("topical NSAIDs (decision 71)", () => {
  it.each([["diclofenac gel"], ["Voltaren Gel 1% to knee"], ["Pennsaid 2%"], ["topical ibuprofen"]])(
    "lithium + %s is low, not high",
    (entry) => {
      const check = checkInteractions(["lithium 800 mg", entry]);
      expect(ids(check)).toEqual(["lithium-topical-nsaid"]);
      expect(check.risk.level).toBe("low");
      expect(check.warnings.some((w) => w.includes("was read as topical"))).toBe(true);
    },
  );

  it("an NSAID also listed by mouth stays systemic (high)", () => {
    const check = checkInteractions(["lithium", "diclofenac gel", "diclofenac 50 mg tds"]);
    expect(severityOf(check, "lithium-nsaid")).toBe("high");
  });
});

describe("the therapeutic classes mood_stabiliser and antipsychotic", () => {
  const membersOf = (drugClass: string) =>
    INGREDIENTS.filter((item) => (item.classes as readonly string[]).includes(drugClass)).map(
      (item) => item.ingredient,
    );

  it("mood_stabiliser is lithium, valproate, lamotrigine and carbamazepine", () => {
    expect(membersOf("mood_stabiliser").sort()).toEqual([
      "carbamazepine",
      "lamotrigine",
      "lithium",
      "valproate",
    ]);
  });

  it("antipsychotic holds every ATC N05A ingredient of the table, and not lithium", () => {
    // By property, not by list (decision 172): every ingredient whose WHO ATC code is N05A except
    // N05AN (lithium) is an antipsychotic, and no other is.
    const n05a = INGREDIENTS.map((item) => item.ingredient).filter((ingredient) => {
      const atc = MEDICINE_PROPERTIES.get(ingredient)?.atc ?? "";
      return atc.startsWith("N05A") && !atc.startsWith("N05AN");
    });
    expect(membersOf("antipsychotic").sort()).toEqual(n05a.sort());
    expect(membersOf("antipsychotic")).not.toContain("lithium");
    for (const name of ["amisulpride", "zuclopenthixol", "flupentixol", "cariprazine", "ziprasidone"])
      expect(membersOf("antipsychotic"), name).toContain(name);
    for (const item of INGREDIENTS.filter((i) => i.classes.includes("sedating_antipsychotic")))
      expect(item.classes, item.ingredient).toContain("antipsychotic");
  });

  it("the antipsychotics once not modelled are ingredients now, and with citalopram never read none", () => {
    expect(ANTIPSYCHOTICS_NOT_MODELLED).toEqual([]);
    for (const name of [
      "amisulpride",
      "asenapine",
      "cariprazine",
      "flupenthixol",
      "fluphenazine",
      "ziprasidone",
      "zuclopenthixol",
    ]) {
      const check = checkInteractions(["citalopram 20 mg", name], { ageYears: 40 });
      expect(check.unrecognized, name).toEqual([]);
      expect(check.risk.level, name).not.toBe("none");
    }
  });
});

describe("medicine-coverage.md is generated from the model (decision 175)", () => {
  const doc = readFileSync(new URL("../../../docs/engines/medicine-coverage.md", import.meta.url), "utf8");
  it("is the text the generator writes now (run `pnpm knowledge:coverage` when this fails)", () => {
    expect(doc).toBe(medicineCoverageMarkdown());
  });

  it("lists every QT category with its source and every dose limit with its value", () => {
    for (const [ingredient, qt] of Object.entries(QT_RISK)) {
      const row = doc.split("\n").find((line) => line.startsWith(`| ${ingredient} | ${qt.risk} |`));
      expect(row, ingredient).toContain(qt.source);
    }
    for (const [ingredient, limit] of Object.entries(DAILY_DOSE_LIMITS)) {
      const row = doc.split("\n").find((line) => line.startsWith(`| ${ingredient} | ${limit.maxDailyMg} |`));
      expect(row, ingredient).toBeDefined();
      expect(row?.split("|")[3]?.trim(), ingredient).toBe(String(limit.reduced?.maxDailyMg ?? "-"));
    }
  });
});
