#pragma once
// Output files are written atomically: to a temporary file in the same directory,
// flushed, then renamed over the target. A failed run leaves no half-written file.
// "-" writes to standard output.
#include <string>
#include <string_view>

namespace kestrel {

// Throws OutputError naming the path when it cannot be written.
void write_file_atomically(const std::string& path, std::string_view content);

// Unlinks the temporary files of the writes in progress. Async-signal-safe: the
// executables' SIGINT/SIGTERM handler calls it, so an interrupted run leaves neither
// a model nor a temporary file behind.
void remove_unfinished_outputs() noexcept;

// Reads a whole file, or standard input for "-". Throws DataError when unreadable.
std::string read_whole_file(const std::string& path);

}  // namespace kestrel
