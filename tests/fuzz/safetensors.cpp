// libFuzzer target: .safetensors bytes → safetensors_list, table_from_safetensors and the header-only checks.
// The first byte picks the tensor name ("" or "wpe.weight"); the rest is the file. Invariants as in npy.cpp.
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "posenc/posenc.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace posenc;
  if (size == 0) return 0;
  const std::string name = data[0] & 1 ? "wpe.weight" : "";
  ++data, --size;
  bool header_ok = true, list_ok = true;
  try {
    const std::size_t len = safetensors_header_length(data, std::min(size, kTableHeaderProbe), size);
    const auto listed = safetensors_check_header(data, len, size, nullptr);
    if (listed.size() != safetensors_list(data, size).size()) std::abort();
    safetensors_check_header(data, len, size, &name);
  } catch (const Error&) {
    header_ok = false;
  }
  try {
    safetensors_list(data, size);
  } catch (const Error&) {
    list_ok = false;
  }
  try {
    const Table t = table_from_safetensors(data, size, name);
    if (!header_ok || !list_ok || t.data.size() != std::size_t(t.rows) * std::size_t(t.cols)) std::abort();
  } catch (const Error& e) {
    if (header_ok && std::string(e.what()).find("overflows float32") == std::string::npos) std::abort();
  }
  return 0;
}
