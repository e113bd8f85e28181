import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  comparableDocText,
  fillGeneratedBlocks,
  KNOWLEDGE_DOC_BLOCKS,
  knowledgeDocPages,
} from "../src/knowledge/doc-tables.js";

/**
 * The tables of the knowledge docs are generated from the knowledge tables (decision 208): each
 * committed block is the text the generator writes now. Run `pnpm knowledge:docs` when this fails.
 */
describe("the knowledge docs' generated tables", () => {
  it.each([...knowledgeDocPages()])("docs/%s holds its blocks as the tables give them", (file, blocks) => {
    const page = readFileSync(new URL(`../../../docs/${file}`, import.meta.url), "utf8");
    expect(comparableDocText(fillGeneratedBlocks(page, blocks))).toBe(comparableDocText(page));
  });

  it("names each block once", () => {
    const keys = KNOWLEDGE_DOC_BLOCKS.map((block) => `${block.file}#${block.name}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it("replaces only between the markers, and fails on a missing marker", () => {
    const page = "intro\n<!-- generated:begin t -->\nold\n<!-- generated:end -->\nrest\n";
    expect(fillGeneratedBlocks(page, { t: "new" })).toBe(
      "intro\n<!-- generated:begin t -->\nnew\n<!-- generated:end -->\nrest\n",
    );
    expect(() => fillGeneratedBlocks("no markers", { t: "new" })).toThrow(/generated:begin t/);
  });
});
