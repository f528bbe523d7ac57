// A data file read in pieces: blocks read from a file descriptor, cut after the last
// whole record, and parsed by the whole-file readers with the header, dialect and
// line numbers of the whole input (ReadOptions::first_line, piece_of_stream).
#include "kestrel/io/table_stream.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "kestrel/core/error.hpp"
#include "kestrel/io/csv.hpp"
#include "kestrel/io/data_reader.hpp"
#include "read_limits.hpp"
#include "readers.hpp"

namespace kestrel {
namespace {

// Format and delimiter are sniffed from the first 64 KB, as for a whole file.
constexpr std::size_t sniff_bytes = std::size_t{64} << 10;

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

TableStream::TableStream(const std::string& path, ReadOptions opts, std::size_t block_bytes)
    : path_(path), source_(path == "-" ? "<stdin>" : path), opts_(std::move(opts)), block_(std::max<std::size_t>(block_bytes, 1)) {
    if (path == "-") {
        fd_ = STDIN_FILENO;
        struct stat st {};
        if (::fstat(fd_, &st) == 0 && S_ISDIR(st.st_mode)) throw DataError(source_ + ": is a directory, not a file");
    } else {
        fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
        if (fd_ < 0) throw DataError(source_ + ": cannot read: " + std::strerror(errno));
        struct stat st {};
        if (::fstat(fd_, &st) == 0 && S_ISDIR(st.st_mode)) {
            ::close(fd_);
            fd_ = -1;
            throw DataError(source_ + ": is a directory, not a data file");
        }
    }
}

TableStream::~TableStream() {
    if (fd_ >= 0 && fd_ != STDIN_FILENO) ::close(fd_);
}

bool TableStream::fill() {
    if (eof_) return false;
    const std::size_t old = buffer_.size();
    buffer_.resize(old + block_);
    for (;;) {
        const ssize_t n = ::read(fd_, buffer_.data() + old, block_);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) {
            const int err = errno;
            buffer_.resize(old);
            throw DataError(source_ + ": cannot read: " + std::strerror(err));
        }
        buffer_.resize(old + static_cast<std::size_t>(n));
        if (n == 0) eof_ = true;
        return n > 0;
    }
}

// One past the first '\n' at or after `from` that ends a record (0 when none does). A
// quoted CSV field may hold newlines: quotes are followed from the buffer's start,
// which is always a record's.
std::size_t TableStream::record_end_after(std::size_t from) const {
    if (from >= buffer_.size()) return 0;
    if (opts_.format == FileFormat::libsvm || buffer_.find('"') == std::string::npos) {
        const auto nl = buffer_.find('\n', from);
        return nl == std::string::npos ? 0 : nl + 1;
    }
    bool in_quotes = false;
    for (std::size_t i = 0; i < buffer_.size(); ++i) {
        const char c = buffer_[i];
        if (c == '"') in_quotes = !in_quotes;
        else if (c == '\n' && !in_quotes && i >= from) return i + 1;
    }
    return 0;
}

void TableStream::start() {
    started_ = true;
    // Enough for the sniffing, as a whole file is sniffed.
    while (buffer_.size() <= std::max(block_, sniff_bytes) && fill()) {
    }
    if (eof_) {
        whole_ = buffer_;  // for finish(): the errors of an input without rows
        have_whole_ = true;
    }
    if (opts_.format == FileFormat::automatic)
        opts_.format = detect_format(path_ == "-" ? "" : path_, std::string_view(buffer_).substr(0, sniff_bytes));
    if (opts_.format != FileFormat::csv) return;
    // The same sample as for a whole file: all of a short input, else its first 64 KB.
    if (opts_.delimiter == 0) opts_.delimiter = detect_delimiter(buffer_);
    if (!opts_.header) return;
    // The header record (after a byte order mark and blank lines) is taken out of the
    // buffer and put in front of every piece.
    for (;;) {
        if (const std::size_t end = csv_header_end(buffer_, opts_.delimiter); end > 0) {
            header_ = buffer_.substr(0, end);
            header_lines_ = static_cast<std::uint64_t>(std::count(header_.begin(), header_.end(), '\n'));
            buffer_.erase(0, end);
            line_ = 1 + header_lines_;
            return;
        }
        if (!fill()) {
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
    // The piece ends with the record that reaches block_ bytes (or the input).
    std::size_t cut = 0;
    for (;;) {
        if (buffer_.size() >= block_ && (cut = record_end_after(block_ - 1)) > 0) break;
        if (eof_) {
            cut = buffer_.size();
            break;
        }
        fill();
    }
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
    if (opts_.format == FileFormat::csv && !opts_.header && opts_.csv_fields == 0 && table.fields > 0)
        opts_.csv_fields = table.fields;
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
    throw DataError(source_ + (opts_.format == FileFormat::csv && opts_.header ? ": no data rows after the header"
                                                                             : ": empty file: no data rows"));
}

}  // namespace kestrel
