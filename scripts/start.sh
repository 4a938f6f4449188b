#!/usr/bin/env bash
# Set-up, build, then serve the page (prints its URL). PORT=… to choose the port (default 8080).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh
exec node scripts/serve.mjs "${PORT:-8080}"
