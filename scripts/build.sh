#!/usr/bin/env bash
# Builds everything into build/ and the npm package into dist/ (run scripts/setup.sh first; npm scripts do).
#   build/native       core + Catch2 tests (g++)
#   build/wasm-simd    posenc.mjs/.wasm with SIMD128 + Catch2 tests for node
#   build/wasm-scalar  the same without SIMD
#   build/wasm-threads posenc-threads.js/.wasm/.worker.js: SIMD128 + pthreads, the threads build (Node, isolated pages)
#   dist/              what npm ships: the TypeScript API compiled by tsc (.js + .d.ts, no source maps: the .js is
#                      readable), node.js (the Node entry), index.cjs + index.d.cts (require()), glue.mjs (the
#                      Emscripten glue, the same for both builds),
#                      posenc-simd.wasm, posenc-scalar.wasm, threads/ (the threads build), figures.js + figures-worker.js + figures.d.ts (posenc/figures),
#                      hexo/, hugo/, jekyll/ (the README's blog-engine recipes, from web/recipes), site/ (the explainer,
#                      served by npx posenc site), figures-standalone.js (single-file figures), widget.js (anywidget),
#                      figures-loader.js (classic-script loader)
#   build/site/        the static site (Vite), hostable anywhere
set -euo pipefail
cd "$(dirname "$0")/.."
export NODE_PATH=/usr/share/nodejs   # emcc's JS optimizer needs Debian's acorn
JOBS=$(nproc)
for p in wasm-simd wasm-scalar wasm-threads native; do
  [ -f "build/$p/CMakeCache.txt" ] || cmake --preset "$p" >/dev/null
  if ! cmake --build --preset "$p" -j "$JOBS" >"build/$p.log" 2>&1; then
    cat "build/$p.log" >&2; echo "[build] $p failed (log: build/$p.log)" >&2; exit 1
  fi
done
rm -rf dist && mkdir dist   # from scratch: no stale file ends up in the tarball
# One glue for both builds: they emit the same file (checked here: the loader instantiates either .wasm with it).
if ! cmp -s build/wasm-simd/posenc.mjs build/wasm-scalar/posenc.mjs; then
  echo "[build] the SIMD and scalar builds' glue (posenc.mjs) differ: the package ships one (dist/glue.mjs)" >&2; exit 1
fi
cp build/wasm-simd/posenc.mjs dist/glue.mjs
for v in simd scalar; do cp "build/wasm-$v/posenc.wasm" "dist/posenc-$v.wasm"; done
# the threads build (init({ threads: true })) in dist/threads/: classic-script glue, its pthread worker script and
# .wasm; .js for browsers (JavaScript MIME type), CommonJS for Node by the folder's package.json
mkdir dist/threads
cp build/wasm-threads/posenc-threads.{js,wasm,worker.js} dist/threads/
echo '{ "type": "commonjs" }' >dist/threads/package.json
node_modules/.bin/tsc -p web/tsconfig.json
cp web/src/index.cjs web/src/index.d.cts dist/
# tokenizer.json support: Hugging Face's @huggingface/tokenizers (Apache-2.0, from the npm registry at set-up) ships inside
# the package as dist/hf-tokenizers.js with its licence, and dist/tokenizer_hf.js imports it by relative path — so that a
# consumer needs no second package and no bundler resolves a bare name (bundled apps, plain pages, a CDN copy of dist/)
TK=node_modules/@huggingface/tokenizers
{ printf '/* @huggingface/tokenizers %s (huggingface/tokenizers.js), Apache-2.0: see hf-tokenizers.LICENSE */\n' \
    "$(node -p "require('./$TK/package.json').version")"; cat "$TK/dist/tokenizers.min.mjs"; } > dist/hf-tokenizers.js
cp "$TK/LICENSE" dist/hf-tokenizers.LICENSE
sed -i "s#import('@huggingface/tokenizers')#import('./hf-tokenizers.js')#" dist/tokenizer_hf.js
grep -q "import('./hf-tokenizers.js')" dist/tokenizer_hf.js || { echo "[build] dist/tokenizer_hf.js: the tokenizers import was not rewritten" >&2; exit 1; }
# the real-model figures' first paint, computed by dist/ from ../shared's models and text (cached; null without them)
node scripts/model-data.mjs
# the "train short, test long" figures' first paint, computed by dist/ from web/models on the held-out Bible text (cached)
node scripts/train-short-data.mjs
# the figure layer (JavaScript + JSDoc) type-checked strictly, its declarations emitted into build/figures-types
rm -rf build/figures-types && node_modules/.bin/tsc -p web/src/figures/tsconfig.json
node web/src/figures/build.mjs   # posenc/figures → dist/figures.js, dist/figures-worker.js, dist/figures.d.ts (+ dist/figures/)
cp -r web/recipes/. dist/        # blog-engine recipes: dist/hexo/posenc.cjs, dist/hugo/layouts/…, dist/jekyll/_includes/…
node_modules/.bin/vite build --config web/site/vite.config.js --logLevel warn   # the static site → build/site
# posenc's own tiny models (web/models: config, weights, card) in the site, where its train-short figures load them live
mkdir -p build/site/tiny-models && for d in web/models/*/; do mkdir -p "build/site/tiny-models/$(basename "$d")" && cp "$d"config.json "$d"model.safetensors "$d"README.md "build/site/tiny-models/$(basename "$d")/"; done
cp web/models/README.md build/site/tiny-models/
node scripts/site-into-dist.mjs   # the explainer in the package (npx posenc site), sharing dist/'s files
echo "[build] ok: $(ls dist | tr '\n' ' ')"
