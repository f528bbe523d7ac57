// The AVX2 versions of common/simd's loops. Only these functions carry the AVX2 target
// (an attribute, so a unity batch or an inline function elsewhere never picks it up).
// No FMA: a fused multiply-add rounds once where the portable loop rounds twice, and
// the two paths must give the same bits.
#include "simd_avx2.hpp"

#ifdef KESTREL_SIMD_X86
#include <immintrin.h>

#include <cstring>

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

// simd.hpp's order: lanes l, l+4, l+8, l+12 of the 16 sums live in s0..s3; returns u_l, l < 4.
__attribute__((target("avx2"))) inline __m256d dot16_lanes(const double* a, const double* b, Index d) {
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
    return _mm256_add_pd(_mm256_add_pd(s0, s2), _mm256_add_pd(s1, s3));  // u_l, l < 4
}

__attribute__((target("avx2"))) inline double dot16(const double* a, const double* b, Index d) {
    const __m256d u = dot16_lanes(a, b, d);
    const __m128d v = _mm_add_pd(_mm256_castpd256_pd128(u), _mm256_extractf128_pd(u, 1));  // u0+u2, u1+u3
    return _mm_cvtsd_f64(_mm_add_sd(v, _mm_unpackhi_pd(v, v)));
}

// Four rows' u vectors reduced at once, each as dot16 reduces one: (u0 + u2) + (u1 + u3).
// With few features the per-row shuffles were most of the work.
__attribute__((target("avx2"))) inline __m256d reduce4(__m256d u0, __m256d u1, __m256d u2, __m256d u3) {
    // (row 0: u0+u2, u1+u3 | row 1: the same), then rows 2 and 3.
    const __m256d r01 = _mm256_add_pd(_mm256_permute2f128_pd(u0, u1, 0x20), _mm256_permute2f128_pd(u0, u1, 0x31));
    const __m256d r23 = _mm256_add_pd(_mm256_permute2f128_pd(u2, u3, 0x20), _mm256_permute2f128_pd(u2, u3, 0x31));
    // hadd: (row 0, row 2, row 1, row 3), each v0 + v1; then rows in order.
    return _mm256_permute4x64_pd(_mm256_hadd_pd(r01, r23), 0xD8);
}

}  // namespace

__attribute__((target("avx2"))) double dot_avx2(const double* a, const double* b, Index d) { return dot16(a, b, d); }

__attribute__((target("avx2"))) void dot_rows_avx2(const double* x, const double* rows, Index n, Index d,
                                                   double* out) {
    Index j = 0;
    for (; j + 4 <= n; j += 4) {
        const double* r = rows + j * d;
        _mm256_storeu_pd(out + j, reduce4(dot16_lanes(x, r, d), dot16_lanes(x, r + d, d), dot16_lanes(x, r + 2 * d, d),
                                          dot16_lanes(x, r + 3 * d, d)));
    }
    for (; j < n; ++j) out[j] = dot16(x, rows + j * d, d);
}

namespace {

// Columns c0 .. c0 + 4R of add_weighted_rows, held in R registers across all n rows.
template <int R>
__attribute__((target("avx2"), always_inline)) inline void add_weighted_columns(const double* a, const double* rows,
                                                                                 Index n, Index d, Index c0,
                                                                                 double* out) {
    __m256d acc[R];
    for (Index k = 0; k < R; ++k) acc[k] = _mm256_loadu_pd(out + c0 + 4 * k);
    for (Index j = 0; j < n; ++j) {
        const __m256d aj = _mm256_set1_pd(a[j]);
        const double* x = rows + j * d + c0;
        for (Index k = 0; k < R; ++k) acc[k] = _mm256_add_pd(acc[k], _mm256_mul_pd(aj, _mm256_loadu_pd(x + 4 * k)));
    }
    for (Index k = 0; k < R; ++k) _mm256_storeu_pd(out + c0 + 4 * k, acc[k]);
}

}  // namespace

// Up to 32 columns at a time in registers (the rows are read once per 32 columns); the last
// one to three columns each as a scalar running sum. Every column's sum is the portable
// loop's: the rows in order, a product rounded, then added.
__attribute__((target("avx2"))) void add_weighted_rows_avx2(const double* a, const double* rows, Index n, Index d,
                                                            double* out) {
    Index c = 0;
    for (; c + 32 <= d; c += 32) add_weighted_columns<8>(a, rows, n, d, c, out);
    switch ((d - c) / 4) {
        case 7: add_weighted_columns<7>(a, rows, n, d, c, out); break;
        case 6: add_weighted_columns<6>(a, rows, n, d, c, out); break;
        case 5: add_weighted_columns<5>(a, rows, n, d, c, out); break;
        case 4: add_weighted_columns<4>(a, rows, n, d, c, out); break;
        case 3: add_weighted_columns<3>(a, rows, n, d, c, out); break;
        case 2: add_weighted_columns<2>(a, rows, n, d, c, out); break;
        case 1: add_weighted_columns<1>(a, rows, n, d, c, out); break;
        default: break;
    }
    for (c += 4 * ((d - c) / 4); c < d; ++c) {
        double s = out[c];
        for (Index j = 0; j < n; ++j) s += a[j] * rows[j * d + c];
        out[c] = s;
    }
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


namespace {

// The int8 values at p[0..3] as four 64-bit lanes (sign-extended).
__attribute__((target("avx2"))) inline __m256i widen4(const std::int8_t* p) {
    std::int32_t v;
    std::memcpy(&v, p, sizeof v);
    return _mm256_cvtepi8_epi64(_mm_cvtsi32_si128(v));
}

__attribute__((target("avx2"))) inline __m256d negate(__m256d v) { return _mm256_xor_pd(v, _mm256_set1_pd(-0.0)); }

// The four lanes' running picks reduced as the portable pass would have made them: the best
// value, and on ties the later index (each lane already holds its own later index on ties).
struct Lanes {
    alignas(32) double value[4];
    alignas(32) long long at[4];
};

}  // namespace

// The portable pass four variables a step: a lane takes t when t is in I_up and its value
// is >= the lane's best so far, so each lane ends with its last maximum.
__attribute__((target("avx2"))) SmoPickI smo_pick_i_avx2(const double* G, const std::int8_t* y,
                                                        const std::int8_t* status, Index n) {
    const __m256i one = _mm256_set1_epi64x(1), four = _mm256_set1_epi64x(4);
    __m256d best = _mm256_set1_pd(-kSimdInf);
    __m256i at = _mm256_set1_epi64x(-1), idx = _mm256_setr_epi64x(0, 1, 2, 3);
    Index t = 0;
    for (; t + 4 <= n; t += 4, idx = _mm256_add_epi64(idx, four)) {
        const __m256i pos = _mm256_cmpeq_epi64(widen4(y + t), one);
        // Out of I_up: at the upper bound with y = +1, at the lower with y = -1.
        const __m256i out = _mm256_cmpeq_epi64(widen4(status + t), _mm256_and_si256(pos, one));
        const __m256d g = _mm256_loadu_pd(G + t);
        const __m256d v = _mm256_blendv_pd(g, negate(g), _mm256_castsi256_pd(pos));
        const __m256i take = _mm256_andnot_si256(out, _mm256_castpd_si256(_mm256_cmp_pd(v, best, _CMP_GE_OQ)));
        best = _mm256_blendv_pd(best, v, _mm256_castsi256_pd(take));
        at = _mm256_blendv_epi8(at, idx, take);
    }
    Lanes l;
    _mm256_store_pd(l.value, best);
    _mm256_store_si256(reinterpret_cast<__m256i*>(l.at), at);
    SmoPickI r{-kSimdInf, -1};
    for (int k = 0; k < 4; ++k) {
        if (l.at[k] < 0) continue;
        if (l.value[k] > r.value || (l.value[k] == r.value && l.at[k] > r.at)) r = {l.value[k], static_cast<Index>(l.at[k])};
    }
    return smo_pick_i_range(G, y, status, t, n, r);
}

__attribute__((target("avx2"))) SmoPickJ smo_pick_j_avx2(const double* G, const std::int8_t* y,
                                                        const std::int8_t* status, const double* QD, const float* Qi,
                                                        Index n, double gmax, double qd_i, double two_yi) {
    const __m256i one = _mm256_set1_epi64x(1), four = _mm256_set1_epi64x(4);
    const __m256d vgmax = _mm256_set1_pd(gmax), vqd = _mm256_set1_pd(qd_i), vtwo = _mm256_set1_pd(two_yi);
    const __m256d tau = _mm256_set1_pd(1e-12), zero = _mm256_setzero_pd();
    __m256d gmax2 = _mm256_set1_pd(-kSimdInf), best = _mm256_set1_pd(kSimdInf);
    __m256i at = _mm256_set1_epi64x(-1), idx = _mm256_setr_epi64x(0, 1, 2, 3);
    Index t = 0;
    for (; t + 4 <= n; t += 4, idx = _mm256_add_epi64(idx, four)) {
        const __m256i pos = _mm256_cmpeq_epi64(widen4(y + t), one);
        const __m256d posd = _mm256_castsi256_pd(pos);
        // Out of I_low: at the lower bound with y = +1, at the upper with y = -1.
        const __m256i out = _mm256_cmpeq_epi64(widen4(status + t), _mm256_andnot_si256(pos, one));
        const __m256d g = _mm256_loadu_pd(G + t);
        const __m256d yg = _mm256_blendv_pd(negate(g), g, posd);
        const __m256i raise = _mm256_andnot_si256(out, _mm256_castpd_si256(_mm256_cmp_pd(yg, gmax2, _CMP_GE_OQ)));
        gmax2 = _mm256_blendv_pd(gmax2, yg, _mm256_castsi256_pd(raise));
        const __m256d diff = _mm256_blendv_pd(_mm256_sub_pd(vgmax, g), _mm256_add_pd(vgmax, g), posd);
        const __m256i violates = _mm256_andnot_si256(out, _mm256_castpd_si256(_mm256_cmp_pd(diff, zero, _CMP_GT_OQ)));
        // Near the end most variables violate nothing: their curvature and division are skipped.
        if (_mm256_testz_si256(violates, violates)) continue;
        const __m256d sum = _mm256_add_pd(vqd, _mm256_loadu_pd(QD + t));
        const __m256d p = _mm256_mul_pd(vtwo, _mm256_cvtps_pd(_mm_loadu_ps(Qi + t)));
        const __m256d a = _mm256_blendv_pd(_mm256_add_pd(sum, p), _mm256_sub_pd(sum, p), posd);
        const __m256d denom = _mm256_blendv_pd(tau, a, _mm256_cmp_pd(a, zero, _CMP_GT_OQ));
        const __m256d obj = _mm256_div_pd(negate(_mm256_mul_pd(diff, diff)), denom);
        const __m256i take = _mm256_and_si256(violates, _mm256_castpd_si256(_mm256_cmp_pd(obj, best, _CMP_LE_OQ)));
        best = _mm256_blendv_pd(best, obj, _mm256_castsi256_pd(take));
        at = _mm256_blendv_epi8(at, idx, take);
    }
    Lanes l;
    _mm256_store_pd(l.value, gmax2);
    SmoPickJ r{-kSimdInf, kSimdInf, -1};
    for (double v : l.value) r.gmax2 = v >= r.gmax2 ? v : r.gmax2;
    _mm256_store_pd(l.value, best);
    _mm256_store_si256(reinterpret_cast<__m256i*>(l.at), at);
    for (int k = 0; k < 4; ++k) {
        if (l.at[k] < 0) continue;
        if (l.value[k] < r.obj || (l.value[k] == r.obj && l.at[k] > r.at)) {
            r.obj = l.value[k];
            r.at = static_cast<Index>(l.at[k]);
        }
    }
    return smo_pick_j_range(G, y, status, QD, Qi, t, n, gmax, qd_i, two_yi, r);
}

__attribute__((target("avx2"))) void exp_inplace_avx2(double* x, Index n) { exp_inplace_lanes<4>(x, n); }

__attribute__((target("avx2"))) void smo_gradient_update_avx2(double* G, const float* Qi, const float* Qj, double dai,
                                                               double daj, Index n) {
    const __m256d vi = _mm256_set1_pd(dai), vj = _mm256_set1_pd(daj);
    Index k = 0;
    for (; k + 4 <= n; k += 4) {
        const __m256d qi = _mm256_cvtps_pd(_mm_loadu_ps(Qi + k)), qj = _mm256_cvtps_pd(_mm_loadu_ps(Qj + k));
        const __m256d step = _mm256_add_pd(_mm256_mul_pd(qi, vi), _mm256_mul_pd(qj, vj));
        _mm256_storeu_pd(G + k, _mm256_add_pd(_mm256_loadu_pd(G + k), step));
    }
    for (; k < n; ++k) G[k] += Qi[k] * dai + Qj[k] * daj;
}

}  // namespace kestrel::simd_detail

#endif
