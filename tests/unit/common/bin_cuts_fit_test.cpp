// BinCuts::fit on a dense table (common/bin_cuts.hpp): its values read for a group of
// features in one pass over the rows, each thread's sort buffers kept from one feature to the
// next; the edges are still each feature's edges from its own non-missing values in row
// order, the same on any thread count, with more features than a group holds, NaNs and
// categorical features among them. A BinnedMatrix's codes, searched eight values in step
// (bins_in_step), are each value's bin_of.
#include "kestrel/common/bin_cuts.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <utility>
#include <vector>

#include "kestrel/core/rng.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace unit_common_bin_cuts_fit_test {

using namespace kestrel;

namespace {

// n rows of d features: long normal columns (radix-sorted), a few values (j % 4 == 1),
// NaNs (j % 4 == 2), signed zeros (j % 4 == 3), and feature 5 a code of 6 categories.
Features table(Index n, Index d, std::uint64_t seed) {
    Rng rng(seed);
    DenseMatrix X(n, d);
    for (Index i = 0; i < n; ++i)
        for (Index j = 0; j < d; ++j) {
            const double x = rng.normal();
            double v = x;
            if (j == 5) v = std::floor(rng.uniform() * 6);
            else if (j % 4 == 1) v = std::floor(x);
            else if (j % 4 == 2 && rng.uniform() < 0.2) v = std::nan("");
            else if (j % 4 == 3 && rng.uniform() < 0.3) v = rng.uniform() < 0.5 ? 0.0 : -0.0;
            X(i, j) = v;
        }
    return Features(std::move(X));
}

bool same_bits(const double* a, const double* b, int n) {
    return std::memcmp(a, b, sizeof(double) * static_cast<std::size_t>(n)) == 0;
}

}  // namespace

TEST_SUITE("common.bin_cuts") {
    TEST_CASE("bin cuts of a dense table: each feature's edges from its own values, the same on 1, 2 and 3 threads") {
        const Index n = 6000, d = 19;  // three groups of features; columns long enough for the radix sort
        const Features X = table(n, d, 7);
        std::vector<Index> counts(static_cast<std::size_t>(d), 0);
        counts[5] = 6;
        const BinCuts one = BinCuts::fit(X, {}, 64, 1, 1, counts);
        for (const int threads : {2, 3}) {
            const BinCuts more = BinCuts::fit(X, {}, 64, 1, threads, counts);
            REQUIRE(more.n_features() == d);
            for (Index f = 0; f < d; ++f) {
                REQUIRE(more.n_bins(f) == one.n_bins(f));
                CHECK(same_bits(more.edges(f), one.edges(f), one.n_bins(f)));
            }
        }
        // Under 200,000 rows every row is in the sample: a numeric feature's edges are those of
        // its non-missing values in row order.
        const DenseView M = X.dense_ref();
        for (Index f = 0; f < d; ++f) {
            if (f == 5) {
                CHECK(one.is_categorical(f));
                continue;
            }
            std::vector<double> v;
            for (Index i = 0; i < n; ++i)
                if (!std::isnan(M(i, f))) v.push_back(M(i, f));
            const std::vector<double> edges = BinCuts::feature_edges(v, 64);
            REQUIRE(static_cast<int>(edges.size()) == one.n_bins(f));
            CHECK(same_bits(edges.data(), one.edges(f), one.n_bins(f)));
        }
    }

    TEST_CASE("bin codes of a dense table: each cell's bin_of, eight searches in step or one, on 1 and 3 threads") {
        const Index n = 1003, d = 9;  // rows past a multiple of eight
        const Features X = table(n, d, 11);
        std::vector<Index> counts(static_cast<std::size_t>(d), 0);
        counts[5] = 6;
        for (const int max_bins : {2, 3, 16, 255}) {
            const BinCuts cuts = BinCuts::fit(X, {}, max_bins, 1, 1, counts);
            std::vector<Index> rows;
            for (Index i = n - 1; i >= 0; i -= 2) rows.push_back(i);  // a subset, descending
            for (const int threads : {1, 3}) {
                const BinnedMatrix all(cuts, X, {}, threads);
                const BinnedMatrix some(cuts, X, rows, threads);
                const DenseView M = X.dense_ref();
                bool same = true;
                for (Index f = 0; f < d; ++f) {
                    for (Index i = 0; i < n; ++i) same = same && all.bin(f, i) == cuts.bin_of(f, M(i, f));
                    for (std::size_t k = 0; k < rows.size(); ++k)
                        same = same && some.bin(f, static_cast<Index>(k)) == cuts.bin_of(f, M(rows[k], f));
                }
                CHECK(same);
            }
        }
    }

    TEST_CASE("bin cuts of a dense table: the rows given, in their order") {
        const Features X = table(5000, 10, 3);
        std::vector<Index> rows;
        for (Index i = 0; i < 5000; i += 3) rows.push_back(i);
        const BinCuts a = BinCuts::fit(X, rows, 32, 1, 1);
        const BinCuts b = BinCuts::fit(X, rows, 32, 1, 2);
        const DenseView M = X.dense_ref();
        for (Index f = 0; f < 10; ++f) {
            std::vector<double> v;
            for (const Index i : rows)
                if (!std::isnan(M(i, f))) v.push_back(M(i, f));
            const std::vector<double> edges = BinCuts::feature_edges(v, 32);
            REQUIRE(static_cast<int>(edges.size()) == a.n_bins(f));
            CHECK(same_bits(edges.data(), a.edges(f), a.n_bins(f)));
            REQUIRE(b.n_bins(f) == a.n_bins(f));
            CHECK(same_bits(b.edges(f), a.edges(f), a.n_bins(f)));
        }
    }
}

}  // namespace unit_common_bin_cuts_fit_test
}  // namespace
