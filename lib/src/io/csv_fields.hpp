#pragma once
// The CSV field scanner (RFC 4180): quoted fields, doubled quotes, delimiters and
// newlines inside quotes, surrounding spaces and a CR before the LF trimmed.
#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

namespace kestrel::detail {

enum class FieldEnd : unsigned char {
    delimiter,     // more fields follow in this record
    record,        // the '\n' ending the record was consumed
    eof,           // the text ended
    bad_quote,     // something other than a delimiter or newline after a closing quote
    unterminated,  // an opening quote never closed
    stray_quote,   // a quote inside an unquoted field
};

inline bool field_failed(FieldEnd e) { return e >= FieldEnd::bad_quote; }

inline bool is_field_space(char c, bool tab_is_space) {
    return c == ' ' || c == '\r' || (c == '\t' && tab_is_space);
}

// The first delimiter, '\n' or '"' at or after q, or `end`. Eight bytes at a time while
// eight remain (a cell is a few words): each byte of a word is compared with the three at
// once, and the lowest match is exact (a false match can only sit above a true one).
inline const char* unquoted_field_end(const char* q, const char* end, char delim) {
    if constexpr (std::endian::native == std::endian::little) {
        constexpr std::uint64_t kOnes = 0x0101010101010101ULL;
        constexpr std::uint64_t kHighs = 0x8080808080808080ULL;
        const std::uint64_t d = kOnes * static_cast<unsigned char>(delim);
        const std::uint64_t n = kOnes * static_cast<unsigned char>('\n');
        const std::uint64_t quote = kOnes * static_cast<unsigned char>('"');
        for (; end - q >= 8; q += 8) {
            std::uint64_t w;
            std::memcpy(&w, q, 8);
            const std::uint64_t a = w ^ d, b = w ^ n, c = w ^ quote;
            const std::uint64_t hit = (((a - kOnes) & ~a) | ((b - kOnes) & ~b) | ((c - kOnes) & ~c)) & kHighs;
            if (hit) return q + std::countr_zero(hit) / 8;
        }
    }
    while (q < end && *q != delim && *q != '\n' && *q != '"') ++q;
    return q;
}

// The quoted field whose opening quote is at q (spaces before it skipped): see scan_field.
// Out of line, so that the unquoted path, almost every cell, inlines into the parsers.
[[gnu::noinline]] inline FieldEnd scan_quoted_field(const char*& p, const char* q, const char* end, char delim,
                                                    std::string_view& text, std::string& scratch,
                                                    std::uint64_t& newlines) {
    const bool tab_is_space = delim != '\t';
    const char* start = ++q;
    bool collapsed = false;
    for (;;) {
        const auto* close = static_cast<const char*>(std::memchr(q, '"', static_cast<std::size_t>(end - q)));
        if (!close) {
            p = end;
            return FieldEnd::unterminated;
        }
        newlines += static_cast<std::uint64_t>(std::count(q, close, '\n'));
        if (close + 1 < end && close[1] == '"') {
            if (!collapsed) scratch.assign(start, close + 1);
            else scratch.append(q, close + 1);
            collapsed = true;
            q = close + 2;
            continue;
        }
        if (collapsed) {
            scratch.append(q, close);
            text = scratch;
        } else {
            text = std::string_view(start, static_cast<std::size_t>(close - start));
        }
        q = close + 1;
        break;
    }
    while (q < end && is_field_space(*q, tab_is_space)) ++q;
    if (q == end) {
        p = end;
        return FieldEnd::eof;
    }
    if (*q == delim || *q == '\n') {
        p = q + 1;
        return *q == delim ? FieldEnd::delimiter : FieldEnd::record;
    }
    p = q;
    return FieldEnd::bad_quote;
}

// Reads the field at p and moves p past its terminator. `text` is a view into the
// input, or into `scratch` when doubled quotes had to be collapsed. `newlines` counts
// the line breaks crossed inside quotes (the record's own '\n' is not counted).
inline FieldEnd scan_field(const char*& p, const char* end, char delim, std::string_view& text,
                           std::string& scratch, std::uint64_t& newlines) {
    const bool tab_is_space = delim != '\t';
    const char* q = p;
    while (q < end && (*q == ' ' || (*q == '\t' && tab_is_space))) ++q;
    if (q < end && *q == '"') return scan_quoted_field(p, q, end, delim, text, scratch, newlines);
    const char* s = q;
    q = unquoted_field_end(q, end, delim);
    if (q < end && *q == '"') {
        p = q;
        return FieldEnd::stray_quote;
    }
    const char* t = q;
    while (t > s && is_field_space(t[-1], tab_is_space)) --t;
    text = std::string_view(s, static_cast<std::size_t>(t - s));
    if (q == end) {
        p = end;
        return FieldEnd::eof;
    }
    p = q + 1;
    return *q == delim ? FieldEnd::delimiter : FieldEnd::record;
}

inline const char* field_error_text(FieldEnd e) {
    switch (e) {
        case FieldEnd::bad_quote: return "unexpected character after a closing quote (a quote inside a quoted field is written \"\")";
        case FieldEnd::unterminated: return "quoted field is never closed";
        case FieldEnd::stray_quote: return "quote inside an unquoted field (quote the whole field and double the inner quote)";
        default: return "malformed field";
    }
}

}  // namespace kestrel::detail
