// The AVX-512 loops of common/simd: the walk of a tree's top levels (simd.hpp,
// WalkLevels). Only these functions carry the AVX-512 target (an attribute, so a unity
// batch or an inline function elsewhere never picks it up).
//
// Eight rows a step, a level at a time over the rows: a level's keys and thresholds
// (at most 32 of each) sit in registers, and each row's node is picked from them by a
// permute on its position; only the row's feature value is gathered. The comparison is
// the portable walk's (x <= threshold, NaN by the key's missing direction), so every row
// reaches the same node.
#include "simd_avx512.hpp"

#ifdef __x86_64__
#include <immintrin.h>

#include <algorithm>

namespace kestrel::simd_detail {

namespace {

#define KESTREL_TARGET_AVX512 __attribute__((target("avx512f,avx512dq,avx512bw,avx512vl"), always_inline))

constexpr Index kWalkChunkRows = 512;  // rows whose positions stay on the stack (4 KB)

// Every lane. The zero-masked forms of the unmasked intrinsics used here: GCC 12's headers
// start the unmasked ones from a self-initialised `__Y = __Y` "undefined" vector, which its
// -Wmaybe-uninitialized reports at -O3 (GCC bug 105593); with every lane set the two forms
// are the same instruction and the same bits.
constexpr __mmask8 kAll = 0xFF;

// The entries at positions p of a level's table of V vectors of 8 (V = 1: levels 0-3;
// 2: level 4; 4: level 5, whose bit 4 picks the pair).
template <int V>
KESTREL_TARGET_AVX512 inline __m512i level_keys(const __m512i* k, __m512i p) {
    if constexpr (V == 1) return _mm512_maskz_permutexvar_epi64(kAll, p, k[0]);
    if constexpr (V == 2) return _mm512_permutex2var_epi64(k[0], p, k[1]);
    const __mmask8 high = _mm512_test_epi64_mask(p, _mm512_set1_epi64(16));
    return _mm512_mask_blend_epi64(high, _mm512_permutex2var_epi64(k[0], p, k[1]),
                                   _mm512_permutex2var_epi64(k[2], p, k[3]));
}

template <int V>
KESTREL_TARGET_AVX512 inline __m512d level_thresholds(const __m512d* t, __m512i p) {
    if constexpr (V == 1) return _mm512_maskz_permutexvar_pd(kAll, p, t[0]);
    if constexpr (V == 2) return _mm512_permutex2var_pd(t[0], p, t[1]);
    const __mmask8 high = _mm512_test_epi64_mask(p, _mm512_set1_epi64(16));
    return _mm512_mask_blend_pd(high, _mm512_permutex2var_pd(t[0], p, t[1]), _mm512_permutex2var_pd(t[2], p, t[3]));
}

// One level over m rows: pos[r] (0 at the root, First) becomes 2·pos[r] + (goes right);
// at the last level at[r] = bottom[that] instead. Row r's values start at x + r·stride,
// or, given `offsets`, at x + offsets[r].
template <int V, bool First, bool Last>
KESTREL_TARGET_AVX512 inline void walk_level(const WalkLevels& levels, int level, const double* x, Index stride,
                                             const std::int64_t* offsets, Index m, std::int64_t* pos,
                                             std::int32_t* at) {
    __m512i key[V];
    __m512d threshold[V];
    for (int v = 0; v < V; ++v) {
        key[v] = _mm512_maskz_cvtepi32_epi64(kAll,
            _mm256_loadu_si256(reinterpret_cast<const __m256i*>(levels.key + kWalkLevelOffset[level] + std::ptrdiff_t{8} * v)));
        threshold[v] = _mm512_loadu_pd(levels.threshold + kWalkLevelOffset[level] + std::ptrdiff_t{8} * v);
    }
    const __m512i one = _mm512_set1_epi64(1);
    const __m512i step = _mm512_set1_epi64(8 * stride);
    __m512i row = _mm512_mullo_epi64(_mm512_setr_epi64(0, 1, 2, 3, 4, 5, 6, 7), _mm512_set1_epi64(stride));
    for (Index g = 0; g < m; g += 8, row = _mm512_add_epi64(row, step)) {
        const __mmask8 live = m - g >= 8 ? __mmask8(0xFF) : static_cast<__mmask8>((1u << (m - g)) - 1);
        const __m512i p = First ? _mm512_setzero_si512() : _mm512_load_si512(pos + g);
        if (offsets) row = _mm512_maskz_loadu_epi64(live, offsets + g);
        const __m512i k = level_keys<V>(key, p);
        const __m512d t = level_thresholds<V>(threshold, p);
        const __m512d v = _mm512_mask_i64gather_pd(_mm512_setzero_pd(), live, _mm512_add_epi64(row, _mm512_maskz_srli_epi64(kAll, k, 1)), x, 8);
        // Right: x > threshold, or x is NaN and the key's missing direction is right.
        const __mmask8 nan_right = _mm512_mask_cmp_pd_mask(_mm512_testn_epi64_mask(k, one), v, v, _CMP_UNORD_Q);
        const __mmask8 right = _mm512_cmp_pd_mask(v, t, _CMP_GT_OQ) | nan_right;
        const __m512i twice = _mm512_add_epi64(p, p);
        const __m512i next = _mm512_mask_add_epi64(twice, right, twice, one);
        if constexpr (Last)
            _mm256_mask_storeu_epi32(at + g, live, _mm512_mask_i64gather_epi32(_mm256_setzero_si256(), live, next, levels.bottom, 4));
        else
            _mm512_store_si512(pos + g, next);
    }
}

template <bool First, bool Last>
KESTREL_TARGET_AVX512 inline void walk_level_sized(const WalkLevels& levels, int level, const double* x, Index stride,
                                                   const std::int64_t* offsets, Index m, std::int64_t* pos,
                                                   std::int32_t* at) {
    if (level <= 3) walk_level<1, First, Last>(levels, level, x, stride, offsets, m, pos, at);
    else if (level == 4) walk_level<2, First, Last>(levels, level, x, stride, offsets, m, pos, at);
    else walk_level<4, First, Last>(levels, level, x, stride, offsets, m, pos, at);
}

// The levels over n rows, kWalkChunkRows at a time.
KESTREL_TARGET_AVX512 inline void walk_all_levels(const WalkLevels& levels, const double* x, Index stride,
                                                  const std::int64_t* offsets, Index n, std::int32_t* at) {
    alignas(64) std::int64_t pos[kWalkChunkRows];
    for (Index c = 0; c < n; c += kWalkChunkRows) {
        const Index m = std::min(kWalkChunkRows, n - c);
        const double* xc = offsets ? x : x + c * stride;
        const std::int64_t* oc = offsets ? offsets + c : nullptr;
        std::int32_t* ac = at + c;
        if (levels.depth == 1) {
            walk_level_sized<true, true>(levels, 0, xc, stride, oc, m, pos, ac);
            continue;
        }
        walk_level_sized<true, false>(levels, 0, xc, stride, oc, m, pos, ac);
        for (int l = 1; l + 1 < levels.depth; ++l) walk_level_sized<false, false>(levels, l, xc, stride, oc, m, pos, ac);
        walk_level_sized<false, true>(levels, levels.depth - 1, xc, stride, oc, m, pos, ac);
    }
}

#undef KESTREL_TARGET_AVX512

}  // namespace

__attribute__((target("avx512f,avx512dq,avx512bw,avx512vl"))) void walk_levels_avx512(const WalkLevels& levels,
                                                                                      const double* x, Index stride,
                                                                                      Index n, std::int32_t* at) {
    walk_all_levels(levels, x, stride, nullptr, n, at);
}

__attribute__((target("avx512f,avx512dq,avx512bw,avx512vl"))) void walk_levels_rows_avx512(
    const WalkLevels& levels, const double* x, const std::int64_t* offsets, Index m, std::int32_t* out) {
    walk_all_levels(levels, x, 0, offsets, m, out);
}

}  // namespace kestrel::simd_detail

#endif
