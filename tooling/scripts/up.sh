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
exec pnpm start
