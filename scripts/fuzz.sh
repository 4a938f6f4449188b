#!/usr/bin/env bash
# Fuzzing (issue 15). Builds the libFuzzer targets of tests/fuzz/*.cpp with Debian clang
# (-fsanitize=fuzzer,address,undefined) into build/fuzz/, runs each from its seed corpus (tests/fuzz/corpus/<target>),
# then runs the property-based fuzzer over every public JS method (tests/fuzz/api.mjs). Writes
# build/fuzz/report.json and prints a summary; exits non-zero on any finding.
#   npm run fuzz                         the long run: 600 s per libFuzzer target, 10^6 API calls
#   FUZZ_SECONDS=120 FUZZ_CALLS=20000 bash scripts/fuzz.sh    a shorter one
#   FUZZ_TARGETS="npy safetensors gguf"  FUZZ_SEED=7  FUZZ_JS=0 (skip the JS fuzzer)  FUZZ_BUILD_ONLY=1
#   FUZZ_GATE=hang,wasm_trap  (the JS outcome categories that fail the run; default: every defect category)
# Findings (crash inputs) land in build/fuzz/findings/<target>/; reproduce with build/fuzz/<target> <file>.
set -euo pipefail
cd "$(dirname "$0")/.."
SECONDS_PER=${FUZZ_SECONDS:-600}
CALLS=${FUZZ_CALLS:-1000000}
SEED=${FUZZ_SEED:-1}
TARGETS=${FUZZ_TARGETS:-$(cd tests/fuzz && ls *.cpp | sed 's/\.cpp$//' | tr '\n' ' ')}
OUT=build/fuzz
CXX=${CXX_FUZZ:-$(command -v clang++ || true)}  # Debian bookworm: clang 14 with libclang-rt-14-dev (libFuzzer)
[ -n "$CXX" ] || { echo "[fuzz] clang++ not found: run scripts/setup.sh (Debian clang, libclang-rt-dev)" >&2; exit 1; }
XSIMD=build/_deps/apt-trixie/root/usr/include
FLAGS=(-std=c++17 -O1 -g -fno-omit-frame-pointer -ffp-contract=off -DPOSENC_SIMD=1 -Icpp/include -isystem "$XSIMD"
       -fsanitize=address,undefined -fno-sanitize-recover=undefined -fsanitize-ignorelist=tests/fuzz/ubsan-ignore.txt)
mkdir -p "$OUT/obj"
CACHE=$(command -v ccache || true)   # compilations cached across checkouts (~/.cache/ccache), as the CMake builds do

# --- build: the core once (objects rebuilt when a source or header is newer), then one binary per target --------
newest_header=$(ls -t cpp/include/posenc/*.hpp cpp/src/*.hpp | head -1)
objs=()
for src in cpp/src/*.cpp; do
  obj="$OUT/obj/$(basename "${src%.cpp}").o"
  objs+=("$obj")
  if [ ! -f "$obj" ] || [ "$src" -nt "$obj" ] || [ "$newest_header" -nt "$obj" ]; then
    $CACHE "$CXX" "${FLAGS[@]}" -fsanitize=fuzzer-no-link -c "$src" -o "$obj" &
    while [ "$(jobs -rp | wc -l)" -ge "$(nproc)" ]; do wait -n; done
  fi
done
wait
for t in $TARGETS; do
  if [ ! -x "$OUT/$t" ] || [ "tests/fuzz/$t.cpp" -nt "$OUT/$t" ] || [ -n "$(find "$OUT/obj" -newer "$OUT/$t" -name '*.o')" ]; then
    "$CXX" "${FLAGS[@]}" -fsanitize=fuzzer "tests/fuzz/$t.cpp" "${objs[@]}" -o "$OUT/$t"
  fi
done
[ "${FUZZ_BUILD_ONLY:-0}" = 1 ] && { echo "[fuzz] built: $TARGETS"; exit 0; }

# --- run ------------------------------------------------------------------------------------------------------------
status=0
results=()
for t in $TARGETS; do
  mkdir -p "$OUT/corpus/$t" "$OUT/findings/$t"
  log="$OUT/$t.log"
  echo "[fuzz] $t: ${SECONDS_PER} s"
  set +e
  "$OUT/$t" -max_total_time="$SECONDS_PER" -seed="$SEED" -print_final_stats=1 -rss_limit_mb=2048 -max_len=8192 \
    -timeout=10 -artifact_prefix="$OUT/findings/$t/" "$OUT/corpus/$t" "tests/fuzz/corpus/$t" >"$log" 2>&1
  rc=$?
  set -e
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
  findings=$(find "$OUT/findings/$t" -type f | wc -l)
  [ "$rc" = 0 ] && [ "$findings" = 0 ] || { status=1; tail -40 "$log"; }
  echo "[fuzz] $t: ${execs:-0} executions, ${rate:-0}/s, exit $rc, $findings finding(s)"
  results+=("{\"target\":\"$t\",\"seconds\":$SECONDS_PER,\"executions\":${execs:-0},\"exec_per_sec\":${rate:-0},\"exit\":$rc,\"findings\":$findings}")
done
libfuzzer_json="[$(IFS=,; echo "${results[*]}")]"

js_json=null
if [ "${FUZZ_JS:-1}" = 1 ] && [ ! -f dist/index.js ]; then
  echo "[fuzz] dist/index.js missing: run npm run build first (the JS fuzzer calls the built package)" >&2; exit 1
fi
if [ "${FUZZ_JS:-1}" = 1 ]; then
  echo "[fuzz] JS API: $CALLS calls, seed $SEED"
  set +e
  node tests/fuzz/api.mjs --calls "$CALLS" --seed "$SEED" --report "$OUT/api-report.json" ${FUZZ_GATE+--gate "$FUZZ_GATE"}
  [ $? = 0 ] || status=1
  set -e
  js_json=$(cat "$OUT/api-report.json" 2>/dev/null || echo null)
fi
printf '{"seed":%s,"libfuzzer":%s,"api":%s}\n' "$SEED" "$libfuzzer_json" "$js_json" >"$OUT/report.json"
echo "[fuzz] report: $OUT/report.json"
exit $status
