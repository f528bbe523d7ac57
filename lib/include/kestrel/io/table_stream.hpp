#pragma once
// A data file read in pieces, for commands that handle rows one at a time
// (kestrel-predict): the input (a file, a pipe, or "-" for standard input; gzip, zstd,
// xz or bzip2 input decompressed on a thread of its own) is read a block at a time, cut
// after the last whole record, and each piece is parsed by the same CSV or LIBSVM reader
// as a whole file, with the file's header, dialect and line numbers. Memory holds one block (plus whatever record straddles it), whatever the
// size of the input.
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "kestrel/io/read_options.hpp"

namespace kestrel {

class TableFormat;
namespace detail {
class ByteSource;
}

// One past the CSV header record of `text` (after a byte order mark and blank lines; a
// quoted field may hold line breaks), or 0 when `text` holds no whole header record.
std::size_t csv_header_end(std::string_view text, char delimiter);

class TableStream {
public:
    // `block_bytes`: how much is read before a piece is cut (at least one record always
    // goes into a piece). Throws DataError when the input cannot be opened.
    // `max_record_bytes`: a record (the CSV header included) longer than this is an error
    // (exit 2) once that much of it is read, so a stream without line breaks (a pipe of
    // one endless line) never fills the memory.
    static constexpr std::size_t kMaxRecordBytes = std::size_t{256} << 20;
    TableStream(const std::string& path, ReadOptions opts, std::size_t block_bytes,
                std::size_t max_record_bytes = kMaxRecordBytes);
    ~TableStream();
    TableStream(const TableStream&) = delete;
    TableStream& operator=(const TableStream&) = delete;

    // The text of the next piece: whole records, in input order; false at the end of
    // the input. Cheap (a read and a scan for the last record end): parse() does the
    // work, and may run on another thread, for several pieces at once.
    struct Piece {
        std::string text;             // the CSV header (if any) then the piece's records
        std::uint64_t first_line = 1; // line number in the input of the text's first line
        std::size_t index = 0;        // 0, 1, 2, ... in input order
    };
    bool next(Piece& piece);

    // Parses a piece as read_table would parse the whole input: the same errors
    // ("file:line:column: ..."), with the whole input's line numbers. A piece without
    // rows (blank lines; every row dropped by --missing drop) gives an empty table.
    // Thread-safe: pieces may be parsed at once on several threads.
    Table parse(const Piece& piece, int threads) const;
    // Called with each parsed piece, in input order, before a piece after it is parsed
    // if possible: a CSV without a header learns its field count from the first record
    // (so a ragged first record of a later piece is reported as in a whole file).
    void learn(const Table& table);

    // After the last piece: throws the error the whole input would give when it held no
    // data row at all ("no data rows", "all N rows ... were dropped"). `rows` and
    // `dropped` are the totals of the pieces' tables.
    void finish(Index rows, Index dropped) const;

    FileFormat format() const { return opts_.format; }
    const std::string& source() const { return source_; }
    const ReadOptions& options() const { return opts_; }

private:
    void start();  // the first block: format, delimiter and the CSV header
    bool fill();   // reads one block more; false at the end of the input
    void refuse_long_record() const;

    std::string path_, source_;
    ReadOptions opts_;
    const TableFormat* format_ = nullptr;  // decided by start() (table_format.hpp)
    std::size_t block_ = 0;
    std::size_t max_record_ = 0;
    std::uint64_t bytes_read_ = 0;  // of the whole input, for a NUL byte's offset
    bool head_checked_ = false;     // the start looked at for compressed or binary input
    std::size_t scanned_ = 0;       // buffer_ bytes scanned for the end of the next piece
    bool scan_in_quotes_ = false;   // inside a quoted CSV field at scanned_
    std::unique_ptr<detail::ByteSource> input_;  // the input's text, decompressed if need be
    bool eof_ = false;
    bool started_ = false;
    std::string buffer_;           // read, not yet handed out
    std::string header_;           // CSV: the text up to and with the header record
    std::uint64_t header_lines_ = 0;
    std::uint64_t line_ = 1;       // line number of buffer_'s first byte
    std::size_t pieces_ = 0;
    std::string whole_;            // the whole input when it fit the first block (for finish())
    bool have_whole_ = false;
};

}  // namespace kestrel
