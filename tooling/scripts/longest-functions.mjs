#!/usr/bin/env node
// The longest functions of the tracked sources, as a table: `pnpm measure:functions [count]`.
// The house rule is one job per function and named steps past a screen (docs/architecture.md);
// this is how that is measured. Tests, type declarations and generated code are left out.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";

const root = execFileSync("git", ["rev-parse", "--show-toplevel"], { encoding: "utf8" }).trim();
// TypeScript is a dependency of the engines' build; read it from there rather than adding one.
const ts = createRequire(join(root, "packages/engines/package.json"))("typescript");
const count = Number(process.argv[2] ?? 10);

const leftOut = /(^|\/)(generated|test)\/|\.test\.tsx?$|\.d\.ts$/;
const sources = execFileSync("git", ["ls-files", "*.ts", "*.tsx"], { cwd: root, encoding: "utf8" })
  .split("\n")
  .filter((path) => path !== "" && !leftOut.test(path));

function nameOf(node) {
  if (node.name) return node.name.getText();
  const parent = node.parent;
  if (parent && (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent)))
    return parent.name.getText();
  return "(anonymous)";
}

const isFunction = (node) =>
  ts.isFunctionDeclaration(node) ||
  ts.isMethodDeclaration(node) ||
  ts.isArrowFunction(node) ||
  ts.isFunctionExpression(node);

const rows = [];
for (const path of sources) {
  const file = ts.createSourceFile(
    path,
    readFileSync(join(root, path), "utf8"),
    ts.ScriptTarget.Latest,
    true,
  );
  const lineOf = (position) => file.getLineAndCharacterOfPosition(position).line + 1;
  const visit = (node) => {
    if (isFunction(node)) {
      const start = lineOf(node.getStart());
      rows.push({ lines: lineOf(node.getEnd()) - start + 1, where: `${path}:${start}`, name: nameOf(node) });
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
}

rows.sort((a, b) => b.lines - a.lines);
console.log("| lines | function | where |\n| ---: | --- | --- |");
for (const row of rows.slice(0, count)) console.log(`| ${row.lines} | \`${row.name}\` | ${row.where} |`);
