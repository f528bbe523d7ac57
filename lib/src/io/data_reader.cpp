// Entry point of the data readers: picks the format and the way in (a memory map
// for files, a buffer for standard input) and hands the text to the CSV or LIBSVM
// reader.
#include "kestrel/io/data_reader.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <filesystem>

#include "kestrel/core/error.hpp"
#include "kestrel/core/memory.hpp"
#include "kestrel/io/atomic_file.hpp"
#include "mapped_file.hpp"
#include "readers.hpp"
#include "text_encoding.hpp"

namespace kestrel {
namespace {

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r'; }

// "index:value" with a positive integer index and a number-looking value.
bool looks_like_entry(std::string_view tok) {
    const auto colon = tok.find(':');
    if (colon == 0 || colon == std::string_view::npos || colon + 1 == tok.size()) return false;
    for (std::size_t i = 0; i < colon; ++i)
        if (!std::isdigit(static_cast<unsigned char>(tok[i]))) return false;
    const char c = tok[colon + 1];
    return std::isdigit(static_cast<unsigned char>(c)) || c == '-' || c == '+' || c == '.' || c == 'n' ||
           c == 'N' || c == '?';
}

// Decides from the first lines holding at least two whitespace-separated tokens.
FileFormat sniff_format(std::string_view head) {
    constexpr int max_lines = 10;
    head.remove_prefix(detail::bom_length(head));
    int looked = 0;
    while (!head.empty() && looked < max_lines) {
        const auto nl = head.find('\n');
        std::string_view line = head.substr(0, nl);
        head.remove_prefix(nl == std::string_view::npos ? head.size() : nl + 1);
        line = line.substr(0, line.find('#'));
        std::vector<std::string_view> tokens;
        for (std::size_t i = 0; i < line.size();) {
            while (i < line.size() && is_space(line[i])) ++i;
            const std::size_t b = i;
            while (i < line.size() && !is_space(line[i])) ++i;
            if (i > b) tokens.push_back(line.substr(b, i - b));
        }
        if (tokens.empty()) continue;
        ++looked;
        if (tokens.size() < 2) continue;
        const bool sparse = std::all_of(tokens.begin() + 1, tokens.end(), looks_like_entry) &&
                            !looks_like_entry(tokens.front());
        return sparse ? FileFormat::libsvm : FileFormat::csv;
    }
    return FileFormat::csv;
}

// A compressed or binary file would otherwise fail somewhere in its first record
// with a puzzling message about a field; name what it is instead.
void refuse_binary(std::string_view head, const std::string& source) {
    static const struct {
        std::string_view magic;
        const char* what;
        const char* tool;
    } compressed[] = {{"\x1f\x8b", "gzip", "zcat"},          {"BZh", "bzip2", "bzcat"},
                      {"\xfd" "7zXZ", "xz", "xzcat"},         {"\x28\xb5\x2f\xfd", "zstd", "zstdcat"},
                      {"PK\x03\x04", "zip", "unzip -p"}};
    for (const auto& c : compressed)
        if (head.substr(0, c.magic.size()) == c.magic)
            throw DataError(source + ": is a " + c.what + "-compressed file; kestrel reads text: decompress it first (" +
                            c.tool + " FILE | kestrel-... -)");
    if (head.substr(0, 2) == "\xff\xfe" || head.substr(0, 2) == "\xfe\xff")
        throw DataError(source + ": is UTF-16 text; kestrel reads UTF-8: convert it first (iconv -f UTF-16 -t UTF-8)");
    const auto nul = head.find('\0');
    if (nul != std::string_view::npos)
        throw DataError(source + ": is a binary file (a NUL byte at offset " + std::to_string(nul) +
                        "), not CSV or LIBSVM text");
}

// A pipe, a device or standard input cannot be mapped: it is read whole, in blocks.
// Its first 64 KB are looked at as a file's are (compressed, UTF-16, binary) before
// more is read, and a NUL byte in any later block ends the read at once: /dev/zero or
// /dev/urandom is refused after one block, not after filling the memory. The text held
// is checked against --max-memory or the memory available as it grows.
std::string read_stream_text(const std::string& path, const std::string& source, const ReadOptions& opts) {
    constexpr std::size_t block = std::size_t{64} << 10;
    constexpr std::size_t check_every = std::size_t{64} << 20;
    const bool is_stdin = path == "-";
    const int fd = is_stdin ? STDIN_FILENO : ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) throw DataError(source + ": cannot read: " + std::strerror(errno));
    struct Closer {
        int fd;
        bool own;
        ~Closer() {
            if (own) ::close(fd);
        }
    } closer{fd, !is_stdin};
    struct stat st {};
    if (::fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) throw DataError(source + ": is a directory, not a file");
    std::string out;
    bool head_checked = false;
    std::size_t next_check = check_every;
    for (;;) {
        const std::size_t old = out.size();
        out.resize(old + block);
        const ssize_t n = ::read(fd, out.data() + old, block);
        if (n < 0) {
            out.resize(old);
            if (errno == EINTR) continue;
            throw DataError(source + ": cannot read: " + std::strerror(errno));
        }
        out.resize(old + static_cast<std::size_t>(n));
        if (!head_checked && (n == 0 || out.size() >= block)) {
            refuse_binary(std::string_view(out).substr(0, block), source);
            head_checked = true;
        } else if (head_checked && n > 0) {
            if (const void* nul = std::memchr(out.data() + old, '\0', static_cast<std::size_t>(n)))
                refuse_binary(std::string_view(out.data(), static_cast<const char*>(nul) - out.data() + 1), source);
        }
        if (n == 0) return out;
        if (out.size() >= next_check) {
            check_memory(out.size(), opts.max_memory, source + ": reading " + format_bytes(out.size()) + " from a stream");
            next_check += check_every;
        }
    }
}

Table read_text(const detail::TextInput& in, const std::string& path, const std::string& source,
                const ReadOptions& opts) {
    constexpr std::size_t sniff_bytes = std::size_t{64} << 10;
    refuse_binary(in.text.substr(0, sniff_bytes), source);
    const FileFormat format =
        opts.format != FileFormat::automatic ? opts.format : detect_format(path, in.text.substr(0, sniff_bytes));
    Table table = format == FileFormat::libsvm ? detail::read_libsvm_input(in, source, opts)
                                               : detail::read_csv_input(in, source, opts);
    detail::require_utf8_text(table, source);
    return table;  // NRVO, else a move: the (possibly sparse) matrix is never copied
}

}  // namespace

namespace detail {
void refuse_binary_text(std::string_view head, const std::string& source) { refuse_binary(head, source); }
}  // namespace detail

FileFormat file_format_from_string(const std::string& s) {
    if (s == "auto") return FileFormat::automatic;
    if (s == "csv") return FileFormat::csv;
    if (s == "libsvm") return FileFormat::libsvm;
    throw UsageError("unknown data format '" + s + "'; valid formats: auto, csv, libsvm");
}

FileFormat detect_format(const std::string& path, std::string_view head) {
    std::string ext = std::filesystem::path(path).extension().string();
    std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return std::tolower(c); });
    if (ext == ".csv" || ext == ".tsv") return FileFormat::csv;
    if (ext == ".libsvm" || ext == ".svm" || ext == ".svmlight" || ext == ".scale" || ext == ".t")
        return FileFormat::libsvm;
    return sniff_format(head);
}

Table read_table(const std::string& path, const ReadOptions& opts) {
    if (path == "-") {
        const std::string buffer = read_stream_text("-", "<stdin>", opts);
        return read_text(detail::TextInput{buffer, {}}, "", "<stdin>", opts);
    }
    // Pipes and process substitutions (`<(zcat x.gz)`) cannot be mapped: read them whole.
    std::error_code ec;
    const auto status = std::filesystem::status(path, ec);
    if (!ec && std::filesystem::exists(status) && !std::filesystem::is_regular_file(status) &&
        !std::filesystem::is_directory(status)) {
        const std::string buffer = read_stream_text(path, path, opts);
        return read_text(detail::TextInput{buffer, {}}, path, path, opts);
    }
    const detail::MappedFile file(path);
    const detail::TextInput in{file.text(), [&file](std::size_t b, std::size_t e) { file.release(b, e); }};
    return read_text(in, path, path, opts);
}

Table read_table_from_buffer(std::string_view text, const std::string& source, const ReadOptions& opts) {
    return read_text(detail::TextInput{text, {}}, source, source, opts);
}

}  // namespace kestrel
