#pragma once
// The one place where kestrel chooses vector instructions at run time. Builds target
// generic x86-64 (SSE2), so loops that pay for wider vectors have a second version
// compiled for AVX2, and the trees' walk one for AVX-512 (function attributes, not build
// flags: the rest of the library, and every inline function it instantiates, stays
// generic). The path is chosen once, at first use, from the CPU and the environment
// variable KESTREL_SIMD:
//   KESTREL_SIMD=generic   the portable loops, whatever the CPU has;
//   KESTREL_SIMD=avx2      the AVX2 loops (and the portable tree walk) if the CPU has AVX2
//                          and FMA, else the portable loops;
//   anything else, unset   AVX-512 when the CPU has AVX2, FMA and AVX-512 F, DQ, BW and VL
//                          (the AVX2 loops and the AVX-512 tree walk), else as avx2.
// Every dispatched loop sums in one fixed order that the portable loop spells out
// (docs/reliability.md): its results are bit-identical on every path. The tree walk is
// comparisons only: every path reaches the same leaf (Tree::apply's).
#include <cstdint>

#include "kestrel/core/dataset.hpp"

namespace kestrel {

enum class SimdPath { generic, avx2, avx512 };

SimdPath simd_path();                // the path in use (chosen once)
bool simd_supported(SimdPath path);  // whether this CPU can run it (generic: always)
const char* to_string(SimdPath path);

// The dispatched loops. dot: Σ a[c]·b[c] over c < d as 16 partial sums s_l (element c
// into s_{c mod 16}, each a plain multiply then add, never fused), reduced as
// t_l = s_l + s_{l+8}, u_l = t_l + t_{l+4}, result (u_0 + u_2) + (u_1 + u_3).
// SMO's working-set selection over one equality constraint (LIBSVM's WSS3, svm/smo_solver.cpp)
// on the active variables t < n: y_t is +1 or -1, status_t 0 (at the lower bound), 1 (at
// the upper bound) or 2 (free). I_up = {y = +1, not at upper} ∪ {y = -1, not at lower},
// I_low = {y = +1, not at lower} ∪ {y = -1, not at upper}.
struct SmoPickI {
    double value;  // the largest -y_t·G_t over I_up (-inf when I_up is empty)
    Index at;      // where (the later t on ties; -1 when I_up is empty)
};
struct SmoPickJ {
    double gmax2;  // the largest y_t·G_t over I_low (-inf when empty)
    double obj;    // the smallest -(diff²)/a over t in I_low with diff > 0 (+inf when none)
    Index at;      // where (the later t on ties; -1 when none)
};

// The top levels of one tree in level order (common/tree_walk builds them): level l holds
// 2^l nodes, node p of level l at offset kWalkLevelOffset[l] + p of `threshold` and `key`
// (levels of fewer than 8 nodes padded to 8; kWalkLevelOffset[depth] entries in all). A node's key is 2·feature + (1 if a missing
// value goes left); a row at node p goes to node 2p of the next level when
// x <= threshold or (x is NaN and the key is odd), else to 2p + 1. A leaf above the
// bottom level continues as nodes of threshold +inf and key 1 (always left), so every row
// ends at a position q < 2^depth of the bottom, and bottom[q] is the walk index it
// reached: a leaf, or the tree's node at that depth.
constexpr int kWalkLevels = 6;  // levels kept (the deepest: 32 nodes, four vectors of 8)
constexpr int kWalkLevelOffset[kWalkLevels + 1] = {0, 8, 16, 24, 32, 48, 80};
struct WalkLevels {
    const double* threshold;
    const std::int32_t* key;
    const std::int32_t* bottom;
    int depth;  // 1 to kWalkLevels
};

struct SimdLoops {
    double (*dot)(const double* a, const double* b, Index d);
    // out[j] = dot(x, rows + j·d, d) for j < n: x against n consecutive rows of length d.
    void (*dot_rows)(const double* x, const double* rows, Index n, Index d, double* out);
    // out[j] = (s · sign[j]) · data[index[j]] for j < n, each product rounded to float:
    // the SVR column's expansion of a cached kernel row (svm/q_matrix.cpp), one gather
    // instruction for eight entries on the AVX2 path.
    void (*signed_gather)(const float* data, const std::int32_t* index, const float* sign, float s, Index n,
                          float* out);
    // The two passes of the selection. pick_j takes i's violation gmax, its diagonal qd_i, its
    // 2·y_i and its kernel column Qi (at least n entries), and for each t: diff = gmax + y_t·G_t
    // (a subtraction when y_t = -1), sum = qd_i + QD_t, p = two_yi·Qi_t, a = sum - p when
    // y_t = +1 and sum + p when y_t = -1, obj = -(diff·diff) / (a > 0 ? a : 1e-12). Every
    // operation is one IEEE double operation, so every path gives the same bits.
    // x[j] = exp(x[j]) for j < n by Cephes' rational approximation as Eigen 3.4 evaluates it
    // (pexp_double: its constants and order, every multiply and add rounded on its own),
    // with 2^k applied in four exact factors: within 2 ulp of exp where exp is a normal
    // double; x below -709.784 is taken as -709.784 (so exp(-inf) is about 1e-308, not 0),
    // past log(DBL_MAX) the result is +inf, NaN stays NaN. Vector lanes run the same
    // operations as the portable loop's, so every path gives the same bits.
    void (*exp_inplace)(double* x, Index n);
    // SMO's gradient update after a pair moved: G[k] += Qi[k]·dai + Qj[k]·daj for k < n, the
    // floats widened to double, the two products rounded, then added in that order.
    void (*smo_gradient_update)(double* G, const float* Qi, const float* Qj, double dai, double daj, Index n);
    SmoPickI (*smo_pick_i)(const double* G, const std::int8_t* y, const std::int8_t* status, Index n);
    SmoPickJ (*smo_pick_j)(const double* G, const std::int8_t* y, const std::int8_t* status, const double* QD,
                           const float* Qi, Index n, double gmax, double qd_i, double two_yi);
    // at[r] = bottom[the position row r (n rows, x + r·stride) reaches after levels.depth
    // levels] for r < n. Null on the paths that walk the portable way (TreeWalk::leaves).
    void (*walk_levels)(const WalkLevels& levels, const double* x, Index stride, Index n, std::int32_t* at);
    // The same for m rows given by where their values start: out[i] for the row at
    // x + offsets[i] (TreeWalk::leaves' rows sorted by the subtree they reached).
    void (*walk_levels_rows)(const WalkLevels& levels, const double* x, const std::int64_t* offsets, Index m,
                             std::int32_t* out);
    // out[c] += a[j]·rows[j·d + c] for j < n in order, for each c < d: n consecutive rows of
    // length d, weighted and added in (Xᵀa over a block of rows). Each out[c] is a running sum
    // over the rows, every product rounded and then added, so every path gives the same bits.
    void (*add_weighted_rows)(const double* a, const double* rows, Index n, Index d, double* out);
};

const SimdLoops& simd_loops();                // the path in use
const SimdLoops& simd_loops(SimdPath path);  // a given path's (tests); InternalError if unsupported

}  // namespace kestrel
