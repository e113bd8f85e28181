#!/usr/bin/env bash
# Installs the pinned pnpm with npm when it is missing or another version (corepack fails here).
set -euo pipefail
want=$(node -p 'require("./package.json").packageManager.split("@")[1]')
if ! command -v pnpm >/dev/null 2>&1 || [ "$(pnpm --version 2>/dev/null)" != "$want" ]; then
  echo "[setup] installing pnpm@$want" >&2
  # Bounded (decision 164); the second try prints npm's own words when the first failed.
  timeout 600 npm install -g "pnpm@$want" --silent >/dev/null 2>&1 || timeout 600 npm install -g "pnpm@$want"
fi
