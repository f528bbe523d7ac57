#pragma once
// The outer loop of LIBLINEAR's dual coordinate descent solvers, shared by the SVC duals
// (solve_l2r_l1l2_svc, Hsieh et al. 2008) and the SVR duals (solve_l2r_l1l2_svr, Ho & Lin
// 2012): each pass visits the active rows in a fresh random order, a row the coordinate
// step judges stuck at its bound is shrunk away, and once the stopping rule holds on a
// shrunk set every row is brought back for one more check. What differs between the
// duals is the coordinate step and the statistics its shrinking and stopping rule use.
#include <cstddef>
#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

#include "kestrel/core/interrupt.hpp"
#include "kestrel/core/rng.hpp"
#include "kestrel/optim/dual_cd.hpp"

namespace kestrel::dual_cd {

// No bound (an L2-loss box) and the shrinking thresholds before the first pass.
inline constexpr double kInfinity = std::numeric_limits<double>::infinity();

// Step supplies:
//   void begin_pass()                    resets the pass's violation statistics;
//   bool update(Index i)                 one coordinate step on row i, or false to shrink it;
//   bool end_pass(double eps, bool first_pass)  the stopping rule on the pass just done; when
//                                        it fails, that pass's statistics become the next
//                                        pass's shrinking bounds;
//   void forget_bounds()                 no shrinking on the next pass.
// index holds the rows that can move; r.iterations counts the passes.
template <class Step>
void run(Step& step, std::vector<Index>& index, const DualCdOptions& o, DualCdResult& r) {
    const auto total = static_cast<std::ptrdiff_t>(index.size());
    std::ptrdiff_t active = total;
    Rng rng(o.seed);
    while (r.iterations < o.max_iter) {
        interruption_point();
        step.begin_pass();
        for (std::ptrdiff_t s = 0; s < active; ++s)
            std::swap(index[s], index[s + static_cast<std::ptrdiff_t>(rng.below(static_cast<std::uint64_t>(active - s)))]);
        for (std::ptrdiff_t s = 0; s < active; ++s) {
            if (!step.update(index[s])) {
                std::swap(index[s], index[--active]);
                --s;
            }
        }
        const bool first_pass = r.iterations == 0;
        ++r.iterations;
        if (step.end_pass(o.eps, first_pass)) {
            if (active == total) {
                r.converged = true;
                break;
            }
            // Converged on the shrunk set: check every row once more before stopping.
            active = total;
            step.forget_bounds();
        }
    }
}

// Rows with LIBLINEAR's bias feature (value b, weight w[d]) appended when b > 0.
template <class Rows>
struct BiasedRows {
    const Rows& rows;
    Index d;
    double b;
    bool has_bias = b > 0;

    double bias_term(const double* w) const { return has_bias ? b * w[d] : 0.0; }
    void axpy(Index i, double step, double* w) const {
        rows.axpy(i, step, w);
        if (has_bias) w[d] += step * b;
    }
};

}  // namespace kestrel::dual_cd
