// The bins of a data-parallel gbdt fit (kestrel-train --shard, docs/distributed.md) must be
// the one-process bins: BinCuts::fit_over_ranks draws the same row sample as BinCuts::fit
// without an index list of every row. With more rows than the sample (200,000) and
// continuous values, any other sample moves the quantile edges, so equal edges mean the
// same sample. A one-rank group stands in for MPI (the multi-rank runs are in
// tests/cli/mpi_shard_test.cpp).
#include <doctest/doctest.h>

#include "kestrel/boosting/histogram.hpp"
#include "kestrel/core/process_group.hpp"
#include "kestrel/core/rng.hpp"
#include "one_rank_group.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace unit_boosting_gbdt_shard_bins_test {

using namespace kestrel;

using kestrel::test::GroupScope;
using kestrel::test::OneRank;

TEST_CASE("fit_over_ranks draws fit's row sample: the same cuts on 250,000 rows, dense and sparse") {
    const Index n = 250000;
    DenseMatrix X(n, 3);
    Rng rng(42);
    for (Index i = 0; i < n; ++i) {
        X(i, 0) = rng.uniform();
        X(i, 1) = rng.uniform() < 0.3 ? std::numeric_limits<double>::quiet_NaN() : rng.normal();
        X(i, 2) = static_cast<double>(i % 7);  // few distinct values: one bin each
    }
    OneRank group;
    GroupScope scope(&group);
    for (const std::uint64_t seed : {1ULL, 99ULL}) {
        CAPTURE(seed);
        const BinCuts whole = BinCuts::fit(Features(X), {}, 64, seed, 2);
        const BinCuts ranks = BinCuts::fit_over_ranks(Features(X), RowSpan{0, n}, 64, seed);
        REQUIRE(ranks.n_features() == whole.n_features());
        for (Index f = 0; f < whole.n_features(); ++f) {
            REQUIRE(ranks.n_bins(f) == whole.n_bins(f));
            for (int b = 0; b < whole.n_bins(f); ++b) CHECK(ranks.upper(f, b) == whole.upper(f, b));
        }
        CHECK(whole.n_bins(2) == 7);
        // A different seed draws another sample: the edges move (the test has teeth).
        const BinCuts other = BinCuts::fit(Features(X), {}, 64, seed + 1, 2);
        CHECK(other.upper(0, 10) != whole.upper(0, 10));
    }
    // Sparse rows: absent entries are missing, as in fit.
    const SparseMatrix S = X.sparseView();
    const BinCuts whole = BinCuts::fit(Features(S), {}, 32, 5, 1);
    const BinCuts ranks = BinCuts::fit_over_ranks(Features(S), RowSpan{0, n}, 32, 5);
    for (Index f = 0; f < whole.n_features(); ++f) {
        REQUIRE(ranks.n_bins(f) == whole.n_bins(f));
        for (int b = 0; b < whole.n_bins(f); ++b) CHECK(ranks.upper(f, b) == whole.upper(f, b));
    }
}

}  // namespace unit_boosting_gbdt_shard_bins_test
}  // namespace
