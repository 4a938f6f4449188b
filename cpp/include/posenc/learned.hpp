// posenc — learned absolute position tables (BERT/GPT-2 `position_embeddings` / `wpe`): parsing from
// .npy and .safetensors bytes, lookup by position, and the similarity matrix of the rows.
//
// A table is [rows, cols] row-major float32: row p is the embedding of position p.
//  * .npy (NumPy format 1.0/2.0/3.0): dtype '<f4' or '<f8' (also '|'/'=' byte order markers on a
//    little-endian host), fortran_order False, a 2-D shape; float64 is rounded once to float32, and a finite
//    float64 beyond the float32 range (|x| > 3.4028234663852886e38) is refused rather than turned into ±∞.
//    The header (≤ 65,536 bytes) is parsed as the Python dict literal it is, as numpy's ast.literal_eval does:
//    keys are string literals, a repeated key keeps its last value, text inside a string value is never taken for
//    a key, and keys other than descr/fortran_order/shape are refused (as numpy refuses them).
//    Anything else (big-endian, Fortran order, other dtypes, 1-D/3-D, truncated data) is rejected with
//    an `npy:` error saying what was found.
//  * .safetensors: 8-byte little-endian header length N, N bytes of JSON {name: {dtype, shape,
//    data_offsets: [begin, end]}, "__metadata__": {...}}, then the data (offsets relative to byte 8+N).
//    The header (≤ 100 MB) must list each tensor once with dtype, shape and data_offsets inside the data and
//    not overlapping another tensor's (as the safetensors library requires); F64 values beyond float32 are refused.
//    Tensors F32, F64, F16 (IEEE half, subnormals and inf/NaN kept) and BF16 (upper 16 bits of a float32)
//    are accepted; the tensor is chosen by name (e.g. GPT-2 `wpe.weight`, BERT
//    `bert.embeddings.position_embeddings.weight`); an empty name picks the only tensor of the file.
//    Errors start with `safetensors:` or `name:` and list the available tensors where that helps.
//  * Lookup: out row r = table row positions[r]; positions must be integers. A position < 0 or ≥ rows
//    is an error unless clamp is set, in which case it is clamped to [0, rows−1] (HF models raise an
//    index error instead; clamping is the "repeat the last learned position" extrapolation).
//  * Similarity: S[a][b] = row_a · row_b (dot) or row_a · row_b / (‖row_a‖·‖row_b‖) (cosine; a zero row
//    gives 0). Dot products accumulate in float32 SIMD lanes (relative error ≤ cols·2^-24 of Σ|a_c·b_c|).
//    Cosine scales each row to unit length first (float64 norms, rounded once), so it is finite for every finite
//    table (|error| ≤ (cols + 2)·2^-24); dot is finite while Σ|a_c·b_c| ≤ FLT_MAX (3.4e38), e.g. |values| ≤ 1e17 at
//    cols 8192 (IEEE ±∞ beyond, as any float32 sum).
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace posenc {

struct Table {
  int rows = 0;
  int cols = 0;
  std::vector<float> data;  ///< rows·cols, row-major
};

/// Parses a 2-D float32/float64 little-endian C-order .npy file. Throws Error (`npy: …`).
Table table_from_npy(const std::uint8_t* bytes, std::size_t n);

/// One entry of a .safetensors header.
struct SafetensorsInfo {
  std::string name;
  std::string dtype;
  std::vector<long long> shape;
};
// Checking a file from its header alone, before its data is copied anywhere (e.g. into wasm memory): the same
// checks, in the same words, as the full reads make, so a refused file costs a copy of its first bytes only.
//   1. len = npy_header_length(first, n, total): `first` holds the first n = min(total, kTableHeaderProbe) bytes of
//      a file of `total` bytes. Checks the magic, version and header length (≤ its cap, inside the file); returns
//      the number of leading bytes that hold the whole header.
//   2. npy_check_header(prefix, len, total): parses the header and checks dtype, order, shape (within the caps)
//      and that the data size equals total − len. Only then is the whole file worth copying.
// Both throw Error; prefix may also be longer (e.g. the whole file).
inline constexpr std::size_t kTableHeaderProbe = 16;
std::size_t npy_header_length(const std::uint8_t* first, std::size_t n, std::size_t total);
void npy_check_header(const std::uint8_t* prefix, std::size_t n, std::size_t total);
/// As npy_header_length for .safetensors: checks the 8-byte header length against the file size and the 100 MB cap.
std::size_t safetensors_header_length(const std::uint8_t* first, std::size_t n, std::size_t total);
/// As npy_check_header: the JSON header, every tensor's entry and data_offsets (in range, no overlap) and, when name
/// is given, the tensor table_from_safetensors would pick (dtype, 2-D shape within the caps, byte size). Returns the
/// listed tensors (what safetensors_list returns) without touching the data.
std::vector<SafetensorsInfo> safetensors_check_header(const std::uint8_t* prefix, std::size_t n, std::size_t total,
                                                      const std::string* name);

/// Tensors described by a .safetensors header, in file order. Throws Error (`safetensors: …`).
std::vector<SafetensorsInfo> safetensors_list(const std::uint8_t* bytes, std::size_t n);
/// The 2-D tensor `name` (empty: the only tensor) as a float32 table. Throws Error.
Table table_from_safetensors(const std::uint8_t* bytes, std::size_t n, const std::string& name);

/// Every tensor of a whole .safetensors file with its data's bytes [begin, end) counted from the file's first byte,
/// after the same header checks as safetensors_list (the model loader reads its weights through this).
struct SafetensorsSpan {
  SafetensorsInfo info;
  std::uint64_t begin = 0, end = 0;
};
std::vector<SafetensorsSpan> safetensors_spans(const std::uint8_t* bytes, std::size_t n);

/// Checks a [rows, cols] table (rows in [1, 2^20], cols in [1, 8192], size == rows·cols). Throws Error.
void table_check(int rows, int cols, std::size_t size);

/// out [n, cols]: row r = table row positions[r]. Throws Error for non-integer or out-of-range positions
/// (unless clamp) and bad shapes.
std::vector<float> table_lookup(const float* table, int rows, int cols, const double* positions, std::size_t n,
                                bool clamp);

enum class Similarity { cosine = 0, dot = 1 };
/// [rows, rows] similarity matrix of the table's rows. Throws Error if rows² exceeds the output cap.
std::vector<float> table_similarity(const float* table, int rows, int cols, Similarity kind);

/// IEEE binary16 / bfloat16 bits to float (exact).
float half_to_float(std::uint16_t h);
float bfloat16_to_float(std::uint16_t b);
}  // namespace posenc
