// Entry point of the data readers: picks the way in (a memory map for files, a buffer
// for standard input) and hands the text to the reader of its format (table_format.hpp).
#include "kestrel/io/data_reader.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "kestrel/core/error.hpp"
#include "kestrel/core/memory.hpp"
#include "kestrel/io/atomic_file.hpp"
#include "kestrel/io/table_format.hpp"
#include "mapped_file.hpp"
#include "readers.hpp"
#include "text_encoding.hpp"

namespace kestrel {
namespace {

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
    constexpr std::size_t kBlock = std::size_t{64} << 10;
    constexpr std::size_t kCheckEvery = std::size_t{64} << 20;
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
    std::size_t next_check = kCheckEvery;
    for (;;) {
        const std::size_t old = out.size();
        out.resize(old + kBlock);
        const ssize_t n = ::read(fd, out.data() + old, kBlock);
        if (n < 0) {
            out.resize(old);
            if (errno == EINTR) continue;
            throw DataError(source + ": cannot read: " + std::strerror(errno));
        }
        out.resize(old + static_cast<std::size_t>(n));
        if (!head_checked && (n == 0 || out.size() >= kBlock)) {
            refuse_binary(std::string_view(out).substr(0, kBlock), source);
            head_checked = true;
        } else if (head_checked && n > 0) {
            if (const void* nul = std::memchr(out.data() + old, '\0', static_cast<std::size_t>(n)))
                refuse_binary(std::string_view(out.data(), static_cast<const char*>(nul) - out.data() + 1), source);
        }
        if (n == 0) return out;
        if (out.size() >= next_check) {
            check_memory(out.size(), opts.max_memory, source + ": reading " + format_bytes(out.size()) + " from a stream");
            next_check += kCheckEvery;
        }
    }
}

Table read_text(const detail::TextInput& in, const std::string& path, const std::string& source,
                const ReadOptions& opts) {
    refuse_binary(in.text.substr(0, kFormatSniffBytes), source);
    const TableFormat& format = choose_table_format(path, in.text, opts);
    Table table = format.read(in, source, opts);
    detail::require_utf8_text(table, source);
    return table;  // NRVO, else a move: the (possibly sparse) matrix is never copied
}

}  // namespace

namespace detail {
void refuse_binary_text(std::string_view head, const std::string& source) { refuse_binary(head, source); }
}  // namespace detail

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
