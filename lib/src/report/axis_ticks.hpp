#pragma once
// Tick positions that a person reads at a glance: 1, 2 or 5 times a power of ten on a
// linear axis (Heckbert's "nice numbers"), powers of ten on a log axis.
#include <string>
#include <vector>

namespace kestrel::report::detail {

struct Tick {
    double value = 0;
    std::string label;
    std::string exponent;  // log axes: label "10" with this superscript; empty otherwise
};

// About `target` ticks inside [lo, hi] (lo < hi).
std::vector<Tick> linear_ticks(double lo, double hi, int target = 6);
// Ticks inside [lo, hi], 0 < lo < hi, in data units (not logs).
std::vector<Tick> log_ticks(double lo, double hi);

}  // namespace kestrel::report::detail
