#pragma once
// The entry point for reading data: picks the format (extension, sniffing, or
// forced) and reads a path or "-" (standard input).
#include <string>
#include <string_view>

#include "kestrel/io/read_options.hpp"

namespace kestrel {

// Throws DataError ("file:line:column: ...") on bad input.
Table read_table(const std::string& path, const ReadOptions& opts);

// The same on a buffer already in memory (stdin, tests, fuzzing). `source` names it in errors.
Table read_table_from_buffer(std::string_view text, const std::string& source, const ReadOptions& opts);

// Format by extension (.csv .tsv -> csv; .libsvm .svm .svmlight .scale .t -> libsvm), else
// (.txt, none, "-") by sniffing the first non-blank, non-comment line with two or more
// tokens: "label idx:val ..." -> libsvm, anything else -> csv.
FileFormat detect_format(const std::string& path, std::string_view head);

}  // namespace kestrel
