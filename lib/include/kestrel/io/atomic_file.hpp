#pragma once
// Output files are written atomically: to a temporary file in the same directory,
// then renamed over the target. A failed run leaves no half-written file.
// "-" writes to standard output. Only a regular file (or a name not taken) is renamed
// over; an existing target that is not one (a device such as /dev/full, a FIFO, a link
// in /proc such as /dev/stdout and /dev/fd/N lead to) is written in place, and a
// symbolic link to a regular file replaces that file, keeping the link (atomic_file.cpp).
// Every failed write (ENOSPC, EIO, EPIPE, ...) throws OutputError at once.
// In a run of several MPI ranks (core/process_group.hpp) only rank 0 writes: on the
// others these calls return without producing or writing anything.
#include <functional>
#include <string>
#include <string_view>

namespace kestrel {

// Whether the data reaches the disk before the rename. A model file carries the
// training run, and is fsync()ed: after a crash of the machine the target holds the
// old file or the whole new one. Derived outputs (predictions, reports, curves, plots)
// are cheap to make again and only renamed: fsync costs 4-8 ms a file, more than a
// small kestrel-predict's whole work.
enum class Durability { renamed, synced };

// Throws OutputError naming the path when it cannot be written.
void write_file_atomically(const std::string& path, std::string_view content,
                           Durability durability = Durability::renamed);

// The same for content produced in pieces (a large model file, never whole in memory):
// `produce` hands each piece to the sink it is given. An exception from it leaves no file.
using TextSink = std::function<void(std::string_view piece)>;
void write_file_atomically_in_pieces(const std::string& path, const std::function<void(const TextSink&)>& produce,
                                     Durability durability = Durability::renamed);

// Unlinks the temporary files of the writes in progress. Async-signal-safe: the
// executables' SIGINT/SIGTERM handler calls it, so an interrupted run leaves neither
// a model nor a temporary file behind.
void remove_unfinished_outputs() noexcept;

// Reads a whole file, or standard input for "-". Throws DataError when unreadable.
std::string read_whole_file(const std::string& path);

}  // namespace kestrel
