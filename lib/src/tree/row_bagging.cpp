#include "kestrel/tree/row_bagging.hpp"

#include <cmath>

#include "kestrel/core/rng.hpp"

namespace kestrel {

double row_bag_count(std::uint64_t bag_seed, Index g, double fraction, bool with_replacement) {
    // One uniform in [0, 1) from the 53 high bits of the row's own hash.
    const double u = static_cast<double>(derive_seed(bag_seed, static_cast<std::uint64_t>(g)) >> 11) * 0x1.0p-53;
    if (!with_replacement) return u < fraction ? 1.0 : 0.0;
    // Inversion of the Poisson CDF; the cap stops a CDF that rounding leaves just below u.
    double p = std::exp(-fraction), cdf = p;
    int k = 0;
    while (u >= cdf && k < 64) {
        ++k;
        p *= fraction / k;
        cdf += p;
    }
    return static_cast<double>(k);
}

}  // namespace kestrel
