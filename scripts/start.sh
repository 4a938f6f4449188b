#!/usr/bin/env bash
# Set-up, build (wasm + npm package + the static site in build/site), then serve the site (prints its URL).
# PORT=… to choose the port (default 8080).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh
exec node scripts/serve.mjs "${PORT:-8080}"
