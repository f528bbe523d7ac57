#include "text_encoding.hpp"

#include "kestrel/core/error.hpp"

namespace kestrel::detail {

bool is_utf8(std::string_view text) {
    const auto* p = reinterpret_cast<const unsigned char*>(text.data());
    const auto* end = p + text.size();
    while (p < end) {
        const unsigned char c = *p;
        if (c < 0x80) {
            ++p;
            continue;
        }
        int extra = 0;
        unsigned lo = 0x80, hi = 0xBF;  // allowed range of the byte after the lead byte
        if (c >= 0xC2 && c <= 0xDF) {
            extra = 1;
        } else if (c >= 0xE0 && c <= 0xEF) {
            extra = 2;
            if (c == 0xE0) lo = 0xA0;  // overlong
            if (c == 0xED) hi = 0x9F;  // UTF-16 surrogates
        } else if (c >= 0xF0 && c <= 0xF4) {
            extra = 3;
            if (c == 0xF0) lo = 0x90;  // overlong
            if (c == 0xF4) hi = 0x8F;  // past U+10FFFF
        } else {
            return false;
        }
        if (end - p <= extra) return false;
        if (p[1] < lo || p[1] > hi) return false;
        for (int k = 2; k <= extra; ++k)
            if ((p[k] & 0xC0) != 0x80) return false;
        p += extra + 1;
    }
    return true;
}

namespace {

std::string shown(const std::string& s) {
    std::string out;
    for (unsigned char c : s.substr(0, 40)) {
        if (c >= 0x20 && c < 0x7F) {
            out += static_cast<char>(c);
        } else {
            static const char* hex = "0123456789ABCDEF";
            out += "\\x";
            out += hex[c >> 4];
            out += hex[c & 15];
        }
    }
    return out;
}

[[noreturn]] void refuse(const SourceLocation& where, const std::string& what, const std::string& text) {
    throw DataError(where, what + " '" + shown(text) +
                               "' is not UTF-8 text; kestrel reads UTF-8: convert the file first (iconv -f LATIN1 -t UTF-8)");
}

}  // namespace

void require_utf8_text(const Table& table, const std::string& source) {
    for (const auto& name : table.feature_names)
        if (!is_utf8(name)) refuse(SourceLocation{source, 0, 0}, "the column name", name);
    if (!is_utf8(table.label_name)) refuse(SourceLocation{source, 0, 0}, "the column name", table.label_name);
    for (std::size_t j = 0; j < table.categories.size(); ++j)
        for (const auto& c : table.categories[j])
            if (!is_utf8(c))
                refuse(SourceLocation{source, 0, 0},
                       "a category of column " +
                           (j < table.feature_names.size() ? "'" + table.feature_names[j] + "'" : std::to_string(j)),
                       c);
    if (!table.labels) return;
    const RawLabels& labels = *table.labels;
    for (std::size_t i = 0; i < labels.text.size(); ++i)
        if (!is_utf8(labels.text[i])) refuse(SourceLocation{source, labels.line[i], 0}, "the label", labels.text[i]);
}

}  // namespace kestrel::detail
