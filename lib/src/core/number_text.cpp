#include "kestrel/core/number_text.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <fast_float/fast_float.h>

namespace kestrel {
namespace {

std::optional<double> plain_number(std::string_view s) {
    if (s.empty()) return std::nullopt;
    if (s.front() == '+') s.remove_prefix(1);
    double x = 0;
    auto r = fast_float::from_chars(s.data(), s.data() + s.size(), x);
    if (r.ec != std::errc() || r.ptr != s.data() + s.size() || !std::isfinite(x)) return std::nullopt;
    return x;
}

}  // namespace

std::optional<double> parse_number_text(std::string_view text) {
    while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
    while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
    const auto caret = text.find('^');
    if (caret == std::string_view::npos) return plain_number(text);
    auto base = plain_number(text.substr(0, caret));
    auto exponent = plain_number(text.substr(caret + 1));
    if (!base || !exponent) return std::nullopt;
    const double x = std::pow(*base, *exponent);
    if (!std::isfinite(x)) return std::nullopt;
    return x;
}

std::string format_number(double x) {
    char buf[64];
    auto r = std::to_chars(buf, buf + sizeof buf, x);  // shortest round-trip, never locale-dependent
    return std::string(buf, r.ptr);
}

std::string format_fixed(double x, int decimals) {
    char buf[400];  // %.*f of the largest double with a few decimals fits
    std::snprintf(buf, sizeof buf, "%.*f", decimals, x);
    return buf;
}

std::string format_duration(double seconds) {
    if (std::isnan(seconds)) return "nan s";
    seconds = std::max(seconds, 0.0);
    // Below a minute: milliseconds or seconds, to three significant digits at most (the
    // clock's last digits are noise); above, whole units as a wall clock is read.
    if (seconds < 0.9995) {
        const double ms = seconds * 1e3;
        return format_fixed(ms, ms < 9.995 ? 2 : ms < 99.95 ? 1 : 0) + " ms";
    }
    if (seconds < 59.95) return format_fixed(seconds, seconds < 9.995 ? 2 : 1) + " s";
    if (seconds < 3599.5) {
        const auto whole = static_cast<long long>(std::llround(seconds));
        return std::to_string(whole / 60) + " min " + std::to_string(whole % 60) + " s";
    }
    if (!std::isfinite(seconds)) return "inf s";
    const auto minutes = static_cast<long long>(std::llround(seconds / 60));
    const long long m = minutes % 60;
    return std::to_string(minutes / 60) + " h " + (m < 10 ? "0" : "") + std::to_string(m) + " min";
}

}  // namespace kestrel
