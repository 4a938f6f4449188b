// Embind bindings of wasm memory for the TS layer's buffers (web/src/buffers.ts): user buffers (pe.alloc) and the
// scratch that plain arrays are staged into. Addresses are passed to the zero-copy entries (common.hpp).
#include <cstdint>
#include <cstdlib>

#include "common.hpp"

namespace {
/// `bytes` uninitialised bytes (16-byte aligned), or 0 when the memory cannot grow.
std::uintptr_t reserve_js(double bytes) {
  if (!(bytes >= 0 && bytes <= 4294967295.0)) return 0;
  return reinterpret_cast<std::uintptr_t>(std::malloc(static_cast<std::size_t>(bytes)));
}

void release_js(std::uintptr_t address) { std::free(reinterpret_cast<void*>(address)); }
}  // namespace

EMSCRIPTEN_BINDINGS(posenc_buffers) {
  emscripten::function("reserve", &reserve_js);
  emscripten::function("release", &release_js);
}
