#pragma once
// Internal to common/simd: the AVX-512 loops (simd_avx512.cpp), reached only through
// simd_loops(), which calls them on CPUs that have AVX-512 F, DQ, BW and VL.
#include <cstdint>

#include "kestrel/common/simd.hpp"
#include "kestrel/core/dataset.hpp"

namespace kestrel::simd_detail {

#if defined(__x86_64__)
void walk_levels_avx512(const WalkLevels& levels, const double* x, Index stride, Index n, std::int32_t* at);
void walk_levels_rows_avx512(const WalkLevels& levels, const double* x, const std::int64_t* offsets, Index m,
                             std::int32_t* out);
#endif

}  // namespace kestrel::simd_detail
