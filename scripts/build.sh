#!/usr/bin/env bash
# Builds everything into build/ and the npm package into dist/ (run scripts/setup.sh first; npm scripts do).
#   build/native       core + Catch2 tests (g++)
#   build/wasm-simd    posenc.mjs/.wasm with SIMD128 + Catch2 tests for node
#   build/wasm-scalar  the same without SIMD
#   dist/              what npm ships: the TypeScript API compiled by tsc (.js + source maps + .d.ts), node.js (the
#                      Node entry), index.cjs (require()), glue.mjs (the Emscripten glue, one for both builds),
#                      posenc-simd.wasm, posenc-scalar.wasm, figures.js + figures-worker.js + figures.d.ts (posenc/figures)
#   build/site/        the static site (Vite), hostable anywhere
set -euo pipefail
cd "$(dirname "$0")/.."
export NODE_PATH=/usr/share/nodejs   # emcc's JS optimizer needs Debian's acorn
JOBS=$(nproc)
for p in wasm-simd wasm-scalar native; do
  [ -f "build/$p/CMakeCache.txt" ] || cmake --preset "$p" >/dev/null
  if ! cmake --build --preset "$p" -j "$JOBS" >"build/$p.log" 2>&1; then
    cat "build/$p.log" >&2; echo "[build] $p failed (log: build/$p.log)" >&2; exit 1
  fi
done
rm -rf dist && mkdir dist   # from scratch: no stale file ends up in the tarball
# One glue for both builds: they export the same functions, so Emscripten emits the same JavaScript.
# (Export names are not minified, see CMakeLists.txt; only the order of their declarations may differ.)
stmts() { tr ',;' '\n\n' < "$1" | sort; }
cmp -s <(stmts build/wasm-simd/posenc.mjs) <(stmts build/wasm-scalar/posenc.mjs) || { echo "[build] the simd and scalar glue differ" >&2; exit 1; }
cp build/wasm-simd/posenc.mjs dist/glue.mjs
for v in simd scalar; do cp "build/wasm-$v/posenc.wasm" "dist/posenc-$v.wasm"; done
node_modules/.bin/tsc -p web/tsconfig.json
cp web/src/index.cjs dist/index.cjs
node web/src/figures/build.mjs   # posenc/figures → dist/figures.js, dist/figures-worker.js, dist/figures.d.ts
node_modules/.bin/vite build --config web/site/vite.config.js --logLevel warn   # the static site → build/site
echo "[build] ok: $(ls dist | tr '\n' ' ')"
