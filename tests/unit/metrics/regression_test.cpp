#include <doctest/doctest.h>

#include <cmath>

#include "kestrel/core/error.hpp"
#include "kestrel/metrics/regression.hpp"
#include "metrics_test_util.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace unit_metrics_regression_test {

using namespace kestrel;
using metrics_test::exact;
using metrics_test::vec;

TEST_SUITE("metrics") {

TEST_CASE("regression metrics by hand") {
    // errors y - yhat = -0.5, 0, 1, -1
    //   MSE = (0.25 + 0 + 1 + 1)/4 = 0.5625, RMSE = 0.75, MAE = 2.5/4 = 0.625, max = 1
    //   mean y = 2.5, SStot = 2.25 + 0.25 + 0.25 + 2.25 = 5, R² = 1 - 2.25/5 = 0.55
    const auto y = vec({1, 2, 3, 4});
    const auto yhat = vec({1.5, 2, 2, 5});
    CHECK(mean_squared_error(y, yhat) == exact(0.5625));
    CHECK(mean_absolute_error(y, yhat) == exact(0.625));
    CHECK(max_error(y, yhat) == exact(1.0));
    CHECK(r2_score(y, yhat) == exact(0.55));
    const RegressionReport r = regression_report(metrics_test::regression({1, 2, 3, 4}, {1.5, 2, 2, 5}));
    CHECK(r.n == 4);
    CHECK(r.rmse == exact(0.75));
    CHECK(r.r2 == exact(0.55));
}

TEST_CASE("r2 of a constant target follows sklearn: 1 if predicted exactly, else 0") {
    // sklearn 1.2.1: r2_score([3,3,3], [3,3,3]) = 1.0, r2_score([3,3,3], [2,3,4]) = 0.0
    CHECK(r2_score(vec({3, 3, 3}), vec({3, 3, 3})) == 1.0);
    CHECK(r2_score(vec({3, 3, 3}), vec({2, 3, 4})) == 0.0);
    // A deliberate departure: sklearn 1.2.1 r2_score([0.1]*3, [0.1, 0.1, 0.2]) gives
    // -1.7307656195116095e+31, because the float mean of three 0.1s is not 0.1 and
    // SStot becomes rounding noise; kestrel tests constancy exactly and reports 0.
    CHECK(r2_score(vec({0.1, 0.1, 0.1}), vec({0.1, 0.1, 0.2})) == 0.0);
    // Fewer than two samples: undefined (sklearn returns nan).
    CHECK(std::isnan(r2_score(vec({1}), vec({2}))));
}

TEST_CASE("regression report text and JSON") {
    const RegressionReport r = regression_report(metrics_test::regression({1, 2, 3, 4}, {1.5, 2, 2, 5}));
    CHECK(r.to_text() ==
          "n           4\n"
          "MSE         0.5625\n"
          "RMSE        0.7500\n"
          "MAE         0.6250\n"
          "R^2         0.5500\n"
          "max error   1.0000\n");
    const Json j = r.to_json();
    CHECK(j.at("n") == 4);
    CHECK(j.at("mse").get<double>() == 0.5625);
    CHECK(j.at("rmse").get<double>() == 0.75);
    CHECK(j.at("mae").get<double>() == 0.625);
    CHECK(j.at("r2").get<double>() == exact(0.55));
    CHECK(j.at("max_error").get<double>() == 1.0);
}

TEST_CASE("regression report refuses classification predictions") {
    CHECK_THROWS_AS(regression_report(metrics_test::classification({0, 1}, {0, 1}, {"a", "b"})), UsageError);
    CHECK_THROWS_AS(mean_squared_error(vec({1, 2}), vec({1})), InternalError);
}

}  // TEST_SUITE

}  // namespace unit_metrics_regression_test
}  // namespace
