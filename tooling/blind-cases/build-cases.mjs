// Writes cases.json: the blind cases, each with its published source and its expected clinical level,
// fixed before any run (written from labels, BNF, Maudsley, NICE, FDA, CredibleMeds, C-SSRS, lab
// references; never from the service's tables). Run once: node tooling/blind-cases/build-cases.mjs
import { writeFileSync } from "node:fs";

const S = {
  tramadolLabel: {
    citation:
      "Tramadol (Ultram) US prescribing information, Warnings: serotonin syndrome with serotonergic drugs (SSRIs, SNRIs, TCAs, MAOIs, triptans, linezolid, trazodone, mirtazapine ...)",
    url: "https://www.accessdata.fda.gov/scripts/cder/daf/",
    sourceChecked: true,
  },
  opioidSerotonin: {
    citation:
      "FDA Drug Safety Communication 22 Mar 2016: serotonin syndrome with opioids (fentanyl, tapentadol, tramadol, methadone, meperidine) used with serotonergic drugs; labels of all opioids updated",
    url: "https://www.fda.gov/drugs/drug-safety-and-availability/fda-drug-safety-communication-fda-warns-about-several-safety-issues-opioid-pain-medicines-requires",
    sourceChecked: false,
  },
  linezolid: {
    citation:
      "Zyvox (linezolid) label: reversible MAOI; serotonin syndrome with serotonergic agents. Cymbalta (duloxetine) label, Contraindications: do not start in a patient treated with linezolid",
    url: "https://www.droracle.ai/articles/102859/can-linezolid-be-taken-with-tramadol-tramadol-hydrochloride",
    sourceChecked: true,
  },
  credibleMeds: {
    citation:
      "CredibleMeds QTdrugs list (Known Risk of TdP: haloperidol, methadone, pimozide, clarithromycin, amisulpride)",
    url: "https://crediblemeds.org/",
    sourceChecked: false,
  },
  orap: {
    citation:
      "Orap (pimozide) label, Contraindications: with macrolide antibiotics such as clarithromycin (CYP3A4 inhibition, QT prolongation, sudden death)",
    url: "https://www.accessdata.fda.gov/scripts/cder/daf/",
    sourceChecked: false,
  },
  opioidBzd: {
    citation:
      "FDA Drug Safety Communication 31 Aug 2016: boxed warning on opioids with benzodiazepines or other CNS depressants (profound sedation, respiratory depression, coma, death)",
    url: "https://www.fda.gov/Drugs/DrugSafety/ucm518473.htm",
    sourceChecked: true,
  },
  gabapentinoid: {
    citation:
      "FDA Drug Safety Communication 19 Dec 2019: serious breathing difficulties with gabapentin or pregabalin used with opioids or other CNS depressants",
    url: "https://www.fda.gov/drugs/drug-safety-and-availability/fda-warns-about-serious-breathing-problems-seizure-and-nerve-pain-medicines-gabapentin-neurontin",
    sourceChecked: false,
  },
  apPoly: {
    citation:
      "NICE CG178 (Psychosis and schizophrenia in adults) 1.3.5.1 and Maudsley Prescribing Guidelines (antipsychotic polypharmacy): do not start regular combined antipsychotics except for short periods (e.g. switching)",
    url: "https://www.nice.org.uk/guidance/cg178",
    sourceChecked: false,
  },
  paliperidone: {
    citation:
      "Invega (paliperidone) label and Lexicomp: paliperidone is 9-hydroxyrisperidone, the major active metabolite of risperidone; combined use is duplicate therapy",
    url: "https://www.drugs.com/monograph/paliperidone.html",
    sourceChecked: true,
  },
  clozCbz: {
    citation:
      "Clozaril SmPC 4.3/4.5: not to be used with drugs with substantial potential to cause agranulocytosis (carbamazepine); carbamazepine (CYP3A4/1A2 inducer) lowers clozapine levels",
    url: "https://medicines.org.uk/emc/product/15498/smpc/print",
    sourceChecked: true,
  },
  seroquel: {
    citation:
      "Seroquel (quetiapine) label 7.1: strong CYP3A4 inducers (carbamazepine, phenytoin, rifampicin) decrease quetiapine exposure; increase dose up to 5-fold",
    url: "https://www.accessdata.fda.gov/scripts/cder/daf/",
    sourceChecked: false,
  },
  fluvox: {
    citation:
      "FDA Drug Development and Drug Interactions table: fluvoxamine strong CYP1A2 inhibitor; Clozaril label 2.6: reduce clozapine to one third with strong CYP1A2 inhibitors",
    url: "https://www.fda.gov/drugs/drug-interactions-labeling/healthcare-professionals-fdas-examples-drugs-interact-cyp-enzymes-and-transporter-systems",
    sourceChecked: false,
  },
  priadel: {
    citation:
      "Priadel (lithium) SmPC 4.5 and BNF lithium interactions: ACE inhibitors raise lithium concentration (toxicity)",
    url: "https://bnf.nice.org.uk/interactions/lithium/",
    sourceChecked: false,
  },
  lamictal: {
    citation:
      "Lamictal (lamotrigine) label: valproate about doubles lamotrigine exposure; halve dose (serious rash, SJS)",
    url: "https://www.accessdata.fda.gov/scripts/cder/daf/",
    sourceChecked: false,
  },
  maoiStim: {
    citation:
      "Ritalin/Concerta (methylphenidate) label, Contraindications: during or within 14 days of an MAOI such as phenelzine (hypertensive crisis)",
    url: "https://www.accessdata.fda.gov/scripts/cder/daf/",
    sourceChecked: false,
  },
  vraylar: {
    citation:
      "Vraylar (cariprazine) label 2.5/7.1: with a strong CYP3A4 inhibitor (clarithromycin, ketoconazole) halve the cariprazine dose",
    url: "https://www.accessdata.fda.gov/scripts/cder/daf/",
    sourceChecked: false,
  },
  zoloft: {
    citation: "Zoloft (sertraline) US label 2.1: maximum 200 mg/day in adults",
    url: "https://www.droracle.ai/articles/499583/what-is-the-maximum-recommended-dose-of-zoloft-sertraline",
    sourceChecked: true,
  },
  seroquelDose: {
    citation: "Seroquel (quetiapine) label 2.2 and BNF: maximum 750-800 mg/day (schizophrenia)",
    url: "https://bnf.nice.org.uk/drugs/quetiapine/",
    sourceChecked: false,
  },
  lexapro: {
    citation:
      "Lexapro (escitalopram) label 2.1 and Cipralex SmPC 4.2: maximum 20 mg/day (older adults 10 mg/day in the UK)",
    url: "https://bnf.nice.org.uk/drugs/escitalopram/",
    sourceChecked: false,
  },
  remeron: {
    citation: "Remeron (mirtazapine) label 2.1 and BNF: maximum 45 mg/day",
    url: "https://bnf.nice.org.uk/drugs/mirtazapine/",
    sourceChecked: false,
  },
  zyprexa: {
    citation: "Zyprexa (olanzapine) label 2.1 and BNF: maximum 20 mg/day",
    url: "https://bnf.nice.org.uk/drugs/olanzapine/",
    sourceChecked: false,
  },
  abilify: {
    citation: "Abilify (aripiprazole) label 2.1 and BNF: maximum 30 mg/day",
    url: "https://bnf.nice.org.uk/drugs/aripiprazole/",
    sourceChecked: false,
  },
  effexor: {
    citation: "Effexor (venlafaxine) label and BNF: maximum 375 mg/day",
    url: "https://bnf.nice.org.uk/drugs/venlafaxine/",
    sourceChecked: false,
  },
  cssrs: {
    citation:
      "Columbia Suicide Severity Rating Scale (Posner et al., Am J Psychiatry 2011): actual attempt, interrupted/aborted attempt, preparatory acts, suicidal ideation with intent or plan",
    url: "https://cssrs.columbia.edu/",
    sourceChecked: false,
  },
  niceSelfHarm: {
    citation:
      "NICE NG225 Self-harm (2022): self-harm is any act of self-poisoning or self-injury, irrespective of motivation (cutting, overdose); assess risk, do not use risk tools to predict",
    url: "https://www.nice.org.uk/guidance/ng225",
    sourceChecked: false,
  },
  violence: {
    citation:
      "NICE NG10 Violence and aggression (2015): expressed threats to harm others are a risk factor to assess and act on",
    url: "https://www.nice.org.uk/guidance/ng10",
    sourceChecked: false,
  },
  command: {
    citation:
      "Maudsley Prescribing Guidelines / NICE CG178: command hallucinations instructing self-harm are a risk indicator requiring urgent review",
    url: "https://www.nice.org.uk/guidance/cg178",
    sourceChecked: false,
  },
  discont: {
    citation:
      "NICE NG222 Depression in adults 1.8 and Maudsley (antidepressant discontinuation symptoms, highest with venlafaxine and paroxetine; relapse risk after stopping)",
    url: "https://www.nice.org.uk/guidance/ng222",
    sourceChecked: false,
  },
  perinatal: {
    citation:
      "NICE CG192 Antenatal and postnatal mental health 1.10: thoughts of harming the baby need urgent assessment (risk to the infant)",
    url: "https://www.nice.org.uk/guidance/cg192",
    sourceChecked: false,
  },
  mania: {
    citation:
      "NICE CG185 Bipolar disorder: early warning signs of mania (reduced need for sleep, pressured speech, overspending)",
    url: "https://www.nice.org.uk/guidance/cg185",
    sourceChecked: false,
  },
  negation: {
    citation:
      "NICE NG225 1.5: a denial of suicidal thoughts is not evidence of low risk; the agent must never read an absence as 'no risk' (contract: never reassure without evidence)",
    url: "https://www.nice.org.uk/guidance/ng225",
    sourceChecked: false,
  },
  valproateUnits: {
    citation:
      "Valproic acid M = 144.21 g/mol: 1 mg/L = 6.93 umol/L; therapeutic 50-100 mg/L (350-700 umol/L); Depakote label",
    url: "https://labtests.co.in/?p=8099",
    sourceChecked: true,
  },
  lithiumUnits: {
    citation:
      "Lithium is monovalent: 1 mEq/L = 1 mmol/L (UCUM); NICE CG185 and BNF: levels above 1.5 mmol/L are toxic (critical)",
    url: "https://bnf.nice.org.uk/drugs/lithium-carbonate/",
    sourceChecked: false,
  },
  clozLevel: {
    citation:
      "Maudsley Prescribing Guidelines (clozapine plasma levels): target 350-500 ug/L (= ng/mL = 0.35-0.5 mg/L); above 1000 ug/L seizure and toxicity risk",
    url: "https://www.hcpinfo.clozaril.co.uk/en-gb/trs-and-clozaril/smpc",
    sourceChecked: false,
  },
  ancUnits: {
    citation:
      "Neutrophils reported as x10^9/L (UK) or cells/uL (US; 1 x10^9/L = 1000/uL). 0.4 x10^9/L is severe neutropenia (< 0.5, US clozapine label); 0.4 cells/uL is not a possible count of a living person",
    url: "https://www.medilib.ir/uptodate/show/9289",
    sourceChecked: true,
  },
  speech: {
    citation:
      "Conversational speech 120-180 wpm; fastest recorded speakers about 600-650 wpm in short bursts (Guinness records); contract bound 0-600",
    url: "",
    sourceChecked: false,
  },
  motor: {
    citation:
      "A fidget episode is a discrete movement of at least about a second; ten or more episodes per second of session are not humanly producible (physiological bound of voluntary repetitive movement ~ 5-7 Hz finger tapping)",
    url: "",
    sourceChecked: false,
  },
  reaction: {
    citation:
      "Simple visual reaction time of healthy adults ~ 200-250 ms, never below ~100 ms (anticipation); a verbal response latency of 50 ms is a capture artefact",
    url: "",
    sourceChecked: false,
  },
  hba1c: {
    citation:
      "NICE NG28 / WHO 2011: HbA1c >= 48 mmol/mol (6.5%) diagnoses diabetes; NICE CG178 1.3.6: monitor HbA1c on antipsychotics",
    url: "https://www.nice.org.uk/guidance/ng28",
    sourceChecked: false,
  },
  egfrLithium: {
    citation:
      "NICE CG185 1.10 and Priadel SmPC: lithium with eGFR 30-44 (CKD G3b) needs review and specialist advice; renal function monitoring every 6 months",
    url: "https://www.nice.org.uk/guidance/cg185",
    sourceChecked: false,
  },
  ancAmber: {
    citation: "Clozaril SmPC (UK CPMS): amber 1.5-2.0 x10^9/L neutrophils (twice-weekly counts); red < 1.5",
    url: "https://medicines.org.uk/emc/product/15498/smpc/print",
    sourceChecked: true,
  },
  sodium: {
    citation:
      "Hyponatraemia: sodium < 125 mmol/L severe (European hyponatraemia guideline, Spasovski 2014); reference 133/135-145 mmol/L",
    url: "",
    sourceChecked: false,
  },
  lithiumHigh: {
    citation:
      "NICE CG185 / BNF: lithium target 0.4-1.0 mmol/L (0.8-1.0 for relapse); 1.3 mmol/L is above the range",
    url: "https://bnf.nice.org.uk/drugs/lithium-carbonate/",
    sourceChecked: false,
  },
  who5: {
    citation:
      "WHO-5 (Topp et al., Psychother Psychosom 2015): raw 0-25, x4 = percentage; higher is better; a 10-point change in the percentage score is significant; raw < 13 poor well-being",
    url: "https://help.valant.io/en_US/283920/who-5-who-five-well-being-index",
    sourceChecked: true,
  },
  wemwbs: {
    citation:
      "WEMWBS (Warwick-Edinburgh; 14 items, 14-70, higher is better): meaningful individual change 3-8 points (Maheswaran et al. 2012)",
    url: "https://warwick.ac.uk/fac/sci/med/research/platform/wemwbs/",
    sourceChecked: false,
  },
  phq9: {
    citation:
      "PHQ-9 (Kroenke et al. 2001): 0-27, higher is worse; a change of 5 or more is clinically significant; 20-27 severe",
    url: "",
    sourceChecked: false,
  },
  notAssessed: {
    citation:
      "Contract and issue rule: unknown or missing input is 'not evaluated', never normal or 'none' (NICE NG225: absence of data is not low risk)",
    url: "",
    sourceChecked: false,
  },
  atc: {
    citation:
      "WHO ATC/DDD index 2025 (N05A antipsychotics, N05B anxiolytics, N05C hypnotics, N06A antidepressants, N06B psychostimulants, N03A antiepileptics, N07B addiction); brands from the BNF (UK) and DailyMed (US)",
    url: "https://atcddd.fhi.no/atc_ddd_index/",
    sourceChecked: false,
  },
};

const cases = [];
const add = (c) => cases.push(c);

// (a) interactions and duplicate therapy by property: expected the minimum clinical level every
// door must reach (interaction severity high/moderate/low; risk level none/low/moderate/high).
const pair = (id, meds, minLevel, source, why) =>
  add({
    id,
    class: "a",
    kind: "medications",
    source,
    why,
    input: { medications: meds },
    expected: { minLevel },
  });
pair(
  "a-sero-trazodone-tramadol",
  [
    { name: "trazodone", mg: 100 },
    { name: "tramadol", mg: 50 },
  ],
  "moderate",
  S.tramadolLabel,
  "two serotonergic drugs (SARI + serotonergic opioid)",
);
pair(
  "a-sero-mirtazapine-fentanyl",
  [
    { name: "mirtazapine", mg: 30 },
    { name: "fentanyl", mg: 0.025, unit: "mg" },
  ],
  "moderate",
  S.opioidSerotonin,
  "serotonergic antidepressant + serotonergic opioid (also CNS depressant + opioid)",
);
pair(
  "a-sero-vortioxetine-tapentadol",
  [
    { name: "vortioxetine", mg: 10 },
    { name: "tapentadol", mg: 50 },
  ],
  "moderate",
  S.opioidSerotonin,
  "serotonergic antidepressant + serotonergic opioid",
);
pair(
  "a-sero-linezolid-duloxetine",
  [
    { name: "duloxetine", mg: 60 },
    { name: "linezolid", mg: 600 },
  ],
  "high",
  S.linezolid,
  "MAOI antibiotic + SNRI: contraindicated",
);
pair(
  "a-qt-haloperidol-methadone",
  [
    { name: "haloperidol", mg: 10 },
    { name: "methadone", mg: 60 },
  ],
  "moderate",
  S.credibleMeds,
  "two Known-Risk QT drugs (also CNS depressant + opioid)",
);
pair(
  "a-qt-pimozide-clarithromycin",
  [
    { name: "pimozide", mg: 4 },
    { name: "clarithromycin", mg: 500 },
  ],
  "high",
  S.orap,
  "QT drug + strong CYP3A4 inhibitor that is itself QT: contraindicated",
);
pair(
  "a-cns-diazepam-oxycodone",
  [
    { name: "diazepam", mg: 10 },
    { name: "oxycodone", mg: 10 },
  ],
  "moderate",
  S.opioidBzd,
  "benzodiazepine + opioid (boxed warning)",
);
pair(
  "a-cns-zopiclone-codeine",
  [
    { name: "zopiclone", mg: 7.5 },
    { name: "codeine", mg: 30 },
  ],
  "moderate",
  S.opioidBzd,
  "Z-drug CNS depressant + opioid",
);
pair(
  "a-cns-pregabalin-morphine",
  [
    { name: "pregabalin", mg: 150 },
    { name: "morphine", mg: 20 },
  ],
  "moderate",
  S.gabapentinoid,
  "gabapentinoid + opioid (respiratory depression)",
);
pair(
  "a-dup-olanzapine-haloperidol",
  [
    { name: "olanzapine", mg: 10 },
    { name: "haloperidol", mg: 5 },
  ],
  "low",
  S.apPoly,
  "two antipsychotics: duplicate therapy finding",
);
pair(
  "a-dup-risperidone-paliperidone",
  [
    { name: "risperidone", mg: 4 },
    { name: "paliperidone", mg: 6 },
  ],
  "moderate",
  S.paliperidone,
  "a drug with its own active metabolite",
);
pair(
  "a-ind-carbamazepine-clozapine",
  [
    { name: "clozapine", mg: 300 },
    { name: "carbamazepine", mg: 400 },
  ],
  "moderate",
  S.clozCbz,
  "inducer + narrow-therapeutic-index substrate (and agranulocytosis): contraindicated in the UK SmPC",
);
pair(
  "a-ind-carbamazepine-quetiapine",
  [
    { name: "quetiapine", mg: 400 },
    { name: "carbamazepine", mg: 400 },
  ],
  "moderate",
  S.seroquel,
  "strong CYP3A4 inducer + CYP3A4 substrate",
);
pair(
  "a-inh-fluvoxamine-clozapine",
  [
    { name: "clozapine", mg: 300 },
    { name: "fluvoxamine", mg: 100 },
  ],
  "moderate",
  S.fluvox,
  "strong CYP1A2 inhibitor + CYP1A2 narrow-index substrate",
);
pair(
  "a-lithium-ramipril",
  [
    { name: "lithium carbonate", mg: 800 },
    { name: "ramipril", mg: 5 },
  ],
  "moderate",
  S.priadel,
  "ACE inhibitor raises lithium",
);
pair(
  "a-valproate-lamotrigine",
  [
    { name: "sodium valproate", mg: 1000 },
    { name: "lamotrigine", mg: 100 },
  ],
  "moderate",
  S.lamictal,
  "UGT inhibitor doubles lamotrigine",
);
pair(
  "a-maoi-methylphenidate-phenelzine",
  [
    { name: "methylphenidate", mg: 20 },
    { name: "phenelzine", mg: 45 },
  ],
  "high",
  S.maoiStim,
  "N06B stimulant + MAOI: contraindicated",
);
pair(
  "a-inh-cariprazine-clarithromycin",
  [
    { name: "cariprazine", mg: 3 },
    { name: "clarithromycin", mg: 500 },
  ],
  "moderate",
  S.vraylar,
  "CYP3A4 substrate (cariprazine) + strong CYP3A4 inhibitor",
);
pair(
  "a-brand-solian-haldol",
  [
    { name: "Solian", mg: 400 },
    { name: "Haldol", mg: 10 },
  ],
  "moderate",
  S.credibleMeds,
  "UK brands: amisulpride + haloperidol (two antipsychotics, two Known-Risk QT drugs)",
);
pair(
  "a-brand-clopixol-depixol",
  [
    { name: "Clopixol", mg: 20 },
    { name: "Depixol", mg: 3 },
  ],
  "low",
  S.apPoly,
  "UK brands: zuclopenthixol + flupentixol (two antipsychotics)",
);

// (a) doses above the label maximum (once daily): expected a finding (any non-none level).
const dose = (id, name, mg, source, max) =>
  add({
    id,
    class: "a",
    kind: "medications",
    source,
    why: `${mg} mg/day above the label maximum of ${max} mg/day`,
    input: { medications: [{ name, mg }] },
    expected: { minLevel: "low" },
  });
dose("a-dose-sertraline-300", "sertraline", 300, S.zoloft, 200);
dose("a-dose-quetiapine-1000", "quetiapine", 1000, S.seroquelDose, 800);
dose("a-dose-escitalopram-30", "escitalopram", 30, S.lexapro, 20);
dose("a-dose-mirtazapine-60", "mirtazapine", 60, S.remeron, 45);
dose("a-dose-olanzapine-30", "olanzapine", 30, S.zyprexa, 20);
dose("a-dose-aripiprazole-45", "aripiprazole", 45, S.abilify, 30);
dose("a-dose-venlafaxine-450", "venlafaxine", 450, S.effexor, 375);

// (b) safety concepts in free text. Positive: raised level (moderate or above) and a flag.
// Negation: never `none` without a flag.
const safety = (id, text, source, kindOf) =>
  add({
    id,
    class: "b",
    kind: "safetyText",
    source,
    why: kindOf,
    input: { text, severity: kindOf === "negation" ? 0.5 : 0.8 },
    expected: kindOf === "negation" ? { notSilent: true } : { minLevel: "moderate", flag: true },
  });
safety("b-selfharm-cut-arms", "cut her arms last night", S.niceSelfHarm, "self-harm by cutting, recent");
safety("b-harm-others-neighbour", "says he will hurt his neighbour", S.violence, "threat of harm to others");
safety("b-overdose-paracetamol", "took 40 paracetamol", S.niceSelfHarm, "overdose (self-poisoning)");
safety("b-command-jump", "voices telling him to jump", S.command, "command hallucinations to self-harm");
safety(
  "b-stopped-venlafaxine",
  "stopped venlafaxine last week",
  S.discont,
  "stopping an antidepressant (discontinuation, relapse)",
);
safety("b-harm-baby", "wants to kill the baby", S.perinatal, "harm to a child (perinatal)");
safety(
  "b-preparatory-acts",
  "gave away his belongings and wrote goodbye letters",
  S.cssrs,
  "suicidal preparatory behaviour",
);
safety(
  "b-mania",
  "no sleep for three nights, spending thousands, talking nonstop",
  S.mania,
  "mania early warning signs",
);
safety(
  "b-stopped-sertraline",
  "stopped taking her sertraline suddenly",
  S.discont,
  "stopping an antidepressant",
);
safety("b-neg-self-harm", "denies thoughts of self-harm", S.negation, "negation");
safety("b-neg-suicidal", "no suicidal ideation reported today", S.negation, "negation");
safety("b-neg-harm-others", "denies any intent to harm others", S.negation, "negation");

// (c) units and plausibility of laboratory values. loinc: the standard LOINC code for the FHIR/CDS door
// (loincChecked false where not confirmed on loinc.org in this pass).
const lab = (id, cls, analyte, value, unit, expected, source, why, fhir) =>
  add({ id, class: cls, kind: "lab", source, why, input: { analyte, value, unit, ...fhir }, expected });
lab(
  "c-valproate-umol",
  "c",
  "valproate",
  900,
  "umol/L",
  { minLevel: "moderate" },
  S.valproateUnits,
  "900 umol/L = 130 mg/L, above the 50-100 mg/L range",
  { loinc: "4086-5", loincChecked: true, ucum: "umol/L" },
);
lab(
  "c-lithium-meq",
  "c",
  "lithium",
  1.6,
  "mEq/L",
  { minLevel: "high" },
  S.lithiumUnits,
  "1.6 mEq/L = 1.6 mmol/L, toxic",
  { loinc: "14334-7", loincChecked: true, ucum: "meq/L" },
);
lab(
  "c-clozapine-ugL",
  "c",
  "clozapine",
  1200,
  "ug/L",
  { minLevel: "moderate" },
  S.clozLevel,
  "1200 ug/L = 1.2 mg/L, above 1000 ug/L",
  { loinc: "6896-5", loincChecked: false, ucum: "ug/L" },
);
lab(
  "c-valproate-nounit",
  "c",
  "valproate",
  80,
  null,
  { notEvaluatedOrFlag: true },
  S.valproateUnits,
  "80 mg/L in range, 80 umol/L (11.5 mg/L) far below: ambiguous",
  { loinc: "4086-5", loincChecked: true },
);
lab(
  "c-clozapine-nounit",
  "c",
  "clozapine",
  0.45,
  null,
  { notEvaluatedOrFlag: true },
  S.clozLevel,
  "0.45 mg/L in range, 0.45 ug/L negligible: ambiguous",
  { loinc: "6896-5", loincChecked: false },
);
lab(
  "c-neutrophils-nounit-0.4",
  "c",
  "neutrophils",
  0.4,
  null,
  { minLevel: "high" },
  S.ancUnits,
  "critical under every plausible unit",
  { loinc: "751-8", loincChecked: true },
);
lab(
  "c-lithium-nounit-1.6",
  "c",
  "lithium",
  1.6,
  null,
  { minLevel: "high" },
  S.lithiumUnits,
  "lithium has one scale (mmol/L = mEq/L): 1.6 is toxic",
  { loinc: "14334-7", loincChecked: true },
);

// (c) device metrics no person can produce: expected refused, or flagged implausible / low
// confidence, never within_normal and never a finding at moderate or high confidence.
const dev = (id, telemetry, signal, source, why) =>
  add({
    id,
    class: "c",
    kind: "device",
    source,
    why,
    input: { telemetry, signal },
    expected: { implausible: true },
  });
dev(
  "c-dev-speech-900",
  { speechRateWpm: 900, sessionDurationSeconds: 120 },
  "speech_rate",
  S.speech,
  "900 wpm: beyond any speaker",
);
dev(
  "c-dev-fidget-600-in-60s",
  { psychomotorFidgetEpisodes: 600, sessionDurationSeconds: 60 },
  "psychomotor",
  S.motor,
  "10 episodes per second",
);
dev(
  "c-dev-fidget-1000-in-30s",
  { psychomotorFidgetEpisodes: 1000, sessionDurationSeconds: 30 },
  "psychomotor",
  S.motor,
  "33 episodes per second",
);
dev(
  "c-dev-latency-50ms",
  { responseLatencySeconds: 0.05, sessionDurationSeconds: 300 },
  "response_latency",
  S.reaction,
  "50 ms verbal latency",
);
dev(
  "c-dev-latency-longer-than-session",
  { responseLatencySeconds: 100, sessionDurationSeconds: 60 },
  "response_latency",
  S.reaction,
  "latency longer than the session",
);

// (d) door parity of unflagged out-of-range labs: the same non-silent level in every door.
lab(
  "d-hba1c-60-antipsychotic",
  "d",
  "HbA1c",
  60,
  "mmol/mol",
  { minLevel: "moderate", parity: true },
  S.hba1c,
  "HbA1c 60 mmol/mol on olanzapine: diabetes range",
  { loinc: "59261-8", loincChecked: false, ucum: "mmol/mol", context: "olanzapine" },
);
lab(
  "d-egfr-35-lithium",
  "d",
  "eGFR",
  35,
  "mL/min/1.73m2",
  { minLevel: "moderate", parity: true },
  S.egfrLithium,
  "eGFR 35 on lithium: CKD G3b",
  { loinc: "98979-8", loincChecked: false, ucum: "mL/min/{1.73_m2}", context: "lithium carbonate" },
);
lab(
  "d-anc-amber-clozapine",
  "d",
  "neutrophils",
  1.7,
  "10*9/L",
  { minLevel: "moderate", parity: true },
  S.ancAmber,
  "neutrophils 1.7 x10^9/L on clozapine: amber",
  { loinc: "751-8", loincChecked: true, ucum: "10*9/L", context: "clozapine" },
);
lab(
  "d-sodium-122",
  "d",
  "sodium",
  122,
  "mmol/L",
  { minLevel: "moderate", parity: true },
  S.sodium,
  "sodium 122 mmol/L: severe hyponatraemia",
  { loinc: "2951-2", loincChecked: true, ucum: "mmol/L" },
);
lab(
  "d-lithium-1.3",
  "d",
  "lithium",
  1.3,
  "mmol/L",
  { minLevel: "moderate", parity: true },
  S.lithiumHigh,
  "lithium 1.3 mmol/L above range",
  { loinc: "14334-7", loincChecked: true, ucum: "mmol/L", context: "lithium carbonate" },
);

// (d) a reliable fall on a higher-is-better scale (and one higher-is-worse control): worsening in every door.
const scale = (id, instrument, instrumentName, maxScore, prior, current, source, why, loinc) =>
  add({
    id,
    class: "d",
    kind: "scale",
    source,
    why,
    input: { instrument, instrumentName, maxScore, prior, current, loinc },
    expected: { worsening: true },
  });
scale(
  "d-who5-18-to-8",
  "WHO-5",
  "WHO-5 Well-Being Index",
  25,
  18,
  8,
  S.who5,
  "72% -> 32%: fall of 40 points (>= 10)",
);
scale(
  "d-who5-20-to-12",
  "WHO-5",
  "WHO-5 Well-Being Index",
  25,
  20,
  12,
  S.who5,
  "80% -> 48%, below the poor well-being cut-off",
);
scale(
  "d-wemwbs-55-to-40",
  "WEMWBS",
  "Warwick-Edinburgh Mental Wellbeing Scale",
  70,
  55,
  40,
  S.wemwbs,
  "fall of 15 (> 8)",
);
scale(
  "d-wemwbs-50-to-41",
  "WEMWBS",
  "Warwick-Edinburgh Mental Wellbeing Scale",
  70,
  50,
  41,
  S.wemwbs,
  "fall of 9 (> 8)",
);
scale(
  "d-phq9-8-to-20",
  "PHQ-9",
  "Patient Health Questionnaire-9",
  27,
  8,
  20,
  S.phq9,
  "control: higher is worse, +12",
  "44261-6",
);

// (d) "not assessed": never `none` in any door.
const na = (id, door, input, why) =>
  add({
    id,
    class: "d",
    kind: "notAssessed",
    source: S.notAssessed,
    why,
    input: { door, ...input },
    expected: { notNone: true },
  });
na("d-na-medication", "medication", { medications: ["xylofrobin 10 mg"] }, "no recognised medicine");
na("d-na-biomarker", "biomarker", { panel: [{ analyte: "frobnium", value: 3 }] }, "no recognised analyte");
na(
  "d-na-outcome",
  "outcome",
  { instruments: [{ instrument: "ZZQ-12", total: 10 }] },
  "no recognised instrument",
);
na(
  "d-na-relapse",
  "relapse",
  { signals: [{ indicator: "qwertyuiop", severity: 0.9 }] },
  "no recognised indicator",
);
na(
  "d-na-mse-transcript",
  "mse",
  { transcript: "Seen in clinic today. Took an overdose of forty paracetamol tablets on Sunday." },
  "overdose in a transcript, no model configured",
);

// (e) coverage: ingredients of N05A/N05B/N05C/N06A/N06B/N03A/N07B by US and UK brand names.
const brand = (id, name, ingredient, atc, market) =>
  add({
    id,
    class: "e",
    kind: "coverage",
    source: S.atc,
    why: `${name} (${market}) = ${ingredient}, ATC ${atc}`,
    input: { name, ingredient },
    expected: { recognized: ingredient },
  });
brand("e-solian", "Solian", "amisulpride", "N05AL05", "UK");
brand("e-clopixol", "Clopixol", "zuclopenthixol", "N05AF05", "UK");
brand("e-depixol", "Depixol", "flupentixol", "N05AF01", "UK");
brand("e-vraylar", "Vraylar", "cariprazine", "N05AX15", "US");
brand("e-reagila", "Reagila", "cariprazine", "N05AX15", "UK");
brand("e-rexulti", "Rexulti", "brexpiprazole", "N05AX16", "US/UK");
brand("e-latuda", "Latuda", "lurasidone", "N05AE05", "US/UK");
brand("e-zimovane", "Zimovane", "zopiclone", "N05CF01", "UK");
brand("e-buspar", "Buspar", "buspirone", "N05BE01", "US");
brand("e-trintellix", "Trintellix", "vortioxetine", "N06AX26", "US");
brand("e-brintellix", "Brintellix", "vortioxetine", "N06AX26", "UK");
brand("e-elvanse", "Elvanse", "lisdexamfetamine", "N06BA12", "UK");
brand("e-strattera", "Strattera", "atomoxetine", "N06BA09", "US/UK");
brand("e-epilim", "Epilim", "valproate", "N03AG01", "UK");
brand("e-keppra", "Keppra", "levetiracetam", "N03AX14", "US/UK");
brand("e-antabuse", "Antabuse", "disulfiram", "N07BB01", "US/UK");
brand("e-campral", "Campral", "acamprosate", "N07BB03", "US/UK");
brand("e-subutex", "Subutex", "buprenorphine", "N07BC01", "US/UK");

writeFileSync(
  new URL("./cases.json", import.meta.url),
  `${JSON.stringify(
    {
      about:
        "Blind cases for issue 'one clinical judgement behind every door': written from published sources with the expected answer fixed before any run. See README.md for the door vocabularies and the level mapping.",
      levels: ["none", "low", "moderate", "high"],
      cases,
    },
    null,
    2,
  )}\n`,
);
console.log(`${cases.length} cases`);
