#!/usr/bin/env bash
# Install and start the service: `bash tooling/scripts/up.sh`
set -euo pipefail
cd "$(dirname "$0")/../.."
# Node 24 LTS first on PATH (installed into .tools/ from the npm registry when the machine's is older).
. tooling/scripts/ensure-node.sh
bash tooling/scripts/ensure-pnpm.sh
pnpm install --frozen-lockfile
# The service runs compiled JavaScript (tsup bundles with source maps), never TypeScript at runtime.
# Its log goes to a file and one line sums it up (decision 165): a restart, where every package
# comes from turbo's cache, prints that line only; a failed build prints the whole log.
mkdir -p .tools
build_log=.tools/build.log
echo "[setup] building (pnpm build; log in $build_log)" >&2
if ! pnpm build >"$build_log" 2>&1; then
  cat "$build_log" >&2
  echo "[setup] the build failed; its log is above and in $build_log" >&2
  exit 1
fi
echo "[setup] built: $(grep -E '^ *Cached:' "$build_log" | sed -E 's/^ *Cached: *//; s/ +/ /g' || true)" >&2
echo "[setup] in another shell, \`. tooling/scripts/ensure-node.sh\` puts this Node and pnpm on PATH (then: pnpm svc --help)" >&2
# `start` execs node, so a SIGTERM or Ctrl+C reaches the service, which drains and exits 0.
exec pnpm start
