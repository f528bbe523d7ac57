#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "kestrel/core/error.hpp"
#include "kestrel/model_selection/grid_search.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace unit_model_selection_grid_search_test {

using namespace kestrel;

namespace {

// y = 2*x1 - x2 + 0.5 exactly, 40 rows: the less ridge shrinks, the better it fits.
// scikit-learn 1.2.1, Ridge(alpha=a) under KFold(5, shuffle=True, random_state=s) for
// s = 0..19: mean r2 strictly decreasing over a = 1e-6, 1e-3, 1, 1e3 for every s
// (s = 19: 1.0000, 0.99999999988, 0.99989, 0.0136).
Dataset linear_data() {
    Dataset d;
    DenseMatrix X(40, 2);
    d.y.resize(40);
    for (Index i = 0; i < 40; ++i) {
        X(i, 0) = static_cast<double>(i % 7);
        X(i, 1) = static_cast<double>((i * 3) % 5 - 2);
        d.y[i] = 2 * X(i, 0) - X(i, 1) + 0.5;
    }
    d.X = Features(std::move(X));
    d.feature_names = {"x1", "x2"};
    d.task = Task::regression;
    return d;
}

Context context(int threads) {
    Context ctx;
    ctx.seed = 5;
    ctx.threads = threads;
    return ctx;
}

ModelSpec ridge() {
    ModelSpec spec;
    spec.model = "ridge";
    return spec;
}

}  // namespace

TEST_SUITE("model_selection") {

TEST_CASE("grid_search: ridge alpha picks the smallest penalty on noise-free data") {
    const Dataset d = linear_data();
    const std::vector<GridAxis> axes{parse_grid_axis("alpha=10^-6:10^3:3")};
    const GridSearchResult r = grid_search(ridge(), axes, d, 5, "r2", context(2));

    CHECK(r.metric == "r2");
    CHECK(r.greater_is_better);
    REQUIRE(r.points.size() == 4);
    const std::vector<std::string> expected_order{"1e-06", "0.001", "1", "1000"};
    for (std::size_t i = 0; i < 4; ++i) {
        CAPTURE(i);
        REQUIRE(r.points[i].point.size() == 1);
        CHECK(r.points[i].point[0].first == "alpha");
        CHECK(r.points[i].point[0].second == expected_order[i]);
        CHECK(r.points[i].params.at("alpha") == expected_order[i]);  // as given, unresolved
        CHECK(r.points[i].rank == static_cast<int>(i) + 1);
        CHECK(r.points[i].fold_scores.size() == 5);
        CHECK(r.points[i].fit_seconds >= 0);
    }
    CHECK(r.best().score.mean > 0.999999);
    CHECK(r.points.back().score.mean < 0.5);
}

TEST_CASE("grid_search: the best point's scores equal a plain cross_validate there") {
    const Dataset d = linear_data();
    const std::vector<GridAxis> axes{{"alpha", {"1000", "0.001", "1"}}};
    const Context ctx = context(2);
    const GridSearchResult r = grid_search(ridge(), axes, d, 4, "mse", ctx);

    CHECK_FALSE(r.greater_is_better);  // mse: lower is better
    CHECK(r.best().point[0].second == "0.001");
    CHECK(r.points[1].point[0].second == "1");
    CHECK(r.points[2].point[0].second == "1000");

    ModelSpec at_best = ridge();
    at_best.params["alpha"] = "0.001";
    CvOptions opts;
    opts.k = 4;
    opts.metrics = {"mse"};
    const CvResult cv = cross_validate(at_best, d, opts, ctx);
    REQUIRE(cv.folds.size() == 4);
    for (std::size_t f = 0; f < 4; ++f) CHECK(r.best().fold_scores[f] == cv.folds[f].scores.at("mse"));
    CHECK(r.best().score.mean == doctest::Approx(cv.mean("mse")));
    CHECK(r.best().score.std == doctest::Approx(cv.summary.at("mse").std));

    // Same grid on one thread: the same numbers.
    const GridSearchResult one = grid_search(ridge(), axes, d, 4, "mse", context(1));
    for (std::size_t i = 0; i < 3; ++i) CHECK(one.points[i].fold_scores == r.points[i].fold_scores);
}

TEST_CASE("grid_search: equal scores share a rank and keep grid order") {
    const Dataset d = linear_data();
    // solver=auto takes the cholesky path when d <= n (ridge.cpp), so the two solver
    // values give bit-identical fits: a guaranteed tie.
    const std::vector<GridAxis> axes{{"solver", {"cholesky", "auto"}}, {"alpha", {"10", "1e-06"}}};
    const GridSearchResult r = grid_search(ridge(), axes, d, 3, "r2", context(2));
    REQUIRE(r.points.size() == 4);
    // alpha=1e-06 beats alpha=10 whatever the solver; cholesky comes first in the grid.
    CHECK(r.points[0].point == std::vector<std::pair<std::string, std::string>>{{"solver", "cholesky"}, {"alpha", "1e-06"}});
    CHECK(r.points[1].point == std::vector<std::pair<std::string, std::string>>{{"solver", "auto"}, {"alpha", "1e-06"}});
    CHECK(r.points[0].rank == 1);
    CHECK(r.points[2].point[1].second == "10");
    CHECK(r.points[2].rank == 3);
}

TEST_CASE("grid_search: a bad grid value fails before any fit") {
    const Dataset d = linear_data();
    Context ctx = context(2);
    int reports = 0;
    ctx.progress = [&](const std::string&, std::uint64_t, std::uint64_t) { ++reports; };

    CHECK_THROWS_WITH_AS(grid_search(ridge(), {{"alpha", {"1", "-1"}}}, d, 3, "r2", ctx),
                         doctest::Contains("alpha=-1"), UsageError);
    CHECK_THROWS_AS(grid_search(ridge(), {{"alpha", {"1", "abc"}}}, d, 3, "r2", ctx), UsageError);
    CHECK_THROWS_AS(grid_search(ridge(), {{"alpah", {"1"}}}, d, 3, "r2", ctx), UsageError);
    CHECK_THROWS_AS(grid_search(ridge(), {{"alpha", {"1"}}}, d, 3, "accuracy", ctx), UsageError);
    CHECK_THROWS_AS(grid_search(ridge(), {{"alpha", {"1"}}}, d, 3, "no_such_metric", ctx), UsageError);
    CHECK_THROWS_AS(grid_search(ridge(), {{"alpha", {"1"}}}, d, 41, "r2", ctx), UsageError);
    CHECK(reports == 0);
}

}  // TEST_SUITE

}  // namespace unit_model_selection_grid_search_test
}  // namespace
