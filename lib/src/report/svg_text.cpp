#include "svg_text.hpp"

#include <charconv>
#include <cmath>

#include "kestrel/core/number_text.hpp"

namespace kestrel::report::detail {

std::string xml_escape(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    for (char c : text) {
        switch (c) {
            case '&': out += "&amp;"; break;
            case '<': out += "&lt;"; break;
            case '>': out += "&gt;"; break;
            case '"': out += "&quot;"; break;
            case '\'': out += "&apos;"; break;
            default:
                // Control characters are not allowed in XML 1.0: they would make the file unreadable.
                if (static_cast<unsigned char>(c) < 0x20 && c != '\t' && c != '\n') out += ' ';
                else out += c;
        }
    }
    return out;
}

std::string coord(double x) {
    double r = std::round(x * 100.0) / 100.0;
    if (r == 0) r = 0;  // no "-0"
    return format_number(r);
}

std::string fixed_text(double x, int decimals) {
    if (std::isnan(x)) return "nan";
    if (std::isinf(x)) return x > 0 ? "inf" : "-inf";
    char buf[128];
    auto r = std::to_chars(buf, buf + sizeof buf, x, std::chars_format::fixed, decimals);
    if (r.ec != std::errc()) return format_number(x);
    std::string s(buf, r.ptr);
    if (s.front() == '-' && s.find_first_not_of("-0.") == std::string::npos) s.erase(0, 1);
    return s;
}

std::string significant_text(double x, int digits) {
    if (std::isnan(x)) return "nan";
    if (std::isinf(x)) return x > 0 ? "inf" : "-inf";
    if (x == 0) return "0";
    char buf[128];
    auto r = std::to_chars(buf, buf + sizeof buf, x, std::chars_format::general, digits);
    if (r.ec != std::errc()) return format_number(x);
    return std::string(buf, r.ptr);
}

double text_width(std::string_view text, double font_size) {
    double em = 0;
    for (unsigned char c : text) {
        if ((c & 0xC0) == 0x80) continue;  // UTF-8 continuation byte: one glyph per code point
        if (c == 'i' || c == 'l' || c == 'j' || c == '.' || c == ',' || c == '\'' || c == ' ' || c == '(' || c == ')' ||
            c == 't' || c == 'f' || c == 'r' || c == '|')
            em += 0.33;
        else if (c == 'm' || c == 'w' || c == 'M' || c == 'W')
            em += 0.85;
        else if (c >= 'A' && c <= 'Z')
            em += 0.68;
        else
            em += 0.6;
    }
    return em * font_size;
}

}  // namespace kestrel::report::detail
