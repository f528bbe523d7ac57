#include "chunked_text.hpp"

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <exception>

namespace kestrel::detail {

std::size_t chunk_target(std::size_t bytes) {
    constexpr std::size_t kMinChunk = std::size_t{256} << 10;
    constexpr std::size_t kMaxChunk = std::size_t{4} << 20;
    return std::clamp(bytes / 64, kMinChunk, kMaxChunk);
}

std::vector<Chunk> split_at_newlines(std::string_view text, std::size_t begin, std::size_t target) {
    std::vector<Chunk> chunks;
    const std::size_t size = text.size();
    while (begin < size) {
        std::size_t end = size;
        if (size - begin > target + target / 2) {
            const std::size_t probe = begin + target;
            const void* nl = std::memchr(text.data() + probe, '\n', size - probe);
            if (nl) end = static_cast<std::size_t>(static_cast<const char*>(nl) - text.data()) + 1;
        }
        Chunk c;
        c.begin = begin;
        c.end = end;
        chunks.push_back(c);
        begin = end;
    }
    return chunks;
}

Index assign_offsets(std::vector<Chunk>& chunks, std::uint64_t first_line) {
    Index row = 0;
    std::uint64_t nnz = 0;
    std::uint64_t line = first_line;
    for (auto& c : chunks) {
        c.first_line = line;
        c.first_row = row;
        c.first_nnz = nnz;
        line += c.lines;
        row += c.records;
        nnz += c.nnz;
    }
    return row;
}

int resolve_threads(int requested, std::size_t work_items) {
    int t = requested > 0 ? requested : omp_get_num_procs();
    if (work_items < static_cast<std::size_t>(t)) t = static_cast<int>(std::max<std::size_t>(work_items, 1));
    return std::max(t, 1);
}

void run_chunks(std::size_t n, int threads, const std::function<void(std::size_t)>& fn) {
    std::vector<std::exception_ptr> errors(n);
    std::atomic<std::size_t> first_failed{n};
    const auto body = [&](std::size_t k) {
        if (k > first_failed.load(std::memory_order_relaxed)) return;
        try {
            fn(k);
        } catch (...) {
            errors[k] = std::current_exception();
            std::size_t seen = first_failed.load();
            while (k < seen && !first_failed.compare_exchange_weak(seen, k)) {
            }
        }
    };
    if (threads <= 1 || n <= 1) {
        for (std::size_t k = 0; k < n; ++k) body(k);
    } else {
        const auto count = static_cast<std::int64_t>(n);
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads)
        for (std::int64_t k = 0; k < count; ++k) body(static_cast<std::size_t>(k));
    }
    const std::size_t failed = first_failed.load();
    if (failed < n) std::rethrow_exception(errors[failed]);
}

}  // namespace kestrel::detail
