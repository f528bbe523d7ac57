// Random search, successive halving, resume, nested CV and the scale axis.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "command_error.hpp"
#include "kestrel/core/error.hpp"
#include "kestrel/model_selection/grid_search.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace unit_model_selection_search_test {

using namespace kestrel;

namespace {

// y = 2 x1 - x2 + 0.5 exactly: the less ridge shrinks, the better. Column 2 (optional)
// holds the row number, so an observer can tell which rows a fit was given.
Dataset linear_rows(Index n, bool with_row_id = false) {
    Dataset d;
    DenseMatrix X(n, with_row_id ? 3 : 2);
    d.y.resize(n);
    for (Index i = 0; i < n; ++i) {
        X(i, 0) = static_cast<double>(i % 7);
        X(i, 1) = static_cast<double>((i * 3) % 5 - 2);
        if (with_row_id) X(i, 2) = static_cast<double>(i);
        d.y[i] = 2 * X(i, 0) - X(i, 1) + 0.5;
    }
    d.X = Features(std::move(X));
    d.task = Task::regression;
    return d;
}

std::set<Index> row_ids(const Features& X) {
    std::set<Index> ids;
    const DenseView m = X.dense_ref();
    for (Index i = 0; i < m.rows(); ++i) ids.insert(static_cast<Index>(m(i, 2)));
    return ids;
}

Context context(int threads, std::uint64_t seed = 5) {
    Context ctx;
    ctx.seed = seed;
    ctx.threads = threads;
    return ctx;
}

ModelSpec ridge() {
    ModelSpec spec;
    spec.model = "ridge";
    return spec;
}

SearchOptions options(const std::string& metric, int k = 5) {
    SearchOptions o;
    o.metric = metric;
    o.split.k = k;
    return o;
}

}  // namespace

TEST_SUITE("model_selection") {

TEST_CASE("grid: distributions parse, and only random search takes them") {
    const auto u = parse_grid_axis("alpha=uniform(0.5, 2)");
    CHECK(u.kind == AxisKind::uniform);
    CHECK(u.low == 0.5);
    CHECK(u.high == 2);
    CHECK(parse_grid_axis("C=loguniform(1e-3,1e3)").kind == AxisKind::loguniform);
    CHECK(parse_grid_axis("depth=randint(1,8)").kind == AxisKind::randint);
    const auto c = parse_grid_axis("kernel=choice(rbf, poly)");
    CHECK(c.kind == AxisKind::list);
    CHECK(c.values == std::vector<std::string>{"rbf", "poly"});
    for (const char* bad : {"C=uniform(1)", "C=uniform(2,1)", "C=loguniform(0,1)", "C=randint(1.5,3)",
                            "C=uniform(a,1)", "C=choice()"}) {
        CAPTURE(bad);
        CHECK_COMMAND_THROWS_WITH_AS(parse_grid_axis(bad), doctest::Contains((std::string("-g ") + bad).c_str()), UsageError);
    }
    CHECK_COMMAND_THROWS_WITH_AS(expand_grid({u}), doctest::Contains("--n-iter"), UsageError);
}

TEST_CASE("sample_points: reproducible by seed, within bounds, distinct on a grid of lists") {
    const std::vector<GridAxis> axes{parse_grid_axis("a=uniform(-1,3)"), parse_grid_axis("C=loguniform(1e-3,1e3)"),
                                     parse_grid_axis("d=randint(2,5)"), parse_grid_axis("k=x,y")};
    const auto p = sample_points(axes, 200, 77), q = sample_points(axes, 200, 77), r = sample_points(axes, 200, 78);
    REQUIRE(p.size() == 200);
    CHECK(p == q);
    CHECK(p != r);
    std::set<std::string> ints, words;
    double lo_c = 1e9, hi_c = 0;
    for (const auto& point : p) {
        const double a = std::stod(point[0].second), C = std::stod(point[1].second);
        CHECK(a >= -1);
        CHECK(a < 3);
        CHECK(C >= 1e-3);
        CHECK(C < 1e3);
        lo_c = std::min(lo_c, C);
        hi_c = std::max(hi_c, C);
        ints.insert(point[2].second);
        words.insert(point[3].second);
    }
    CHECK(ints == std::set<std::string>{"2", "3", "4"});  // randint excludes its upper bound, as scipy's
    CHECK(words == std::set<std::string>{"x", "y"});
    CHECK(lo_c < 1e-2);  // log-uniform reaches every decade
    CHECK(hi_c > 1e2);

    const std::vector<GridAxis> lists{{"a", {"1", "2", "3"}}, {"b", {"x", "y", "z", "w"}}};
    const auto s = sample_points(lists, 5, 3);
    CHECK(std::set<GridPoint>(s.begin(), s.end()).size() == 5);  // without replacement
    CHECK(sample_points(lists, 50, 3) == expand_grid(lists));   // n_iter covers the grid: all of it
    CHECK_COMMAND_THROWS_WITH_AS(sample_points(lists, 0, 3), doctest::Contains("--n-iter"), UsageError);
}

TEST_CASE("search: random search is identical on 1 and 2 threads and picks the best sampled alpha") {
    const Dataset d = linear_rows(40);
    SearchOptions o = options("r2");
    o.n_iter = 6;
    const std::vector<GridAxis> axes{parse_grid_axis("alpha=loguniform(1e-6,1e3)")};
    const auto a = search(ridge(), axes, d, o, context(1));
    const auto b = search(ridge(), axes, d, o, context(2));
    CHECK(a.kind == "random");
    REQUIRE(a.points.size() == 6);
    double smallest = 1e9;
    for (std::size_t i = 0; i < 6; ++i) {
        CHECK(a.points[i].point == b.points[i].point);
        CHECK(a.points[i].fold_scores == b.points[i].fold_scores);
        smallest = std::min(smallest, std::stod(a.points[i].point[0].second));
    }
    CHECK(std::stod(a.best().point[0].second) == smallest);  // noise-free: least shrinkage wins
}

TEST_CASE("search: successive halving runs sklearn's rounds and keeps the best") {
    const Dataset d = linear_rows(90);
    SearchOptions o = options("r2");
    o.halving = true;
    const std::vector<GridAxis> axes{parse_grid_axis("alpha=10^-6:10^2:1")};  // 9 points
    int fits = 0;
    std::map<Index, int> fits_by_rows;
    o.observe = [&](const FitRecord& rec) {
        ++fits;
        ++fits_by_rows[rec.train.rows()];
    };
    const auto r = search(ridge(), axes, d, o, context(2));
    CHECK(r.kind == "halving");
    // scikit-learn 1.2.1 HalvingGridSearchCV on this data (record_halving_reference.py):
    // n_resources_ [10, 30, 90], n_candidates_ [9, 3, 1], best alpha 1e-06.
    REQUIRE(r.rounds.size() == 3);
    CHECK(r.rounds[0].n_resources == 10);
    CHECK(r.rounds[1].n_resources == 30);
    CHECK(r.rounds[2].n_resources == 90);
    CHECK(r.rounds[0].n_candidates == 9);
    CHECK(r.rounds[1].n_candidates == 3);
    CHECK(r.rounds[2].n_candidates == 1);
    CHECK(r.best().point[0].second == "1e-06");
    CHECK(r.best().iteration == 2);
    CHECK(r.best().n_resources == 90);
    CHECK(r.points.size() == 9);
    CHECK(fits == (9 + 3 + 1) * 5);
    CHECK(fits_by_rows.at(72) == 5);  // the last round fits the whole training folds (4/5 of 90)
    // identical on one thread
    const auto one = search(ridge(), axes, d, [&] { auto p = o; p.observe = {}; return p; }(), context(1));
    for (std::size_t i = 0; i < r.points.size(); ++i) CHECK(one.points[i].fold_scores == r.points[i].fold_scores);
}

TEST_CASE("search: --resume skips the points already scored and keeps their scores") {
    const Dataset d = linear_rows(40);
    SearchOptions o = options("r2");
    const auto first = search(ridge(), {{"alpha", {"1", "10"}}}, d, o, context(2));
    o.known = first.points;
    int fits = 0;
    o.observe = [&](const FitRecord&) { ++fits; };
    const auto second = search(ridge(), {{"alpha", {"0.001", "1", "10"}}}, d, o, context(2));
    CHECK(fits == 5);  // only alpha=0.001, over 5 folds
    CHECK(second.fitted_points == 1);
    REQUIRE(second.points.size() == 3);
    CHECK(second.best().point[0].second == "0.001");
    CHECK_FALSE(second.best().resumed);
    for (const auto& p : second.points) {
        if (p.point[0].second == "0.001") continue;
        CHECK(p.resumed);
        const auto& before = *std::find_if(first.points.begin(), first.points.end(),
                                           [&](const GridPointResult& f) { return f.point == p.point; });
        CHECK(p.fold_scores == before.fold_scores);
    }
}

TEST_CASE("nested_search: tuning never sees the outer test fold") {
    const Dataset d = linear_rows(60, true);
    SearchOptions inner = options("r2", 3);
    SplitOptions outer;
    outer.k = 4;
    std::map<int, std::set<Index>> outer_train;              // from the refit of each outer fold
    std::vector<std::pair<int, std::set<Index>>> tuning_rows;  // every row a tuning fit saw
    int refits = 0;
    inner.observe = [&](const FitRecord& rec) {
        REQUIRE(rec.outer >= 0);
        std::set<Index> rows = row_ids(rec.train.X);
        for (Index r : row_ids(rec.test)) rows.insert(r);
        if (rec.phase == FitPhase::refit) {
            ++refits;
            outer_train[rec.outer] = row_ids(rec.train.X);
            for (Index r : row_ids(rec.test)) CHECK_FALSE(outer_train[rec.outer].count(r));
        } else {
            tuning_rows.emplace_back(rec.outer, std::move(rows));
        }
    };
    const std::vector<GridAxis> axes{{"alpha", {"1e-6", "1", "1000"}}};
    const auto r = nested_search(ridge(), axes, d, inner, outer, context(2));
    CHECK(refits == 4);
    CHECK(tuning_rows.size() == 4u * 3u * 3u);  // outer folds x points x inner folds
    for (const auto& [o, rows] : tuning_rows) {
        CAPTURE(o);
        const auto& allowed = outer_train.at(o);
        for (Index row : rows) CHECK(allowed.count(row));  // nothing of outer fold o's test rows
    }
    REQUIRE(r.outer.size() == 4);
    for (const auto& o : r.outer) {
        CHECK(o.best_point[0].second == "1e-6");
        CHECK(o.test_score > 0.999);
    }
    CHECK(r.score.mean > 0.999);

    SearchOptions quiet = inner;
    quiet.observe = {};
    const auto one = nested_search(ridge(), axes, d, quiet, outer, context(1));
    for (std::size_t i = 0; i < 4; ++i) CHECK(one.outer[i].test_score == r.outer[i].test_score);
}

TEST_CASE("search: scale is a preprocessing axis; nested model parameters by dotted names") {
    const Dataset d = linear_rows(40);
    const auto r = search(ridge(), {parse_grid_axis("scale=standard,minmax,none"), {"alpha", {"1"}}}, d,
                          options("r2"), context(2));
    REQUIRE(r.points.size() == 3);
    std::set<std::vector<std::string>> steps;
    for (const auto& p : r.points) steps.insert(p.spec.preprocessing);
    CHECK(steps == std::set<std::vector<std::string>>{{"standard"}, {"minmax"}, {}});
    CHECK_COMMAND_THROWS_WITH_AS(apply_point(ridge(), {{"scale", "robust"}}), doctest::Contains("-g scale=robust"), UsageError);
    ModelSpec scaled = ridge();
    scaled.preprocessing = {"standard"};
    CHECK_COMMAND_THROWS_WITH_AS(apply_point(scaled, {{"scale", "none"}}), doctest::Contains("--scale"), UsageError);

    const ModelSpec boosted = apply_point([] { ModelSpec s; s.model = "adaboost"; return s; }(), {{"base.max_depth", "2"}});
    CHECK(boosted.params.at("base.max_depth") == "2");
}

}  // TEST_SUITE

}  // namespace unit_model_selection_search_test
}  // namespace
