// Entry point of the data readers: picks the way in (a memory map for files, a buffer
// for standard input) and hands the text to the reader of its format (table_format.hpp).
#include "kestrel/io/data_reader.hpp"

#include <cstring>
#include <filesystem>
#include <fstream>

#include "kestrel/core/error.hpp"
#include "kestrel/core/memory.hpp"
#include "kestrel/io/atomic_file.hpp"
#include "kestrel/io/table_cache.hpp"
#include "kestrel/io/table_format.hpp"
#include "byte_source.hpp"
#include "mapped_file.hpp"
#include "read_limits.hpp"
#include "readers.hpp"
#include "text_encoding.hpp"

namespace kestrel {
namespace {

// A binary file would otherwise fail somewhere in its first record with a puzzling
// message about a field; name what it is instead. `head` is the text after any
// decompression: gzip, zstd, xz or bzip2 data here was compressed twice.
void refuse_binary(std::string_view head, const std::string& source) {
    if (head.substr(0, 8) == "KSTRLTAB")
        throw DataError(source + ": is a kestrel table cache, not data: give the data file, and this file as " +
                        option_named("cache"));
    if (head.substr(0, 4) == "PK\x03\x04")
        throw DataError(source + ": is a zip archive; kestrel reads text, or gzip, zstd, xz or bzip2 text: "
                                 "extract it first (unzip -p FILE | kestrel-... -)");
    if (const detail::Compression twice = detail::compression_of(head); twice != detail::Compression::none)
        throw DataError(source + ": holds " + detail::compression_name(twice) +
                        "-compressed data inside its compression; kestrel decompresses once: decompress it first");
    if (head.substr(0, 2) == "\xff\xfe" || head.substr(0, 2) == "\xfe\xff")
        throw DataError(source + ": is UTF-16 text; kestrel reads UTF-8: convert it first (iconv -f UTF-16 -t UTF-8)");
    const auto nul = head.find('\0');
    if (nul != std::string_view::npos)
        throw DataError(source + ": is a binary file (a NUL byte at offset " + std::to_string(nul) +
                        "), not CSV or LIBSVM text");
}

// A pipe, a device, standard input or a compressed file cannot be mapped as text: it is
// read whole, in blocks (decompressed on a thread of its own, byte_source.hpp).
// Its first 64 KB are looked at as a file's are (compressed, UTF-16, binary) before
// more is read, and a NUL byte in any later block ends the read at once: /dev/zero or
// /dev/urandom is refused after one block, not after filling the memory. The text held
// is checked against --max-memory or the memory available as it grows.
detail::GrowingText read_stream_text(const std::string& path, const std::string& source, const ReadOptions& opts) {
    constexpr std::size_t kBlock = std::size_t{64} << 10;
    constexpr std::size_t kCheckEvery = std::size_t{64} << 20;
    const std::unique_ptr<detail::ByteSource> in = detail::open_byte_source(path, source);
    detail::GrowingText out;
    bool head_checked = false;
    std::size_t next_check = kCheckEvery;
    for (;;) {
        const std::size_t old = out.size();
        const std::size_t n = in->read(out.room(kBlock), kBlock);
        out.grow(n);
        const std::string_view text = out.text();
        if (!head_checked && (n == 0 || text.size() >= kBlock)) {
            refuse_binary(text.substr(0, kBlock), source);
            head_checked = true;
        } else if (head_checked && n > 0) {
            if (const void* nul = std::memchr(text.data() + old, '\0', n))
                refuse_binary(text.substr(0, static_cast<std::size_t>(static_cast<const char*>(nul) - text.data()) + 1),
                              source);
        }
        if (n == 0) return out;
        if (text.size() >= next_check) {
            check_memory(text.size(), opts.max_memory, source + ": reading " + format_bytes(text.size()) + " from a stream");
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

// The table of a regular file through its cache (ReadOptions::cache): read from the cache
// when it is valid, else parsed and the cache written anew, with a note of why when there
// was one.
Table read_table_through_cache(const std::string& path, const ReadOptions& opts) {
    std::error_code ec;
    if (path == "-" || !std::filesystem::is_regular_file(path, ec))
        throw UsageError((path == "-" ? std::string("<stdin>") : path) + ": " + option_named("cache") +
                         " keeps the table of a file; standard input and pipes are read once");
    if (std::filesystem::equivalent(path, opts.cache, ec))
        throw UsageError(option_named("cache") + " " + opts.cache + " is the data file itself");
    const TableCacheKey key = table_cache_key(path, opts);
    std::string why_not;
    if (std::optional<Table> cached = read_table_cache(opts.cache, key, why_not)) {
        Table& t = *cached;
        const bool sparse = t.X.is_sparse();
        detail::check_table_size(t.X.rows(),
                                 detail::table_bytes(t.X.rows(), sparse ? 0 : t.X.cols(),
                                                     sparse ? static_cast<std::uint64_t>(t.X.sparse_ref().nonZeros()) : 0,
                                                     sparse, t.labels.has_value()),
                                 "its table cache " + opts.cache, path, opts);
        t.source = path;
        if (t.labels) t.labels->source = path;
        return std::move(t);
    }
    if (why_not != "it does not exist" && opts.cache_note)
        opts.cache_note(opts.cache + ": rebuilt from " + path + ": " + why_not);
    ReadOptions parse = opts;
    parse.cache.clear();
    Table t = read_table(path, parse);
    write_table_cache(opts.cache, key, t);
    return t;
}

}  // namespace

namespace detail {
void refuse_binary_text(std::string_view head, const std::string& source) { refuse_binary(head, source); }
}  // namespace detail

Table read_table(const std::string& path, const ReadOptions& opts) {
    if (!opts.cache.empty()) return read_table_through_cache(path, opts);
    if (path == "-") {
        const detail::GrowingText buffer = read_stream_text("-", "<stdin>", opts);
        return read_text(detail::TextInput{buffer.text(), {}}, "", "<stdin>", opts);
    }
    // Pipes and process substitutions (`<(zcat x.gz)`) cannot be mapped: read them whole.
    std::error_code ec;
    const auto status = std::filesystem::status(path, ec);
    if (!ec && std::filesystem::exists(status) && !std::filesystem::is_regular_file(status) &&
        !std::filesystem::is_directory(status)) {
        const detail::GrowingText buffer = read_stream_text(path, path, opts);
        return read_text(detail::TextInput{buffer.text(), {}}, path, path, opts);
    }
    const detail::MappedFile file(path);
    if (detail::compression_of(file.text().substr(0, detail::kCompressionMagicBytes)) != detail::Compression::none) {
        const detail::GrowingText buffer = read_stream_text(path, path, opts);
        return read_text(detail::TextInput{buffer.text(), {}}, path, path, opts);
    }
    const detail::TextInput in{file.text(), [&file](std::size_t b, std::size_t e) { file.release(b, e); }};
    return read_text(in, path, path, opts);
}

std::string read_text_head(const std::string& path, std::size_t bytes) {
    const std::unique_ptr<detail::ByteSource> in = detail::open_byte_source(path, path);
    std::string head(bytes, '\0');
    std::size_t have = 0;
    while (have < bytes) {
        const std::size_t n = in->read(head.data() + have, bytes - have);
        if (n == 0) break;
        have += n;
    }
    head.resize(have);
    return head;
}

bool is_compressed_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::string head(detail::kCompressionMagicBytes, '\0');
    in.read(head.data(), static_cast<std::streamsize>(head.size()));
    head.resize(static_cast<std::size_t>(in.gcount()));
    return detail::compression_of(head) != detail::Compression::none;
}

Table read_table_from_buffer(std::string_view text, const std::string& source, const ReadOptions& opts) {
    return read_text(detail::TextInput{text, {}}, source, source, opts);
}

}  // namespace kestrel
