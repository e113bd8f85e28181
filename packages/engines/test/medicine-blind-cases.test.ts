/**
 * Cases written from published sources (labels, FDA communications, NICE), with the expected
 * answer fixed before the run, not read from the model's tables (decisions 172-176). Each case
 * names its source; the answer is the least the checker must say.
 */
import { describe, expect, it } from "vitest";
import { checkInteractions } from "../src/tools/interactions.js";

type Level = "none" | "low" | "moderate" | "high";
const RANK: Record<Level, number> = { none: 0, low: 1, moderate: 2, high: 3 };

interface Case {
  list: string[];
  ageYears?: number;
  /** The least risk level the checker must give. */
  atLeast: Level;
  /** Words one interaction's effect, or a dose alert, must contain. */
  says: RegExp;
  source: string;
}

function run(c: Case) {
  const check = checkInteractions(c.list, c.ageYears === undefined ? {} : { ageYears: c.ageYears });
  const said = [...check.risk.labels, ...check.interactions.map((i) => `${i.id} ${i.mechanism}`)].join("\n");
  expect(RANK[check.risk.level], `${c.list.join(" + ")}: ${check.risk.level}`).toBeGreaterThanOrEqual(
    RANK[c.atLeast],
  );
  expect(said, c.list.join(" + ")).toMatch(c.says);
}

const CASES: Record<string, Case[]> = {
  "serotonergic pairs outside the listed classes": [
    {
      list: ["trazodone 100 mg", "tramadol 50 mg"],
      atLeast: "moderate",
      says: /seroton/i,
      source: "Ultram label, Warnings (trazodone named)",
    },
    {
      list: ["mirtazapine 30 mg", "tramadol 50 mg"],
      atLeast: "moderate",
      says: /seroton/i,
      source: "Ultram label (mirtazapine named)",
    },
    {
      list: ["lithium", "tramadol"],
      atLeast: "moderate",
      says: /seroton/i,
      source: "Ultram label (lithium named)",
    },
    {
      list: ["buspirone 10 mg", "sertraline 50 mg"],
      atLeast: "moderate",
      says: /seroton/i,
      source: "Buspirone label, serotonin syndrome with serotonergic drugs",
    },
    {
      list: ["fentanyl patch", "escitalopram 10 mg"],
      atLeast: "moderate",
      says: /seroton/i,
      source: "FDA DSC 22 Mar 2016 (opioids)",
    },
    {
      list: ["lisdexamfetamine 30 mg", "venlafaxine 75 mg"],
      atLeast: "moderate",
      says: /seroton/i,
      source: "Vyvanse label, Warnings (serotonin syndrome)",
    },
  ],
  "one active moiety twice and duplicate therapy": [
    {
      list: ["risperidone 2 mg", "paliperidone 6 mg"],
      atLeast: "high",
      says: /active moiety|metabolite/i,
      source: "Invega label (9-hydroxyrisperidone)",
    },
    {
      list: ["amitriptyline 50 mg", "nortriptyline 25 mg"],
      atLeast: "high",
      says: /active moiety|metabolite/i,
      source: "Amitriptyline label (nortriptyline metabolite)",
    },
    {
      list: ["citalopram 20 mg", "escitalopram 10 mg"],
      atLeast: "high",
      says: /enantiomer/i,
      source: "Lexapro label (S-enantiomer of citalopram)",
    },
    {
      list: ["oxcarbazepine 600 mg", "eslicarbazepine 800 mg"],
      atLeast: "high",
      says: /active moiety|metabolite/i,
      source: "Aptiom label (not with oxcarbazepine)",
    },
    {
      list: ["quetiapine 200 mg", "aripiprazole 10 mg"],
      atLeast: "moderate",
      says: /two antipsychotics/i,
      source: "NICE CG178 (combined antipsychotics)",
    },
    {
      list: ["diazepam 5 mg", "lorazepam 1 mg"],
      atLeast: "moderate",
      says: /one class|duplicate/i,
      source: "BNF (benzodiazepines)",
    },
  ],
  "QT pairs": [
    {
      list: ["amisulpride 400 mg", "citalopram 20 mg"],
      ageYears: 40,
      atLeast: "high",
      says: /QT/i,
      source: "Solian SmPC; citalopram FDA DSC 2011",
    },
    {
      list: ["ziprasidone 40 mg", "methadone 60 mg"],
      atLeast: "high",
      says: /QT/i,
      source: "Geodon label, Contraindications (QT-prolonging drugs)",
    },
    {
      list: ["haloperidol 5 mg", "ondansetron 8 mg"],
      atLeast: "high",
      says: /QT/i,
      source: "Both on the CredibleMeds known-risk list",
    },
    {
      list: ["escitalopram 10 mg", "hydroxyzine 25 mg"],
      ageYears: 40,
      atLeast: "moderate",
      says: /QT/i,
      source: "MHRA DSU April 2015 (hydroxyzine)",
    },
    {
      list: ["citalopram 20 mg", "sertraline 50 mg"],
      ageYears: 40,
      atLeast: "low",
      says: /QT risk category unknown for sertraline/i,
      source: "An unrecorded QT category is not evaluated (decision 173)",
    },
  ],
  "opioids with CNS depressants": [
    {
      list: ["pregabalin 150 mg", "oxycodone 10 mg"],
      atLeast: "high",
      says: /respiratory/i,
      source: "FDA DSC 19 Dec 2019",
    },
    {
      list: ["zolpidem 10 mg", "morphine 10 mg"],
      atLeast: "high",
      says: /respiratory/i,
      source: "FDA DSC 31 Aug 2016",
    },
    {
      list: ["hydroxyzine 25 mg", "tramadol 50 mg"],
      atLeast: "moderate",
      says: /sedation|respiratory/i,
      source: "FDA DSC 31 Aug 2016 (other CNS depressants)",
    },
    {
      list: ["suvorexant 10 mg", "oxycodone 5 mg"],
      atLeast: "moderate",
      says: /sedation|respiratory/i,
      source: "Belsomra label (CNS depressants)",
    },
    {
      list: ["clonidine", "methadone"],
      atLeast: "moderate",
      says: /sedation|respiratory/i,
      source: "FDA DSC 31 Aug 2016",
    },
  ],
  "enzyme inhibition and induction": [
    {
      list: ["carbamazepine 400 mg", "quetiapine 300 mg"],
      atLeast: "moderate",
      says: /quetiapine/i,
      source: "Seroquel label (strong CYP3A4 inducers)",
    },
    {
      list: ["rifampicin", "lurasidone"],
      atLeast: "high",
      says: /lurasidone/i,
      source: "Latuda label, Contraindications",
    },
    {
      list: ["carbamazepine", "suvorexant"],
      atLeast: "moderate",
      says: /suvorexant/i,
      source: "Belsomra label (strong CYP3A inducers)",
    },
    {
      list: ["clarithromycin", "pimozide"],
      atLeast: "high",
      says: /QT|pimozide/i,
      source: "Orap label, Contraindications (macrolides)",
    },
    {
      list: ["viloxazine", "clozapine"],
      atLeast: "high",
      says: /clozapine/i,
      source: "Qelbree label (strong CYP1A2 inhibitor); Clozaril label",
    },
  ],
  "label dose limits": [
    {
      list: ["sertraline 300 mg"],
      atLeast: "high",
      says: /200 mg\/day/,
      source: "Zoloft label (200 mg/day)",
    },
    { list: ["quetiapine 1000 mg"], atLeast: "high", says: /800 mg\/day/, source: "Seroquel label" },
    {
      list: ["escitalopram 20 mg"],
      ageYears: 70,
      atLeast: "high",
      says: /10 mg\/day/,
      source: "Cipralex SmPC (65 and over: 10 mg)",
    },
    {
      list: ["tramadol 100 mg qds"],
      ageYears: 80,
      atLeast: "high",
      says: /300 mg\/day/,
      source: "Ultram label (over 75: 300 mg/day)",
    },
    {
      list: ["zolpidem 10 mg"],
      ageYears: 70,
      atLeast: "high",
      says: /5 mg\/day/,
      source: "Ambien label (geriatric 5 mg)",
    },
  ],
};

describe("blind cases from published sources", () => {
  for (const [group, cases] of Object.entries(CASES)) {
    describe(group, () => {
      it.each(cases.map((c) => [c.list.join(" + "), c] as const))("%s", (_name, c) => run(c));
    });
  }
});
