#!/usr/bin/env bash
# Install and start the service: `bash tooling/scripts/up.sh`
set -euo pipefail
cd "$(dirname "$0")/../.."
bash tooling/scripts/ensure-pnpm.sh
pnpm install --frozen-lockfile
exec pnpm start
