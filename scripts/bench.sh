#!/usr/bin/env bash
# `npm run bench`: set-up, build, then tests/bench/run.mjs (JSON lines + a summary table).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh
exec node tests/bench/run.mjs
