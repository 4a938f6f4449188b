#!/usr/bin/env bash
# The test command (README, .ci/run): set-up, build, then every suite —
#   ctest: Catch2 natively (SSE/AVX) and the same tests compiled to wasm (SIMD and scalar) under node;
#   the Catch2 suite again natively under AddressSanitizer + UBSan; a seeded short fuzz pass (scripts/fuzz.sh);
#   node --test: the npm package as a user imports it (tests/js), the page in headless Chromium (tests/e2e), and the
#   packed tarball installed in throw-away consumer projects: Node, TypeScript, bundlers, plain pages (tests/pack), and
#   in fresh sites made by the blog engines' own generators, built by the real engines (tests/engines; the npm engines
#   are cached in ~/.cache/posenc-engines, keyed by version: the first run installs them).
set -euo pipefail
cd "$(dirname "$0")/.."
t0=$(date +%s)
bash scripts/setup.sh
bash scripts/build.sh
t1=$(date +%s)
ctest --preset all
# The same Catch2 suite natively under AddressSanitizer + UBSan (memory errors, e.g. in the file parsers).
[ -f build/asan/CMakeCache.txt ] || cmake --preset asan >/dev/null
cmake --build --preset asan -j "$(nproc)" >build/asan.log 2>&1 || { cat build/asan.log; exit 1; }
build/asan/posenc_tests
# Seeded short fuzz pass (about 40 s; the long run is npm run fuzz): each libFuzzer target 10 s, 4000 JS API calls;
# every defect category fails the run (raw exception, wasm trap, hang, non-finite from finite, unknown key accepted, …).
FUZZ_SECONDS=10 FUZZ_CALLS=4000 FUZZ_SEED=1 bash scripts/fuzz.sh
# Two test files at a time (TEST_CONCURRENCY=1: one): a file often waits (on a server, a generator, an install) while
# the other computes; on 2 cores the node suites took 22.7 min this way against 27 min one at a time. The files that
# time the page (long tasks under 100 ms, threads against one thread) run afterwards, alone.
ALONE=(tests/e2e/page-hardening.test.mjs tests/e2e/threads-page.test.mjs)
files=()
for f in tests/js/*.test.mjs tests/e2e/*.test.mjs tests/pack/*.test.mjs tests/engines/*.test.mjs; do
  [[ " ${ALONE[*]} " == *" $f "* ]] || files+=("$f")
done
node --test --test-concurrency="${TEST_CONCURRENCY:-2}" "${files[@]}"
node --test --test-concurrency=1 "${ALONE[@]}"
echo "[test] set-up + build $((t1 - t0)) s, tests $(( $(date +%s) - t1 )) s"
