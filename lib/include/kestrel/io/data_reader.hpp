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

// Format by extension (.csv .tsv .txt -> csv; .libsvm .svm -> libsvm) else by sniffing
// the first non-comment line ("label idx:val" tokens -> libsvm).
FileFormat detect_format(const std::string& path, std::string_view head);

}  // namespace kestrel
