// gbdt's contributions (Estimator::contributions, docs/explanations.md): TreeSHAP of the
// raw scores, additive on every row whatever the loss, with missing values and category
// sets routed as prediction routes them. XGBoost's values: gbdt_test.cpp.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "gbdt_test_util.hpp"
#include "kestrel/boosting/gbdt.hpp"
#include "kestrel/core/json_text.hpp"
#include "kestrel/core/rng.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace unit_boosting_gbdt_contrib_test {

using namespace kestrel;
using gbdt_test::fit_gbdt;
using gbdt_test::make_gbdt;

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// n rows of d features (every fifth cell of column 1 missing; column 0 a category code of
// 6 when `categorical`), targets from a few of them: regression, or k classes.
Dataset mixed(Index n, Index d, Index k, bool categorical, std::uint64_t seed = 4) {
    Rng rng(seed);
    Dataset data;
    DenseMatrix X(n, d);
    data.y.resize(n);
    for (Index i = 0; i < n; ++i) {
        for (Index j = 0; j < d; ++j) X(i, j) = rng.normal();
        if (categorical) X(i, 0) = static_cast<double>(rng.below(6));
        if (i % 5 == 0) X(i, 1) = kNaN;
        const double code_effect = categorical ? (X(i, 0) == 2 || X(i, 0) == 5 ? 1.5 : -0.5) : X(i, 0);
        const double s = code_effect + (std::isnan(X(i, 1)) ? 1.0 : X(i, 1)) * X(i, 2) + 0.3 * rng.normal();
        data.y[i] = k == 0 ? s : std::clamp(std::floor(s + static_cast<double>(k) / 2), 0.0, static_cast<double>(k - 1));
    }
    data.X = Features(std::move(X));
    data.task = k ? Task::classification : Task::regression;
    for (Index c = 0; c < k; ++c) data.classes.push_back("c" + std::to_string(c));
    if (categorical) {
        data.category_counts.assign(static_cast<std::size_t>(d), 0);
        data.category_counts[0] = 6;
    }
    return data;
}

// Each output's contributions and bias sum to its raw score, on every row.
void check_additive(const Gbdt& g, const Features& X) {
    const Matrix c = g.contributions(X), raw = g.raw_scores(X);
    const Index d = X.cols(), K = raw.cols();
    REQUIRE(c.cols() == K * (d + 1));
    for (Index i = 0; i < X.rows(); ++i)
        for (Index o = 0; o < K; ++o)
            CHECK(c.row(i).segment(o * (d + 1), d + 1).sum() == doctest::Approx(raw(i, o)).epsilon(1e-12).scale(1.0));
}

}  // namespace

TEST_SUITE("gbdt") {
    TEST_CASE("gbdt contributions: additive for every loss, with missing values and categories") {
        for (const bool categorical : {false, true}) {
            CAPTURE(categorical);
            const Dataset reg = mixed(400, 4, 0, categorical), bin = mixed(400, 4, 2, categorical),
                          multi = mixed(400, 4, 3, categorical);
            const Params p{{"n_estimators", 15}, {"max_depth", 4}, {"min_data_per_group", 5}, {"max_cat_to_onehot", 2}};
            check_additive(*fit_gbdt(reg, p), reg.X);
            check_additive(*fit_gbdt(reg, {{"n_estimators", 10}, {"loss", "huber"}}), reg.X);
            const auto b = fit_gbdt(bin, p);
            check_additive(*b, bin.X);
            CHECK(b->contributions(bin.X).cols() == 5);  // log-odds: one output
            const auto m = fit_gbdt(multi, p);
            check_additive(*m, multi.X);
            CHECK(m->contributions(multi.X).cols() == 15);  // one output per class
            if (categorical) {
                bool any = false;
                for (const auto& s : m->categorical_splits()) any |= !s.empty();
                CHECK(any);
            }
        }
    }

    TEST_CASE("gbdt contributions: the bias is the base score plus the trees' cover-weighted means") {
        const Dataset reg = mixed(300, 3, 0, false);
        const auto g = fit_gbdt(reg, {{"n_estimators", 5}, {"max_depth", 3}});
        const Matrix c = g->contributions(reg.X);
        // The same bias on every row: it does not depend on the row.
        for (Index i = 1; i < c.rows(); ++i) CHECK(c(i, 3) == c(0, 3));
        double expected = g->base_score()[0];
        for (const Tree& t : g->trees()) {
            // Cover-weighted mean of the leaves: Σ_leaf value·(product of child/(left+right) covers).
            std::vector<double> reach(static_cast<std::size_t>(t.size()), 0.0);
            reach[0] = 1;
            for (int i = 0; i < t.size(); ++i) {
                const TreeNode& n = t.node(i);
                if (n.is_leaf()) {
                    expected += reach[static_cast<std::size_t>(i)] * t.value(i)[0];
                    continue;
                }
                const double total = t.node(n.left).weight + t.node(n.right).weight;
                reach[static_cast<std::size_t>(n.left)] = reach[static_cast<std::size_t>(i)] * t.node(n.left).weight / total;
                reach[static_cast<std::size_t>(n.right)] = reach[static_cast<std::size_t>(i)] * t.node(n.right).weight / total;
            }
        }
        CHECK(c(0, 3) == doctest::Approx(expected).epsilon(1e-12));
    }

    TEST_CASE("gbdt contributions: identical after save and load, at 1 and 2 threads, dense and sparse") {
        const Dataset multi = mixed(300, 4, 3, true);
        const auto g = fit_gbdt(multi, {{"n_estimators", 6}, {"min_data_per_group", 5}});
        const Matrix c = g->contributions(multi.X);
        auto back = make_gbdt({{"n_estimators", 6}, {"min_data_per_group", 5}});
        back->load_state(Json::parse(g->save_state().dump()));
        CHECK(back->contributions(multi.X) == c);
        // A sparse row's absent entries are missing: the same as NaN cells.
        const Dataset reg = mixed(200, 3, 0, false);
        const auto r = fit_gbdt(reg, {{"n_estimators", 4}});
        DenseMatrix with_nan(reg.X.dense_ref());
        SparseMatrix sparse = with_nan.sparseView();
        for (Index i = 0; i < with_nan.rows(); ++i)
            for (Index j = 0; j < with_nan.cols(); ++j)
                if (with_nan(i, j) == 0) with_nan(i, j) = kNaN;
        CHECK(r->contributions(Features(std::move(sparse))) == r->contributions(Features(with_nan)));
    }
}

}  // namespace unit_boosting_gbdt_contrib_test
}  // namespace
