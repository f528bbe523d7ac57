#pragma once
// Text and numbers inside SVG documents: XML escaping and locale-independent number
// formatting, so the same plot is the same bytes on every machine.
#include <string>
#include <string_view>

namespace kestrel::report::detail {

std::string xml_escape(std::string_view text);
// A pixel coordinate rounded to 0.01 ("12.5", "300").
std::string coord(double x);
// Fixed notation with `decimals` digits after the point ("0.912"); "-0" is written "0".
std::string fixed_text(double x, int decimals);
// `digits` significant digits, trailing zeros kept out ("0.967", "1.2e+04", "12").
std::string significant_text(double x, int digits);
// Rough width in pixels of a line of text at a font size (for layout only).
double text_width(std::string_view text, double font_size);
// The font size of axis, tick and legend labels (the documents' default), for layout.
inline constexpr double kLabelFont = 12;

}  // namespace kestrel::report::detail
