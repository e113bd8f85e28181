// The blind runner of the patient-over-time cases (patient/cases.json): starts the built service and
// sends every case through every door that takes a patient, medicines with start dates and dated
// readings: the engine itself, the JSON medication and biomarker answers, the medication and
// biomarker agents, the MCP `reviewPatient` tool, the CDS patient-view service and the FHIR
// medication answer. Writes patient/results.md (case x door -> expected, got, pass/fail).
// `pnpm blind:patient` after `pnpm build`; BLIND_ONLY=<id prefix>, BLIND_OUT=<file>.
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import {
  bundle,
  cardsLevel,
  daysAgo,
  fhirEntries,
  maxLevel,
  PATIENT,
  rank,
  serviceDoors,
  short,
  UCUM,
} from "./client.mjs";
import { startService } from "./service.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, "../..");
const allCases = JSON.parse(readFileSync(join(here, "patient/cases.json"), "utf8"));
// biome-ignore lint/suspicious/noUndeclaredEnvVars: a manual runner's option, not a turbo task input
const only = process.env.BLIND_ONLY;
const cases = only ? allCases.filter((c) => c.id.startsWith(only)) : allCases;
// biome-ignore lint/suspicious/noUndeclaredEnvVars: a manual runner's option, not a turbo task input
const outFile = resolve(process.env.BLIND_OUT ?? join(here, "patient/results.md"));
let commit = "unknown";
try {
  commit = execFileSync("git", ["rev-parse", "--short", "HEAD"], { cwd: root, encoding: "utf8" }).trim();
} catch {
  /* not a git checkout */
}
const engines = await import(pathToFileURL(join(root, "packages/engines/dist/index.js")).href);

// ---- a case in each door's own words ----
const dateOnly = (iso) => iso.slice(0, 10);
function patientOf(c) {
  const p = { ...(c.patient ?? {}) };
  if (p.birthDateYearsAgo !== undefined) {
    const d = new Date();
    d.setUTCFullYear(d.getUTCFullYear() - p.birthDateYearsAgo);
    p.birthDate = dateOnly(d.toISOString());
    delete p.birthDateYearsAgo;
  }
  return p;
}
const startOf = (m) =>
  m.startedDaysAgo === null || m.startedDaysAgo === undefined ? null : daysAgo(m.startedDaysAgo);
const medicinesOf = (c) =>
  c.medicines.map((m) => ({
    name: m.name,
    startedAt: startOf(m),
    ...(m.doseChangedDaysAgo === undefined ? {} : { doseChangedAt: daysAgo(m.doseChangedDaysAgo) }),
  }));
const readingsOf = (c) =>
  c.readings.map((r) => ({
    analyte: r.analyte,
    value: r.value,
    ...(r.unit ? { unit: r.unit } : {}),
    observedAt: daysAgo(r.daysAgo),
  }));
/** One lab panel per reading date, newest last, as a laboratory reports them. */
function panelsOf(c) {
  const byDay = new Map();
  for (const r of c.readings) {
    const list = byDay.get(r.daysAgo) ?? [];
    list.push({ name: r.analyte, value: r.value, ...(r.unit ? { unit: r.unit } : {}) });
    byDay.set(r.daysAgo, list);
  }
  return [...byDay.entries()]
    .sort((a, b) => b[0] - a[0])
    .map(([d, biomarkers], i) => ({
      id: `panel-${i}`,
      labName: "Blind lab",
      observedAt: daysAgo(d),
      results: { biomarkers },
    }));
}
const prescriptionsOf = (c) =>
  c.medicines.map((m, i) => ({
    id: `rx${i}`,
    medicationName: m.name,
    status: "active",
    ...(startOf(m) ? { prescribedAt: startOf(m) } : {}),
    ...(m.doseChangedDaysAgo === undefined ? {} : { doseChangedAt: daysAgo(m.doseChangedDaysAgo) }),
  }));

// LOINC codes a laboratory would send with each printed name (published LOINC parts; the case's
// own code wins). Used only to build the CDS and FHIR inputs.
const LOINC_BY_NAME = {
  qtc: "8636-3",
  neutrophils: "751-8",
  anc: "751-8",
  creatinine: "2160-0",
  egfr: "98979-8",
  weight: "29463-7",
  tsh: "3016-3",
  lithium: "14334-7",
  hba1c: "4548-4",
  prolactin: "2842-3",
  alt: "1742-6",
  platelets: "777-3",
  sodium: "2951-2",
  cholesterol: "2093-3",
  "hcg urine": "2106-3",
  "hcg serum": "2118-8",
};
const loincOf = (r) => r.loinc ?? LOINC_BY_NAME[r.analyte.toLowerCase()] ?? null;
// Laboratory spellings that are not UCUM codes, as an EHR would code them.
const UCUM_CODE = { "mL/min/1.73m2": "mL/min/{1.73_m2}", "10*9/L": "10*9/L", lb: "[lb_av]" };
function observation(r, i) {
  const code = loincOf(r);
  const numeric = typeof r.value === "number";
  return {
    resourceType: "Observation",
    id: `o${i}`,
    status: "final",
    code: { ...(code ? { coding: [{ system: "http://loinc.org", code }] } : {}), text: r.analyte },
    subject: { reference: `Patient/${PATIENT}` },
    effectiveDateTime: daysAgo(r.daysAgo),
    ...(numeric
      ? {
          valueQuantity: {
            value: r.value,
            ...(r.unit ? { unit: r.unit, system: UCUM, code: UCUM_CODE[r.unit] ?? r.unit } : {}),
          },
        }
      : { valueString: String(r.value) }),
  };
}
function patientResource(c) {
  const p = patientOf(c);
  let birthDate = p.birthDate;
  if (birthDate === undefined && p.ageYears !== undefined) {
    const d = new Date();
    d.setUTCFullYear(d.getUTCFullYear() - p.ageYears);
    d.setUTCDate(d.getUTCDate() - 30);
    birthDate = dateOnly(d.toISOString());
  }
  return {
    resourceType: "Patient",
    id: PATIENT,
    ...(p.sex ? { gender: p.sex } : {}),
    ...(birthDate ? { birthDate } : {}),
  };
}
// The patient facts an EHR records as Observations: pregnancy status (LOINC 82810-3 with its LOINC
// answers) and eGFR. Breastfeeding, hepatic impairment and creatinine clearance have no reading
// here: the CDS door does not read them (said in the results).
const PREGNANCY_ANSWERS = {
  pregnant: { code: "LA15173-0", display: "Pregnant" },
  not_pregnant: { code: "LA26683-5", display: "Not pregnant" },
  unknown: { code: "LA4489-6", display: "Unknown" },
};
function factObservations(c) {
  const p = c.patient ?? {};
  const out = [];
  const answer = PREGNANCY_ANSWERS[p.pregnancy];
  if (answer)
    out.push({
      resourceType: "Observation",
      id: "preg",
      status: "final",
      code: { coding: [{ system: "http://loinc.org", code: "82810-3" }], text: "Pregnancy status" },
      subject: { reference: `Patient/${PATIENT}` },
      effectiveDateTime: daysAgo(1),
      valueCodeableConcept: { coding: [{ system: "http://loinc.org", ...answer }] },
    });
  if (p.egfr !== undefined)
    out.push(observation({ analyte: "eGFR", value: p.egfr, unit: "mL/min/{1.73_m2}", daysAgo: 1 }, "egfr"));
  return out;
}
function medicationRequest(m, i) {
  return {
    resourceType: "MedicationRequest",
    id: `m${i}`,
    status: "active",
    intent: "order",
    subject: { reference: `Patient/${PATIENT}` },
    ...(startOf(m) ? { authoredOn: dateOnly(startOf(m)) } : {}),
    medicationCodeableConcept: { text: m.name },
  };
}

// ---- the doors ----
const s = await startService(root);
const { post, mcp, cds } = serviceDoors(s);

function row(door, c, level, got) {
  const e = c.expected;
  const pass = e.levelAtLeast ? rank(level) >= rank(e.level) : level === e.level;
  return { door, expected: `${e.levelAtLeast ? ">= " : ""}${e.level}`, got: `${level}: ${got}`, pass };
}
const titles = (findings) =>
  short((findings ?? []).map((f) => `${f.level} ${f.title}`).join("; ") || "no findings", 160);

async function runCase(c) {
  const rows = [];
  const patient = patientOf(c);
  const medicines = medicinesOf(c);
  const readings = readingsOf(c);
  {
    const review = engines.reviewPatient({ patient, medicines, readings, now: new Date() });
    rows.push(row("engine", c, review.level, titles(review.findings)));
  }
  {
    const r = await post("/v1/medication/analyze", {
      prescriptions: prescriptionsOf(c),
      assessments: [],
      patient,
      ...(c.readings.length ? { labs: panelsOf(c) } : {}),
    });
    const d = r.json?.data ?? {};
    const doses = d.interactionCheck?.doseAlerts ?? [];
    const level = maxLevel([d.patientReview?.level ?? "none", ...doses.map((x) => x.severity)]);
    rows.push(
      row(
        "json medication",
        c,
        level,
        r.status === 200 ? titles(d.patientReview?.findings) : `HTTP ${r.status} ${short(r.text, 100)}`,
      ),
    );
  }
  if (c.readings.length) {
    const r = await post("/v1/biomarker/analyze", {
      labs: panelsOf(c),
      prescriptions: prescriptionsOf(c),
      patient,
    });
    const d = r.json?.data ?? {};
    const level = d.patientReview?.level ?? "none";
    rows.push(
      row(
        "json biomarker",
        c,
        level,
        r.status === 200 ? titles(d.patientReview?.findings) : `HTTP ${r.status} ${short(r.text, 100)}`,
      ),
    );
  }
  if (c.medicines.length) {
    const r = await post(`/v1/medication/${PATIENT}/agent`, {
      medications: c.medicines.map((m) => m.name),
      patient,
      medicationStarts: c.medicines.map((m, i) => ({
        medication: m.name,
        ...(medicines[i].startedAt ? { startedAt: medicines[i].startedAt } : {}),
        ...(medicines[i].doseChangedAt ? { doseChangedAt: medicines[i].doseChangedAt } : {}),
      })),
      ...(readings.length ? { readings } : {}),
    });
    const review = r.json?.data?.patientReview;
    rows.push(
      row(
        "medication agent",
        c,
        review?.level ?? "none",
        r.status === 200 ? titles(review?.findings) : `HTTP ${r.status} ${short(r.text, 100)}`,
      ),
    );
  }
  if (readings.length) {
    const r = await post(`/v1/biomarker/${PATIENT}/agent`, {
      panel: readings.slice(0, 50).map((x) => ({
        analyte: x.analyte,
        value: x.value,
        ...(x.unit ? { unit: x.unit } : {}),
        observedAt: x.observedAt,
      })),
      patient,
      medicines: medicines.map((m) => ({
        name: m.name,
        ...(m.startedAt ? { startedAt: m.startedAt } : {}),
        ...(m.doseChangedAt ? { doseChangedAt: m.doseChangedAt } : {}),
      })),
    });
    const review = r.json?.data?.patientReview;
    rows.push(
      row(
        "biomarker agent",
        c,
        review?.level ?? "none",
        r.status === 200 ? titles(review?.findings) : `HTTP ${r.status} ${short(r.text, 100)}`,
      ),
    );
  }
  {
    const m = await mcp("reviewPatient", { patient, medicines, readings });
    const level = m.sc?.level ?? m.sc?.risk?.level ?? "?";
    rows.push(row("mcp reviewPatient", c, level, m.sc ? titles(m.sc.findings) : short(m.error ?? m.text)));
  }
  {
    const r = await cds("psych-patient-view", {
      hook: "patient-view",
      hookInstance: `blind-${c.id}`,
      context: { userId: "Practitioner/blind", patientId: PATIENT },
      prefetch: {
        patient: patientResource(c),
        medications: bundle(c.medicines.map(medicationRequest)),
        scores: bundle([]),
        labs: bundle([...c.readings.map(observation), ...factObservations(c)]),
      },
    });
    // The review's cards only (patient-*); the lab, relapse and data cards judge other things.
    const x = cardsLevel(r, (rule) => !rule.startsWith("patient-"));
    rows.push(row("cds patient-view", c, x.level, short(x.got, 160)));
  }
  {
    const r = await post(
      "/v1/medication/analyze",
      {
        prescriptions: prescriptionsOf(c),
        assessments: [],
        patient,
        ...(c.readings.length ? { labs: panelsOf(c) } : {}),
      },
      "application/fhir+json",
    );
    const issues = fhirEntries(r.json).filter((x) => x.resourceType === "DetectedIssue");
    // A finding not evaluated is an Observation coded patient-review.not-evaluated: low.
    const notEvaluated = fhirEntries(r.json).filter(
      (x) =>
        x.resourceType === "Observation" &&
        x.code?.coding?.some((k) => k.code === "patient-review.not-evaluated"),
    );
    const level = maxLevel([...issues.map((i) => i.severity), ...notEvaluated.map(() => "low")]);
    rows.push(
      row(
        "fhir medication",
        c,
        level,
        r.status === 200
          ? short(
              issues.map((i) => `${i.severity} ${i.detail ?? i.code?.text ?? ""}`).join("; ") ||
                "no DetectedIssue",
              160,
            )
          : `HTTP ${r.status}`,
      ),
    );
  }
  return rows;
}

const results = [];
try {
  for (const c of cases) {
    let rows;
    try {
      rows = await runCase(c);
    } catch (err) {
      rows = [{ door: "runner", expected: "-", got: `error: ${err.message}`, pass: false }];
    }
    for (const r of rows) results.push({ id: c.id, part: c.part, ...r });
    process.stdout.write(`${c.id}: ${rows.map((r) => `${r.door} ${r.pass ? "pass" : "FAIL"}`).join(", ")}\n`);
  }
} finally {
  await s.stop();
}

// ---- report ----
const esc = (t) => String(t).replace(/\|/g, "\\|").replace(/\n/g, " ");
const doorNames = [...new Set(results.map((r) => r.door))];
const parts = [...new Set(results.map((r) => r.part))];
const cell = (xs) => (xs.length ? `${xs.filter((x) => x.pass).length}/${xs.length}` : "-");
const lines = [
  "# Blind cases, the patient over time: results",
  "",
  `Commit \`${commit}\`; ${cases.length} cases, ${results.length} case x door rows; ${results.filter((r) => r.pass).length} pass, ${results.filter((r) => !r.pass).length} fail.`,
  "",
  "Expected levels were fixed in patient/cases.json before any run. A JSON medication answer's level is the higher of `patientReview.level` and its dose alerts; CDS is the highest card indicator (critical high, warning moderate, info low); FHIR the highest DetectedIssue severity.",
  "",
  `| part | ${doorNames.join(" | ")} | all |`,
  `|---|${doorNames.map(() => "---").join("|")}|---|`,
  ...parts.map((p) => {
    const rs = results.filter((r) => r.part === p);
    return `| ${p} | ${doorNames.map((d) => cell(rs.filter((r) => r.door === d))).join(" | ")} | ${cell(rs)} |`;
  }),
  "",
  "| case | door | expected | got | result |",
  "|---|---|---|---|---|",
  ...results.map(
    (r) =>
      `| ${r.id} | ${esc(r.door)} | ${esc(r.expected)} | ${esc(r.got)} | ${r.pass ? "pass" : "**FAIL**"} |`,
  ),
];
writeFileSync(outFile, `${lines.join("\n")}\n`);
console.log(`\n${results.filter((r) => r.pass).length}/${results.length} pass; written to ${outFile}`);
