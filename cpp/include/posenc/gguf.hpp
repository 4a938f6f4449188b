// posenc — reading the header of a GGUF file (llama.cpp's model format) from its first bytes: the typed key–values,
// the tensor infos, the alignment and where the tensor data starts; and decoding a small F32/F16/BF16 tensor.
//
// Layout (ggml's docs/gguf.md; ggml/src/gguf.cpp), little-endian:
//   "GGUF" · uint32 version (1, 2 or 3) · n_tensors · n_kv · n_kv × (key: string, uint32 type, value)
//   · n_tensors × (name: string, uint32 n_dims, n_dims × dim, uint32 ggml type, uint64 offset) · padding to the
//   alignment (`general.alignment`, uint32, default 32) · tensor data.
//   Version 1 writes counts, string lengths, array lengths and dims as uint32; versions 2 and 3 as uint64.
//   A string is its byte length then its bytes (no terminator). Value types: 0 u8, 1 i8, 2 u16, 3 i16, 4 u32, 5 i32,
//   6 f32, 7 bool, 8 string, 9 array (uint32 element type, length, elements; arrays may nest), 10 u64, 11 i64, 12 f64.
//   A big-endian file (version bytes 00 00 00 0v) is refused with that diagnosis.
//
// Checks, all before anything is allocated: every count and length against the bytes the file has left and against
// the caps below; keys and tensor names unique (as gguf.cpp); n_dims ≤ 4 with dims ≥ 0 whose product fits int64;
// tensor names shorter than 64 bytes (GGML_MAX_NAME); general.alignment a uint32 power of two; each tensor's offset a
// multiple of the alignment; nesting ≤ 4 arrays deep. Array payloads are materialised only when short (≤ kGgufMaxItems
// elements, e.g. rope.dimension_sections or a per-layer pattern); longer ones (a tokenizer's 150k tokens) are walked
// over without being stored and reported with their element type and length. Strings longer than kGgufMaxString
// bytes are skipped the same way.
//
// Incremental reading: gguf_read_header(bytes, n, file_size) reads from the first n bytes of a file of file_size
// bytes. When the header runs past n it returns need > 0: the number of leading bytes the next attempt needs at least
// (the caller reads more, e.g. doubling its window, and calls again); with n == file_size that is a truncated-file
// error instead. Errors are posenc::Error with messages starting `gguf:`.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace posenc {

inline constexpr std::uint64_t kGgufMaxHeader = 1ULL << 28;   ///< header bytes (256 MiB; tokenizers take ~20 MB)
inline constexpr std::uint64_t kGgufMaxCount = 1ULL << 20;    ///< key–values, tensors
inline constexpr std::uint64_t kGgufMaxItems = 4096;          ///< array elements materialised (longer: skipped)
inline constexpr std::uint64_t kGgufMaxVocab = 1ULL << 18;    ///< the model loader's max_items: vocabularies ≤ 262144
inline constexpr std::uint64_t kGgufMaxString = 1ULL << 20;   ///< string bytes materialised (longer: skipped)
inline constexpr std::uint64_t kGgufMaxKey = 65535;           ///< key bytes (docs/gguf.md)
inline constexpr int kGgufMaxDepth = 4;                       ///< nested arrays
inline constexpr int kGgufMaxDims = 4;                        ///< GGML_MAX_DIMS
inline constexpr std::size_t kGgufMaxName = 63;               ///< tensor name bytes (GGML_MAX_NAME − 1)

enum class GgufType : std::uint32_t { u8 = 0, i8, u16, i16, u32, i32, f32, boolean, string, array, u64, i64, f64 };
const char* gguf_type_name(GgufType t);

struct GgufValue {
  GgufType type = GgufType::u8;
  double num = 0;               ///< u8…i32, f32, f64, bool (0/1)
  std::int64_t i64 = 0;         ///< i64
  std::uint64_t u64 = 0;        ///< u64
  std::string str;              ///< string
  GgufType elem = GgufType::u8; ///< array element type
  std::uint64_t length = 0;     ///< array length; string byte length
  bool skipped = false;         ///< array elements / string bytes not stored (over kGgufMaxItems / kGgufMaxString)
  std::vector<GgufValue> items; ///< array elements
};

struct GgufKV {
  std::string key;
  GgufValue value;
};

struct GgufTensorInfo {
  std::string name;
  std::vector<std::uint64_t> dims;  ///< ne[0], ne[1], … (ne[0] is the innermost, contiguous dimension)
  std::uint32_t type = 0;           ///< ggml_type: 0 F32, 1 F16, 30 BF16, …
  std::uint64_t offset = 0;         ///< relative to data_offset
};

struct GgufHeader {
  std::uint32_t version = 0;
  std::vector<GgufKV> kv;
  std::vector<GgufTensorInfo> tensors;
  std::uint64_t alignment = 32;
  std::uint64_t data_offset = 0;  ///< first byte of the tensor data: the header rounded up to the alignment
};

struct GgufRead {
  std::uint64_t need = 0;  ///< > 0: pass at least this many leading bytes and call again
  GgufHeader header;
};

/// Reads the header from the first n bytes of a file of file_size bytes (n ≤ file_size). Throws Error (`gguf: …`).
/// Arrays of up to max_items elements are materialised (the model loader raises it to kGgufMaxVocab to read a
/// tokenizer's vocabulary; strings stay capped at kGgufMaxString bytes).
GgufRead gguf_read_header(const std::uint8_t* bytes, std::size_t n, std::uint64_t file_size,
                          std::uint64_t max_items = kGgufMaxItems);

/// count elements of ggml type F32 (0), F16 (1) or BF16 (30) from their little-endian bytes (n ≥ count · size).
std::vector<double> gguf_tensor_values(const std::uint8_t* bytes, std::size_t n, std::uint32_t type, std::uint64_t count);

}  // namespace posenc
