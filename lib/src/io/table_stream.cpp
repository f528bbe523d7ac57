// A data file read in pieces: blocks read from a file descriptor, cut after the last
// whole record, and parsed by the whole-file readers with the header, dialect and
// line numbers of the whole input (ReadOptions::first_line, piece_of_stream).
#include "kestrel/io/table_stream.hpp"

#include <algorithm>
#include <cstring>

#include "kestrel/core/error.hpp"
#include "kestrel/core/memory.hpp"
#include "kestrel/io/data_reader.hpp"
#include "kestrel/io/table_format.hpp"
#include "byte_source.hpp"
#include "read_limits.hpp"
#include "readers.hpp"

namespace kestrel {
namespace {

bool blank_char(char c, bool tab_is_space) { return c == ' ' || c == '\r' || (c == '\t' && tab_is_space); }

}  // namespace

std::size_t csv_header_end(std::string_view text, char delimiter) {
    const bool tab_is_space = delimiter != '\t';
    std::size_t p = detail::bom_length(text);
    while (p < text.size() && (blank_char(text[p], tab_is_space) || text[p] == '\n')) ++p;
    if (p >= text.size()) return 0;
    bool in_quotes = false;
    for (std::size_t i = p; i < text.size(); ++i) {
        if (text[i] == '"') in_quotes = !in_quotes;
        else if (text[i] == '\n' && !in_quotes) return i + 1;
    }
    return 0;
}

TableStream::TableStream(const std::string& path, ReadOptions opts, std::size_t block_bytes,
                         std::size_t max_record_bytes)
    : path_(path), source_(path == "-" ? "<stdin>" : path), opts_(std::move(opts)),
      block_(std::max<std::size_t>(block_bytes, 1)), max_record_(std::max<std::size_t>(max_record_bytes, 1)) {
    input_ = detail::open_byte_source(path, source_, path == "-" ? "a file" : "a data file");
}

TableStream::~TableStream() = default;

bool TableStream::fill() {
    if (eof_) return false;
    const std::size_t old = buffer_.size();
    // Up to block_ bytes in all, not block_ more: a source that gives less than asked (a
    // decompressing one hands out 256 KB at a time, a pipe 64 KB) would otherwise have the
    // buffer grown, and zero-filled, to twice block_ before each cut.
    constexpr std::size_t kMinFillBytes = std::size_t{64} << 10;
    const std::size_t want = old < block_ ? block_ - old : std::min(block_, kMinFillBytes);
    buffer_.resize(old + want);
    const std::size_t n = input_->read(buffer_.data() + old, want);
    buffer_.resize(old + n);
    // After the start (looked at whole by start()), a NUL byte anywhere ends the read:
    // binary input is refused at its first block, never accumulated in search of a line end.
    if (head_checked_ && n > 0)
        if (const void* nul = std::memchr(buffer_.data() + old, '\0', n))
            throw DataError(source_ + ": is a binary file (a NUL byte at offset " +
                            std::to_string(bytes_read_ + static_cast<std::uint64_t>(
                                                             static_cast<const char*>(nul) - (buffer_.data() + old))) +
                            "), not CSV or LIBSVM text");
    bytes_read_ += n;
    if (n == 0) eof_ = true;
    return n > 0;
}

void TableStream::refuse_long_record() const {
    // The record under way is the buffer's last line.
    const auto line = line_ + static_cast<std::uint64_t>(std::count(buffer_.begin(), buffer_.end(), '\n'));
    throw DataError(SourceLocation{source_, line, 0},
                    "a record longer than " + format_bytes(max_record_) +
                        " (no line break): not CSV or LIBSVM text, or a line too long to stream");
}

void TableStream::start() {
    started_ = true;
    // Enough for the sniffing, as a whole file is sniffed.
    while (buffer_.size() <= std::max(block_, kFormatSniffBytes) && fill()) {
    }
    // Compressed, UTF-16 or binary input is named from its start, as a whole file's is.
    detail::refuse_binary_text(std::string_view(buffer_).substr(0, kFormatSniffBytes), source_);
    head_checked_ = true;
    if (eof_) {
        whole_ = buffer_;  // for finish(): the errors of an input without rows
        have_whole_ = true;
    }
    format_ = &choose_table_format(path_, buffer_, opts_);
    // The same sample as for a whole file: all of a short input, else its first 64 KB
    // (the CSV reader looks at no more of it).
    format_->settle(opts_, buffer_);
    if (!format_->has_header_record(opts_)) return;
    // The header record (CSV's, after a byte order mark and blank lines) is taken out of
    // the buffer and put in front of every piece.
    // Looked for again only when a read brings a line break: a header without one costs a
    // pass over the input, not one per block.
    bool look = true;
    for (;;) {
        if (const std::size_t end = look ? format_->header_end(buffer_, opts_) : 0; end > 0) {
            header_ = buffer_.substr(0, end);
            header_lines_ = static_cast<std::uint64_t>(std::count(header_.begin(), header_.end(), '\n'));
            buffer_.erase(0, end);
            line_ = 1 + header_lines_;
            return;
        }
        if (buffer_.size() > max_record_) refuse_long_record();
        const std::size_t before = buffer_.size();
        const bool more = fill();
        // NOLINTNEXTLINE(bugprone-not-null-terminated-result): a search of bytes, not a C string
        look = std::memchr(buffer_.data() + before, '\n', buffer_.size() - before) != nullptr;
        if (!more) {
            // No whole header record with a line after it: the input has no data row,
            // and finish() reports it as for a whole file.
            if (!have_whole_) whole_ = buffer_;
            have_whole_ = true;
            buffer_.clear();
            return;
        }
    }
}

bool TableStream::next(Piece& piece) {
    if (!started_) start();
    if (buffer_.empty() && !fill()) return false;
    // The piece ends with the record that reaches block_ bytes (or the input): the first
    // line break at or past block_ - 1 outside a quoted field (quotes are followed from
    // the buffer's start, always a record's; LIBSVM has none). The scan goes on from where
    // the last read left it, so a long record costs one pass, not one per block.
    const bool quotes = format_->quotes_hold_line_breaks();
    std::size_t cut = 0;
    for (;;) {
        const char* b = buffer_.data();
        const std::size_t size = buffer_.size();
        std::size_t i = scanned_;
        bool in_quotes = scan_in_quotes_;
        // By memchr from quote to quote: a byte loop here cost 1.5x on a piped 60 MB CSV
        // (bench/predict/before_after.sh), where the text between quotes is most of it.
        while (i < size && cut == 0) {
            const void* q = quotes ? std::memchr(b + i, '"', size - i) : nullptr;
            const std::size_t next_quote = q ? static_cast<std::size_t>(static_cast<const char*>(q) - b) : size;
            if (!in_quotes) {
                // A record end outside quotes, at or past block_ - 1 and before the next quote.
                const std::size_t from = std::max(i, block_ - 1);
                if (from < next_quote)
                    if (const void* nl = std::memchr(b + from, '\n', next_quote - from))
                        cut = static_cast<std::size_t>(static_cast<const char*>(nl) - b) + 1;
            }
            if (cut > 0) {
                i = cut;
            } else if (q) {
                in_quotes = !in_quotes;
                i = next_quote + 1;
            } else {
                i = size;
            }
        }
        scanned_ = i;
        scan_in_quotes_ = in_quotes;
        if (cut > 0) break;
        if (eof_) {
            cut = buffer_.size();
            break;
        }
        // The record under way started at or before block_ - 1: past max_record_ it is refused.
        if (buffer_.size() > block_ + max_record_) refuse_long_record();
        fill();
    }
    scanned_ = 0;
    scan_in_quotes_ = false;
    piece.index = pieces_++;
    const std::string_view records(buffer_.data(), cut);
    piece.text.assign(header_);
    piece.text.append(records);
    piece.first_line = line_ - header_lines_;
    line_ += static_cast<std::uint64_t>(std::count(records.begin(), records.end(), '\n'));
    buffer_.erase(0, cut);
    return true;
}

Table TableStream::parse(const Piece& piece, int threads) const {
    ReadOptions o = opts_;
    o.threads = threads;
    o.first_line = piece.first_line;
    o.piece_of_stream = true;
    o.max_rows = 0;  // counted over the whole stream by the caller (see finish())
    return read_table_from_buffer(piece.text, source_, o);
}

void TableStream::learn(const Table& table) {
    if (format_) format_->learn(opts_, table);
}

void TableStream::finish(Index rows, Index dropped) const {
    if (rows > 0) return;
    if (dropped > 0)
        throw DataError(source_ + ": all " + std::to_string(dropped) + " rows have missing values and were dropped");
    if (have_whole_) {
        ReadOptions o = opts_;
        o.piece_of_stream = false;
        (void)read_table_from_buffer(whole_, source_, o);  // throws the whole-input error
    }
    throw DataError(source_ + (format_ && format_->has_header_record(opts_) ? ": no data rows after the header"
                                                                            : ": empty file: no data rows"));
}

}  // namespace kestrel
