#pragma once
// The entry point for reading data: reads a path or "-" (standard input) whole, in the
// format table_format.hpp decides (forced, by extension, or by sniffing). An input that
// starts with the magic bytes of gzip, zstd, xz or bzip2 is decompressed first, whatever
// its name: every reader sees its text.
#include <string>
#include <string_view>

#include "kestrel/io/read_options.hpp"
#include "kestrel/io/table_format.hpp"  // detect_format

namespace kestrel {

// Throws DataError ("file:line:column: ...") on bad input. With opts.cache, the table comes
// from that cache when it is valid for the file and the options, and is otherwise parsed and
// written there (kestrel/io/table_cache.hpp); UsageError for standard input or a pipe then.
Table read_table(const std::string& path, const ReadOptions& opts);

// The first `bytes` bytes of the text of the file at `path` (decompressed when it is
// compressed), or all of a shorter one. Throws DataError when it cannot be read.
std::string read_text_head(const std::string& path, std::size_t bytes);

// Whether the file at `path` starts with the magic bytes of gzip, zstd, xz or bzip2 (false
// when it cannot be read: its reader names the error).
bool is_compressed_file(const std::string& path);

// The same on a buffer already in memory (stdin, tests, fuzzing). `source` names it in errors.
Table read_table_from_buffer(std::string_view text, const std::string& source, const ReadOptions& opts);

}  // namespace kestrel
