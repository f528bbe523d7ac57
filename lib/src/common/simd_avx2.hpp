#pragma once
// Internal to common/simd: the AVX2 versions of the dispatched loops (simd_avx2.cpp),
// reached only through simd_loops(), which calls them on CPUs that have AVX2.
#include <algorithm>
#include <cstdint>
#include <limits>

#include "kestrel/common/simd.hpp"

#include "kestrel/core/dataset.hpp"

namespace kestrel::simd_detail {

constexpr double kSimdInf = std::numeric_limits<double>::infinity();

// exp_inplace's arithmetic on a vector of W doubles (GCC's vector extension): the portable
// loop instantiates it two doubles wide, the AVX2 one four wide. always_inline, so the
// AVX2 caller compiles it with AVX2 (a call would run the generic code).
// (Spelled out per width: GCC drops vector_size when the size depends on W.)
template <int W>
struct ExpLanes;
template <>
struct ExpLanes<2> {
    using D = double __attribute__((vector_size(16)));
    using I32 = std::int32_t __attribute__((vector_size(8)));
    using I64 = std::int64_t __attribute__((vector_size(16)));
};
template <>
struct ExpLanes<4> {
    using D = double __attribute__((vector_size(32)));
    using I32 = std::int32_t __attribute__((vector_size(16)));
    using I64 = std::int64_t __attribute__((vector_size(32)));
};

// p[0..W) = exp(p[0..W)). (Through memory, not by value: a 32-byte vector passed to or
// returned from a function without AVX would change the ABI.)
template <int W>
__attribute__((always_inline)) inline void cephes_exp(double* p) {
    using D = typename ExpLanes<W>::D;
    using I32 = typename ExpLanes<W>::I32;
    using I64 = typename ExpLanes<W>::I64;
    D x0;
    __builtin_memcpy(&x0, p, sizeof x0);
    const D hi = D{} + 709.784, lo = D{} - 709.784;
    // Eigen's pmin / pmax order: NaN becomes the bound here, and comes back at the end.
    D x = x0 < hi ? x0 : hi;
    x = x > lo ? x : lo;
    D fx = x * 1.4426950408889634073599 + 0.5;
    // floor: truncate (|fx| < 2^11), then one less where that went up.
    const D t = __builtin_convertvector(__builtin_convertvector(fx, I32), D);
    fx = t > fx ? t - 1.0 : t;
    x = x - fx * 0.693145751953125;
    x = x - fx * 1.42860682030941723212e-6;
    const D x2 = x * x;
    D px = D{} + 1.26177193074810590878e-4;
    px = px * x2 + 3.02994407707441961300e-2;
    px = px * x2 + 9.99999999999999999910e-1;
    px = px * x;
    D qx = D{} + 3.00198505138664455042e-6;
    qx = qx * x2 + 2.52448340349684104192e-3;
    qx = qx * x2 + 2.27265548208155028766e-1;
    qx = qx * x2 + 2.00000000000000000009e0;
    x = px / (qx - px);
    x = 2.0 * x + 1.0;
    // x · 2^fx as ((x · 2^b) · 2^b) · 2^b · 2^(fx − 3b), b = floor(fx / 4): every factor a
    // normal double, every product exact until the last (which may round into subnormals).
    const I64 e = __builtin_convertvector(__builtin_convertvector(fx, I32), I64);
    const I64 b = e >> 2;
    D c;
    I64 bits = (b + 1023) << 52;
    __builtin_memcpy(&c, &bits, sizeof c);
    D out = x * c * c * c;
    bits = (e - 3 * b + 1023) << 52;
    __builtin_memcpy(&c, &bits, sizeof c);
    out = out * c;
    out = out > x0 ? out : x0;  // Eigen's pmax(out, x0): NaN and +inf come back as given
    __builtin_memcpy(p, &out, sizeof out);
}

// exp_inplace over W-wide vectors, the tail padded with zeros.
template <int W>
__attribute__((always_inline)) inline void exp_inplace_lanes(double* x, Index n) {
    Index j = 0;
    for (; j + W <= n; j += W) cephes_exp<W>(x + j);
    if (j < n) {
        double tail[W] = {};
        std::copy(x + j, x + n, tail);
        cephes_exp<W>(tail);
        std::copy(tail, tail + (n - j), x + j);
    }
}

// The portable selection passes over t in [begin, end), continuing from `from` (so the AVX2
// loops finish their tail with them): the definition every path follows.
inline SmoPickI smo_pick_i_range(const double* G, const std::int8_t* y, const std::int8_t* status, Index begin,
                                 Index end, SmoPickI from) {
    for (Index t = begin; t < end; ++t) {
        const bool pos = y[t] == +1;
        if (pos ? status[t] == 1 : status[t] == 0) continue;
        const double v = pos ? -G[t] : G[t];
        if (v >= from.value) from = {v, t};
    }
    return from;
}

inline SmoPickJ smo_pick_j_range(const double* G, const std::int8_t* y, const std::int8_t* status, const double* QD,
                                 const float* Qi, Index begin, Index end, double gmax, double qd_i, double two_yi,
                                 SmoPickJ from) {
    for (Index t = begin; t < end; ++t) {
        const bool pos = y[t] == +1;
        if (pos ? status[t] == 0 : status[t] == 1) continue;
        const double yg = pos ? G[t] : -G[t];
        if (yg >= from.gmax2) from.gmax2 = yg;
        const double diff = pos ? gmax + G[t] : gmax - G[t];
        if (!(diff > 0)) continue;
        const double sum = qd_i + QD[t];
        const double p = two_yi * static_cast<double>(Qi[t]);
        const double a = pos ? sum - p : sum + p;
        const double obj = -(diff * diff) / (a > 0 ? a : 1e-12);
        if (obj <= from.obj) {
            from.obj = obj;
            from.at = t;
        }
    }
    return from;
}

#if defined(__x86_64__)
#define KESTREL_SIMD_X86 1
double dot_avx2(const double* a, const double* b, Index d);
void dot_rows_avx2(const double* x, const double* rows, Index n, Index d, double* out);
void add_weighted_rows_avx2(const double* a, const double* rows, Index n, Index d, double* out);
void signed_gather_avx2(const float* data, const std::int32_t* index, const float* sign, float s, Index n, float* out);
SmoPickI smo_pick_i_avx2(const double* G, const std::int8_t* y, const std::int8_t* status, Index n);
SmoPickJ smo_pick_j_avx2(const double* G, const std::int8_t* y, const std::int8_t* status, const double* QD,
                         const float* Qi, Index n, double gmax, double qd_i, double two_yi);
void exp_inplace_avx2(double* x, Index n);
void smo_gradient_update_avx2(double* G, const float* Qi, const float* Qj, double dai, double daj, Index n);
#endif

}  // namespace kestrel::simd_detail
