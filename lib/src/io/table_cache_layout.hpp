#pragma once
// The layout of a table cache (docs/tables.md, "The table cache"), shared by its writer
// (table_cache.cpp) and its reader (table_cache_read.cpp). All numbers are in the writing
// machine's byte order, which the header's byte-order mark checks.
//
//   [0, 64)            header: magic "KSTRLTAB", u32 byte-order mark 0x01020304, u32 layout
//                      version, u64 meta bytes, u64 data offset, u64 data bytes, u64 file
//                      bytes, 16 zero bytes
//   [64, 64 + meta)    meta: the key (kestrel version, input size, mtime, head and tail
//                      hashes, options) and the table's shape and strings
//   [data offset, end) arrays, each starting on a 64-byte boundary: the dense matrix
//                      (rows x cols doubles, row-major) or CSR (rows + 1 int32 row starts,
//                      nnz int32 columns, nnz doubles); the labels' values (doubles), lines
//                      (uint64) and query ids (doubles, when the input has them)
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace kestrel::detail {

inline constexpr std::string_view kTableCacheMagic = "KSTRLTAB";
inline constexpr std::uint32_t kTableCacheByteOrder = 0x01020304;
inline constexpr std::size_t kTableCacheHeaderBytes = 64;
inline constexpr std::size_t kTableCacheAlign = 64;

inline constexpr std::uint64_t aligned_up(std::uint64_t n) {
    return (n + kTableCacheAlign - 1) / kTableCacheAlign * kTableCacheAlign;
}

}  // namespace kestrel::detail
