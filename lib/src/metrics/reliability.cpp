#include <cmath>

#include "kestrel/core/error.hpp"
#include "kestrel/metrics/curves.hpp"

namespace kestrel {

ReliabilityCurve reliability_curve(const Eigen::VectorXd& is_positive, const Eigen::VectorXd& proba, int n_bins) {
    if (n_bins < 1) throw UsageError("a reliability diagram needs at least one bin");
    if (is_positive.size() != proba.size()) throw InternalError("reliability_curve: mismatched lengths");
    const auto bins = static_cast<std::size_t>(n_bins);
    std::vector<double> sum(bins, 0), positives(bins, 0);
    std::vector<Index> count(bins, 0);
    // numpy's linspace(0, 1, n + 1) edges are b * (1 / n): the same doubles here.
    const double step = 1.0 / n_bins;
    for (Index i = 0; i < proba.size(); ++i) {
        const double p = proba[i];
        if (!std::isfinite(p)) throw DataError("reliability diagram: a probability is not finite");
        // np.searchsorted(interior edges, p): how many interior edges lie strictly below p.
        std::size_t b = 0;
        while (b + 1 < bins && static_cast<double>(b + 1) * step < p) ++b;
        sum[b] += p;
        positives[b] += is_positive[i];
        ++count[b];
    }
    ReliabilityCurve c;
    for (std::size_t b = 0; b < bins; ++b) {
        if (count[b] == 0) continue;
        const auto n = static_cast<double>(count[b]);
        c.mean_predicted.push_back(sum[b] / n);
        c.fraction_positive.push_back(positives[b] / n);
        c.count.push_back(count[b]);
    }
    return c;
}

}  // namespace kestrel
