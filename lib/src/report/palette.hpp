#pragma once
// Colour-blind-safe colours: Okabe & Ito's qualitative palette for lines, and the
// viridis sequential map (perceptually uniform, readable in greyscale) for heat maps.
#include <string>

namespace kestrel::report::detail {

// The i-th line colour, cycling through 7 colours ("#0072B2", ...).
std::string series_colour(std::size_t i);
// viridis at t in [0, 1] (clamped), as "#rrggbb".
std::string viridis(double t);
// Whether text over viridis(t) should be white (dark background) rather than black.
bool dark_on_viridis(double t);
inline const std::string kMissingColour = "#c8c8c8";

}  // namespace kestrel::report::detail
