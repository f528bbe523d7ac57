#pragma once
// Our CSV reader, built on fast_float: RFC 4180 quoting, CRLF, UTF-8 BOM, blank lines
// skipped, delimiter , ; or tab (detected), parallel over line-aligned chunks with
// the row order kept.
#include <string_view>

#include "kestrel/io/read_options.hpp"

namespace kestrel {

Table read_csv(std::string_view text, const std::string& source, const ReadOptions& opts);

// The delimiter among , ; and tab that splits the first record most consistently.
char detect_delimiter(std::string_view text);

}  // namespace kestrel
