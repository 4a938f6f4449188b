// libFuzzer target: .npy bytes → table_from_npy and the header-only checks (npy_header_length, npy_check_header).
// Invariants: only posenc::Error escapes; a parsed table has rows·cols values; the header-only check refuses exactly
// what the full read refuses (save a float64 value beyond float32, which only the data shows). Sanitizers (ASan,
// UBSan) catch any read outside the bytes.
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "posenc/posenc.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace posenc;
  bool header_ok = true;
  try {
    const std::size_t len = npy_header_length(data, std::min(size, kTableHeaderProbe), size);
    npy_check_header(data, len, size);
  } catch (const Error&) {
    header_ok = false;
  }
  try {
    const Table t = table_from_npy(data, size);
    if (!header_ok || t.data.size() != std::size_t(t.rows) * std::size_t(t.cols)) std::abort();
  } catch (const Error& e) {
    if (header_ok && std::string(e.what()).find("overflows float32") == std::string::npos) std::abort();
  }
  return 0;
}
