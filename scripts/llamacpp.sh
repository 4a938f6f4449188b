#!/usr/bin/env bash
# Builds a llama.cpp differential-test harness (tests/llamacpp/harness.cpp, or the one named by $1: logits, prefill) against llama.cpp's own sources, once,
# in a cache OUTSIDE the checkout ($POSENC_ENGINE_CACHE or ~/.cache/posenc-engines, as tests/engines/engines.mjs),
# and prints the harness binary's path on stdout (progress goes to stderr).
#
# The sources come from the npm package llama.rn@0.12.9, which carries llama.cpp at commit 6c8dcaa complete (ggml.c,
# gguf.cpp, ggml-backend, ggml-cpu, llama-model-loader, llama-model, models/*.cpp), flattened into package/cpp/ with
# the symbols renamed lm_ggml_* / LM_GGML_*. The package suggested first, @fugood/llama.node, ships prebuilt binaries
# and headers only: its tarball has no ggml core to compile. Nothing third-party is committed: `npm pack` fetches the
# tarball from the registry at set-up time.
#
# Layout: <cache>/llama.rn-0.12.9/package/cpp (sources), obj/*.o + .lib-ready (ggml + llama, compiled once; the marker
# is written last, so a killed build is redone), harness-<sha of harness.cpp> (relinked when the harness changes).
# Plain g++ -O1 with ggml's generic CPU path (LM_GGML_CPU_GENERIC: no x86 SIMD flags), so it builds on any x86-64/arm64.
# With --native as $2 (the speed limit `npm run bench` compares against, x86-64 only): ggml-cpu's kernels (ggml-cpu/*,
# arch/x86/quants.c and repack.cpp) are compiled again at -O3 with AVX2/FMA/F16C into obj-native/ and linked with the
# rest of the -O1 objects (graph building and loading, not on the hot path); the machine must have those instructions.
set -euo pipefail
VER=0.12.9
ROOT=$(cd "$(dirname "$0")/.." && pwd)
CACHE=${POSENC_ENGINE_CACHE:-$HOME/.cache/posenc-engines}/llama.rn-$VER
SRC=$CACHE/package/cpp
OBJ=$CACHE/obj
JOBS=$(nproc 2>/dev/null || echo 2)
mkdir -p "$CACHE"
log() { echo "[llamacpp] $*" >&2; }

if [ ! -f "$CACHE/.unpacked" ]; then
  log "npm pack llama.rn@$VER into $CACHE"
  rm -rf "$CACHE/package" "$CACHE"/*.tgz
  (cd "$CACHE" && npm pack "llama.rn@$VER" --silent >/dev/null)
  tar -xzf "$CACHE"/llama.rn-$VER.tgz -C "$CACHE" package/cpp package/LICENSE
  rm -f "$CACHE"/*.tgz
  grep -q '"6c8dcaa"' "$SRC/common/build-info.cpp" || { log "unexpected llama.cpp commit in llama.rn@$VER"; exit 1; }
  touch "$CACHE/.unpacked"
fi

CFLAGS="-O1 -g0 -pthread -D_GNU_SOURCE -DNDEBUG -DLM_GGML_USE_CPU -DLM_GGML_CPU_GENERIC -I$SRC -I$SRC/ggml-cpu -w"
if [ ! -f "$OBJ/.lib-ready" ]; then
  t0=$(date +%s)
  rm -rf "$OBJ"; mkdir -p "$OBJ"
  (cd "$SRC" && ls ggml.c ggml-alloc.c ggml-quants.c ggml-backend.cpp ggml-backend-reg.cpp ggml-backend-meta.cpp ggml-backend-dl.cpp ggml-opt.cpp ggml-threading.cpp \
     gguf.cpp ggml-cpu/*.c ggml-cpu/*.cpp llama*.cpp unicode.cpp unicode-data.cpp models/*.cpp) > "$OBJ/sources.txt"
  log "compiling $(wc -l < "$OBJ/sources.txt") files of llama.cpp 6c8dcaa with $JOBS jobs (once; a few minutes)"
  export SRC OBJ CFLAGS
  xargs -P "$JOBS" -I{} sh -c '
    f={}; o="$OBJ/$(echo "$f" | tr / _).o"
    case "$f" in *.c) gcc -std=gnu11 $CFLAGS -c "$SRC/$f" -o "$o" ;; *) g++ -std=c++17 $CFLAGS -c "$SRC/$f" -o "$o" ;; esac
  ' < "$OBJ/sources.txt"
  echo $(( $(date +%s) - t0 )) > "$OBJ/build-seconds"
  touch "$OBJ/.lib-ready"
  log "compiled in $(cat "$OBJ/build-seconds") s"
fi

NATIVE=${2:-}
LINK=("$OBJ"/*.o)
if [ "$NATIVE" = --native ]; then
  [ "$(uname -m)" = x86_64 ] && grep -q ' avx2 ' /proc/cpuinfo && grep -q ' fma ' /proc/cpuinfo || { log "--native needs x86-64 with AVX2 and FMA"; exit 1; }
  ON=$CACHE/obj-native
  if [ ! -f "$ON/.lib-ready" ]; then
    rm -rf "$ON"; mkdir -p "$ON"
    (cd "$SRC" && ls ggml-cpu/*.c ggml-cpu/*.cpp ggml-cpu/arch/x86/quants.c ggml-cpu/arch/x86/repack.cpp) > "$ON/sources.txt"
    log "compiling ggml-cpu's $(wc -l < "$ON/sources.txt") files at -O3 with AVX2/FMA (once)"
    export SRC ON
    NFLAGS="-O3 -g0 -pthread -D_GNU_SOURCE -DNDEBUG -DLM_GGML_USE_CPU -mavx -mavx2 -mfma -mf16c -mbmi2 -I$SRC -I$SRC/ggml-cpu -w"
    export NFLAGS
    xargs -P "$JOBS" -I{} sh -c '
      f={}; o="$ON/$(echo "$f" | tr / _).o"
      case "$f" in *.c) gcc -std=gnu11 $NFLAGS -c "$SRC/$f" -o "$o" ;; *) g++ -std=c++17 $NFLAGS -c "$SRC/$f" -o "$o" ;; esac
    ' < "$ON/sources.txt"
    touch "$ON/.lib-ready"
  fi
  LINK=($(ls "$OBJ"/*.o | grep -v '/ggml-cpu_') "$ON"/*.o)
fi

NAME=${1:-harness}   # tests/llamacpp/<NAME>.cpp: harness (RoPE, hparams) or logits (tokenizer + forward pass)
H=$ROOT/tests/llamacpp/$NAME.cpp
[ -f "$H" ] || { log "no tests/llamacpp/$NAME.cpp"; exit 1; }
SHA=$(sha256sum "$H" | cut -c1-16)
BIN=$CACHE/$NAME${NATIVE:+-native}-$SHA
if [ ! -x "$BIN" ]; then
  log "building $NAME"
  g++ -std=c++17 $CFLAGS "$H" "${LINK[@]}" -o "$BIN.tmp" -lpthread -ldl
  mv "$BIN.tmp" "$BIN"
fi
echo "$BIN"
