// Follows scikit-learn 1.2's isotonic.py (_build_y, _build_f) and _isotonic.pyx
// (_make_unique, _inplace_contiguous_isotonic_regression) rule for rule, so that equal
// scores give its knots.
#include "kestrel/calibration/isotonic.hpp"

#include <algorithm>
#include <cstddef>
#include <numeric>

#include "kestrel/core/error.hpp"

namespace kestrel {

namespace {

// Pool adjacent violators in place, single pass with backtracking (Best & Chakravarti).
void pool_adjacent_violators(std::vector<double>& y, std::vector<double>& w) {
    const std::size_t n = y.size();
    // target[i]: the last index of the block starting at i, and the reverse at its end.
    std::vector<std::size_t> target(n);
    std::iota(target.begin(), target.end(), std::size_t{0});
    std::size_t i = 0;
    while (i < n) {
        std::size_t k = target[i] + 1;
        if (k == n) break;
        if (y[i] < y[k]) {
            i = k;
            continue;
        }
        double sum_wy = w[i] * y[i], sum_w = w[i];
        while (true) {
            const double prev_y = y[k];
            sum_wy += w[k] * y[k];
            sum_w += w[k];
            k = target[k] + 1;
            if (k == n || prev_y < y[k]) {
                y[i] = sum_wy / sum_w;
                w[i] = sum_w;
                target[i] = k - 1;
                target[k - 1] = i;
                if (i > 0) i = target[i - 1];
                break;
            }
        }
    }
    for (i = 0; i < n;) {
        const std::size_t k = target[i] + 1;
        std::fill(y.begin() + static_cast<std::ptrdiff_t>(i) + 1, y.begin() + static_cast<std::ptrdiff_t>(k), y[i]);
        i = k;
    }
}

}  // namespace

IsotonicFit fit_isotonic(std::span<const double> scores, std::span<const double> targets,
                         std::span<const double> weights) {
    const std::size_t n = scores.size();
    if (targets.size() != n || (!weights.empty() && weights.size() != n))
        throw InternalError("fit_isotonic: mismatched input");
    const auto w = [&](std::size_t i) { return weights.empty() ? 1.0 : weights[i]; };
    std::vector<std::size_t> order;
    for (std::size_t i = 0; i < n; ++i)
        if (w(i) > 0) order.push_back(i);
    if (order.empty()) throw UsageError("isotonic calibration needs rows of positive weight");
    // np.lexsort((y, X)): by score, then by target.
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        return scores[a] != scores[b] ? scores[a] < scores[b] : targets[a] < targets[b];
    });
    // _make_unique: a run of scores within its resolution (1e-15) of the run's first is one point.
    constexpr double kResolution = 1e-15;
    std::vector<double> x, y, sw;
    double run_x = scores[order.front()], run_wy = 0, run_w = 0;
    for (const std::size_t i : order) {
        if (scores[i] - run_x >= kResolution) {
            x.push_back(run_x);
            y.push_back(run_wy / run_w);
            sw.push_back(run_w);
            run_x = scores[i];
            run_wy = 0;
            run_w = 0;
        }
        run_wy += targets[i] * w(i);
        run_w += w(i);
    }
    x.push_back(run_x);
    y.push_back(run_wy / run_w);
    sw.push_back(run_w);
    pool_adjacent_violators(y, sw);
    IsotonicFit fit;
    for (std::size_t j = 0; j < x.size(); ++j) {
        const bool interior = j > 0 && j + 1 < x.size();
        if (interior && y[j] == y[j - 1] && y[j] == y[j + 1]) continue;  // on a flat stretch
        fit.x.push_back(x[j]);
        fit.y.push_back(y[j]);
    }
    return fit;
}

double IsotonicFit::operator()(double score) const {
    if (x.empty()) throw InternalError("isotonic map used unfitted");
    if (x.size() == 1) return y.front();
    const double s = std::clamp(score, x.front(), x.back());
    // scipy's interp1d: the interval [x[lo], x[lo+1]] with x[lo+1] the first knot >= s.
    const auto hi_it = std::lower_bound(x.begin() + 1, x.end() - 1, s);
    const auto hi = static_cast<std::size_t>(hi_it - x.begin()), lo = hi - 1;
    const double slope = (y[hi] - y[lo]) / (x[hi] - x[lo]);
    return slope * (s - x[lo]) + y[lo];
}

}  // namespace kestrel
