#!/usr/bin/env bash
# The test command (README, .ci/run): set-up, build, then every suite —
#   ctest: Catch2 natively (SSE/AVX) and the same tests compiled to wasm (SIMD and scalar) under node;
#   node --test: the npm package as a user imports it (tests/js) and the page in headless Chromium (tests/e2e).
set -euo pipefail
cd "$(dirname "$0")/.."
t0=$(date +%s)
bash scripts/setup.sh
bash scripts/build.sh
node_modules/.bin/vite build --config web/site/vite.config.js   # the static site (build/site) the e2e tests serve
t1=$(date +%s)
ctest --preset all
node --test tests/js/*.test.mjs tests/e2e/*.test.mjs
echo "[test] set-up + build $((t1 - t0)) s, tests $(( $(date +%s) - t1 )) s"
