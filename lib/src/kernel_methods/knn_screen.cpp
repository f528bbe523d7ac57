// Dot-product screening for dense brute-force k-NN.
#include "knn_screen.hpp"

#include <algorithm>
#include <limits>

#include "kestrel/common/simd.hpp"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define KESTREL_KNN_X86 1
#endif

namespace kestrel::knn_detail {

namespace {

constexpr Index kTrainBlock = 1024;     // Eigen path: a 64 x 1024 block of products stays in L2
constexpr Index kBlockDoubles = 20480;  // AVX2 path: ~160 KB of packed rows per block stays in L2
constexpr Index kSimdMaxDim = 256;      // wider rows: Eigen's product, which also blocks the features

// The AVX2 or AVX-512 path of common/simd (AVX2 and FMA, not forced off by KESTREL_SIMD=generic).
// Screening values only choose candidates: the reported distances are exact and
// computed alike on both paths, so the neighbours do not depend on it.
bool simd_available() { return simd_path() != SimdPath::generic; }

#ifdef KESTREL_KNN_X86
// euclidean: ||z||² - 2 x·z; cosine: -(x·z) / ||z|| (k holds 1/||z||).
__attribute__((target("avx2,fma"))) inline __m256d screen_value(__m256d c, __m256d k, bool cosine) {
    return cosine ? _mm256_fnmadd_pd(c, k, _mm256_setzero_pd()) : _mm256_fnmadd_pd(_mm256_set1_pd(2.0), c, k);
}

// Offers the 8 values of one panel to one query's list.
__attribute__((target("avx2,fma"))) inline void offer(__m256d v0, __m256d v1, Index row0, CandidateList& c) {
    const __m256d thr = _mm256_set1_pd(c.threshold());
    const int mask = _mm256_movemask_pd(_mm256_cmp_pd(v0, thr, _CMP_LE_OQ)) |
                     (_mm256_movemask_pd(_mm256_cmp_pd(v1, thr, _CMP_LE_OQ)) << 4);
    if (mask == 0) return;
    alignas(32) double v[8];
    _mm256_store_pd(v, v0);
    _mm256_store_pd(v + 4, v1);
    for (int i = 0; i < 8; ++i)
        if (mask & (1 << i)) c.push(v[i], row0 + i);
}

// 4 queries x 8 training rows per step: 8 accumulators, two panel loads and four
// broadcasts per feature.
__attribute__((target("avx2,fma"))) void screen_avx2(const DenseView& Q, Index q0, Index bq, const PackedRows& P,
                                                     bool cosine, std::vector<CandidateList>& lists) {
    const Index d = P.d, panels = (P.n + 7) / 8;
    const __m256d zero = _mm256_setzero_pd();
    const Index per_block = std::clamp<Index>(kBlockDoubles / (8 * d), 1, 64);
    for (Index p0 = 0; p0 < panels; p0 += per_block) {
        const Index p1 = std::min(panels, p0 + per_block);
        for (Index r0 = 0; r0 < bq; r0 += 4) {
            const Index nr = std::min<Index>(4, bq - r0);
            const double* a0 = Q.data() + (q0 + r0) * d;
            const double* a1 = Q.data() + (q0 + r0 + std::min<Index>(1, nr - 1)) * d;
            const double* a2 = Q.data() + (q0 + r0 + std::min<Index>(2, nr - 1)) * d;
            const double* a3 = Q.data() + (q0 + r0 + std::min<Index>(3, nr - 1)) * d;
            for (Index p = p0; p < p1; ++p) {
                const double* b = P.panels.data() + p * d * 8;
                __m256d c00 = zero, c01 = zero, c10 = zero, c11 = zero, c20 = zero, c21 = zero, c30 = zero, c31 = zero;
                for (Index j = 0; j < d; ++j) {
                    const __m256d b0 = _mm256_loadu_pd(b + 8 * j), b1 = _mm256_loadu_pd(b + 8 * j + 4);
                    __m256d a = _mm256_broadcast_sd(a0 + j);
                    c00 = _mm256_fmadd_pd(a, b0, c00);
                    c01 = _mm256_fmadd_pd(a, b1, c01);
                    a = _mm256_broadcast_sd(a1 + j);
                    c10 = _mm256_fmadd_pd(a, b0, c10);
                    c11 = _mm256_fmadd_pd(a, b1, c11);
                    a = _mm256_broadcast_sd(a2 + j);
                    c20 = _mm256_fmadd_pd(a, b0, c20);
                    c21 = _mm256_fmadd_pd(a, b1, c21);
                    a = _mm256_broadcast_sd(a3 + j);
                    c30 = _mm256_fmadd_pd(a, b0, c30);
                    c31 = _mm256_fmadd_pd(a, b1, c31);
                }
                const __m256d k0 = _mm256_loadu_pd(P.coef.data() + 8 * p),
                              k1 = _mm256_loadu_pd(P.coef.data() + 8 * p + 4);
                CandidateList* l = lists.data() + r0;
                offer(screen_value(c00, k0, cosine), screen_value(c01, k1, cosine), 8 * p, l[0]);
                if (nr > 1) offer(screen_value(c10, k0, cosine), screen_value(c11, k1, cosine), 8 * p, l[1]);
                if (nr > 2) offer(screen_value(c20, k0, cosine), screen_value(c21, k1, cosine), 8 * p, l[2]);
                if (nr > 3) offer(screen_value(c30, k0, cosine), screen_value(c31, k1, cosine), 8 * p, l[3]);
            }
        }
    }
}
#endif

}  // namespace

PackedRows pack_rows(const DenseView& T, const std::vector<double>& norm, bool cosine) {
    PackedRows P;
    if (!simd_available() || T.rows() == 0 || T.cols() > kSimdMaxDim) return P;
    P.n = T.rows();
    P.d = T.cols();
    const Index panels = (P.n + 7) / 8;
    P.panels.assign(static_cast<std::size_t>(panels * P.d * 8), 0.0);
    P.coef.assign(static_cast<std::size_t>(panels * 8), std::numeric_limits<double>::quiet_NaN());
    for (Index i = 0; i < P.n; ++i) {
        const Index p = i / 8, lane = i % 8;
        for (Index j = 0; j < P.d; ++j) P.panels[static_cast<std::size_t>((p * P.d + j) * 8 + lane)] = T(i, j);
        const double nz = norm[static_cast<std::size_t>(i)];
        P.coef[static_cast<std::size_t>(i)] = cosine ? (nz == 0 ? 0.0 : 1.0 / nz) : nz;
    }
    return P;
}

void DotScreen::run(const DenseView& Q, Index q0, Index bq, const DenseView& T, const std::vector<double>& norm,
                    bool cosine, const PackedRows& packed, std::vector<CandidateList>& lists) {
#ifdef KESTREL_KNN_X86
    if (!packed.empty()) {
        screen_avx2(Q, q0, bq, packed, cosine, lists);
        return;
    }
#endif
    const Index n = T.rows();
    for (Index t0 = 0; t0 < n; t0 += kTrainBlock) {
        const Index bt = std::min(kTrainBlock, n - t0);
        g_.resize(bq, bt);
        g_.noalias() = Q.middleRows(q0, bq) * T.middleRows(t0, bt).transpose();
        const double* nrm = norm.data() + t0;
        for (Index r = 0; r < bq; ++r) {
            CandidateList& c = lists[static_cast<std::size_t>(r)];
            const double* g = g_.data() + r * bt;
            for (Index j = 0; j < bt; ++j) {
                const double v = cosine ? (nrm[j] == 0 ? 0.0 : -g[j] / nrm[j]) : nrm[j] - 2 * g[j];
                if (v <= c.threshold()) c.push(v, t0 + j);
            }
        }
    }
}

}  // namespace kestrel::knn_detail
