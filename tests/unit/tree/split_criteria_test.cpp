#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "kestrel/core/error.hpp"
#include "kestrel/tree/split_criteria.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace unit_tree_split_criteria_test {

using namespace kestrel;

TEST_SUITE("tree") {
    TEST_CASE("split criteria: gini, entropy and variance by hand") {
        // Class weights (3, 1): p = (3/4, 1/4).
        //   gini    = 1 − (9/16 + 1/16) = 6/16 = 0.375
        //   entropy = −(¾ log₂ ¾ + ¼ log₂ ¼) = ¾·0.4150375 + ¼·2 = 0.8112781244591328
        const std::vector<double> c31{3, 1};
        CHECK(class_impurity(Criterion::gini, c31) == doctest::Approx(0.375).epsilon(1e-15));
        CHECK(class_impurity(Criterion::entropy, c31) == doctest::Approx(0.8112781244591328).epsilon(1e-14));
        // Weighted counts (1.5, 1.5, 0): p = (½, ½, 0): gini = ½, entropy = 1 bit (0 log 0 = 0).
        const std::vector<double> c_half{1.5, 1.5, 0.0};
        CHECK(class_impurity(Criterion::gini, c_half) == doctest::Approx(0.5).epsilon(1e-15));
        CHECK(class_impurity(Criterion::entropy, c_half) == doctest::Approx(1.0).epsilon(1e-15));
        // Three equal classes: gini = 1 − 3/9 = 2/3, entropy = log₂ 3.
        const std::vector<double> c3{2, 2, 2};
        CHECK(class_impurity(Criterion::gini, c3) == doctest::Approx(2.0 / 3.0).epsilon(1e-15));
        CHECK(class_impurity(Criterion::entropy, c3) == doctest::Approx(std::log2(3.0)).epsilon(1e-15));
        // A pure node has impurity 0 under both.
        const std::vector<double> pure{0, 5};
        CHECK(class_impurity(Criterion::gini, pure) == 0.0);
        CHECK(class_impurity(Criterion::entropy, pure) == 0.0);

        // y = (1, 2, 3, 6), unit weights: W = 4, Σy = 12, Σy² = 50:
        // variance = 50/4 − 3² = 3.5.
        CHECK(variance_impurity(4, 12, 50) == doctest::Approx(3.5).epsilon(1e-15));
        // Weights (2, 1, 1) on y = (1, 4, 7): W = 4, Σwy = 13, Σwy² = 2 + 16 + 49 = 67:
        // 67/4 − (13/4)² = 16.75 − 10.5625 = 6.1875.
        CHECK(variance_impurity(4, 13, 67) == doctest::Approx(6.1875).epsilon(1e-15));
        // A constant target never gives a negative variance through rounding.
        CHECK(variance_impurity(3, 0.3, 0.03) >= 0.0);
    }

    TEST_CASE("split criteria: names") {
        CHECK(criterion_from_string("gini") == Criterion::gini);
        CHECK(criterion_from_string("entropy") == Criterion::entropy);
        CHECK(criterion_from_string("variance") == Criterion::variance);
        CHECK(std::string(to_string(Criterion::entropy)) == "entropy");
        CHECK_THROWS_AS(criterion_from_string("mse"), ParamError);
    }

}  // TEST_SUITE

}  // namespace unit_tree_split_criteria_test
}  // namespace
