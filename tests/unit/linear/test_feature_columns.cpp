#include <doctest/doctest.h>

#include <vector>

#include "kestrel/linear/feature_columns.hpp"

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
