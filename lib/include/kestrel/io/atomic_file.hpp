#pragma once
// Output files are written atomically: to a temporary file in the same directory,
// flushed, then renamed over the target. A failed run leaves no half-written file.
// "-" writes to standard output.
#include <functional>
#include <string>
#include <string_view>

namespace kestrel {

// Throws OutputError naming the path when it cannot be written.
void write_file_atomically(const std::string& path, std::string_view content);

// The same for content produced in pieces (a large model file, never whole in memory):
// `produce` hands each piece to the sink it is given. An exception from it leaves no file.
using TextSink = std::function<void(std::string_view piece)>;
void write_file_atomically_in_pieces(const std::string& path, const std::function<void(const TextSink&)>& produce);

// Unlinks the temporary files of the writes in progress. Async-signal-safe: the
// executables' SIGINT/SIGTERM handler calls it, so an interrupted run leaves neither
// a model nor a temporary file behind.
void remove_unfinished_outputs() noexcept;

// Reads a whole file, or standard input for "-". Throws DataError when unreadable.
std::string read_whole_file(const std::string& path);

}  // namespace kestrel
