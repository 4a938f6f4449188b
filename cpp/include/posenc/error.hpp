// posenc — error type and input validation shared by every entry point.
#pragma once
#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

namespace posenc {

/// Thrown for bad input. The message always starts with the parameter's name and states the
/// rule that was broken, e.g. "rotary_dim: must be even (got 7)". Functions that throw leave no
/// partial state behind: every posenc function is pure.
class Error : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

/// Documented size caps. Every entry point checks them before it allocates.
inline constexpr long long kMaxHeadDim = 8192;           ///< head_dim, rotary_dim, d_model
inline constexpr long long kMaxSeqLen = 1LL << 20;        ///< sequence length / number of positions
inline constexpr long long kMaxHeads = 1024;              ///< attention heads
inline constexpr long long kMaxOutputElements = 1LL << 28;///< floats in one result written into a caller's buffer (1 GiB)
inline constexpr double kMaxAbsPosition = 2147483647.0;   ///< |position id| (2^31 - 1)

namespace detail {
[[noreturn]] void fail(const char* param, const std::string& rule);
/// v for messages, as the TS layer shows it: powers of two from 2^20 on as "2^k", else decimal.
std::string format_int(long long v);
/// Shortest round-trip decimal form of v ("%.17g"; integer powers of two ≥ 2^20 as "2^k"), for messages.
std::string format_number(double v);
void require_int_range(const char* param, long long v, long long lo, long long hi);
void require_even(const char* param, long long v);
void require_finite_positive(const char* param, double v);
/// A RoPE base: finite > 0, and its largest frequency rope_theta^(−(d−2)/d) at most 1e6 rad per position (a base below 1
/// makes the frequencies grow: 5e-324 would give ±Infinity), d = rotary_dim.
void require_rope_base(const char* param, double rope_theta, int rotary_dim);
void require_size(const char* param, std::size_t got, std::size_t expected);
void require_output_cap(const char* what, long long elements);
/// Every p[k] finite with |p[k]| <= kMaxAbsPosition (p may be nullptr: nothing to check).
void require_positions(const char* param, const double* p, std::size_t n);
/// `positions`, or (null: every table builder's default) 0 … n−1 written into `own`.
const double* positions_or_range(const double* positions, std::size_t n, std::vector<double>& own);
}  // namespace detail
}  // namespace posenc
