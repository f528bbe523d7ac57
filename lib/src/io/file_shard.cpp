// One rank's byte range of a training file, cut at line boundaries (kestrel-train --shard).
#include "kestrel/io/file_shard.hpp"

#include <algorithm>
#include <filesystem>

#include "kestrel/core/error.hpp"
#include "kestrel/io/data_reader.hpp"
#include "kestrel/io/table_format.hpp"
#include "compression.hpp"
#include "mapped_file.hpp"

namespace kestrel {
namespace {

// The first record start at or after `at`: just after the '\n' that ends the line holding
// byte at − 1 (`at` itself when that byte is a '\n').
std::size_t record_start_from(std::string_view text, std::size_t at) {
    if (at == 0 || at >= text.size()) return std::min(at, text.size());
    const auto nl = text.find('\n', at - 1);
    return nl == std::string_view::npos ? text.size() : nl + 1;
}

// A compressed stream can be entered only at its start: to find its byte range every rank
// would decompress the whole file before its own part, N times the work that --shard is
// there to split, and the ranges would be known only at the end. One compressed file per
// rank (--shards) gives each rank its own decompression.
void refuse_compressed_shard(const std::string& path, std::string_view text) {
    const detail::Compression c = detail::compression_of(text.substr(0, detail::kCompressionMagicBytes));
    if (c == detail::Compression::none) return;
    throw UsageError(path + ": " + option_named("shard") + " splits a file by byte ranges, and a " +
                     detail::compression_name(c) + "-compressed file can be read only from its start: give each rank " +
                     "its own compressed files with " + option_named("shards") + ", or decompress it");
}

}  // namespace

FileShard read_file_shard(const std::string& path, const ReadOptions& opts, int index, int count) {
    if (count < 1 || index < 0 || index >= count) throw InternalError("read_file_shard: part out of range");
    std::error_code ec;
    if (path == "-" || (std::filesystem::exists(path, ec) && !std::filesystem::is_regular_file(path, ec)))
        throw UsageError((path == "-" ? std::string("<stdin>") : path) + ": " + option_named("shard") +
                         " splits a regular file by byte ranges; standard input and pipes cannot be split");
    const detail::MappedFile file(path);
    const std::string_view text = file.text();
    refuse_compressed_shard(path, text);
    const std::string_view head = text.substr(0, kFormatSniffBytes);  // as a whole file is sniffed

    FileShard shard;
    shard.source = path;
    shard.options = opts;
    ReadOptions& o = shard.options;
    const TableFormat& format = choose_table_format(path, head, o);
    format.settle(o, head);
    std::size_t data_begin = 0;
    if (format.has_header_record(o)) {
        data_begin = format.header_end(text, o);
        if (data_begin == 0) data_begin = text.size();  // a header alone: no records anywhere
        shard.text.assign(text.substr(0, data_begin));
        shard.header_lines = static_cast<std::uint64_t>(std::count(shard.text.begin(), shard.text.end(), '\n'));
    }
    const std::size_t span = text.size() - data_begin;
    // data_begin + ⌊span · part / count⌋, without overflow.
    const auto cut = [&](int part) {
        const auto p = static_cast<std::size_t>(part), c = static_cast<std::size_t>(count);
        return data_begin + span / c * p + span % c * p / c;
    };
    const std::size_t begin = index == 0 ? data_begin : record_start_from(text, cut(index));
    const std::size_t end = index + 1 == count ? text.size() : record_start_from(text, cut(index + 1));
    if (end > begin) {
        const std::string_view records = text.substr(begin, end - begin);
        shard.text.append(records);
        shard.record_lines = static_cast<std::uint64_t>(std::count(records.begin(), records.end(), '\n'));
        shard.last_line_open = records.back() != '\n';
    }
    return shard;
}

Table parse_file_shard(const FileShard& shard, std::uint64_t first_record_line) {
    ReadOptions o = shard.options;
    o.first_line = first_record_line - shard.header_lines;
    o.piece_of_stream = true;
    return read_table_from_buffer(shard.text, shard.source, o);
}

}  // namespace kestrel
