#include "read_limits.hpp"

#include <algorithm>
#include <cstring>

#include "kestrel/core/error.hpp"
#include "kestrel/core/memory.hpp"

namespace kestrel::detail {

std::uint64_t table_bytes(Index rows, Index dense_cols, std::uint64_t nnz, bool sparse, bool labels) {
    const auto r = static_cast<std::uint64_t>(rows);
    std::uint64_t bytes = sparse ? nnz * (sizeof(double) + sizeof(int)) + (r + 1) * sizeof(int)
                                 : r * static_cast<std::uint64_t>(dense_cols) * sizeof(double);
    if (labels) bytes += r * kLabelRowBytes;
    return bytes;
}

void check_estimated_size(const TextInput& in, std::size_t begin, Index dense_cols, bool sparse,
                          const std::string& source, const ReadOptions& opts) {
    // Below this the exact count is cheaper than any guess.
    constexpr std::size_t kWorthIt = std::size_t{64} << 20;
    constexpr std::size_t kSampleBytes = std::size_t{1} << 20;
    if (in.text.size() < begin + kWorthIt) return;
    const std::size_t rest = in.text.size() - begin;
    const char* s = in.text.data() + begin;
    const std::size_t n = std::min(kSampleBytes, rest);
    const auto lines = static_cast<std::uint64_t>(std::count(s, s + n, '\n'));
    if (lines < 16) return;  // too few records in the sample to extrapolate
    const auto colons = sparse ? static_cast<std::uint64_t>(std::count(s, s + n, ':')) : 0;
    in.done_with(begin, begin + n);
    const double scale = static_cast<double>(rest) / static_cast<double>(n);
    const auto rows = static_cast<Index>(static_cast<double>(lines) * scale);
    const auto nnz = static_cast<std::uint64_t>(static_cast<double>(colons) * scale);
    const std::uint64_t bytes = table_bytes(rows, dense_cols, nnz, sparse, true);
    // A sample can misjudge: refuse early only when the estimate is well past the limit,
    // and leave the borderline cases to the exact check after counting.
    constexpr double kMargin = 1.5;
    const std::uint64_t available = available_memory();
    const std::uint64_t limit = opts.max_memory > 0 ? opts.max_memory : available;
    const std::string what = source + ": reading about " + std::to_string(rows) + " rows" +
                             (sparse ? "" : " x " + std::to_string(dense_cols) + " features");
    if (opts.max_rows > 0 && static_cast<double>(rows) > kMargin * static_cast<double>(opts.max_rows))
        throw DataError(source + ": about " + std::to_string(rows) + " data rows, more than " +
                        option_named("max_rows") + " " + std::to_string(opts.max_rows));
    if (limit > 0 && static_cast<double>(bytes) > kMargin * static_cast<double>(limit))
        check_memory(bytes, opts.max_memory, what);
}

void check_table_size(Index rows, std::uint64_t bytes, const std::string& shape, const std::string& source,
                      const ReadOptions& opts) {
    if (opts.max_rows > 0 && rows > opts.max_rows)
        throw DataError(source + ": " + std::to_string(rows) + " data rows, more than " + option_named("max_rows") +
                        " " + std::to_string(opts.max_rows));
    check_memory(bytes, opts.max_memory, source + ": reading " + shape);
}

}  // namespace kestrel::detail
