import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  checkJsonText,
  type HygieneIssue,
  inspectJsonValue,
  MAX_JSON_DEPTH,
  MAX_JSON_VALUES,
  MAX_OBJECT_KEYS,
  SCAN_BEFORE_PARSE_CHARS,
  scanJsonText,
  textProblem,
} from "../src/index.js";

/** The screen's parts on their own: the raw-text scan, the walk, the text check. */

/** Reference measures of a parsed value, computed recursively (test inputs are shallow enough). */
function measure(value: unknown): { depth: number; widest: number; values: number } {
  if (typeof value !== "object" || value === null) return { depth: 0, widest: 0, values: 1 };
  const children = Array.isArray(value) ? value : Object.values(value);
  const inner = children.map(measure);
  return {
    depth: 1 + Math.max(0, ...inner.map((m) => m.depth)),
    widest: Math.max(Array.isArray(value) ? 0 : children.length, ...inner.map((m) => m.widest)),
    values: 1 + inner.reduce((sum, m) => sum + m.values, 0),
  };
}

const nest = (depth: number, inner = "0") => `${"[".repeat(depth)}${inner}${"]".repeat(depth)}`;

/** The body check's issues (or "invalid" for text JSON.parse refuses). */
function check(text: string, uniqueKeys = false) {
  const result = checkJsonText(text, { uniqueKeys });
  if (result.ok) return [];
  return result.invalidJson ? "invalid" : result.issues;
}

describe("checkJsonText: nesting and sizes", () => {
  it(`accepts ${MAX_JSON_DEPTH} levels and refuses one more, naming the path, short or long`, () => {
    expect(check(nest(MAX_JSON_DEPTH))).toEqual([]);
    const short = `{"a":{"b":${nest(MAX_JSON_DEPTH - 1)}}}`;
    const long = `{"pad":"${"x".repeat(SCAN_BEFORE_PARSE_CHARS)}","a":{"b":${nest(MAX_JSON_DEPTH - 1)}}}`;
    for (const text of [short, long]) {
      const [deep] = check(text) as HygieneIssue[];
      expect(deep?.message).toMatch(/deeper than 32/);
      expect(deep?.path).toBe(`a.b${".0".repeat(MAX_JSON_DEPTH - 2)}`);
    }
  });

  it("a long text is refused at the first bracket too deep, before JSON.parse reads the rest", () => {
    const tooDeep = check(nest(MAX_JSON_DEPTH + 1)) as HygieneIssue[];
    expect(tooDeep[0]?.kind).toBe("structure");
    // 1 MB whose tail is not JSON at all: refused as too deep, not as invalid JSON, so neither the
    // scan nor JSON.parse went past the first bracket too deep. (Its cost is the bench's to
    // measure, not a timed assertion here: a timed bound failed under load.)
    const text = `${"[".repeat(500_000)}}x${"]".repeat(500_000)}`;
    expect(scanJsonText(text)).toEqual(tooDeep[0]);
    expect(check(text)).toEqual(tooDeep);
  });

  it(`accepts ${MAX_OBJECT_KEYS} keys in one object and refuses one more`, () => {
    const object = (n: number) =>
      `{"x":{${Array.from({ length: n }, (_, i) => `"k${i}":[${i}]`).join(",")}}}`;
    expect(check(object(MAX_OBJECT_KEYS))).toEqual([]);
    expect(check(object(MAX_OBJECT_KEYS + 1))).toEqual([
      expect.objectContaining({ path: "x", message: expect.stringMatching(/more than 1000 keys/) }),
    ]);
    // Arrays may be longer (the schemas bound them).
    expect(check(`[${Array.from({ length: 5_000 }, () => 1).join(",")}]`)).toEqual([]);
  });

  it(`counts values: ${MAX_JSON_VALUES} pass, one more is refused`, () => {
    const array = (n: number) => `[${new Array(n).fill(0).join(",")}]`;
    expect(check(array(MAX_JSON_VALUES - 1))).toEqual([]);
    expect((check(array(MAX_JSON_VALUES)) as HygieneIssue[])[0]?.message).toMatch(/more than 200000 values/);
    expect((check(`[${new Array(MAX_JSON_VALUES).fill("[]").join(",")}]`) as HygieneIssue[])[0]?.path).toBe(
      "",
    );
  });

  it("invalid JSON is JSON.parse's to report", () => {
    expect(check("{")).toBe("invalid");
    expect(check('{"a":1,}')).toBe("invalid");
    expect(check('{"a":"\\ud800"')).toBe("invalid");
  });

  it("property: agrees with a recursive measure on any JSON, with any white space", () => {
    fc.assert(
      fc.property(
        fc.jsonValue({ maxDepth: 6 }),
        fc.integer({ min: 0, max: 40 }),
        fc.constantFrom("", " ", "\n\t "),
        fc.boolean(),
        (value, wrap, space, long) => {
          const inner = JSON.stringify(value, null, space) ?? "null";
          const pad = long ? `{"pad":"${"x".repeat(SCAN_BEFORE_PARSE_CHARS)}","v":` : "";
          const text = `${pad}${`[${space}`.repeat(wrap)}${inner}${`${space}]`.repeat(wrap)}${long ? "}" : ""}`;
          const m = measure(JSON.parse(text));
          const ok = m.depth <= MAX_JSON_DEPTH && m.widest <= MAX_OBJECT_KEYS && m.values <= MAX_JSON_VALUES;
          const structural = (issues: ReturnType<typeof check>) =>
            typeof issues !== "string" && issues.some((i) => i.kind === "structure");
          expect(structural(check(text))).toBe(!ok);
          expect(structural(check(text, true))).toBe(!ok);
          expect(scanJsonText(text) === undefined).toBe(m.depth <= MAX_JSON_DEPTH);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe("scanJsonText: duplicate keys", () => {
  it("is not fooled by brackets, commas and quotes inside strings", () => {
    const tricky = JSON.stringify({ a: `${"[{".repeat(100)}\\"",,,`, "b\\": ['"]', "\\\\"], c: {} });
    expect(scanJsonText(tricky)).toBeUndefined();
    expect(scanJsonText(tricky, { uniqueKeys: true })).toBeUndefined();
  });

  it("finds duplicate keys (also spelled with escapes) only when asked, naming the path", () => {
    const text = '{"selection":{"risk":{"values":[1]},"mood":{},"ri\\u0073k":{"values":[]}}}';
    expect(scanJsonText(text)).toBeUndefined();
    expect(scanJsonText(text, { uniqueKeys: true })).toMatchObject({
      path: "selection.risk",
      kind: "structure",
      message: expect.stringMatching(/more than once/),
    });
    expect(scanJsonText('[{"a":1},{"a":2},{"b":[{"c":1,"c":2}]}]', { uniqueKeys: true })?.path).toBe(
      "2.b.0.c",
    );
    expect(scanJsonText('{"a":{"x":1},"b":{"x":1}}', { uniqueKeys: true })).toBeUndefined();
    expect(scanJsonText('[{}, "x", {"k": {}, "a": 1, "a": 2}]', { uniqueKeys: true })?.path).toBe("2.a");
    expect(scanJsonText('{"v":["a","a"],"w":{"a":"a"}}', { uniqueKeys: true })).toBeUndefined();
  });

  it("property: a repeated key is always found, wherever it is", () => {
    fc.assert(
      fc.property(
        fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 2 }), { minKeys: 1 }),
        fc.nat(),
        (dict, pick) => {
          const keys = Object.keys(dict);
          const k = keys[pick % keys.length] as string;
          const text = `{"outer":[${JSON.stringify(dict).slice(0, -1)},${JSON.stringify(k)}:null}]}`;
          expect(scanJsonText(text, { uniqueKeys: true })?.at).toEqual(["outer", 0, k]);
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe("inspectJsonValue", () => {
  it("finds controls, lone surrogates and reserved keys at any depth, shallowest first", () => {
    const value = JSON.parse(
      '{"a":[{"b":"x\\u0000"}],"c":"\\ud800","__proto__":{"x":1},"d\\u0007":1,"ok":"tab\\tnl\\ncr\\r 😀"}',
    );
    const issues = inspectJsonValue(value);
    expect(issues.map((i) => [i.path, i.kind])).toEqual([
      ["c", "value"],
      ["__proto__", "key"],
      ["d\\u0007", "key"],
      ["a.0.b", "value"],
    ]);
  });
  it("walks any depth without recursion (stopping at the limit)", () => {
    let deep: unknown = "\u0000";
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(inspectJsonValue(deep)).toEqual([
      expect.objectContaining({ kind: "structure", at: new Array(MAX_JSON_DEPTH).fill(0) }),
    ]);
  });
  it("reads strings and keys only when asked", () => {
    expect(inspectJsonValue({ a: "\u0000", __proto__x: 1 }, { text: false })).toEqual([]);
    expect(inspectJsonValue(JSON.parse('{"__proto__":1}'), { text: false })).toEqual([]);
    expect(inspectJsonValue(JSON.parse('{"__proto__":1}'))[0]?.path).toBe("__proto__");
  });
  it.each([
    ["\u0000", /NUL/],
    ["\u001f", /control/],
    ["\ud800", /unpaired/],
    ["a\udc00", /unpaired/],
  ])("textProblem(%j)", (text, message) => {
    expect(textProblem(text)).toMatch(message);
  });
  it.each(["", "plain", "tab\t", "line\n", "cr\r", "😀", "\u007f", "\u0085", "\ufffd", "\u2028"])(
    "textProblem(%j) is fine",
    (text) => {
      expect(textProblem(text)).toBeUndefined();
    },
  );
});
