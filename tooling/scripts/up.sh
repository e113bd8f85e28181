#!/usr/bin/env bash
# Install and start the service: `bash tooling/scripts/up.sh`
set -euo pipefail
cd "$(dirname "$0")/../.."
# Node 24 LTS first on PATH (installed into .tools/ from the npm registry when the machine's is older).
. tooling/scripts/ensure-node.sh
bash tooling/scripts/ensure-pnpm.sh
pnpm install --frozen-lockfile
exec pnpm start
