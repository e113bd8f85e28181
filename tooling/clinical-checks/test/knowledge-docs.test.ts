import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  comparableDocText,
  fillGeneratedBlocks,
  knowledgeDocPages,
} from "../../../packages/engines/src/knowledge/doc-tables.js";
import {
  EHR_PATIENT_CODE_EVIDENCE,
  ehrPatientCodeValues,
} from "../../../packages/fhir/src/patient-code-evidence.js";
import { SERVICE_DOC_BLOCKS } from "../src/doc-tables.js";

/**
 * The knowledge docs' tables built from `@svc/intelligence` and `@svc/mse-catalog` (decision 217)
 * are what those tables give now; the engines' own blocks are checked in packages/engines. Run
 * `pnpm knowledge:docs` when this fails.
 */
describe("the knowledge docs' tables from the intelligence and MSE catalog packages", () => {
  const pages = knowledgeDocPages(SERVICE_DOC_BLOCKS);
  it.each(SERVICE_DOC_BLOCKS.map((block) => [block.file, block.name] as const))(
    "docs/%s holds its %s block as the table gives it",
    (file, name) => {
      const page = readFileSync(new URL(`../../../docs/${file}`, import.meta.url), "utf8");
      const block = { [name]: pages.get(file)?.[name] ?? "" };
      expect(comparableDocText(fillGeneratedBlocks(page, block))).toBe(comparableDocText(page));
    },
  );
});

describe("the EHR patient codes' evidence", () => {
  it("has one entry per printed value, and no other", () => {
    expect(Object.keys(EHR_PATIENT_CODE_EVIDENCE).sort()).toEqual([...ehrPatientCodeValues().keys()].sort());
  });
});
