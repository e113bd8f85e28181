// The blind-case runner: starts the built service (embedded PGlite, free loopback port), runs every
// case of cases.json through every door that applies (JSON /v1 engines, agent endpoints, MCP tools,
// CDS Hooks services, FHIR answers) and writes a markdown table of case x door -> expected, got,
// pass/fail. `pnpm blind` (after `pnpm build`); BLIND_OUT=path changes the output file;
// BLIND_ONLY=<id prefix> runs some cases only. Not part of the test command.
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import {
  bundle,
  cardsLevel,
  daysAgo,
  fhirEntries,
  guidanceNotes,
  maxLevel,
  PATIENT,
  RANK,
  rank,
  ruleOf,
  STATUS_LEVEL,
  serviceDoors,
  short,
  UCUM,
} from "./client.mjs";
import { startService } from "./service.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, "../..");
const { cases: allCases } = JSON.parse(readFileSync(join(here, "cases.json"), "utf8"));
// biome-ignore lint/suspicious/noUndeclaredEnvVars: a manual runner's option, not a turbo task input
const only = process.env.BLIND_ONLY;
const cases = only ? allCases.filter((c) => c.id.startsWith(only)) : allCases;
let commit = "unknown";
try {
  commit = execFileSync("git", ["rev-parse", "--short", "HEAD"], { cwd: root, encoding: "utf8" }).trim();
} catch {
  /* not a git checkout */
}
// biome-ignore lint/suspicious/noUndeclaredEnvVars: a manual runner's option, not a turbo task input
const outFile = resolve(process.env.BLIND_OUT ?? join(here, "results.md"));

const s = await startService(root);
const { post, mcp, cds } = serviceDoors(s);
const medString = (m) => `${m.name} ${m.mg} ${m.unit ?? "mg"}`;

function medRequest(id, m, status) {
  return {
    resourceType: "MedicationRequest",
    id,
    status,
    intent: "order",
    subject: { reference: `Patient/${PATIENT}` },
    authoredOn: daysAgo(30).slice(0, 10),
    medicationCodeableConcept: { text: m.name },
    dosageInstruction: [
      {
        text: `${m.mg} ${m.unit ?? "mg"} once daily`,
        timing: { repeat: { frequency: 1, period: 1, periodUnit: "d" } },
        doseAndRate: [
          { doseQuantity: { value: m.mg, unit: m.unit ?? "mg", system: UCUM, code: m.unit ?? "mg" } },
        ],
      },
    ],
  };
}
function orderSign(meds) {
  const active = meds.length > 1 ? meds.slice(0, 1) : [];
  const drafts = meds.length > 1 ? meds.slice(1) : meds;
  return cds("psych-interactions-sign", {
    hook: "order-sign",
    hookInstance: `blind-${Date.now()}`,
    context: {
      userId: "Practitioner/blind",
      patientId: PATIENT,
      draftOrders: {
        resourceType: "Bundle",
        type: "collection",
        entry: drafts.map((m, i) => ({ resource: medRequest(`d${i}`, m, "draft") })),
      },
    },
    prefetch: { medications: bundle(active.map((m, i) => medRequest(`a${i}`, m, "active"))) },
  });
}

// ---- kinds ----
async function medications(c) {
  const meds = c.input.medications;
  const min = c.expected.minLevel;
  const rows = [];
  const expect = `>= ${min}`;
  // JSON /v1/medication/analyze: additive interaction / dose findings or requiresClinicianReview.
  {
    const r = await post("/v1/medication/analyze", {
      prescriptions: meds.map((m, i) => ({
        id: `rx${i}`,
        medicationName: m.name,
        dosage: `${m.mg} ${m.unit ?? "mg"}`,
        frequency: "once daily",
        status: "active",
        prescribedAt: daysAgo(30),
      })),
      assessments: [],
    });
    const d = r.json?.data ?? {};
    const sev = [];
    for (const [k, v] of Object.entries(d))
      if (Array.isArray(v) && k !== "signals")
        for (const x of v) if (x && typeof x.severity === "string") sev.push(x.severity);
    // The additive interaction check (decision 176), named after the cases were written: the
    // runner reads it; the expected levels are unchanged.
    const check = d.interactionCheck ?? {};
    for (const x of [...(check.interactions ?? []), ...(check.doseAlerts ?? [])])
      if (x && typeof x.severity === "string") sev.push(x.severity);
    const review = d.intelligence?.summary?.requiresClinicianReview === true;
    let level = maxLevel(sev);
    if (level === "none" && review) level = "low";
    rows.push({
      door: "json",
      expected: expect,
      got:
        r.status !== 200
          ? `HTTP ${r.status}`
          : `findings [${sev.join(",")}], review ${review}, status ${d.intelligence?.summary?.status}`,
      pass: rank(level) >= rank(min),
      level,
    });
  }
  const strings = meds.map(medString);
  {
    const r = await post(`/v1/medication/${PATIENT}/agent`, { medications: strings });
    const risk = r.json?.data?.risk;
    const ints = r.json?.data?.assessment?.interactions ?? [];
    rows.push({
      door: "agent",
      expected: expect,
      got: risk
        ? `risk ${risk.level} flag ${risk.flag}; interactions [${ints.map((i) => `${i.severity}`).join(",")}]`
        : `HTTP ${r.status}`,
      pass: !!risk && rank(risk.level) >= rank(min),
      level: risk?.level,
    });
  }
  {
    const r = await mcp("checkInteractions", { medications: strings });
    const risk = r.sc?.risk;
    rows.push({
      door: "mcp",
      expected: expect,
      got: risk ? `risk ${risk.level} flag ${risk.flag}` : short(r.error ?? r.text),
      pass: !!risk && rank(risk.level) >= rank(min),
      level: risk?.level,
    });
  }
  {
    const r = await orderSign(meds);
    const x = cardsLevel(
      r,
      (rule) =>
        rule === "interaction-not-checked" || rule === "cards-not-shown" || rule === "insufficient-data",
    );
    rows.push({
      door: "cds",
      expected: `card >= ${min}`,
      got: x.got,
      pass: rank(x.level) >= rank(min),
      level: x.level,
    });
  }
  {
    const r = await post(
      "/v1/medication/analyze",
      {
        prescriptions: meds.map((m, i) => ({
          id: `rx${i}`,
          medicationName: m.name,
          dosage: `${m.mg} ${m.unit ?? "mg"}`,
          frequency: "once daily",
          status: "active",
          prescribedAt: daysAgo(30),
        })),
        assessments: [],
      },
      "application/fhir+json",
    );
    const issues = fhirEntries(r.json).filter((x) => x.resourceType === "DetectedIssue");
    const level = maxLevel(issues.map((i) => i.severity));
    const incomplete = guidanceNotes(r.json).filter((n) => /incomplete|not checked/i.test(n));
    rows.push({
      door: "fhir",
      expected: `DetectedIssue >= ${min}`,
      got:
        r.status !== 200
          ? `HTTP ${r.status}`
          : `DetectedIssue [${issues.map((i) => i.severity).join(",")}]${incomplete.length ? `; note: ${short(incomplete[0], 90)}` : ""}`,
      pass: rank(level) >= rank(min),
      level,
    });
  }
  return rows;
}

async function coverage(c) {
  // A known companion medicine (sertraline) goes with the brand so that every door has a check to
  // run and can say whether the brand was read; the judgement is about the brand only.
  const { name, ingredient } = c.input;
  const COMPANION = { name: "sertraline", mg: 50 };
  const rows = [];
  const ok = (rec, unrec) =>
    (rec ?? []).some((x) => x.toLowerCase().includes(ingredient) || ingredient.includes(x.toLowerCase())) &&
    (unrec ?? []).length === 0;
  const expect = `recognised as ${ingredient}`;
  {
    const r = await post(`/v1/medication/${PATIENT}/agent`, { medications: [name, medString(COMPANION)] });
    const a = r.json?.data?.assessment;
    rows.push({
      door: "agent",
      expected: expect,
      got: a
        ? `recognized [${a.recognized}] unrecognized [${a.unrecognized}]`
        : `HTTP ${r.status} assessment null, risk ${r.json?.data?.risk?.level}`,
      pass: !!a && ok(a.recognized, a.unrecognized),
    });
  }
  {
    const r = await mcp("checkInteractions", { medications: [name, medString(COMPANION)] });
    rows.push({
      door: "mcp",
      expected: expect,
      got: r.sc
        ? `recognized [${r.sc.recognized}] unrecognized [${r.sc.unrecognized}]`
        : short(r.error ?? r.text),
      pass: !!r.sc && ok(r.sc.recognized, r.sc.unrecognized),
    });
  }
  {
    const r = await orderSign([COMPANION, { name, mg: 1 }]);
    const x = cardsLevel(r, () => false);
    const notChecked = (x.cards ?? []).filter((card) => ruleOf(card) === "interaction-not-checked");
    rows.push({
      door: "cds",
      expected: "no interactions-not-checked card",
      got: notChecked.length ? `${x.got}: ${short(notChecked[0].summary, 90)}` : x.got,
      pass: r.status === 200 && notChecked.length === 0,
    });
  }
  {
    const r = await post(
      "/v1/medication/analyze",
      {
        prescriptions: [
          { id: "rx0", medicationName: name, status: "active" },
          { id: "rx1", medicationName: COMPANION.name, dosage: "50 mg", status: "active" },
        ],
        assessments: [],
      },
      "application/fhir+json",
    );
    const notes = guidanceNotes(r.json).filter((n) => /not recogni|unrecogni|incomplete/i.test(n));
    rows.push({
      door: "fhir",
      expected: "no 'not recognised' note",
      got: r.status !== 200 ? `HTTP ${r.status}` : notes.length ? short(notes[0], 120) : "no incomplete note",
      pass: r.status === 200 && notes.length === 0,
    });
  }
  return rows;
}

async function safetyText(c) {
  const { text, severity } = c.input;
  const e = c.expected;
  const judge = (level, flag) =>
    e.notSilent ? !(level === "none" && !flag) : rank(level) >= rank(e.minLevel) && flag === true;
  const expect = e.notSilent ? "not `none` without a flag" : `>= ${e.minLevel} and flag`;
  const rows = [];
  {
    const r = await post(`/v1/relapse/${PATIENT}/agent`, { signals: [{ indicator: text, severity }] });
    const risk = r.json?.data?.risk;
    rows.push({
      door: "agent (relapse)",
      expected: expect,
      got: risk
        ? `risk ${risk.level} flag ${risk.flag}; unrecognized [${r.json.data.assessment?.unrecognized ?? ""}]`
        : `HTTP ${r.status} ${short(r.text, 80)}`,
      pass: !!risk && judge(risk.level, risk.flag),
      level: risk?.level,
    });
  }
  {
    const r = await mcp("scoreRelapse", { signals: [{ indicator: text, severity }] });
    const risk = r.sc?.risk;
    rows.push({
      door: "mcp (scoreRelapse)",
      expected: expect,
      got: risk ? `risk ${risk.level} flag ${risk.flag}` : short(r.error ?? r.text),
      pass: !!risk && judge(risk.level, risk.flag),
      level: risk?.level,
    });
  }
  {
    const r = await post(`/v1/mse/visit-${c.id}/agent`, {
      patientId: PATIENT,
      transcript: `Clinician note: ${text}.`,
    });
    const risk = r.json?.risk;
    rows.push({
      door: "mse agent",
      expected: expect,
      got: risk ? `risk ${risk.level} flag ${risk.flag}` : `HTTP ${r.status} ${short(r.text, 80)}`,
      pass: !!risk && judge(risk.level, risk.flag),
      level: risk?.level,
    });
  }
  return rows;
}

async function lab(c) {
  const { analyte, value, unit, loinc, ucum, context } = c.input;
  const e = c.expected;
  const judge = (level, flag, notEvaluated) => {
    if (e.minLevel) return rank(level) >= rank(e.minLevel);
    if (e.notEvaluatedOrFlag)
      return notEvaluated && (flag || rank(level) >= RANK.low || notEvaluated === "card");
    return false;
  };
  const expect = e.minLevel ? `>= ${e.minLevel}` : "not evaluated / flagged, never normal";
  const rows = [];
  const bio = { name: analyte, value, ...(unit ? { unit } : {}) };
  const labsBody = {
    labs: [
      {
        id: "lab1",
        labName: "Blind case laboratory",
        observedAt: daysAgo(1),
        results: { biomarkers: [bio] },
      },
    ],
  };
  {
    const r = await post("/v1/biomarker/analyze", labsBody);
    const d = r.json?.data;
    const st = d?.intelligence?.summary?.status;
    const level = STATUS_LEVEL[st] ?? "none";
    const flag = d?.intelligence?.summary?.requiresClinicianReview === true;
    const ne = (d?.valueFindings ?? []).some((f) => f.finding !== "critical");
    rows.push({
      door: "json",
      expected: expect,
      got: d
        ? `status ${st}, review ${flag}, findings [${(d.valueFindings ?? []).map((f) => f.finding)}], signals ${d.signalsPresent}`
        : `HTTP ${r.status} ${short(r.text, 80)}`,
      pass: !!d && judge(level, flag || ne, ne),
      level: d ? level : "?",
    });
  }
  const panel = [{ analyte, value, ...(unit ? { unit } : {}) }];
  {
    const r = await post(`/v1/biomarker/${PATIENT}/agent`, { panel });
    const data = r.json?.data;
    const risk = data?.risk;
    const res = data?.assessment?.results ?? [];
    const ne =
      res.length === 0 || res.every((x) => /not_evaluated|unknown|implausible/i.test(String(x.flag)));
    rows.push({
      door: "agent",
      expected: expect,
      got: risk
        ? `risk ${risk.level} flag ${risk.flag}; results [${res.map((x) => x.flag)}]`
        : `HTTP ${r.status} ${short(r.text, 80)}`,
      pass: !!risk && judge(risk.level, risk.flag, ne),
      level: risk?.level,
    });
  }
  {
    const r = await mcp("evaluatePanel", { panel });
    const risk = r.sc?.risk;
    const res = r.sc?.results ?? [];
    const ne =
      res.length === 0 || res.every((x) => /not_evaluated|unknown|implausible/i.test(String(x.flag)));
    rows.push({
      door: "mcp",
      expected: expect,
      got: risk
        ? `risk ${risk.level} flag ${risk.flag}; results [${res.map((x) => x.flag)}]`
        : short(r.error ?? r.text),
      pass: !!risk && judge(risk.level, risk.flag, ne),
      level: risk?.level,
    });
  }
  {
    const obs = {
      resourceType: "Observation",
      id: "o1",
      status: "final",
      code: { coding: [{ system: "http://loinc.org", code: loinc }] },
      subject: { reference: `Patient/${PATIENT}` },
      effectiveDateTime: daysAgo(1),
      valueQuantity: { value, ...(unit ? { unit, system: UCUM, code: ucum ?? unit } : {}) },
    };
    const meds = context ? [medRequest("a0", { name: context, mg: 1 }, "active")] : [];
    const r = await cds("psych-patient-view", {
      hook: "patient-view",
      hookInstance: `blind-${c.id}`,
      context: { userId: "Practitioner/blind", patientId: PATIENT },
      prefetch: { medications: bundle(meds), scores: bundle([]), labs: bundle([obs]) },
    });
    const x = cardsLevel(r, (rule) => !rule.startsWith("lab-") || rule === "lab-monitoring-due");
    const insufficient = (x.cards ?? []).filter((card) => ruleOf(card) === "insufficient-data");
    const ne = insufficient.length > 0 && x.level === "none" ? "card" : false;
    const why = insufficient.length
      ? `; insufficient-data: ${short((insufficient[0].detail?.split("\n").find((l) => l.startsWith("- ")) ?? insufficient[0].summary).replace(/\\/g, ""), 120)}`
      : "";
    rows.push({
      door: "cds",
      expected: expect,
      got: `${x.got}${why}`,
      pass: r.status === 200 && judge(x.level, false, ne),
      level: x.level,
    });
  }
  {
    const r = await post("/v1/biomarker/analyze", labsBody, "application/fhir+json");
    const notes = guidanceNotes(r.json);
    const st = notes.map((n) => /^Status (\w+)/.exec(n)?.[1]).find(Boolean);
    const level = STATUS_LEVEL[st] ?? "none";
    const flag = notes.some((n) => /clinician review required/i.test(n));
    const vf = fhirEntries(r.json)
      .filter((x) => x.code?.coding?.[0]?.code === "biomarker.value-finding")
      .map((x) => x.interpretation?.[0]?.text);
    const ne = vf.some((t) => t && t !== "critical");
    rows.push({
      door: "fhir",
      expected: expect,
      got: r.status !== 200 ? `HTTP ${r.status}` : `status ${st}, value-findings [${vf}]`,
      pass: r.status === 200 && judge(level, flag || ne, ne),
      level,
    });
  }
  if (e.parity) {
    const levels = rows.map((r) => r.level);
    const same = levels.every((l) => l === levels[0]);
    rows.push({
      door: "parity",
      expected: "same level in every door",
      got: rows.map((r) => `${r.door}=${r.level}`).join(" "),
      pass: same && rank(levels[0]) >= rank(e.minLevel),
    });
  }
  return rows;
}

async function device(c) {
  const { telemetry, signal } = c.input;
  const expect = "refused, or implausible / low confidence; never within_normal";
  const rows = [];
  {
    const r = await post("/v1/dmse/analyze", telemetry);
    if (r.status === 400) rows.push({ door: "json", expected: expect, got: "400 refused", pass: true });
    else {
      const sig = (r.json?.data?.signals ?? []).find((x) => x.signalKey === signal);
      const dq = /implausib/i.test(r.text);
      const pass =
        !!r.json?.data &&
        (!sig ||
          sig.interpretation === "insufficient_data" ||
          (sig.confidence === "low" && sig.interpretation !== "within_normal" && dq));
      rows.push({
        door: "json",
        expected: expect,
        got: sig
          ? `${sig.interpretation}, confidence ${sig.confidence}, implausible ${dq ? "named" : "not named"}`
          : `HTTP ${r.status} no ${signal} signal`,
        pass,
      });
    }
  }
  {
    const r = await post("/v1/dmse/analyze", telemetry, "application/fhir+json");
    if (r.status === 400) rows.push({ door: "fhir", expected: expect, got: "400 refused", pass: true });
    else {
      const o = fhirEntries(r.json).find((x) => x.code?.coding?.[0]?.code === `dmse.${signal}`);
      const interp = o?.interpretation?.[0]?.coding?.[0]?.code;
      const low = (o?.note ?? []).some((n) => /confidence low/i.test(n.text));
      const dq = /implausib/i.test(r.text);
      rows.push({
        door: "fhir",
        expected: expect,
        got: o
          ? `${interp}${low ? ", confidence low" : ""}, implausible ${dq ? "named" : "not named"}`
          : `HTTP ${r.status} no dmse.${signal}`,
        pass:
          r.status === 200 &&
          (!o || interp === "insufficient_data" || (low && interp !== "within_normal" && dq)),
      });
    }
  }
  {
    const r = await mcp("analyzeTelemetry", { telemetry });
    const txt = r.text ?? "";
    const implausible = /implausib/i.test(txt);
    rows.push({
      door: "mcp",
      expected: expect,
      got: r.isError ? `isError: ${short(txt, 90)}` : implausible ? "implausible named" : short(txt, 120),
      pass: r.isError === true || implausible,
    });
  }
  {
    const r = await post(`/v1/mse/visit-${c.id}/agent`, { patientId: PATIENT, telemetry });
    if (r.status === 400) rows.push({ door: "mse agent", expected: expect, got: "400 refused", pass: true });
    else {
      const w = (r.json?.warnings ?? []).filter((x) => /implausib/i.test(x));
      rows.push({
        door: "mse agent",
        expected: expect,
        got: w.length
          ? short(w[0], 120)
          : `no implausible warning; selection ${short(r.json?.draft?.selection ?? null, 80)}`,
        pass: w.length > 0,
      });
    }
  }
  return rows;
}

async function scale(c) {
  const { instrument, instrumentName, maxScore, prior, current, loinc } = c.input;
  const instrumentId = instrument.toLowerCase().replace(/[^a-z0-9]/g, "");
  const assessments = [
    { instrumentId, instrumentName, score: prior, maxScore, createdAt: daysAgo(29) },
    { instrumentId, instrumentName, score: current, maxScore, createdAt: daysAgo(1) },
  ];
  const expect = "worsening";
  const rows = [];
  {
    const r = await post("/v1/outcome/score", { assessments });
    const d = r.json?.data;
    rows.push({
      door: "json (outcome)",
      expected: expect,
      got: d ? `direction ${d.direction}, score ${d.score}` : `HTTP ${r.status}`,
      pass: !!d && (/wors/i.test(d.direction) || d.score < 0),
    });
  }
  {
    const r = await post("/v1/relapse/predict", { assessments, hasActiveMedication: true });
    const d = r.json?.data;
    rows.push({
      door: "json (relapse)",
      expected: "trend rising or level >= moderate",
      got: d ? `level ${d.level}, trend ${d.trend}, score ${d.score}` : `HTTP ${r.status}`,
      pass: !!d && (d.trend === "rising" || rank(d.level) >= RANK.moderate),
    });
  }
  const instruments = [{ instrument, total: current, priorTotal: prior }];
  {
    const r = await post(`/v1/outcome/${PATIENT}/agent`, { instruments });
    const res = r.json?.data?.assessment?.results?.[0];
    const risk = r.json?.data?.risk;
    rows.push({
      door: "agent",
      expected: expect,
      got: res
        ? `trajectory ${res.trajectory}, reliableChange ${short(res.reliableChange ?? "-", 60)}; risk ${risk?.level}`
        : `HTTP ${r.status} risk ${risk?.level} ${short(r.json?.data?.warnings ?? r.text, 80)}`,
      pass: !!res && /wors|deterior/i.test(String(res.trajectory)),
    });
  }
  {
    const r = await mcp("scoreInstruments", { instruments });
    const res = r.sc?.results?.[0];
    rows.push({
      door: "mcp",
      expected: expect,
      got: res ? `trajectory ${res.trajectory}; risk ${r.sc?.risk?.level}` : short(r.error ?? r.text),
      pass: !!res && /wors|deterior/i.test(String(res.trajectory)),
    });
  }
  {
    const r = await post("/v1/outcome/score", { assessments }, "application/fhir+json");
    const o = fhirEntries(r.json).find((x) => x.code?.coding?.[0]?.code === "outcome.score");
    const dir = o?.interpretation?.[0]?.text;
    rows.push({
      door: "fhir",
      expected: expect,
      got: o ? `direction ${dir}, value ${o.valueQuantity?.value}` : `HTTP ${r.status}`,
      pass: !!o && (/wors/i.test(dir ?? "") || o.valueQuantity?.value < 0),
    });
  }
  if (loinc) {
    const obs = (id, v, d) => ({
      resourceType: "Observation",
      id,
      status: "final",
      code: { coding: [{ system: "http://loinc.org", code: loinc }] },
      subject: { reference: `Patient/${PATIENT}` },
      effectiveDateTime: daysAgo(d),
      valueQuantity: { value: v, unit: "{score}", system: UCUM, code: "{score}" },
    });
    const r = await cds("psych-patient-view", {
      hook: "patient-view",
      hookInstance: `blind-${c.id}`,
      context: { userId: "Practitioner/blind", patientId: PATIENT },
      prefetch: {
        medications: bundle([]),
        scores: bundle([obs("s1", prior, 29), obs("s2", current, 1)]),
        labs: bundle([]),
      },
    });
    const x = cardsLevel(r, (rule) => rule !== "relapse-early-warning");
    const judged = (x.cards ?? []).filter(
      (card) => ruleOf(card) === "relapse-early-warning" && !/not judged/i.test(card.summary),
    );
    rows.push({ door: "cds", expected: "relapse card (judged)", got: x.got, pass: judged.length > 0 });
  }
  return rows;
}

async function notAssessed(c) {
  const { door } = c.input;
  const expect = "never `none`";
  const rows = [];
  const one = (label, risk, extra = "") =>
    rows.push({
      door: label,
      expected: expect,
      got: risk ? `risk ${risk.level} flag ${risk.flag}${extra}` : "no risk",
      pass: !!risk && risk.level !== "none",
    });
  if (door === "mse") {
    const r = await post(`/v1/mse/visit-${c.id}/agent`, {
      patientId: PATIENT,
      transcript: c.input.transcript,
    });
    one("mse agent", r.json?.risk, r.status !== 200 ? ` HTTP ${r.status}` : "");
    return rows;
  }
  const body = {
    medication: { medications: c.input.medications },
    biomarker: { panel: c.input.panel },
    outcome: { instruments: c.input.instruments },
    relapse: { signals: c.input.signals },
  }[door];
  const r = await post(`/v1/${door}/${PATIENT}/agent`, body);
  one("agent", r.json?.data?.risk, r.status !== 200 ? ` HTTP ${r.status}` : "");
  const tool = {
    medication: "checkInteractions",
    biomarker: "evaluatePanel",
    outcome: "scoreInstruments",
    relapse: "scoreRelapse",
  }[door];
  const m = await mcp(tool, body);
  one("mcp", m.sc?.risk, m.isError ? ` isError ${short(m.text, 60)}` : "");
  return rows;
}

const KINDS = { medications, coverage, safetyText, lab, device, scale, notAssessed };
const results = [];
try {
  for (const c of cases) {
    let rows;
    try {
      rows = await KINDS[c.kind](c);
    } catch (err) {
      rows = [{ door: "runner", expected: "-", got: `error: ${err.message}`, pass: false }];
    }
    for (const r of rows) results.push({ id: c.id, cls: c.class, ...r });
    process.stdout.write(`${c.id}: ${rows.map((r) => `${r.door} ${r.pass ? "pass" : "FAIL"}`).join(", ")}\n`);
  }
} finally {
  await s.stop();
}

// ---- report ----
const CLASS_NAMES = {
  a: "(a) interactions, duplicates and doses by property",
  b: "(b) safety concepts in free text",
  c: "(c) units and plausibility",
  d: "(d) door parity: labs, scales, not assessed",
  e: "(e) coverage: US and UK brands",
};
const esc = (t) => String(t).replace(/\|/g, "\\|").replace(/\n/g, " ");
const lines = [];
lines.push("# Blind cases: results", "");
lines.push(
  `Commit \`${commit}\`; ${cases.length} cases, ${results.length} case x door rows; ${results.filter((r) => r.pass).length} pass, ${results.filter((r) => !r.pass).length} fail.`,
  "",
);
lines.push(
  "Expected answers were fixed in cases.json, from the sources named there, before any run. Level mapping: README.md.",
  "",
);
lines.push("## Summary (pass / total per class and door)", "");
const family = (door) => (door.startsWith("mse agent") ? "mse agent" : door.split(" ")[0]);
for (const r of results) r.family = family(r.door);
const doors = [...new Set(results.map((r) => r.family))];
lines.push(`| class | ${doors.join(" | ")} | all |`, `|---|${doors.map(() => "---").join("|")}|---|`);
for (const cls of Object.keys(CLASS_NAMES)) {
  const rs = results.filter((r) => r.cls === cls);
  if (!rs.length) continue;
  const cell = (xs) => (xs.length ? `${xs.filter((x) => x.pass).length}/${xs.length}` : "-");
  lines.push(
    `| ${CLASS_NAMES[cls]} (${new Set(rs.map((r) => r.id)).size} cases) | ${doors.map((d) => cell(rs.filter((r) => r.family === d))).join(" | ")} | ${cell(rs)} |`,
  );
}
lines.push(
  "",
  "## Every case and door",
  "",
  "| case | door | expected | got | result |",
  "|---|---|---|---|---|",
);
for (const r of results)
  lines.push(
    `| ${r.id} | ${esc(r.door)} | ${esc(r.expected)} | ${esc(r.got)} | ${r.pass ? "pass" : "**FAIL**"} |`,
  );
writeFileSync(outFile, `${lines.join("\n")}\n`);
console.log(`\n${results.filter((r) => r.pass).length}/${results.length} pass; written to ${outFile}`);
