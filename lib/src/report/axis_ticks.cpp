#include "axis_ticks.hpp"

#include <algorithm>
#include <cmath>

#include "kestrel/core/number_text.hpp"
#include "svg_text.hpp"

namespace kestrel::report::detail {
namespace {

// The 1, 2 or 5 x 10^e nearest to `raw` (Heckbert's rounding thresholds).
double nice_step(double raw) {
    const double e = std::floor(std::log10(raw));
    const double base = std::pow(10.0, e);
    const double f = raw / base;
    const double nice = f < 1.5 ? 1.0 : f < 3.0 ? 2.0 : f < 7.0 ? 5.0 : 10.0;
    return nice * base;
}

std::string tick_label(double v, double step) {
    const double mag = std::max(std::fabs(v), step);
    if (mag >= 1e6 || step < 1e-4) return significant_text(v, 6);
    const int decimals = std::max(0, -static_cast<int>(std::floor(std::log10(step) + 1e-9)));
    return fixed_text(v, decimals);
}

}  // namespace

std::vector<Tick> linear_ticks(double lo, double hi, int target) {
    std::vector<Tick> out;
    if (!(hi > lo) || !std::isfinite(lo) || !std::isfinite(hi)) return out;
    const double step = nice_step((hi - lo) / std::max(1, target - 1));
    const double eps = step * 1e-9;
    const double first = std::ceil((lo - eps) / step);
    const double last = std::floor((hi + eps) / step);
    for (double i = first; i <= last; i += 1) {
        double v = i * step;  // from the index, so errors never accumulate (0.30000000000000004)
        if (std::fabs(v) < eps) v = 0;
        out.push_back({v, tick_label(v, step), ""});
    }
    return out;
}

std::vector<Tick> log_ticks(double lo, double hi) {
    std::vector<Tick> out;
    if (!(lo > 0) || !(hi > lo)) return out;
    const double e0 = std::ceil(std::log10(lo) - 1e-9), e1 = std::floor(std::log10(hi) + 1e-9);
    if (e1 - e0 >= 1) {
        // Every power of ten, thinned to at most 8 ticks.
        const double every = std::ceil((e1 - e0 + 1) / 8.0);
        for (double e = e0; e <= e1; e += every)
            out.push_back({std::pow(10.0, e), "10", format_number(e)});
        return out;
    }
    // Less than a decade: 1, 2 and 5 times powers of ten, else plain linear ticks.
    for (double e = std::floor(std::log10(lo)); e <= e1 + 1; e += 1)
        for (double m : {1.0, 2.0, 5.0}) {
            const double v = m * std::pow(10.0, e);
            if (v >= lo * (1 - 1e-9) && v <= hi * (1 + 1e-9)) out.push_back({v, significant_text(v, 6), ""});
        }
    if (out.size() < 2) return linear_ticks(lo, hi, 4);
    return out;
}

}  // namespace kestrel::report::detail
