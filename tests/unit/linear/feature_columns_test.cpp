#include <doctest/doctest.h>

#include <vector>

#include "kestrel/core/rng.hpp"
#include "kestrel/optim/feature_columns.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace unit_linear_feature_columns_test {

using namespace kestrel;

namespace {

// 4 x 3 with an all-zero column (1) and an all-zero row (2).
DenseMatrix example() {
    DenseMatrix m(4, 3);
    m << 1.5, 0, -2,
         0, 0, 3.25,
         0, 0, 0,
         -4, 0, 0;
    return m;
}

SparseMatrix example_sparse() {
    SparseMatrix s = example().sparseView();
    s.makeCompressed();
    return s;
}

struct Entry {
    Index i;
    double x;
    bool operator==(const Entry& o) const { return i == o.i && x == o.x; }
};

std::vector<Entry> column(const FeatureColumns& c, Index j) {
    std::vector<Entry> out;
    c.for_each(j, [&](Index i, double x) { out.push_back({i, x}); });
    return out;
}

}  // namespace

TEST_CASE("FeatureColumns: sparse columns list the stored entries in row order") {
    const Features X(example_sparse());
    const FeatureColumns c(X);
    CHECK(c.dense_column(0) == nullptr);
    CHECK(column(c, 0) == std::vector<Entry>{{0, 1.5}, {3, -4}});
    CHECK(column(c, 1).empty());
    CHECK(column(c, 2) == std::vector<Entry>{{0, -2}, {1, 3.25}});
}

TEST_CASE("FeatureColumns: the column copy does not depend on the input staying alive") {
    // The conversion now goes through a local swapped into place: the columns must own
    // their storage, not alias the row-major input or a dead temporary.
    auto make = [] {
        const Features X(example_sparse());
        return FeatureColumns(X);
    };
    const FeatureColumns c = make();
    CHECK(column(c, 0) == std::vector<Entry>{{0, 1.5}, {3, -4}});
    CHECK(column(c, 2) == std::vector<Entry>{{0, -2}, {1, 3.25}});
}

TEST_CASE("FeatureColumns: dense columns are contiguous and visit every row") {
    const Features X(example());
    const FeatureColumns c(X);
    for (Index j = 0; j < 3; ++j) {
        const double* col = c.dense_column(j);
        REQUIRE(col != nullptr);
        std::vector<Entry> expected;
        for (Index i = 0; i < 4; ++i) {
            CHECK(col[i] == example()(i, j));
            expected.push_back({i, example()(i, j)});
        }
        CHECK(column(c, j) == expected);
    }
}

// The in-place conversions behind FeatureColumns(Features&&): the same columns as the
// copy, bit for bit, whatever the shape and however little scratch they are given (small
// budgets drive small matrices through every path: row groups with a tail, one-element
// blocks, many passes of a few columns, a column wider than the budget).
namespace {

DenseMatrix numbered(Index n, Index d) {
    DenseMatrix m(n, d);
    for (Index i = 0; i < n; ++i)
        for (Index j = 0; j < d; ++j) m(i, j) = static_cast<double>(i * d + j) + 0.25;
    return m;
}

// n x d, about `density` of it stored (explicit zeros included), with every third row
// and every fourth column empty and column 1 (when there is one) full.
SparseMatrix random_sparse(Index n, Index d, double density, std::uint64_t seed) {
    Rng rng(seed);
    std::vector<Eigen::Triplet<double, int>> t;
    for (Index i = 0; i < n; ++i)
        for (Index j = 0; j < d; ++j) {
            const bool stored = j == 1 || (i % 3 != 2 && j % 4 != 3 && rng.uniform() < density);
            if (stored)
                t.emplace_back(static_cast<int>(i), static_cast<int>(j), rng.uniform() < 0.1 ? 0.0 : rng.normal());
        }
    SparseMatrix m(n, d);
    m.setFromTriplets(t.begin(), t.end());
    m.makeCompressed();
    return m;
}

void check_same_columns(const FeatureColumns& a, const FeatureColumns& b) {
    REQUIRE(a.rows() == b.rows());
    REQUIRE(a.cols() == b.cols());
    for (Index j = 0; j < a.cols(); ++j) CHECK(column(a, j) == column(b, j));
}

}  // namespace

TEST_CASE("transpose_in_place: the transpose for odd shapes and any scratch") {
    const std::vector<std::pair<Index, Index>> shapes{{1, 1},  {1, 6},  {6, 1},  {7, 3},  {3, 7},
                                                      {10, 4}, {4, 10}, {13, 5}, {5, 13}, {2, 41}};
    for (const auto& [n, d] : shapes)
        for (Index scratch : {1, 2, 3, 5, 8, 12, 1000}) {
            CAPTURE(n);
            CAPTURE(d);
            CAPTURE(scratch);
            DenseMatrix m = numbered(n, d);
            const double* buffer = m.data();
            detail::transpose_in_place(m, scratch);
            CHECK(m.data() == buffer);  // rearranged in its own storage
            REQUIRE(m.rows() == d);
            REQUIRE(m.cols() == n);
            CHECK(m == DenseMatrix(numbered(n, d).transpose()));
        }
}

TEST_CASE("csr_to_csc_in_place: Eigen's conversion, with empty rows and columns, in any number of passes") {
    const std::vector<std::pair<Index, Index>> shapes{{1, 1}, {1, 9}, {9, 1}, {7, 3}, {3, 7}, {40, 25}, {200, 60}};
    std::uint64_t seed = 1;
    for (const auto& [n, d] : shapes)
        for (double density : {0.0, 0.1, 0.5})
            for (Index scratch : {1, 4, 17, 100000}) {
                CAPTURE(n);
                CAPTURE(d);
                CAPTURE(density);
                CAPTURE(scratch);
                SparseMatrix m = random_sparse(n, d, density, seed++);
                const Eigen::SparseMatrix<double, Eigen::ColMajor, int> expected(m);
                const double* values = m.valuePtr();
                const std::vector<int> start = detail::csr_to_csc_in_place(m, scratch);
                CHECK(m.valuePtr() == values);  // rearranged in its own storage
                const auto nnz = static_cast<std::size_t>(expected.nonZeros());
                CHECK(start == std::vector<int>(expected.outerIndexPtr(), expected.outerIndexPtr() + d + 1));
                CHECK(std::vector<int>(m.innerIndexPtr(), m.innerIndexPtr() + nnz) ==
                      std::vector<int>(expected.innerIndexPtr(), expected.innerIndexPtr() + nnz));
                CHECK(std::vector<double>(m.valuePtr(), m.valuePtr() + nnz) ==
                      std::vector<double>(expected.valuePtr(), expected.valuePtr() + nnz));
            }
}

TEST_CASE("FeatureColumns: columns taken over in place equal the copy, and the input is left empty") {
    SUBCASE("dense") {
        for (const auto& [n, d] : std::vector<std::pair<Index, Index>>{{1, 1}, {1, 5}, {5, 1}, {7, 3}, {3, 7}}) {
            const Features X(numbered(n, d));
            Features owned = X;
            const FeatureColumns copy(X), taken(std::move(owned), 4);
            check_same_columns(copy, taken);
            CHECK(owned.rows() == 0);
        }
    }
    SUBCASE("sparse") {
        const Features X(random_sparse(50, 20, 0.2, 7));
        Features owned = X;
        const FeatureColumns copy(X), taken(std::move(owned), 9);
        check_same_columns(copy, taken);
        CHECK(taken.dense_column(0) == nullptr);
        CHECK(owned.rows() == 0);
    }
    SUBCASE("an uncompressed sparse matrix") {
        auto make = [] {
            SparseMatrix m(4, 3);
            m.insert(2, 1) = 5;
            m.insert(0, 2) = -1;
            m.insert(0, 0) = 2;
            return m;
        };
        Features X(make()), owned(make());  // moved in: swapped, so still uncompressed
        REQUIRE(!owned.sparse_ref().isCompressed());
        const FeatureColumns copy(X), taken(std::move(owned));
        check_same_columns(copy, taken);
        CHECK(column(taken, 0) == std::vector<Entry>{{0, 2}});
    }
}

}  // namespace unit_linear_feature_columns_test
}  // namespace
