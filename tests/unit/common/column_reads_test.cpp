// gbdt's reads of a store's columns on disk (common/column_reads.hpp, docs/large-data.md
// "Pages on disk"): what a pass takes is the matrix's column, whatever the order, the width,
// the number of buffers and the threads; a column still held is not read again; a failed
// read is a DataError naming the file, thrown by finish, not inside the takers' loop.
#include "kestrel/common/column_reads.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <numeric>
#include <string>
#include <vector>

#include "cli/run_tool.hpp"
#include "kestrel/core/error.hpp"
#include "kestrel/core/rng.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace unit_common_column_reads_test {

using namespace kestrel;

// Whether the pass's k-th column as taken equals `memory`'s column `f`, code by code.
bool same_column(const std::byte* read, const BinnedMatrix& memory, Index f) {
    if (read == nullptr) return false;
    for (Index i = 0; i < memory.rows(); ++i) {
        int code = 0;
        if (memory.wide()) {
            std::uint16_t c = 0;
            std::memcpy(&c, read + 2 * i, 2);
            code = c;
        } else {
            code = static_cast<int>(std::to_integer<std::uint8_t>(read[i]));
        }
        if (code != memory.bin(f, i)) return false;
    }
    return true;
}

// One pass over `order`, each column taken twice by tasks on `threads` threads (an OpenMP
// dynamic loop in the columns' order, as the learner's); the columns taken unlike memory's.
int pass(ColumnReads& reads, const BinnedMatrix& memory, const std::vector<Index>& order, int threads) {
    const auto n = static_cast<Index>(order.size());
    reads.start(order, std::vector<int>(order.size(), 2));
    int wrong = 0;
#pragma omp parallel for schedule(dynamic) num_threads(threads) reduction(+ : wrong)
    for (Index t = 0; t < 2 * n; ++t) {
        const Index k = t / 2;
        wrong += same_column(reads.acquire(k), memory, order[static_cast<std::size_t>(k)]) ? 0 : 1;
        reads.release(k);
    }
    reads.finish();
    return wrong;
}

TEST_SUITE("common.column_reads") {
    TEST_CASE("column reads: each pass takes the matrix's columns, the fewest buffers or one a column, both widths") {
        const test::ScratchDir dir("column_reads");
        Rng rng(5);
        // 5,000 rows: a column is not a multiple of the 4 KB reads, so most start mid-block.
        DenseMatrix X(5000, 6);
        for (Index i = 0; i < X.rows(); ++i)
            for (Index j = 0; j < X.cols(); ++j) X(i, j) = i % 13 == 0 ? std::nan("") : rng.normal();
        const Features F(X);
        std::vector<Index> forward(6), backward(6);
        std::iota(forward.begin(), forward.end(), 0);
        std::copy(forward.rbegin(), forward.rend(), backward.begin());
        for (const int max_bins : {255, 1000}) {
            const BinCuts cuts = BinCuts::fit(F, {}, max_bins, 1, 2);
            const BinnedMatrix memory(cuts, F, {}, 2);
            for (const std::size_t budget : {std::size_t{0}, std::size_t{1} << 20}) {
                for (const int threads : {1, 2}) {
                    CAPTURE(max_bins);
                    CAPTURE(budget);
                    CAPTURE(threads);
                    const std::uint64_t bytes = BinnedMatrix::code_bytes(cuts, 5000, 6);
                    BinnedMatrix file(cuts, 5000, 6, CodePages::in_file(bytes, dir.path.string(), budget));
                    file.fill_rows(cuts, F, 0, 2);  // written through the mapping, not yet written back
                    ColumnReads reads(file);
                    const bool fewest = budget == 0;
                    CHECK(reads.buffers() == (fewest ? ColumnReads::kMinBuffers : 6));
                    CHECK(pass(reads, memory, forward, threads) == 0);
                    CHECK(reads.reads() == 6);
                    file.pages().drop_cached();
                    // Backward: the last two columns (all six with a buffer each) still held.
                    CHECK(pass(reads, memory, backward, threads) == 0);
                    CHECK(reads.reads() == (fewest ? 10U : 6U));
                    CHECK(pass(reads, memory, {3, 1, 4, 0, 5, 2}, threads) == 0);
                    CHECK(reads.reads() == (fewest ? 15U : 6U));
                }
            }
        }
        CHECK(std::filesystem::is_empty(dir.path));
    }

    TEST_CASE("column reads: a read past the file is a DataError naming it, from finish, after the takers' loop") {
        const test::ScratchDir dir("column_reads_error");
        DenseMatrix X(100, 2);
        for (Index i = 0; i < 100; ++i) X(i, 0) = X(i, 1) = static_cast<double>(i % 7);
        const Features F(X);
        const BinCuts cuts = BinCuts::fit(F, {}, 255, 1, 1);
        const BinnedMatrix memory(cuts, F, {}, 1);
        BinnedMatrix file(cuts, 100, 2, CodePages::in_file(200, dir.path.string()));
        file.fill_rows(cuts, F, 0, 1);
        ColumnReads reads(file);
        // Column 99 of a matrix of two: its bytes are past the end of the file.
        reads.start({1, 99, 0}, {1, 1, 1});
        CHECK(same_column(reads.acquire(0), memory, 1));
        reads.release(0);
        CHECK(reads.acquire(1) == nullptr);
        CHECK(reads.acquire(2) == nullptr);  // nothing read after the failure
        reads.release(1);
        reads.release(2);
        try {
            reads.finish();
            FAIL("no error");
        } catch (const DataError& e) {
            const std::string what = e.what();
            CHECK(what.rfind(dir.path.string() + "/kestrel-codes-", 0) == 0);
            CHECK(what.find(": cannot read the quantized store's codes back from disk: the file ended after 0 of 4096 bytes") !=
                  std::string::npos);
        }
        // The next pass reads again.
        CHECK(pass(reads, memory, {0, 1}, 1) == 0);
    }
}

}  // namespace unit_common_column_reads_test
}  // namespace
