#pragma once
// A parsed table kept on disk, as LightGBM's save_binary keeps a Dataset: the matrix,
// categories and their names, column names, labels and query ids, in a binary layout that
// is read back with a few large reads straight into the matrices (docs/tables.md, "The
// table cache", gives the layout). read_table uses it through ReadOptions::cache.
//
// A cache stands for one input read with one set of options. It is valid when its header
// says: this layout version, this kestrel version, the input's size, modification time and
// a hash of its first and last 64 KiB as they are now, and the read options that shape the
// parse as they are now. Anything else is a mismatch, and read_table then parses the input
// and writes the cache anew (ReadOptions::cache_note is told why).
#include <optional>
#include <string>
#include <string_view>

#include "kestrel/io/read_options.hpp"

namespace kestrel {

// The layout's version, in every cache's header: a cache of another is rebuilt.
inline constexpr std::uint32_t kTableCacheVersion = 1;

// What a cache is checked against: the input as it is now, and the read options.
struct TableCacheKey {
    std::uint64_t source_size = 0;
    std::int64_t source_mtime_ns = 0;
    std::uint64_t head_hash = 0;  // FNV-1a of the first 64 KiB of the input's bytes
    std::uint64_t tail_hash = 0;  // and of its last 64 KiB
    std::string options;          // the options that shape the parse, as text
};

// The key of the regular file at `source_path` read with `opts`. DataError when it cannot
// be read.
TableCacheKey table_cache_key(const std::string& source_path, const ReadOptions& opts);

// The table the cache at `cache_path` holds when it is valid for `key`; otherwise nullopt
// with `why_not` saying why ("it does not exist" when there is none, "its input changed",
// "it was written with other read options", "it was written by kestrel 0.1.0", "it is not
// a table cache", "it is corrupt: ...").
std::optional<Table> read_table_cache(const std::string& cache_path, const TableCacheKey& key, std::string& why_not);

// Writes `t` with `key` to `cache_path`, atomically (kestrel/io/atomic_file.hpp).
// OutputError when it cannot be written.
void write_table_cache(const std::string& cache_path, const TableCacheKey& key, const Table& t);

// The whole of a cache in memory (the fuzz target, tests), whatever its key: its table, or
// DataError "<name>: byte N: what is wrong" for bytes that are not a valid cache.
Table decode_table_cache(std::string_view bytes, const std::string& name);
// Its bytes, as write_table_cache writes them.
std::string encode_table_cache(const TableCacheKey& key, const Table& t);

}  // namespace kestrel
