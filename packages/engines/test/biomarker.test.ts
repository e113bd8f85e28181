import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  analyzeBiomarkers,
  BIOMARKER_DEFAULT_PARAMS,
  BIOMARKER_INTERPRETATION_SCALE,
  BIOMARKER_MAP,
  BIOMARKER_MODEL_KEY,
  BIOMARKER_STATUS_ORDER,
  type BiomarkerInput,
  chooseLoinc,
  findAnalyte,
  findAnalyteByLoinc,
  parseBiomarkerValue,
  parseReferenceRange,
  resolveBiomarkerParams,
} from "../src/biomarker.js";
import { unitProperty } from "../src/biomarker-map.js";
import type { Biomarker, LabPanel, ModuleSignal } from "../src/types.js";

/** The JSON door's status for each clinical level (decision 182). */
const STATUS_OF_LEVEL = { none: "no_flags", low: "watch", moderate: "elevated", high: "critical" } as const;

const NOW = new Date("2026-08-01T00:00:00Z");

const panel = (biomarkers: Biomarker[], over: Partial<LabPanel> = {}): LabPanel => ({
  id: "lab_1",
  labName: "Reference Lab",
  observedAt: "2026-07-01T08:00:00Z",
  results: { biomarkers },
  ...over,
});
const run = (labs: LabPanel[]) => analyzeBiomarkers({ labs }, { now: NOW });
const one = (reading: Biomarker, over: Partial<LabPanel> = {}): ModuleSignal => {
  const signals = run([panel([reading], over)]).data.signals;
  expect(signals).toHaveLength(1);
  return signals[0] as ModuleSignal;
};

describe("worked example (docs/engines/biomarker.md)", () => {
  it("gives the documented signals, order, status, confidence and codes", () => {
    const result = run([
      panel([
        { name: "TSH", value: 6.8, unit: "mIU/L", flag: "high", referenceRange: "0.4-4.0" },
        { name: "Lithium", value: 1.3, unit: "mmol/L", flag: "high", referenceRange: "0.6-1.2" },
        { name: "Sodium", value: "128", unit: "mmol/L", flag: "critical", referenceRange: "135-145" },
        { name: "Vitamin B12", value: "<150", unit: "pg/mL", flag: "low" },
        { name: "Mystery X", value: "positive", flag: "high" },
        { name: "Potassium", value: 4.1, unit: "mmol/L", flag: "normal" },
      ]),
    ]);
    expect(result.data.signals.map((s) => [s.signalKey, s.tone, s.metricValue, s.confidence])).toEqual([
      ["bio_sodium", "critical", 128, "high"],
      ["bio_lithium", "elevated", 1.3, "high"],
      ["bio_tsh", "watch", 6.8, "high"],
      ["bio_vitamin_b12", "watch", 150, "high"],
      ["bio_mystery_x", "watch", 0, "low"],
    ]);
    // Sodium is critical and 128 < 135, so the low-sodium text is used.
    expect(result.data.signals[0]?.detail).toContain("Low sodium");
    expect(result.data.signals[3]?.detail).toContain("censored result");
    // Confidence: (0.9 * 4 + 0.3) / 5 = 0.78 -> high.
    expect(result.facts.confidence).toMatchObject({ level: "high", score: 0.78 });
    expect(result.facts.summary).toEqual({
      status: "critical",
      headline: "5 flagged result(s): 1 critical, 1 elevated, 3 watch. Worst: Sodium critical.",
      flagged: ["Sodium critical", "Lithium high", "TSH high", "Vitamin B12 low", "Mystery X high"],
      requiresClinicianReview: true,
    });
    expect(result.facts.codes).toEqual([
      {
        system: "http://loinc.org",
        code: "2951-2",
        display: "Sodium [Moles/volume] in Serum or Plasma",
        mapsTo: "signals.0",
      },
      {
        system: "http://loinc.org",
        code: "14334-7",
        display: "Lithium [Moles/volume] in Serum or Plasma",
        mapsTo: "signals.1",
      },
      {
        system: "http://loinc.org",
        code: "3016-3",
        display: "Thyrotropin [Units/volume] in Serum or Plasma",
        mapsTo: "signals.2",
      },
      {
        system: "http://loinc.org",
        code: "2132-9",
        display: "Cobalamin (Vitamin B12) [Mass/volume] in Serum or Plasma",
        mapsTo: "signals.3",
      },
    ]);
  });
});

describe("the relevance map", () => {
  it("has at least 40 analytes with unique keys", () => {
    expect(BIOMARKER_MAP.length).toBeGreaterThanOrEqual(40);
    expect(new Set(BIOMARKER_MAP.map((e) => e.key)).size).toBe(BIOMARKER_MAP.length);
    for (const e of BIOMARKER_MAP) expect(e.key).toMatch(/^[a-z0-9_]+$/);
  });

  const variantCases = BIOMARKER_MAP.flatMap((entry) =>
    [entry.key, entry.display, ...entry.variants].flatMap((name) => [
      [entry.key, name],
      [entry.key, name.toUpperCase()],
      [entry.key, ` ${name.replace(/ /g, "-")} `],
    ]),
  );
  it.each(variantCases)("%s <- %j", (key, name) => {
    expect(findAnalyte(name)?.key).toBe(key);
  });

  it.each(BIOMARKER_MAP.map((e) => [e.key]))("%s emits bio_<key> with its own relevance text", (key) => {
    const entry = BIOMARKER_MAP.find((e) => e.key === key);
    if (!entry) throw new Error("missing");
    // A non-numeric value: the laboratory flag and the table's tone alone decide (no range check).
    const high = one({ name: entry.variants[0] ?? entry.display, value: "see report", flag: "high" });
    expect(high.signalKey).toBe(`bio_${key}`);
    expect(high.tone).toBe(entry.toneHigh);
    expect(high.detail).toContain(entry.high);
    const low = one({ name: entry.display, value: "see report", flag: "low" });
    expect(low.tone).toBe(entry.toneLow);
    expect(low.detail).toContain(entry.low);
  });

  it("ignores filler words such as serum, level and plasma", () => {
    expect(findAnalyte("Lithium level")?.key).toBe("lithium");
    expect(findAnalyte("Sodium, serum")?.key).toBe("sodium");
    expect(findAnalyte("Plasma ammonia")?.key).toBe("ammonia");
    expect(findAnalyte("Serum")).toBeNull();
    expect(findAnalyte("Something else")).toBeNull();
  });

  it("lists every verified code once and finds entries by code", () => {
    const codes = BIOMARKER_MAP.flatMap((e) => (e.loinc ?? []).map((r) => r.code));
    expect(new Set(codes).size).toBe(codes.length);
    for (const code of codes) {
      expect(code).toMatch(/^\d{1,7}-\d$/);
      expect(findAnalyteByLoinc(code)).not.toBeNull();
    }
    expect(findAnalyteByLoinc("99999-9")).toBeNull();
  });
});

describe("LOINC code choice", () => {
  const entry = (key: string) => {
    const e = BIOMARKER_MAP.find((x) => x.key === key);
    if (!e) throw new Error(key);
    return e;
  };
  it("reads mass and moles from the unit", () => {
    expect(unitProperty("mg/dL")).toBe("mass");
    expect(unitProperty("µmol/L")).toBe("moles");
    expect(unitProperty("umol/L")).toBe("moles");
    expect(unitProperty("mEq/L")).toBe("moles");
    expect(unitProperty("ng/mL")).toBe("mass");
    expect(unitProperty("mIU/L")).toBeNull();
    expect(unitProperty("")).toBeNull();
    expect(unitProperty(undefined)).toBeNull();
  });

  it("picks the creatinine code that fits the unit, and none without a unit", () => {
    expect(chooseLoinc(entry("creatinine"), "mg/dL")?.code).toBe("2160-0");
    expect(chooseLoinc(entry("creatinine"), "µmol/L")?.code).toBe("14682-9");
    expect(chooseLoinc(entry("creatinine"), undefined)).toBeNull();
  });

  it("keeps unit-independent codes unless the unit contradicts them", () => {
    expect(chooseLoinc(entry("tsh"), "mIU/L")?.code).toBe("3016-3");
    expect(chooseLoinc(entry("tsh"), undefined)?.code).toBe("3016-3");
    expect(chooseLoinc(entry("hba1c"), "%")?.code).toBe("4548-4");
    expect(chooseLoinc(entry("hba1c"), "mmol/mol")).toBeNull();
  });

  it("uses a caller's code only when it is one of the verified codes", () => {
    expect(chooseLoinc(entry("vitamin_d"), "nmol/L")).toBeNull();
    expect(chooseLoinc(entry("vitamin_d"), "nmol/L", "14635-7")?.code).toBe("14635-7");
    expect(chooseLoinc(entry("creatinine"), "mg/dL", "38483-4")).toBeNull();
  });

  it("maps a reading by its verified LOINC code even under an unknown name", () => {
    const s = run([
      panel([{ name: "Li+ (ext)", value: 1.6, unit: "mmol/L", flag: "high", loinc: "14334-7" }]),
    ]);
    expect(s.data.signals[0]?.signalKey).toBe("bio_lithium");
    expect(s.facts.codes?.[0]?.code).toBe("14334-7");
  });

  it("emits no code for an analyte without a verified code", () => {
    const s = run([panel([{ name: "Prolactin", value: 80, unit: "ng/mL", flag: "high" }])]);
    expect(s.data.signals[0]?.signalKey).toBe("bio_prolactin");
    expect(s.facts.codes).toEqual([]);
  });
});

describe("flags", () => {
  it("ignores normal and missing flags", () => {
    const result = run([
      panel([
        { name: "TSH", value: 2, flag: "normal" },
        { name: "Sodium", value: 140 },
      ]),
    ]);
    expect(result.data.signals).toEqual([]);
    expect(result.data.signalsPresent).toBe(0);
    expect(result.facts.summary).toMatchObject({
      status: "no_flags",
      flagged: [],
      requiresClinicianReview: false,
      // A reading without any flag is not read as normal (clinical safety rules, decision 25).
      headline:
        "No reading was flagged high, low or critical in 2 reading(s) across 1 panel(s); 1 carried no flag at all, which is not evidence of a normal result.",
    });
    // One of two readings carried an explicit flag: score max(0.3, 0.5 * 0.9) = 0.45 -> moderate.
    expect(result.facts.confidence).toMatchObject({ score: 0.45, level: "moderate" });
  });

  it("gives an unmapped analyte a generic signal", () => {
    const s = one({ name: "Zinc protoporphyrin (RBC)", value: 120, unit: "µmol/mol", flag: "high" });
    expect(s).toMatchObject({
      signalKey: "bio_zinc_protoporphyrin_rbc",
      tone: "watch",
      confidence: "moderate",
    });
    expect(s.detail).toContain("No psychiatric-relevance entry");
    const critical = one({ name: "Odd analyte", value: "n/a", flag: "critical" });
    expect(critical).toMatchObject({ tone: "critical", confidence: "low", metricValue: 0 });
  });

  it("reads the direction of a critical flag from value and range, else says it could not", () => {
    expect(
      one({ name: "Potassium", value: 6.9, flag: "critical", referenceRange: "3.5-5.1" }).detail,
    ).toContain("High potassium");
    expect(
      one({ name: "Potassium", value: 2.4, flag: "critical", referenceRange: "3.5 - 5.1" }).detail,
    ).toContain("Low potassium");
    // Without a range the table's canonical-unit reading gives the side (potassium has one scale).
    expect(one({ name: "Potassium", value: 6.9, flag: "critical" }).detail).toContain("High potassium");
    expect(one({ name: "Prolactin", value: 900, flag: "critical" }).detail).toContain(
      "direction could not be read",
    );
  });

  it("keeps the newest flagged reading per analyte and says how many were flagged", () => {
    const result = run([
      panel([{ name: "TSH", value: 5, flag: "high" }], { id: "old", observedAt: "2026-05-01" }),
      panel([{ name: "TSH", value: 7, flag: "high" }], { id: "new", observedAt: "2026-07-01" }),
      panel([{ name: "TSH", value: 2, flag: "normal" }], { id: "newest", observedAt: "2026-07-20" }),
    ]);
    expect(result.data.signals).toHaveLength(1);
    expect(result.data.signals[0]).toMatchObject({ sourceRef: "new", metricValue: 7 });
    expect(result.data.signals[0]?.detail).toContain("Flagged in 2 readings");
    // The newer value is within the table's range, so the flag is history (decision 67).
    expect(result.data.signals[0]?.detail).toContain(
      "A newer reading (2026-07-20) in panel newest, 2, flagged normal by the laboratory, is within the service's range",
    );
    expect(result.data.signals[0]?.detail).toContain("this flag is history");
  });

  it("uses the panel date or now for observedAt and the reading unit or empty for metricUnit", () => {
    const dated = one({ name: "TSH", value: 7, unit: "mIU/L", flag: "high" });
    expect(dated).toMatchObject({
      observedAt: "2026-07-01T08:00:00.000Z",
      metricUnit: "mIU/L",
      sourceRef: "lab_1",
    });
    const undated = one({ name: "TSH", value: 7, flag: "high" }, { observedAt: undefined });
    expect(undated).toMatchObject({ observedAt: NOW.toISOString(), metricUnit: "" });
    expect(undated.detail).toContain("no observedAt date");
  });

  it("lowers confidence one level for a panel older than staleAfterDays (180)", () => {
    // 2026-08-01 minus 180 days = 2026-02-02; exactly 180 days old is not stale, 181 is.
    expect(
      one({ name: "TSH", value: 7, flag: "high" }, { observedAt: "2026-02-02T00:00:00Z" }).confidence,
    ).toBe("high");
    const stale = one({ name: "TSH", value: 7, flag: "high" }, { observedAt: "2026-02-01T00:00:00Z" });
    expect(stale.confidence).toBe("moderate");
    expect(stale.detail).toContain("older than 180 days");
  });
});

describe("value and range parsing", () => {
  it.each([
    [5.2, 5.2, null],
    ["5.2", 5.2, null],
    [" <0.5", 0.5, "<"],
    ["> 1000", 1000, ">"],
    ["≤3", 3, "<="],
    [">=7", 7, ">="],
    ["4.1 mmol/L", 4.1, null],
    [".5", 0.5, null],
    ["-3", -3, null],
    ["positive", null, null],
    ["1,2", null, null],
    ["", null, null],
    [null, null, null],
    ["5.2.1", null, null],
  ])("%j -> %j", (raw, value, comparator) => {
    expect(parseBiomarkerValue(raw as Biomarker["value"])).toEqual({ value, comparator });
  });

  it.each([
    ["0.4-4.0", { low: 0.4, high: 4 }],
    ["135 – 145", { low: 135, high: 145 }],
    ["3.5 to 5.1 mmol/L", { low: 3.5, high: 5.1 }],
    ["<5", { low: null, high: 5 }],
    ["≤ 200", { low: null, high: 200 }],
    [">40", { low: 40, high: null }],
    ["see note", null],
    [undefined, null],
  ])("range %j", (text, expected) => {
    expect(parseReferenceRange(text)).toEqual(expected);
  });
});

describe("facts, model and parameters", () => {
  it("publishes polarity, a legend for every status, inputs and the default model", () => {
    const result = run([
      panel([{ name: "TSH", value: 7, flag: "high" }]),
      panel([], { id: "lab_2", observedAt: "2026-07-15" }),
    ]);
    expect(result.facts.polarity).toEqual({ kind: "status", order: BIOMARKER_STATUS_ORDER });
    expect(Object.keys(result.facts.interpretationScale)).toEqual([...BIOMARKER_STATUS_ORDER]);
    expect(result.facts.interpretationScale).toEqual(BIOMARKER_INTERPRETATION_SCALE);
    expect(result.facts.inputs).toEqual([
      { name: "labs", value: 2, observedAt: "2026-07-15T00:00:00.000Z", supplied: true, contributed: true },
    ]);
    expect(result.facts.current).toEqual({ score: null, status: "watch" });
    expect(result.model).toEqual({ key: BIOMARKER_MODEL_KEY, version: null, source: "default" });
    expect(BIOMARKER_MODEL_KEY).toBe("biomarker_interpretation");
  });

  it("calibrated parameters change the output and the model block", () => {
    const labs = [panel([{ name: "TSH", value: 7, flag: "high" }], { observedAt: "2026-05-01" })];
    expect(run(labs).data.signals[0]?.confidence).toBe("high");
    const params = resolveBiomarkerParams({ staleAfterDays: 30 });
    const calibrated = analyzeBiomarkers({ labs }, { now: NOW, model: { version: 2, params } });
    expect(calibrated.data.signals[0]?.confidence).toBe("moderate");
    expect(calibrated.model).toEqual({ key: "biomarker_interpretation", version: 2, source: "calibrated" });
  });

  it("resolveBiomarkerParams merges over defaults and rejects bad input", () => {
    expect(resolveBiomarkerParams({})).toEqual(BIOMARKER_DEFAULT_PARAMS);
    expect(resolveBiomarkerParams(undefined)).toEqual(BIOMARKER_DEFAULT_PARAMS);
    expect(() => resolveBiomarkerParams({ unknownKey: 1 })).toThrow(
      /unknown biomarker parameter "unknownKey"/,
    );
    expect(() => resolveBiomarkerParams({ staleAfterDays: Number.NaN })).toThrow(/finite number/);
    expect(() => resolveBiomarkerParams({ staleAfterDays: Number.NEGATIVE_INFINITY })).toThrow(
      /finite number/,
    );
    expect(() => resolveBiomarkerParams({ staleAfterDays: "90" })).toThrow(/finite number/);
    expect(() => resolveBiomarkerParams({ staleAfterDays: 0 })).toThrow(/staleAfterDays must be > 0/);
    expect(() => resolveBiomarkerParams({ confidencePointsHigh: 1.5 })).toThrow(/\[0, 1\]/);
    expect(() => resolveBiomarkerParams([])).toThrow(/must be an object/);
  });
});

describe("a unit-less value refused though one plausible reading is critical", () => {
  it("is named once in summary.flagged, with that reason (clozapine 5.2: ng/mL low, mg/L and umol/L critical)", () => {
    const result = run([panel([{ name: "Clozapine", value: 5.2 }])]);
    const named = result.facts.summary.flagged.filter((f) => f.startsWith("Clozapine"));
    expect(named).toHaveLength(1);
    expect(named[0]).toMatch(/5.2 mg\/L = 5200 ng\/mL: critical/);
    expect(result.facts.summary.requiresClinicianReview).toBe(true);
  });

  it("its value finding carries the one judgement's level (calcium 1.801: moderate, not the unit floor)", () => {
    const result = run([panel([{ name: "Calcium", value: 1.801 }])]);
    expect(result.data.valueFindings).toEqual([
      expect.objectContaining({ finding: "not_evaluated_unit", current: true, level: "moderate" }),
    ]);
  });
});

describe("properties", () => {
  const names = [...BIOMARKER_MAP.slice(0, 12).map((e) => e.display), "Unknown A", "Unknown B", "li", "FT4"];
  const arbReading = fc.record({
    name: fc.constantFrom(...names),
    value: fc.oneof(
      fc.double({ min: -1e6, max: 1e6, noNaN: true }),
      fc.constantFrom("5.2", "<0.5", "positive", ""),
      fc.constant(null),
    ),
    unit: fc.option(fc.constantFrom("mmol/L", "mg/dL", "mIU/L", "%", ""), { nil: undefined }),
    flag: fc.option(fc.constantFrom("high", "low", "critical", "normal") as fc.Arbitrary<Biomarker["flag"]>, {
      nil: undefined,
    }),
    referenceRange: fc.option(fc.constantFrom("1-2", "<5", "x"), { nil: undefined }),
    loinc: fc.option(fc.constantFrom("14334-7", "2160-0", "12345-6"), { nil: undefined }),
  });
  const arbPanel = fc.record({
    id: fc.string({ minLength: 1, maxLength: 6 }),
    labName: fc.constant("Lab"),
    observedAt: fc.option(
      fc
        .integer({ min: Date.parse("2025-01-01"), max: Date.parse("2026-12-31") })
        .map((t) => new Date(t).toISOString()),
      { nil: undefined },
    ),
    results: fc.record({ biomarkers: fc.array(arbReading, { maxLength: 12 }) }),
  });
  const arbInput: fc.Arbitrary<BiomarkerInput> = fc.record({
    labs: fc.array(arbPanel, { minLength: 1, maxLength: 5 }),
  });
  const RANK = { critical: 3, elevated: 2, watch: 1, neutral: 0, positive: 0 } as const;

  it("is deterministic and internally consistent", () => {
    fc.assert(
      fc.property(arbInput, (input) => {
        const a = analyzeBiomarkers(input, { now: NOW });
        const b = analyzeBiomarkers(structuredClone(input), { now: NOW });
        expect(JSON.stringify(a)).toBe(JSON.stringify(b));
        expect(a.data.signalsPresent).toBe(a.data.signals.length);
        expect(a.facts.confidence.score).toBeGreaterThanOrEqual(0);
        expect(a.facts.confidence.score).toBeLessThanOrEqual(1);
        const ranks = a.data.signals.map((s) => RANK[s.tone]);
        for (let i = 1; i < ranks.length; i++) expect(ranks[i]).toBeLessThanOrEqual(ranks[i - 1] as number);
        // Signal labels first, then current values beyond a critical limit the laboratory did not flag.
        const labels = a.data.signals.map((s) => s.label);
        expect(a.facts.summary.flagged.slice(0, labels.length)).toEqual(labels);
        // ... then current implausible values (data quality, decision 67).
        const extra = a.facts.summary.flagged.slice(labels.length);
        const unflaggedCritical = a.data.valueFindings.filter(
          (f) => f.finding === "critical" && f.current && (f.labFlag === null || f.labFlag === "normal"),
        );
        const implausible = a.data.valueFindings.filter((f) => f.finding === "implausible" && f.current);
        // ... and (decision 182) current unflagged values outside the range, and current values
        // not evaluated for their unit: the agent tool's findings of the same readings.
        const outOfRange = a.data.valueFindings.filter((f) => f.finding === "out_of_range");
        const unitUnread = a.data.valueFindings.filter(
          (f) => f.finding === "not_evaluated_unit" && f.current,
        );
        expect(extra).toHaveLength(
          unflaggedCritical.length + implausible.length + outOfRange.length + unitUnread.length,
        );
        const order: readonly string[] = ["no_flags", "watch", "elevated", "critical"];
        const worst = [
          a.data.signals[0]?.tone ?? "no_flags",
          ...outOfRange.map((f) => STATUS_OF_LEVEL[f.level ?? "none"]),
        ].reduce<string>((x, y) => (order.indexOf(y) > order.indexOf(x) ? y : x), "no_flags");
        expect(a.facts.summary.status).toBe(unflaggedCritical.length > 0 ? "critical" : worst);
        if (unflaggedCritical.length + implausible.length + unitUnread.length > 0)
          expect(a.facts.summary.requiresClinicianReview).toBe(true);
        const keys = a.data.signals.map((s) => s.signalKey);
        expect(new Set(keys).size).toBe(keys.length);
        for (const s of a.data.signals) {
          expect(Number.isFinite(s.metricValue)).toBe(true);
          expect(s.signalKey).toMatch(/^bio_[a-z0-9_]+$/);
        }
        for (const code of a.facts.codes ?? []) {
          const index = Number(/^signals\.(\d+)$/.exec(code.mapsTo)?.[1]);
          expect(a.data.signals[index]).toBeDefined();
          expect(findAnalyteByLoinc(code.code)?.key).toBe(a.data.signals[index]?.signalKey.slice(4));
        }
        const flaggedReadings = input.labs
          .flatMap((l) => l.results.biomarkers)
          .filter((r) => r.flag && r.flag !== "normal");
        if (flaggedReadings.length === 0) expect(a.data.signals).toEqual([]);
        else expect(a.data.signals.length).toBeGreaterThan(0);
        expect(JSON.parse(JSON.stringify(a.data))).toEqual(a.data);
      }),
      { numRuns: 300 },
    );
  });
});
