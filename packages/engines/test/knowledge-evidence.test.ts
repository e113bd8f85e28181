import { describe, expect, it } from "vitest";
import { INSTRUMENT_PROFILES } from "../src/instruments.js";
import {
  ENGINE_PARAMETER_TABLES,
  monitoringFigures,
  patientFactorFigures,
} from "../src/knowledge/doc-tables-evidence.js";
import {
  INSTRUMENT_EVIDENCE,
  INSTRUMENT_IDS,
  INSTRUMENT_RULE_EVIDENCE,
  INSTRUMENTS,
} from "../src/knowledge/instruments.js";
import { MONITORING_SCHEDULE_EVIDENCE } from "../src/knowledge/monitoring-schedules.js";
import type { Evidence } from "../src/knowledge/parameter-evidence.js";
import { PATIENT_FACTOR_EVIDENCE } from "../src/knowledge/patient-factor-evidence.js";
import { RELAPSE_INDICATOR_EVIDENCE_LEVELS, RELAPSE_INDICATORS } from "../src/knowledge/relapse-signals.js";

/**
 * The evidence the generated tables of docs/engines/evidence.md print (decision 217): every value
 * has a known level and a source, and each side table keyed by names holds exactly the names its
 * table has. (That every value is on the page is true by construction: the page is generated.)
 */
const LEVELS = new Set(["published cut-off", "derived", "expert-set"]);

function expectSourced(name: string, evidence: Evidence | undefined): void {
  expect(evidence, `${name} has evidence`).toBeDefined();
  expect(LEVELS.has(evidence?.level ?? ""), `${name}: level "${evidence?.level}"`).toBe(true);
  expect((evidence?.source ?? "").trim().length, `${name}: source`).toBeGreaterThan(5);
}

describe("the evidence of the knowledge tables", () => {
  it("gives every engine parameter and fixed constant a level and a source", () => {
    for (const [table, rows] of Object.entries(ENGINE_PARAMETER_TABLES))
      for (const row of rows()) expectSourced(`${table}: ${row.constant}`, row);
  });

  it("gives every instrument's direction, maximum and reliable change (exactly when set) a source", () => {
    for (const id of INSTRUMENT_IDS) {
      const evidence = INSTRUMENT_EVIDENCE[id];
      expectSourced(`${id}.direction`, evidence.direction);
      expectSourced(`${id}.maxScore`, evidence.maxScore);
      if (INSTRUMENTS[id].reliableChangePoints === null)
        expect(evidence.reliableChangePoints, `${id} has no reliable change`).toBeUndefined();
      else expectSourced(`${id}.reliableChangePoints`, evidence.reliableChangePoints);
    }
    for (const id of Object.keys(INSTRUMENT_PROFILES) as (keyof typeof INSTRUMENT_PROFILES)[]) {
      expectSourced(`${id}.bands`, INSTRUMENT_EVIDENCE[id].bands);
      expectSourced(`${id}.casenessMin`, INSTRUMENT_EVIDENCE[id].casenessMin);
    }
    for (const [rule, evidence] of Object.entries(INSTRUMENT_RULE_EVIDENCE)) expectSourced(rule, evidence);
  });

  it("gives every relapse signal indicator an evidence level, and none to an indicator the table lacks", () => {
    expect(Object.keys(RELAPSE_INDICATOR_EVIDENCE_LEVELS)).toEqual(
      RELAPSE_INDICATORS.map((i) => i.indicator),
    );
    for (const level of Object.values(RELAPSE_INDICATOR_EVIDENCE_LEVELS)) expect(level).toMatch(/expert-set/);
  });

  it.each([
    ["monitoring schedules", monitoringFigures, MONITORING_SCHEDULE_EVIDENCE],
    ["patient factors", patientFactorFigures, PATIENT_FACTOR_EVIDENCE],
  ] as const)(
    "has the evidence of every %s figure, and none for a figure the table lacks",
    (_, figures, evidence) => {
      const names = [...figures().keys()];
      expect(Object.keys(evidence).sort()).toEqual([...names].sort());
      for (const name of names) expectSourced(name, evidence[name]);
    },
  );
});
