#include <doctest/doctest.h>

#include <cmath>
#include <limits>

#include "kestrel/core/cell_scans.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace unit_core_cell_scans_test {

using namespace kestrel;

TEST_SUITE("core") {

TEST_CASE("cell scans: a NaN anywhere is found") {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    for (Index cols : {1, 3, 4, 5, 9}) {
        CAPTURE(cols);
        DenseMatrix m(6, cols);
        for (Index i = 0; i < m.rows(); ++i)
            for (Index j = 0; j < cols; ++j) m(i, j) = std::sin(static_cast<double>(i * cols + j));
        CHECK_FALSE(has_nan_cell(m));
        for (Index j = 0; j < cols; ++j) {
            DenseMatrix with_nan = m;
            with_nan(5, j) = nan;
            CHECK(has_nan_cell(with_nan));
        }
        // The first three rows only, borrowed in place: a NaN in the fourth is outside.
        DenseMatrix later_nan = m;
        later_nan(3, 0) = nan;
        CHECK_FALSE(has_nan_cell(Eigen::Map<const DenseMatrix>(later_nan.data(), 3, cols)));
    }
    CHECK_FALSE(has_nan_cell(DenseMatrix(0, 3)));
}

}  // TEST_SUITE

}  // namespace unit_core_cell_scans_test
}  // namespace
