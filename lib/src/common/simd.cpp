// The run-time choice of vector path, and the portable loops that define each
// dispatched loop's order of summation.
#include "kestrel/common/simd.hpp"

#include <cstdlib>
#include <cstring>
#include <string_view>

#include "kestrel/common/cpu_features.hpp"
#include "kestrel/core/error.hpp"
#include "simd_avx2.hpp"
#include "simd_avx512.hpp"

namespace kestrel {

namespace {

// Two doubles in one vector (GCC's and Clang's vector extension; SSE2 on x86-64): the 16
// partial sums are 8 such pairs, so that the compiler keeps them in registers.
using Pair = double __attribute__((vector_size(16)));

// The first m of the two doubles at p (m may be below 0), zeros after: their products
// add +0, which leaves a sum that started at +0 unchanged.
inline Pair load_pair(const double* p, Index m) {
    Pair v = {0.0, 0.0};
    if (m >= 2) std::memcpy(&v, p, sizeof v);
    else if (m == 1) v[0] = p[0];
    return v;
}

// The fixed order of simd.hpp, written out: sum l is lane l % 2 of pair l / 2. The AVX2
// loop keeps the same 16 sums in four registers and reduces them in this same order.
inline double dot_portable(const double* a, const double* b, Index d) {
    Pair s[8] = {};
    Index c = 0;
    for (; c + 16 <= d; c += 16)
        for (Index k = 0; k < 8; ++k) s[k] += load_pair(a + c + 2 * k, 2) * load_pair(b + c + 2 * k, 2);
    if (c < d)  // the tail as one more step, padded with zeros
        for (Index k = 0; k < 8; ++k) s[k] += load_pair(a + c + 2 * k, d - c - 2 * k) * load_pair(b + c + 2 * k, d - c - 2 * k);
    const Pair t0 = s[0] + s[4], t1 = s[1] + s[5], t2 = s[2] + s[6], t3 = s[3] + s[7];  // t_l = s_l + s_(l+8)
    const Pair u0 = t0 + t2, u1 = t1 + t3;  // u_l = t_l + t_(l+4): (u_0, u_1), (u_2, u_3)
    const Pair v = u0 + u1;                 // (u_0 + u_2, u_1 + u_3)
    return v[0] + v[1];
}

double dot_generic(const double* a, const double* b, Index d) { return dot_portable(a, b, d); }

void dot_rows_generic(const double* x, const double* rows, Index n, Index d, double* out) {
    for (Index j = 0; j < n; ++j) out[j] = dot_portable(x, rows + j * d, d);
}

void add_weighted_rows_generic(const double* a, const double* rows, Index n, Index d, double* out) {
    for (Index j = 0; j < n; ++j) {
        const double aj = a[j];
        const double* x = rows + j * d;
        for (Index c = 0; c < d; ++c) out[c] += aj * x[c];
    }
}

void signed_gather_generic(const float* data, const std::int32_t* index, const float* sign, float s, Index n,
                           float* out) {
    for (Index j = 0; j < n; ++j) out[j] = s * sign[j] * data[index[j]];
}

SmoPickI smo_pick_i_generic(const double* G, const std::int8_t* y, const std::int8_t* status, Index n) {
    return simd_detail::smo_pick_i_range(G, y, status, 0, n, {-simd_detail::kSimdInf, -1});
}

SmoPickJ smo_pick_j_generic(const double* G, const std::int8_t* y, const std::int8_t* status, const double* QD,
                            const float* Qi, Index n, double gmax, double qd_i, double two_yi) {
    return simd_detail::smo_pick_j_range(G, y, status, QD, Qi, 0, n, gmax, qd_i, two_yi, {-simd_detail::kSimdInf, simd_detail::kSimdInf, -1});
}

void exp_inplace_generic(double* x, Index n) { simd_detail::exp_inplace_lanes<2>(x, n); }

void smo_gradient_update_generic(double* G, const float* Qi, const float* Qj, double dai, double daj, Index n) {
    for (Index k = 0; k < n; ++k) G[k] += Qi[k] * dai + Qj[k] * daj;
}

const SimdLoops kGenericLoops{dot_generic,         dot_rows_generic,           signed_gather_generic,
                              exp_inplace_generic, smo_gradient_update_generic, smo_pick_i_generic,
                              smo_pick_j_generic,  nullptr, nullptr, add_weighted_rows_generic};
#ifdef KESTREL_SIMD_X86
constexpr SimdLoops kAvx2Loops{simd_detail::dot_avx2,
                               simd_detail::dot_rows_avx2,
                               simd_detail::signed_gather_avx2,
                               simd_detail::exp_inplace_avx2,
                               simd_detail::smo_gradient_update_avx2,
                               simd_detail::smo_pick_i_avx2,
                               simd_detail::smo_pick_j_avx2,
                               nullptr,
                               nullptr,
                               simd_detail::add_weighted_rows_avx2};
// AVX2's loops and the AVX-512 walk of the trees' top levels.
constexpr SimdLoops with_avx512_walk(SimdLoops loops) {
    loops.walk_levels = simd_detail::walk_levels_avx512;
    loops.walk_levels_rows = simd_detail::walk_levels_rows_avx512;
    return loops;
}
constexpr SimdLoops kAvx512Loops = with_avx512_walk(kAvx2Loops);
#endif

SimdPath choose_path() {
    const char* env = std::getenv("KESTREL_SIMD");
    if (env && std::string_view(env) == "generic") return SimdPath::generic;
    const bool avx2_only = env && std::string_view(env) == "avx2";
    if (!avx2_only && simd_supported(SimdPath::avx512)) return SimdPath::avx512;
    return simd_supported(SimdPath::avx2) ? SimdPath::avx2 : SimdPath::generic;
}

}  // namespace

bool simd_supported(SimdPath path) {
    switch (path) {
        case SimdPath::generic:
            return true;
        case SimdPath::avx2:
#ifdef KESTREL_SIMD_X86
            return cpu_features().avx2_fma;
#else
            return false;
#endif
        case SimdPath::avx512:
#ifdef KESTREL_SIMD_X86
            return cpu_features().avx512;
#else
            return false;
#endif
    }
    return false;
}

SimdPath simd_path() {
    static const SimdPath path = choose_path();
    return path;
}

const char* to_string(SimdPath path) {
    switch (path) {
        case SimdPath::avx2:
            return "avx2";
        case SimdPath::avx512:
            return "avx512";
        case SimdPath::generic:
            break;
    }
    return "generic";
}

const SimdLoops& simd_loops(SimdPath path) {
    if (!simd_supported(path))
        throw InternalError(std::string("simd: this CPU cannot run the ") + to_string(path) + " loops");
#ifdef KESTREL_SIMD_X86
    if (path == SimdPath::avx2) return kAvx2Loops;
    if (path == SimdPath::avx512) return kAvx512Loops;
#endif
    return kGenericLoops;
}

const SimdLoops& simd_loops() {
    static const SimdLoops& loops = simd_loops(simd_path());
    return loops;
}

}  // namespace kestrel
