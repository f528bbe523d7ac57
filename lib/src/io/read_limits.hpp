#pragma once
// The reader's limits: --max-rows, and the memory the table will take against
// --max-memory or the memory available, checked before anything is allocated.
#include <cstdint>
#include <string>

#include "chunked_text.hpp"
#include "kestrel/io/read_options.hpp"

namespace kestrel::detail {

// What one row of a table costs besides its features: the label text, its value and
// its line number (RawLabels).
constexpr std::uint64_t kLabelRowBytes = sizeof(std::string) + sizeof(double) + sizeof(std::uint64_t);

// Bytes a table takes: `rows` rows of `dense_cols` doubles (dense) or `nnz` entries
// (sparse: a value and a column index each, plus row starts), and the labels.
std::uint64_t table_bytes(Index rows, Index dense_cols, std::uint64_t nnz, bool sparse, bool labels);

// Before counting a large input: estimates its rows and entries from a sample and
// fails when the estimate is far beyond the limits, so a file larger than memory
// is refused in a second instead of after a pass over all of it.
void check_estimated_size(const TextInput& in, std::size_t begin, Index dense_cols, bool sparse,
                          const std::string& source, const ReadOptions& opts);

// After counting: the exact rows and bytes against --max-rows and the memory limit.
void check_table_size(Index rows, std::uint64_t bytes, const std::string& shape, const std::string& source,
                      const ReadOptions& opts);

}  // namespace kestrel::detail
