#pragma once
// How the text readers classify one numeric field: a finite number, a missing
// value (empty, NA, N/A, NaN, nan, ?), an infinity (never allowed as data), or
// something that is not a number at all.
#include <fast_float/fast_float.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <string_view>
#include <system_error>

#include "kestrel/io/missing_tokens.hpp"

namespace kestrel::detail {

enum class FieldKind { number, missing, infinite, invalid };

using ::kestrel::is_missing_token;

// Parses the whole of [b, e) but surrounding spaces. fast_float rejects a leading
// '+', which spreadsheets do write, so it is skipped here.
inline FieldKind classify_number(const char* b, const char* e, double& value) {
    while (b < e && (*b == ' ' || *b == '\t' || *b == '\r')) ++b;
    while (e > b && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r')) --e;
    if (is_missing_token(std::string_view(b, static_cast<std::size_t>(e - b)))) return FieldKind::missing;
    const char* p = b;
    if (*p == '+') {
        ++p;
        if (p == e || *p == '-' || *p == '+') return FieldKind::invalid;
    }
    const auto r = fast_float::from_chars(p, e, value);
    if (r.ec != std::errc() || r.ptr != e) return FieldKind::invalid;
    if (std::isnan(value)) return FieldKind::missing;
    if (std::isinf(value)) return FieldKind::infinite;
    return FieldKind::number;
}

// Whether classify_number would call `s` invalid, decided from its first two bytes
// alone for most text (a category such as "north_17"): a number starts with a sign, a
// digit or '.', a missing marker is empty, '?' or starts "NA", "N/", "na" or "nan",
// an infinity or NaN starts "in" or "na" (either case), and spaces are trimmed first.
// false means "ask classify_number", never "is a number".
constexpr bool surely_text(std::string_view s) {
    if (s.empty()) return false;
    const char c = s[0];
    if ((c >= '0' && c <= '9') || c == '+' || c == '-' || c == '.' || c == '?' || c == ' ' || c == '\t' ||
        c == '\r')
        return false;
    const char second = s.size() > 1 ? s[1] : '\0';
    if (c == 'n' || c == 'N') return second != 'a' && second != 'A' && second != '/' && second != '\0';
    if (c == 'i' || c == 'I') return second != 'n' && second != 'N';
    return true;
}
static_assert([] {
    for (std::string_view t : kMissingTokens)
        if (surely_text(t)) return false;
    return true;
}(), "surely_text must leave every missing marker to classify_number");

// The common case of data files, parsed without fast_float's generality: at most
// 19 digits, a decimal exponent within +-22 and a mantissa below 2^53, so that one
// IEEE multiplication or division by an exact power of ten rounds correctly
// (Clinger's fast path, the one fast_float takes too). Returns the end of the
// number, or nullptr to hand the field to fast_float.
inline const char* parse_plain_decimal(const char* p, const char* end, double& out) {
    static constexpr double kPow10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
                                       1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
    const char* q = p;
    const bool negative = q < end && *q == '-';
    if (negative) ++q;
    std::uint64_t m = 0;
    int digits = 0;
    while (q < end && static_cast<unsigned>(*q - '0') < 10) {
        m = m * 10 + static_cast<unsigned>(*q - '0');
        ++q;
        ++digits;
    }
    int exponent = 0;
    if (q < end && *q == '.') {
        const char* f = ++q;
        while (q < end && static_cast<unsigned>(*q - '0') < 10) {
            m = m * 10 + static_cast<unsigned>(*q - '0');
            ++q;
        }
        exponent = -static_cast<int>(q - f);
        digits -= exponent;
    }
    if (digits == 0 || digits > 19) return nullptr;
    if (q < end && (*q == 'e' || *q == 'E')) {
        const char* r = q + 1;
        const bool negative_exponent = r < end && *r == '-';
        if (r < end && (*r == '-' || *r == '+')) ++r;
        if (r == end || static_cast<unsigned>(*r - '0') >= 10) return nullptr;
        int e = 0;
        while (r < end && static_cast<unsigned>(*r - '0') < 10) {
            if (e < 100000) e = e * 10 + (*r - '0');
            ++r;
        }
        exponent += negative_exponent ? -e : e;
        q = r;
    }
    if (m > (std::uint64_t{1} << 53) || exponent < -22 || exponent > 22) return nullptr;
    const double v = exponent < 0 ? static_cast<double>(m) / kPow10[-exponent]
                                  : static_cast<double>(m) * kPow10[exponent];
    out = negative ? -v : v;
    return q;
}

// A number at p for the readers' fast paths: the end of it, or nullptr when there
// is no finite number at p.
inline const char* parse_number_prefix(const char* p, const char* end, double& out) {
    if (const char* q = parse_plain_decimal(p, end, out)) return q;
    const auto r = fast_float::from_chars(p, end, out);
    return r.ec == std::errc() && std::isfinite(out) ? r.ptr : nullptr;
}

// A field as quoted in an error message, cut short when very long. Control bytes
// (a newline inside a quoted field, NUL and escape codes of a binary file) are shown
// as \xNN: an error stays one line and never drives the terminal.
inline std::string quote_field(std::string_view s) {
    constexpr std::size_t kMaxShown = 40;
    static const char hex[] = "0123456789abcdef";
    std::string out = "\"";
    for (const char ch : s.substr(0, kMaxShown)) {
        const auto c = static_cast<unsigned char>(ch);
        if (c < 0x20 || c == 0x7f) {
            out += "\\x";
            out += hex[c >> 4];
            out += hex[c & 15];
        } else {
            out += ch;
        }
    }
    if (s.size() > kMaxShown) out += "...";
    out += '"';
    return out;
}

}  // namespace kestrel::detail
