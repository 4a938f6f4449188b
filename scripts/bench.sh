#!/usr/bin/env bash
# `npm run bench`: set-up, build, then the package sizes, the kernel benchmark (JSON lines + a summary table) and the
# page's repaint time.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh
node tests/bench/sizes.mjs    # the npm package: tarball, each file gzipped, the bundled browser entry
node tests/bench/run.mjs      # kernels: API (out / fresh) / wasm SIMD / wasm scalar / native, peers plain JS + numpy (same run)
node tests/bench/site.mjs     # the page: control change → repainted 512×512 heatmap in Chromium
node tests/bench/first-figure.mjs   # the page: first figure after a cold load, median of 7, and its ratio to a plain page (goal ≤ 1 s, ≤ 3×; JSON line first-figure-cold)
node tests/bench/figures.mjs  # posenc/figures: figures.js gzipped, first figure painted after page load (Chromium)
node tests/bench/gpu.mjs      # WebGPU (pe.gpu) vs wasm SIMD per workload and size, crossover; SwiftShader without a GPU
node tests/bench/model.mjs    # a real model's 2048-token prefill: posenc vs wllama (llama.cpp in wasm) in Chromium, native llama.cpp
