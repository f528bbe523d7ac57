#include "kestrel/tree/split_criteria.hpp"

#include <algorithm>

#include "kestrel/core/error.hpp"

namespace kestrel {

const char* to_string(Criterion c) {
    switch (c) {
        case Criterion::gini:
            return "gini";
        case Criterion::entropy:
            return "entropy";
        case Criterion::variance:
            return "variance";
    }
    return "?";
}

Criterion criterion_from_string(const std::string& s) {
    if (s == "gini") return Criterion::gini;
    if (s == "entropy") return Criterion::entropy;
    if (s == "variance") return Criterion::variance;
    throw ParamError("unknown split criterion '" + s + "' (valid: gini, entropy, variance)");
}

double class_impurity(Criterion c, std::span<const double> class_weights) {
    double total = 0;
    for (double w : class_weights) total += w;
    if (!(total > 0)) return 0.0;
    if (c == Criterion::gini) {
        double sq = 0;
        for (double w : class_weights) sq += (w / total) * (w / total);
        return std::max(0.0, 1.0 - sq);
    }
    if (c == Criterion::entropy) {
        double h = 0;
        for (double w : class_weights)
            if (w > 0) h -= (w / total) * std::log2(w / total);
        return std::max(0.0, h);
    }
    throw InternalError("class_impurity called with the variance criterion");
}

double variance_impurity(double w, double wy, double wyy) {
    if (!(w > 0)) return 0.0;
    const double mean = wy / w;
    // Rounding can make E[y²] − E[y]² slightly negative for a constant target.
    return std::max(0.0, wyy / w - mean * mean);
}

}  // namespace kestrel
