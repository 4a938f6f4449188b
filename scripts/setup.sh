#!/usr/bin/env bash
# posenc set-up: installs everything the build and tests need on a fresh Debian 12 machine.
# Idempotent: a second run checks and returns in seconds.
#   - Debian packages: emscripten, catch2, cmake, chromium (+ a CJK font for its screenshots), wabt, g++,
#     python3-numpy + libopenblas0-pthread (the numpy peer of `npm run bench`, matmul on OpenBLAS as Debian users get it),
#     python3-torch (with python3-numpy: the page's code listings are run by tests/js/site-listings.test.mjs),
#     clang + libclang-rt-14-dev (libFuzzer and the sanitizer runtimes for scripts/fuzz.sh), hugo and jekyll (the
#     blog-engine tests, tests/engines; the npm engines are installed by those tests into ~/.cache/posenc-engines),
#     mkdocs + mkdocs-material, python3-sphinx + python3-myst-parser + furo, jupyter-nbconvert + python3-ipykernel (the
#     docs-engine and notebook tests in tests/engines), pelican (tests/engines/pelican.test.mjs), wordpress + mariadb-server +
#     php-cli + php-mysql + zip (the WordPress plugin test, tests/engines/wordpress.test.mjs: it starts MariaDB itself),
#     bible-kjv + bible-kjv-text (the King James Bible, public domain, and its reader: the text of scripts/train/train.py)
#   - ccache, where it can be installed (every C++ build compiles through it when present: a checkout on a machine
#     that built posenc before recompiles only what changed; without it the builds are the same, only slower)
#   - xsimd >= 13 headers (Debian trixie's libxsimd-dev, unpacked under build/_deps; bookworm's 8.1 has no wasm)
#   - npm packages (npm ci, from package-lock.json)
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD

say() { printf '[setup] %s\n' "$*"; }
die() { printf '[setup] ERROR: %s\n' "$*" >&2; exit 1; }

# --- 1. Debian packages -------------------------------------------------------
PKGS=(emscripten catch2 cmake chromium fonts-wqy-microhei wabt g++ make clang libclang-rt-14-dev hugo jekyll python3-numpy python3-torch
  libopenblas0-pthread mkdocs mkdocs-material python3-sphinx python3-myst-parser furo jupyter-nbconvert python3-ipykernel
  pelican wordpress mariadb-server php-cli php-mysql zip bible-kjv bible-kjv-text)
missing=()
for p in "${PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  if ! command -v apt-get >/dev/null || [ ! -f /etc/debian_version ]; then
    die "this is not a Debian machine; install these by hand, then re-run: ${missing[*]}"
  fi
  if [ "$(id -u)" != 0 ]; then
    die "missing Debian packages: ${missing[*]}. Run as root, or: sudo apt-get install -y ${missing[*]}"
  fi
  say "installing Debian packages: ${missing[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
fi
if ! command -v ccache >/dev/null && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  say "installing ccache (optional: it only makes rebuilds faster)"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq ccache >/dev/null 2>&1 || say "ccache could not be installed: building without it"
fi
command -v node >/dev/null || die "node (>= 18) is not installed"
node -e 'process.exit(+process.versions.node.split(".")[0] >= 18 ? 0 : 1)' || die "node >= 18 required, found $(node --version)"

# --- 2. xsimd >= 13 headers ------------------------------------------------------
D=build/_deps/apt-trixie
XS=$D/root/usr/include/xsimd
if [ ! -f "$XS/arch/xsimd_wasm.hpp" ]; then
  say "fetching xsimd headers (Debian trixie libxsimd-dev) into $D"
  mkdir -p "$D/lists/partial" "$D/root"
  echo "deb http://deb.debian.org/debian trixie main" > "$D/sources.list"
  O=(-o "Dir::Etc::SourceList=$ROOT/$D/sources.list" -o Dir::Etc::SourceParts=/nonexistent
     -o "Dir::State::Lists=$ROOT/$D/lists" -o Debug::NoLocking=1)
  apt-get "${O[@]}" update -qq
  (cd "$D" && rm -f libxsimd-dev_*.deb && apt-get "${O[@]}" download libxsimd-dev >/dev/null)
  dpkg -x "$D"/libxsimd-dev_*.deb "$D/root"
  test -f "$XS/arch/xsimd_wasm.hpp" || die "xsimd package has no wasm architecture header"
fi
major=$(sed -n 's/^#define XSIMD_VERSION_MAJOR \([0-9]*\).*/\1/p' "$XS/config/xsimd_config.hpp")
[ -n "$major" ] && [ "$major" -ge 13 ] || die "xsimd >= 13 required, found major version '${major:-?}' in $XS"

# --- 3. npm packages -------------------------------------------------------------
# Re-install whenever package-lock.json differs from the one node_modules was installed from (a hash, not a
# timestamp: `npm install --package-lock-only` and merges touch the lock without installing anything).
lock_hash=$(sha256sum package-lock.json | cut -d' ' -f1)
if [ "$(cat node_modules/.posenc-lock-hash 2>/dev/null)" != "$lock_hash" ]; then
  say "npm ci"
  npm ci --no-audit --no-fund --loglevel=error
  echo "$lock_hash" > node_modules/.posenc-lock-hash
fi
say "ok (xsimd $major, emcc $(em++ --version 2>/dev/null | sed -n '1s/.*) \([0-9.]*\).*/\1/p'), node $(node --version))"
