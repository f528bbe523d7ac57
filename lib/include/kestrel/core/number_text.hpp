#pragma once
// Numbers as text, locale-independent: "1e-3", "2^-5", "0x1p-3" in; shortest exact out.
#include <optional>
#include <string>
#include <string_view>

namespace kestrel {

// Parses a whole string as a finite number; also accepts B^E (e.g. 2^-5). nullopt otherwise.
std::optional<double> parse_number_text(std::string_view text);
// Shortest text that reads back to the same double ("0.1", "1e-05", "3").
std::string format_number(double x);
// x with exactly `decimals` digits after the point, as printf's %.*f ("-0.0000", "nan" included).
std::string format_fixed(double x, int decimals);
// A duration for people, three significant digits at most: "0.18 ms", "87.2 ms", "2.4 s",
// "3 min 12 s", "2 h 05 min". Negative or non-finite input gives "0 ms" / "nan s".
std::string format_duration(double seconds);

}  // namespace kestrel
