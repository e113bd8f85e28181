#!/usr/bin/env bash
# Install and start the service: `bash tooling/scripts/up.sh`
set -euo pipefail
cd "$(dirname "$0")/../.."
# Node 24 LTS first on PATH (installed into .tools/ from the npm registry when the machine's is older).
. tooling/scripts/ensure-node.sh
bash tooling/scripts/ensure-pnpm.sh
pnpm install --frozen-lockfile
# The service runs compiled JavaScript (tsup bundles with source maps), never TypeScript at runtime.
pnpm build
echo "[setup] in another shell, \`. tooling/scripts/ensure-node.sh\` puts this Node and pnpm on PATH (then: pnpm svc --help)" >&2
# `start` execs node, so a SIGTERM or Ctrl+C reaches the service, which drains and exits 0.
exec pnpm start
