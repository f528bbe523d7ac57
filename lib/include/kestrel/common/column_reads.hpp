#pragma once
// The columns of a BinnedMatrix whose codes are on disk (common/code_pages.hpp), read with
// pread into a few buffers this object owns and reuses, on a helper thread ahead of the
// threads that sum them (docs/large-data.md, "Pages on disk"). Faulting the mapping instead
// put every column through the page cache, which under a memory limit (a cgroup counts it)
// evicted the columns still to be read and reclaimed pages in the faulting threads; the
// reads bypass the page cache (CodePages::read) and hold a fixed number of columns.
//
// A pass names its columns in the order they are needed and how many times each is taken
// (acquire ... release): the buffer of a column is reused once every taker has released it.
// Takers must take columns in the pass's order (an OpenMP dynamic loop over tasks sorted by
// column does), holding one at a time; then no taker waits for a buffer another holds.
// A column still in a buffer is not read again, and a buffer is reused for the column the
// pass needs latest (Belady's rule, the pass's order being known): passes that alternate
// their order start with the columns the last one ended with.
#include <condition_variable>
#include <cstddef>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

#include "kestrel/common/bin_cuts.hpp"

namespace kestrel {

class ColumnReads {
public:
    // Over `bins`, whose codes are in a file: as many buffers as bins.pages().read_budget()
    // holds, at least kMinBuffers (one summed while the next is read), at most a column each.
    explicit ColumnReads(const BinnedMatrix& bins);
    ~ColumnReads();
    ColumnReads(const ColumnReads&) = delete;
    ColumnReads& operator=(const ColumnReads&) = delete;

    static constexpr int kMinBuffers = 2;

    // Starts a pass: columns[k] is the k-th needed, taken uses[k] times.
    void start(std::vector<Index> columns, std::vector<int> uses);
    // The codes of the pass's k-th column (rows() codes of one or two bytes, as the matrix's
    // columns), once read; nullptr when a read failed (finish throws its error).
    const std::byte* acquire(Index k);
    // One taker of the k-th column is done with it.
    void release(Index k);
    // Waits for the pass's reads to end; a read's error (a DataError naming the file) is
    // thrown here, on the calling thread, not inside the takers' parallel loop.
    void finish();

    int buffers() const { return static_cast<int>(slots_.size()); }
    // Columns read from the file so far (those found in a buffer are not counted).
    std::size_t reads() const { return reads_; }

private:
    struct Slot {
        std::byte* bytes = nullptr;  // aligned for CodePages::read
        Index column = -1;           // the column it holds (-1: none)
        int uses = 0;                // takers yet to release it in this pass
    };
    void read_pass();
    int take_slot(std::size_t k, std::unique_lock<std::mutex>& lock, bool& cached);
    void stop_pass() noexcept;

    const BinnedMatrix& bins_;
    std::size_t column_bytes_ = 0;  // the codes of one column
    std::vector<std::byte> memory_;
    std::vector<Slot> slots_;
    std::vector<int> free_;  // slots no taker holds

    std::mutex mutex_;
    std::condition_variable changed_;
    std::vector<Index> columns_;
    std::vector<int> uses_;
    std::vector<int> slot_of_;      // per position of the pass: its slot once read, else -1
    std::vector<Index> position_;   // per column: its (last) position in the pass, else -1
    bool failed_ = false, stopping_ = false;
    std::exception_ptr error_;
    std::size_t reads_ = 0;
    std::thread reader_;
};

}  // namespace kestrel
