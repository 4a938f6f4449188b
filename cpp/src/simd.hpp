// Internal: the SIMD back end. POSENC_SIMD=1 compiles the xsimd kernels for the target's default
// architecture (SSE/AVX natively, SIMD128 under em++ -msimd128); POSENC_SIMD=0 (the wasm build
// without -msimd128) routes every *_simd kernel to its scalar twin.
#pragma once
#ifndef POSENC_SIMD
#define POSENC_SIMD 1
#endif
#if POSENC_SIMD
#include <xsimd/xsimd.hpp>
namespace posenc::simd {
using arch = xsimd::default_arch;
using fbatch = xsimd::batch<float, arch>;
using dbatch = xsimd::batch<double, arch>;
}  // namespace posenc::simd
#endif
