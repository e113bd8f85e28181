import { describe, expect, it } from "vitest";
import { canonicalJson } from "../src/index.js";

describe("canonicalJson", () => {
  it("sorts keys at every depth and keeps array order", () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { z: 1, y: 2 }], c: "x" } })).toBe(
      '{"a":{"c":"x","d":[3,{"y":2,"z":1}]},"b":1}',
    );
  });

  it("gives the same text for the same content in any key order", () => {
    const a = { mood: { values: ["depressed"], text: "Low." }, insight: { values: ["poor"] } };
    const b = { insight: { values: ["poor"] }, mood: { text: "Low.", values: ["depressed"] } };
    expect(canonicalJson(a)).toBe(canonicalJson(b));
  });

  it("follows JSON.stringify for the rest", () => {
    expect(canonicalJson({ a: undefined, b: Number.NaN, c: new Date(0) })).toBe(
      '{"b":null,"c":"1970-01-01T00:00:00.000Z"}',
    );
    expect(canonicalJson([undefined, "é", "\u2028"])).toBe('[null,"é","\u2028"]');
    expect(canonicalJson("x")).toBe('"x"');
    expect(canonicalJson(null)).toBe("null");
  });

  it("keeps a __proto__ key as data", () => {
    const value = JSON.parse('{"z":1,"__proto__":{"a":1}}');
    expect(canonicalJson(value)).toBe('{"__proto__":{"a":1},"z":1}');
  });

  it("throws on values without a JSON form", () => {
    expect(() => canonicalJson(undefined)).toThrow(TypeError);
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(() => canonicalJson(cyclic)).toThrow(TypeError);
  });
});

describe("canonicalJson edge cases", () => {
  it("throws on BigInt and accepts shared (non-cyclic) references", () => {
    expect(() => canonicalJson({ a: 1n })).toThrow(TypeError);
    const shared = { x: 1 };
    expect(canonicalJson({ b: shared, a: shared })).toBe('{"a":{"x":1},"b":{"x":1}}');
  });
});
