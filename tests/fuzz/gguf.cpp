// libFuzzer target: bytes → gguf_read_header, read whole and from every window size the JS layer would use.
// Invariants: only posenc::Error escapes; a prefix either asks for more bytes (need > n, ≤ the file size) or gives the
// same header as the whole file; a header's data offset lies past every byte read and is a multiple of the alignment;
// small F32/F16/BF16 tensors of a parsed header decode without reading past the file.
#include <algorithm>
#include <cstdint>
#include <cstdlib>

#include "posenc/posenc.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace posenc;
  GgufRead whole;
  bool ok = true;
  try {
    whole = gguf_read_header(data, size, size);
    if (whole.need) std::abort();  // the whole file never asks for more
  } catch (const Error&) {
    ok = false;
  }
  // the JS window loop (web/src/gguf_source.ts): grow to max(need, 1.5·window) until the header is read or refused;
  // the first window is a share of the file picked by its last byte, so that inputs start from every prefix length
  std::size_t window = size ? size * (std::size_t(data[size - 1]) + 1) / 256 : 0;
  while (true) {
    GgufRead r;
    try {
      r = gguf_read_header(data, window, size);
    } catch (const Error&) {
      if (ok) std::abort();  // a prefix never refuses a file the whole read accepts
      break;
    }
    if (!r.need) {
      if (!ok || r.header.kv.size() != whole.header.kv.size() || r.header.tensors.size() != whole.header.tensors.size() ||
          r.header.data_offset != whole.header.data_offset)
        std::abort();
      break;
    }
    if (r.need <= window || r.need > size) std::abort();
    window = std::min<std::size_t>(size, std::max<std::size_t>(r.need, window + window / 2));
  }
  if (!ok) return 0;
  const GgufHeader& h = whole.header;
  if (h.data_offset % h.alignment != 0) std::abort();
  for (const auto& t : h.tensors) {
    if (t.dims.size() != 1 || t.dims[0] > 64 || (t.type != 0 && t.type != 1 && t.type != 30)) continue;
    const std::uint64_t begin = h.data_offset + t.offset, bytes = t.dims[0] * (t.type == 0 ? 4 : 2);
    if (begin > size || bytes > size - begin) continue;
    const auto v = gguf_tensor_values(data + begin, static_cast<std::size_t>(bytes), t.type, t.dims[0]);
    if (v.size() != t.dims[0]) std::abort();
  }
  return 0;
}
