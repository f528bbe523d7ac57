#pragma once
// The one place where kestrel chooses vector instructions at run time. Builds target
// generic x86-64 (SSE2), so loops that pay for wider vectors have a second version
// compiled for AVX2 (a function attribute, not a build flag: the rest of the library,
// and every inline function it instantiates, stays generic). The path is chosen once,
// at first use, from the CPU and the environment variable KESTREL_SIMD:
//   KESTREL_SIMD=generic   the portable loops, whatever the CPU has;
//   anything else, unset   AVX2 when the CPU has AVX2 and FMA, else the portable loops.
// Every dispatched loop sums in one fixed order that the portable loop spells out
// (docs/reliability.md): its results are bit-identical on every path.
#include <cstdint>

#include "kestrel/core/dataset.hpp"

namespace kestrel {

enum class SimdPath { generic, avx2 };

SimdPath simd_path();                // the path in use (chosen once)
bool simd_supported(SimdPath path);  // whether this CPU can run it (generic: always)
const char* to_string(SimdPath path);

// The dispatched loops. dot: Σ a[c]·b[c] over c < d as 16 partial sums s_l (element c
// into s_{c mod 16}, each a plain multiply then add, never fused), reduced as
// t_l = s_l + s_{l+8}, u_l = t_l + t_{l+4}, result (u_0 + u_2) + (u_1 + u_3).
struct SimdLoops {
    double (*dot)(const double* a, const double* b, Index d);
    // out[j] = dot(x, rows + j·d, d) for j < n: x against n consecutive rows of length d.
    void (*dot_rows)(const double* x, const double* rows, Index n, Index d, double* out);
    // out[j] = (s · sign[j]) · data[index[j]] for j < n, each product rounded to float:
    // the SVR column's expansion of a cached kernel row (svm/q_matrix.cpp), one gather
    // instruction for eight entries on the AVX2 path.
    void (*signed_gather)(const float* data, const std::int32_t* index, const float* sign, float s, Index n,
                          float* out);
};

const SimdLoops& simd_loops();                // the path in use
const SimdLoops& simd_loops(SimdPath path);  // a given path's (tests); InternalError if unsupported

}  // namespace kestrel
