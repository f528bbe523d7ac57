#pragma once
// One rank's part of a training file under `kestrel-train --shard` (docs/distributed.md):
// the file is cut into `count` byte ranges at line boundaries, and part `index` holds the
// records that start inside range `index` (a record starting exactly at a cut belongs to
// the part after it). Each rank maps and reads only its own range, plus the file's first
// 64 KB, which every rank sniffs the same way (format, delimiter, header), as for a whole
// file. The CSV header is put in front of every part, as TableStream does for its pieces.
//
// A part's records are whole lines: under --shard a quoted CSV field may not hold a line
// break (a record cut in two fails with the reader's usual file:line:column error).
#include <cstdint>
#include <string>

#include "kestrel/io/read_options.hpp"

namespace kestrel {

struct FileShard {
    std::string text;                // the CSV header record (if any), then the part's records
    std::uint64_t header_lines = 0;  // lines of the header record (0 without one)
    std::uint64_t record_lines = 0;  // line breaks in the part's records
    bool last_line_open = false;     // the part ends the file without a final line break
    ReadOptions options;             // the caller's, with format and delimiter decided
    std::string source;              // the path, for messages
};

// Throws DataError naming the path when it cannot be read (standard input and pipes
// cannot be split: a shard needs a regular file every rank can open), UsageError on a
// compressed file (a compressed stream can be entered only at its start: --shards with one
// compressed file per rank splits the decompression too; docs/distributed.md).
FileShard read_file_shard(const std::string& path, const ReadOptions& opts, int index, int count);

// Parses a part, its first record being line `first_record_line` of the whole file (the
// caller adds up the record_lines of the parts before it). A part may hold no rows.
Table parse_file_shard(const FileShard& shard, std::uint64_t first_record_line);

}  // namespace kestrel
