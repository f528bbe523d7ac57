#pragma once
// Shared machinery of the text readers: a text split into line-aligned chunks that
// are counted, then parsed in parallel straight into preallocated output. Chunk
// sizes never depend on the thread count, and the error reported is always the
// first one in file order, so results do not depend on scheduling.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <string_view>
#include <vector>

#include "kestrel/core/dataset.hpp"

namespace kestrel::detail {

// The text to parse plus a way to give back pages already parsed (a memory-mapped
// file drops them from the resident set, so peak memory stays near the output size).
struct TextInput {
    std::string_view text;
    std::function<void(std::size_t begin, std::size_t end)> release;  // may be empty
    void done_with(std::size_t begin, std::size_t end) const {
        if (release) release(begin, end);
    }
};

struct Chunk {
    std::size_t begin = 0;  // byte offsets into the text; end is one past a '\n' or the text end
    std::size_t end = 0;
    std::uint64_t lines = 0;       // '\n' inside [begin, end)
    std::uint64_t first_line = 0;  // 1-based line number of the byte at begin
    Index records = 0;             // non-blank records (before any drop)
    Index first_row = 0;           // row index of the first record in the preallocated output
    std::uint64_t nnz = 0;         // sparse entries (LIBSVM)
    std::uint64_t first_nnz = 0;
    Index kept = 0;                // records kept after MissingPolicy::drop
    std::uint64_t kept_nnz = 0;
    Index max_index = 0;           // LIBSVM: highest feature index seen
    std::uint64_t last_index = 0;  // LIBSVM: highest index ending a record, from the count
    Index qid_records = 0;         // LIBSVM: records with a `qid:N` token after the label
};

// Target chunk size for a region of `bytes`: large enough to amortise scheduling,
// small enough to balance two to a few dozen threads and to release pages early.
std::size_t chunk_target(std::size_t bytes);

// Splits [begin, text.size()) into chunks ending just after a '\n' (or at the end),
// each about `target` bytes. Only valid when no record spans lines (no quotes).
std::vector<Chunk> split_at_newlines(std::string_view text, std::size_t begin, std::size_t target);

// Fills first_line, first_row and first_nnz from the counts; returns total records.
Index assign_offsets(std::vector<Chunk>& chunks, std::uint64_t first_line);

// Threads to use: `requested`, or all cores when 0, never more than `work_items`.
int resolve_threads(int requested, std::size_t work_items);

// Runs fn(k) for every chunk index, in parallel. Exceptions are caught per chunk;
// chunks after a failed one may be skipped, and the failure of the lowest index is
// rethrown, so the error reported is the first in the file whatever the threads.
void run_chunks(std::size_t n, int threads, const std::function<void(std::size_t)>& fn);

// Whether a physical line holds only spaces and carriage returns (tabs too unless
// the tab is the CSV delimiter). Such lines are skipped by both readers.
inline bool is_blank(const char* b, const char* e, bool tab_is_space) {
    for (; b != e; ++b) {
        const char c = *b;
        if (c == ' ' || c == '\r' || (c == '\t' && tab_is_space)) continue;
        return false;
    }
    return true;
}

// The end of the line starting at p: the '\n' or `end`.
inline const char* line_end(const char* p, const char* end) {
    const void* nl = p < end ? std::memchr(p, '\n', static_cast<std::size_t>(end - p)) : nullptr;
    return nl ? static_cast<const char*>(nl) : end;
}

}  // namespace kestrel::detail
