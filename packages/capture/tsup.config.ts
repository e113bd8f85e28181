import { readFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { defineConfig } from "tsup";

/** The browser bundle's size budget, checked at build: it stays under this many gzipped bytes. */
const GZIP_BUDGET_BYTES = 15 * 1024;

/**
 * One minified ESM file for browsers (dist/capture.js) plus its types. The build prints the
 * gzipped size and fails past the budget, so growth is noticed where it happens.
 */
export default defineConfig({
  entry: { capture: "src/index.ts" },
  format: "esm",
  platform: "browser",
  target: "es2022",
  minify: true,
  sourcemap: false,
  clean: true,
  splitting: false,
  dts: { entry: { index: "src/index.ts" } },
  async onSuccess() {
    const bytes = gzipSync(readFileSync("dist/capture.js")).length;
    console.log(`@svc/capture: dist/capture.js is ${bytes} bytes gzipped (budget ${GZIP_BUDGET_BYTES})`);
    if (bytes > GZIP_BUDGET_BYTES) throw new Error("@svc/capture is over its gzip budget");
  },
});
