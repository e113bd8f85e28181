#!/usr/bin/env bash
# Install and run every check: `bash tooling/scripts/test-all.sh` (what .ci/run calls).
# Lint (biome), types (tsc), the OpenAPI drift check and lint (redocly), package builds (tsup), the
# published packages' checks (publint, attw, API reports), then every test against a throwaway
# PostgreSQL and Redis (tooling/scripts/test-services.sh).
set -euo pipefail
cd "$(dirname "$0")/../.."
# Node 24 LTS first on PATH (installed into .tools/ from the npm registry when the machine's is older).
. tooling/scripts/ensure-node.sh
started=$(date +%s)
step() { printf '\n== %s (%ss)\n' "$*" "$(( $(date +%s) - started ))"; }

step "install"
bash tooling/scripts/ensure-pnpm.sh
pnpm install --frozen-lockfile

step "lint (biome)"
pnpm exec biome check .

# One program for every package (capture apart: it adds the DOM library): shared sources and
# their dependencies' types are checked once, not once per package (265 s -> about 35 s here).
step "typecheck (tsc --noEmit, every package)"
pnpm typecheck

step "OpenAPI document matches the route schemas (no database needed)"
pnpm openapi:check

step "knowledge docs' generated tables match the knowledge tables (decision 208)"
pnpm knowledge:docs:check

# Redocly CLI with redocly.yaml at the root (decisions 130 and 159): recommended rules as errors,
# no ignore file.
step "OpenAPI document lint (redocly)"
pnpm openapi:lint

step "build (tsup)"
pnpm exec turbo run build --output-logs=errors-only

# Each published package packed as a registry would serve it: publint, @arethetypeswrong/cli and
# its committed API report (decision 139). The consumer project test runs with the tests below.
step "published packages (publint, attw, API reports)"
pnpm packages:check

step "tests (vitest, real PostgreSQL and Redis)"
report=$(mktemp /tmp/svc-vitest.XXXXXX.json)
set +e
bash tooling/scripts/test-services.sh pnpm exec vitest run --reporter=default --reporter=json --outputFile="$report"
code=$?
set -e
node -e '
  const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
  const skipped = r.numPendingTests + r.numTodoTests;
  const slowest = r.testResults
    .map((f) => ({ s: (f.endTime - f.startTime) / 1000, name: f.name.replace(process.cwd() + "/", "") }))
    .sort((a, b) => b.s - a.s)
    .slice(0, 12);
  console.log("\nSlowest test files (s):");
  for (const f of slowest) console.log(`${f.s.toFixed(1).padStart(7)}  ${f.name}`);
  console.log(`\nTests: ${r.numPassedTests} passed, ${r.numFailedTests} failed` + (skipped ? `, ${skipped} skipped` : ""));
' "$report" || echo "Tests: 0 passed, 1 failed"
rm -f "$report"
step "done (exit $code)"
exit $code
