// The AVX2 versions of common/simd's loops. Only these functions carry the AVX2 target
// (an attribute, so a unity batch or an inline function elsewhere never picks it up).
// No FMA: a fused multiply-add rounds once where the portable loop rounds twice, and
// the two paths must give the same bits.
#include "simd_avx2.hpp"

#ifdef KESTREL_SIMD_X86
#include <immintrin.h>

namespace kestrel::simd_detail {

namespace {

// Loads the first m (0 to 4) doubles at p, zeros in the other lanes: adding their
// product +0 leaves a partial sum unchanged (a sum that starts at +0 is never -0).
__attribute__((target("avx2"))) inline __m256d load_first(const double* p, Index m) {
    if (m >= 4) return _mm256_loadu_pd(p);
    const __m256i lane = _mm256_setr_epi64x(0, 1, 2, 3);
    const __m256i mask = _mm256_cmpgt_epi64(_mm256_set1_epi64x(m), lane);
    return _mm256_maskload_pd(p, mask);
}

// simd.hpp's order: lanes l, l+4, l+8, l+12 of the 16 sums live in s0..s3.
__attribute__((target("avx2"))) inline double dot16(const double* a, const double* b, Index d) {
    __m256d s0 = _mm256_setzero_pd(), s1 = s0, s2 = s0, s3 = s0;
    Index c = 0;
    for (; c + 16 <= d; c += 16) {
        s0 = _mm256_add_pd(s0, _mm256_mul_pd(_mm256_loadu_pd(a + c), _mm256_loadu_pd(b + c)));
        s1 = _mm256_add_pd(s1, _mm256_mul_pd(_mm256_loadu_pd(a + c + 4), _mm256_loadu_pd(b + c + 4)));
        s2 = _mm256_add_pd(s2, _mm256_mul_pd(_mm256_loadu_pd(a + c + 8), _mm256_loadu_pd(b + c + 8)));
        s3 = _mm256_add_pd(s3, _mm256_mul_pd(_mm256_loadu_pd(a + c + 12), _mm256_loadu_pd(b + c + 12)));
    }
    const Index rest = d - c;
    if (rest > 0) s0 = _mm256_add_pd(s0, _mm256_mul_pd(load_first(a + c, rest), load_first(b + c, rest)));
    if (rest > 4) s1 = _mm256_add_pd(s1, _mm256_mul_pd(load_first(a + c + 4, rest - 4), load_first(b + c + 4, rest - 4)));
    if (rest > 8) s2 = _mm256_add_pd(s2, _mm256_mul_pd(load_first(a + c + 8, rest - 8), load_first(b + c + 8, rest - 8)));
    if (rest > 12)
        s3 = _mm256_add_pd(s3, _mm256_mul_pd(load_first(a + c + 12, rest - 12), load_first(b + c + 12, rest - 12)));
    const __m256d u = _mm256_add_pd(_mm256_add_pd(s0, s2), _mm256_add_pd(s1, s3));  // u_l, l < 4
    const __m128d v = _mm_add_pd(_mm256_castpd256_pd128(u), _mm256_extractf128_pd(u, 1));  // u0+u2, u1+u3
    return _mm_cvtsd_f64(_mm_add_sd(v, _mm_unpackhi_pd(v, v)));
}

}  // namespace

__attribute__((target("avx2"))) double dot_avx2(const double* a, const double* b, Index d) { return dot16(a, b, d); }

__attribute__((target("avx2"))) void dot_rows_avx2(const double* x, const double* rows, Index n, Index d,
                                                   double* out) {
    for (Index j = 0; j < n; ++j) out[j] = dot16(x, rows + j * d, d);
}

// Eight entries a step: a gather of data[index[j..j+7]] times (s · sign[j..j+7]), the
// two multiplies in the portable loop's order; the tail one at a time.
__attribute__((target("avx2"))) void signed_gather_avx2(const float* data, const std::int32_t* index,
                                                        const float* sign, float s, Index n, float* out) {
    const __m256 sv = _mm256_set1_ps(s);
    Index j = 0;
    for (; j + 8 <= n; j += 8) {
        const __m256i at = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(index + j));
        const __m256 v = _mm256_i32gather_ps(data, at, 4);
        _mm256_storeu_ps(out + j, _mm256_mul_ps(_mm256_mul_ps(sv, _mm256_loadu_ps(sign + j)), v));
    }
    for (; j < n; ++j) out[j] = s * sign[j] * data[index[j]];
}

}  // namespace kestrel::simd_detail

#endif
