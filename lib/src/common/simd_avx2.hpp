#pragma once
// Internal to common/simd: the AVX2 versions of the dispatched loops (simd_avx2.cpp),
// reached only through simd_loops(), which calls them on CPUs that have AVX2.
#include <cstdint>

#include "kestrel/core/dataset.hpp"

namespace kestrel::simd_detail {

#if defined(__x86_64__)
#define KESTREL_SIMD_X86 1
double dot_avx2(const double* a, const double* b, Index d);
void dot_rows_avx2(const double* x, const double* rows, Index n, Index d, double* out);
void signed_gather_avx2(const float* data, const std::int32_t* index, const float* sign, float s, Index n, float* out);
#endif

}  // namespace kestrel::simd_detail
