/**
 * The evidence of each patient-factor rule (packages/engines/src/patient/factor-rules.ts, decision
 * 190): the level its value rests on and the source as docs/engines/evidence.md ("Patient
 * factors", generated, decision 217) prints it, keyed by the name the page gives the value:
 * `<ingredient>.pregnant`, `.potential`, `.preventionProgramme`, `.breastfeeding`,
 * `.renal.below<N>`, `.hepatic`, `.maleBelowAge<N>`, and the rule constants. A test keeps the keys
 * and the rules one to one.
 */
import type { Evidence } from "./parameter-evidence.js";

export const PATIENT_FACTOR_EVIDENCE: Readonly<Record<string, Evidence>> = {
  "CHILDBEARING_AGE_YEARS.min": {
    level: "expert-set",
    source:
      "MHRA valproate Pregnancy Prevention Programme (2018) defines childbearing potential from menarche (pre-pubescent girls excluded), not by age; 10 is ours, before the usual age at menarche so that early menarche falls inside the band.",
  },
  "CHILDBEARING_AGE_YEARS.max": {
    level: "expert-set",
    source:
      "The MHRA 2024 valproate and topiramate measures speak of patients under 55; the programme excludes post-menopausal women. 55 as the top of the band is ours.",
  },
  FACTOR_NOT_EVALUATED_LEVEL: {
    level: "expert-set",
    source:
      "Decision 80: a fact a rule needs that was not given (or a property that is unknown) is not assessed, at least low; never none.",
  },
  "valproate.pregnant": {
    level: "expert-set",
    source:
      "MHRA DSU Apr 2018 and Jan 2024 (contraindicated in pregnancy for bipolar disorder; read in NHS copies: NECSU, NHS GGC); NICE CG192 (Feb 2020 amendment); FDA Depakote boxed warning (not opened). Contraindication read as high.",
  },
  "valproate.potential": {
    level: "expert-set",
    source:
      "As above: contraindicated in women and girls of childbearing potential unless the Pregnancy Prevention Programme's conditions are met. A pregnancy not excluded is read as high.",
  },
  "valproate.preventionProgramme": {
    level: "expert-set",
    source:
      "As above: a patient stated not pregnant still needs the programme (highly effective contraception, annual specialist review, risk acknowledgement form); moderate (review).",
  },
  "topiramate.pregnant": {
    level: "expert-set",
    source:
      "MHRA DSU June 2024, topiramate Pregnancy Prevention Programme (read in secondary reports): contraindicated in pregnancy for migraine, for epilepsy unless no suitable alternative.",
  },
  "topiramate.potential": {
    level: "expert-set",
    source:
      "As above; a 2-3-fold neurodevelopmental risk against valproate's up to 4 in 10: one level below valproate.",
  },
  "topiramate.preventionProgramme": {
    level: "expert-set",
    source: "As above: the programme's contraception and annual review still apply.",
  },
  "carbamazepine.pregnant": {
    level: "expert-set",
    source:
      "MHRA Drug Safety Update Jan 2021, antiepileptic drugs in pregnancy (not opened); NICE CG192 (May 2021 link): higher risk of major congenital malformations.",
  },
  "carbamazepine.potential": { level: "expert-set", source: "As above." },
  "lithium.pregnant": {
    level: "expert-set",
    source:
      "US lithium label 8.1 (read in a copy): may cause harm; Ebstein's anomaly; monitor levels, adjust the dose, stop or reduce 2-3 days before delivery.",
  },
  "lithium.potential": { level: "expert-set", source: "As above." },
  "paroxetine.pregnant": {
    level: "expert-set",
    source: "Paxil US label, Use in Pregnancy (first-trimester cardiac malformations; not opened).",
  },
  "paroxetine.potential": { level: "expert-set", source: "As above." },
  "phenytoin.pregnant": {
    level: "expert-set",
    source: "MHRA Drug Safety Update Jan 2021, antiepileptic drugs in pregnancy (not opened).",
  },
  "phenytoin.potential": { level: "expert-set", source: "As above." },
  "fosphenytoin.pregnant": {
    level: "expert-set",
    source:
      "MHRA Drug Safety Update Jan 2021, antiepileptic drugs in pregnancy (not opened); prodrug of phenytoin (Cerebyx US label).",
  },
  "fosphenytoin.potential": { level: "expert-set", source: "As above." },
  "phenobarbital.pregnant": {
    level: "expert-set",
    source: "MHRA Drug Safety Update Jan 2021, antiepileptic drugs in pregnancy (not opened).",
  },
  "phenobarbital.potential": { level: "expert-set", source: "As above." },
  "primidone.pregnant": {
    level: "expert-set",
    source:
      "MHRA Drug Safety Update Jan 2021, antiepileptic drugs in pregnancy (not opened); phenobarbital is its active metabolite.",
  },
  "primidone.potential": { level: "expert-set", source: "As above." },
  "warfarin.pregnant": {
    level: "expert-set",
    source:
      "Coumadin US label, Contraindications: pregnancy except mechanical heart valves (not opened). Contraindication read as high.",
  },
  "warfarin.potential": { level: "expert-set", source: "As above." },
  "tamoxifen.pregnant": {
    level: "expert-set",
    source: "Tamoxifen US label, Use in Pregnancy (fetal harm; not opened).",
  },
  "tamoxifen.potential": { level: "expert-set", source: "As above." },
  "GENERIC_TERATOGEN.pregnant": {
    level: "expert-set",
    source:
      "A medicine the model marks teratogenic without its own row (none today; a test requires a row for each).",
  },
  "GENERIC_TERATOGEN.potential": { level: "expert-set", source: "As above." },
  "lithium.breastfeeding": {
    level: "expert-set",
    source:
      "Priadel SmPC 4.3 (lactation contraindicated; read in a copy of the Irish SmPC 2021); US lithium label, Lactation (not recommended; read in a summary); NICE CG192 1.9.8.",
  },
  "clozapine.breastfeeding": {
    level: "expert-set",
    source:
      "NICE CG192 1.9.8 (breastfeeding encouraged unless carbamazepine, clozapine or lithium; as quoted in the 2017 surveillance report); Clozaril UK SmPC 4.6 (not opened).",
  },
  "carbamazepine.breastfeeding": {
    level: "expert-set",
    source: "NICE CG192 1.9.8 as above; no label contraindication found, so low.",
  },
  "lithium.renal.below30": {
    level: "published cut-off",
    source:
      "Priadel SmPC 4.3 (severe renal insufficiency contraindicated; read); US lithium label 8.6 (severe impairment, CrCl < 30, not recommended; cut-off as recalled, not opened). Level high.",
  },
  "lithium.renal.below60": {
    level: "derived",
    source:
      "Priadel SmPC 4.4 and US label: mild or moderate impairment, lower doses and close level monitoring; moderate impairment placed at the KDIGO G3 boundary (60). Level moderate.",
  },
  "gabapentin.renal.below60": {
    level: "published cut-off",
    source:
      "Neurontin US label 2.4, Table 1 (dose ranges by CrCl >= 60, 30-59, 15-29, < 15; read as quoted in secondary summaries). Dose reduction required: moderate.",
  },
  "pregabalin.renal.below60": {
    level: "published cut-off",
    source:
      "Lyrica US label, dosage by CrCl (>= 60, 30-60, 15-30, < 15; table as quoted in secondary summaries, label not opened). Moderate.",
  },
  "amisulpride.renal.below10": {
    level: "published cut-off",
    source:
      "Solian SmPC 4.2 (no data below 10 mL/min, particular caution; read in the HSA text and an Italian SmPC); Amilia SmPC (severe renal impairment contraindicated). High.",
  },
  "amisulpride.renal.below60": {
    level: "published cut-off",
    source: "Solian SmPC 4.2: half the dose at CrCl 30-60, a third at 10-30. Moderate.",
  },
  "paliperidone.renal.below10": {
    level: "published cut-off",
    source:
      "Invega US label, renal impairment (not studied below 10 mL/min: not recommended; read in a copy of the label text). High.",
  },
  "paliperidone.renal.below50": {
    level: "published cut-off",
    source:
      "Invega / Invega Sustenna US labels: 10-49 mL/min oral maximum 3 mg, monthly injection not recommended. Moderate.",
  },
  "paliperidone.renal.below80": {
    level: "published cut-off",
    source: "Invega US label: 50-79 mL/min oral maximum 6 mg; reduced injection doses. Moderate.",
  },
  "desvenlafaxine.renal.below30": {
    level: "published cut-off",
    source:
      "Pristiq US label (severe impairment or ESRD: 25 mg daily or 50 mg every other day; read in secondary summaries, label not opened). Moderate.",
  },
  "desvenlafaxine.renal.below50": {
    level: "published cut-off",
    source: "Pristiq US label (moderate impairment 30-50 mL/min: at most 50 mg/day; as above). Low.",
  },
  "topiramate.renal.below70": {
    level: "published cut-off",
    source:
      "Topamax US label, renal impairment (CrCl < 70: half the usual dose; as recalled, not opened). Moderate.",
  },
  "GENERIC_RENAL.renal.below60": {
    level: "expert-set",
    source:
      "Any other ingredient the medicine model marks renally eliminated: one cut-off at the KDIGO 2012 G3a boundary (GFR categories read in reproductions), low, naming the label's renal section.",
  },
  "agomelatine.hepatic": {
    level: "expert-set",
    source:
      "Valdoxan SmPC 4.3: contraindicated in hepatic impairment (cirrhosis or active liver disease) (read in copies of the EU SmPC). Contraindication read as high.",
  },
  "valproate.hepatic": {
    level: "expert-set",
    source:
      "Depakote US label, Boxed Warning and Contraindications (hepatic disease or significant hepatic dysfunction; not opened).",
  },
  "duloxetine.hepatic": {
    level: "expert-set",
    source:
      "Cymbalta US label (avoid in hepatic insufficiency or chronic liver disease; not opened); a label's 'avoid' is high, as in the interaction checker.",
  },
  "valproate.maleBelowAge55": {
    level: "expert-set",
    source:
      "MHRA DSU Jan 2024 (valproate not started in males under 55 without two specialists' agreement) and Sep 2024 (possible neurodevelopmental risk in children of fathers on valproate), read in an NHS GGC copy. Age 55 is the MHRA's; low because a continuing prescription may already meet it.",
  },
};
