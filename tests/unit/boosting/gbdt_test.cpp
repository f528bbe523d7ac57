#include "estimator_test_util.hpp"
#include "gbdt_test_util.hpp"
#include "kestrel/boosting/gbdt.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <limits>
#include <sstream>

#include "kestrel/boosting/histogram.hpp"
#include "kestrel/boosting/losses.hpp"
#include "kestrel/core/error.hpp"
#include "kestrel/core/rng.hpp"
#include "kestrel/pipeline/model.hpp"
#include "kestrel/pipeline/registry.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace unit_boosting_gbdt_test {

using namespace kestrel;
using gbdt_test::fit_gbdt;
using gbdt_test::make_gbdt;
using gbdt_test::csv_rows;
using gbdt_test::csv_rows_at;
using gbdt_test::make_data;

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();


// y = sin(2 x0) + x1 x2 + noise, or k classes cut from that score.
Dataset synthetic(Index n, Index d, Index k, std::uint64_t seed = 3) {
    Rng rng(seed);
    DenseMatrix X(n, d);
    Vector y(n);
    for (Index i = 0; i < n; ++i) {
        for (Index j = 0; j < d; ++j) X(i, j) = rng.normal();
        const double s = std::sin(2 * X(i, 0)) + X(i, 1) * X(i, 2) + 0.3 * rng.normal();
        y[i] = k == 0 ? s : std::clamp(std::floor((s + 1.5) / 3.0 * static_cast<double>(k)), 0.0, static_cast<double>(k - 1));
    }
    return make_data(std::move(X), std::move(y), k ? Task::classification : Task::regression, k);
}

struct XgbFixture {
    DenseMatrix X;
    Vector y_reg, y_bin, xgb_reg, xgb_margin;
};

const XgbFixture& xgb_fixture() {
    static const XgbFixture f = [] {
        const std::vector<std::vector<double>> rows = csv_rows("xgb_fixture.csv");
        XgbFixture x;
        const auto n = static_cast<Index>(rows.size());
        x.X.resize(n, 6);
        x.y_reg.resize(n);
        x.y_bin.resize(n);
        x.xgb_reg.resize(n);
        x.xgb_margin.resize(n);
        for (Index i = 0; i < n; ++i) {
            const auto& r = rows[static_cast<std::size_t>(i)];
            for (Index j = 0; j < 6; ++j) x.X(i, j) = r[static_cast<std::size_t>(j)];
            x.y_reg[i] = r[6];
            x.y_bin[i] = r[7];
            x.xgb_reg[i] = r[8];
            x.xgb_margin[i] = r[9];
        }
        return x;
    }();
    return f;
}

}  // namespace

TEST_SUITE("gbdt") {
    TEST_CASE("gbdt: loss gradients and Hessians match finite differences") {
        Rng rng(5);
        const double eps = 1e-6;
        for (LossKind kind : {LossKind::squared, LossKind::absolute, LossKind::huber, LossKind::logistic,
                              LossKind::softmax}) {
            CAPTURE(to_string(kind));
            const Loss loss{kind, 0.7};  // softmax: scikit-learn's Hessian, the true diagonal
            const Index K = kind == LossKind::softmax ? 4 : 1;
            for (int trial = 0; trial < 20; ++trial) {
                std::vector<double> F(static_cast<std::size_t>(K)), g(F.size()), h(F.size());
                for (double& f : F) f = 2 * rng.normal();
                const double y = kind == LossKind::logistic ? static_cast<double>(rng.below(2))
                                 : kind == LossKind::softmax ? static_cast<double>(rng.below(4))
                                                             : 2 * rng.normal();
                // Away from the kinks of |r| and of Huber's δ, where the derivative jumps.
                const double r = std::abs(y - F[0]);
                if ((kind == LossKind::absolute || kind == LossKind::huber) && (r < 1e-3 || std::abs(r - 0.7) < 1e-3))
                    continue;
                CHECK(loss.derivatives(y, F.data(), K, g.data(), h.data()) ==
                      doctest::Approx(loss.value(y, F.data(), K)).epsilon(1e-12));
                for (Index c = 0; c < K; ++c) {
                    auto Fp = F, Fm = F;
                    Fp[static_cast<std::size_t>(c)] += eps;
                    Fm[static_cast<std::size_t>(c)] -= eps;
                    const double fd = (loss.value(y, Fp.data(), K) - loss.value(y, Fm.data(), K)) / (2 * eps);
                    CHECK(g[static_cast<std::size_t>(c)] == doctest::Approx(fd).epsilon(1e-6).scale(1.0));
                    if (kind == LossKind::squared || kind == LossKind::logistic || kind == LossKind::softmax) {
                        std::vector<double> gp(F.size()), gm(F.size()), hh(F.size());
                        loss.derivatives(y, Fp.data(), K, gp.data(), hh.data());
                        loss.derivatives(y, Fm.data(), K, gm.data(), hh.data());
                        const double fdh = (gp[static_cast<std::size_t>(c)] - gm[static_cast<std::size_t>(c)]) / (2 * eps);
                        CHECK(h[static_cast<std::size_t>(c)] == doctest::Approx(fdh).epsilon(1e-5).scale(1.0));
                    } else {
                        CHECK(h[static_cast<std::size_t>(c)] == 1.0);  // the unit surrogate, leaves renewed
                    }
                }
            }
        }
    }

    TEST_CASE("gbdt: hessian=xgboost doubles softmax's Hessian and nothing else") {
        Rng rng(8);
        for (LossKind kind : {LossKind::squared, LossKind::logistic, LossKind::softmax}) {
            const Index K = kind == LossKind::softmax ? 3 : 1;
            const Loss sk{kind, 1.0, 1.0}, xgb{kind, 1.0, 2.0};
            std::vector<double> F(static_cast<std::size_t>(K)), g1(F.size()), h1(F.size()), g2(F.size()), h2(F.size());
            for (double& f : F) f = rng.normal();
            sk.derivatives(1.0, F.data(), K, g1.data(), h1.data());
            xgb.derivatives(1.0, F.data(), K, g2.data(), h2.data());
            for (Index c = 0; c < K; ++c) {
                const auto k = static_cast<std::size_t>(c);
                CHECK(g2[k] == g1[k]);
                CHECK(h2[k] == (kind == LossKind::softmax ? 2 * h1[k] : h1[k]));
            }
        }
        // p = softmax(0, 0) = (½, ½): XGBoost's 2·½·½ = ½.
        const double F0[2] = {0, 0};
        double g[2], h[2];
        Loss{LossKind::softmax, 1.0, 2.0}.derivatives(0.0, F0, 2, g, h);
        CHECK(g[0] == -0.5);
        CHECK(g[1] == 0.5);
        CHECK(h[0] == 0.5);
        CHECK(h[1] == 0.5);
    }

    TEST_CASE("gbdt: the training loss decreases monotonically for every loss") {
        const Dataset reg = synthetic(400, 4, 0), bin = synthetic(400, 4, 2), multi = synthetic(400, 4, 3);
        const std::pair<const Dataset*, std::string> cases[] = {
            {&reg, "squared"}, {&reg, "absolute"}, {&reg, "huber"}, {&bin, "logistic"}, {&multi, "softmax"}};
        for (const auto& [d, loss] : cases) {
            CAPTURE(loss);
            auto g = fit_gbdt(*d, {{"loss", loss}, {"n_estimators", 30}, {"max_depth", 3}});
            const auto& tl = g->train_loss();
            REQUIRE(tl.size() == 30);
            for (std::size_t t = 1; t < tl.size(); ++t) CHECK(tl[t] <= tl[t - 1] + 1e-12);
            CHECK(tl.back() < 0.9 * tl.front());
        }
    }

    TEST_CASE("gbdt: split gain and leaf weights of a hand-checked fixture") {
        // x = 1, 2, 3, 4; y = 0, 0, 1, 3; squared loss from F = 0: g = F − y = (0, 0, −1, −3),
        // h = 1; G = −4, H = 4, λ = 1. Gain G_L²/(H_L+λ) + G_R²/(H_R+λ) − G²/(H+λ):
        //   x <= 1.5: 0/2 + 16/4 − 16/5 = 0.8;  x <= 2.5: 0/3 + 16/3 − 16/5 = 2.1333;
        //   x <= 3.5: 1/4 + 9/2 − 16/5 = 1.55.  Best: x <= 2.5 (the midpoint of 2 and 3).
        // Leaf weights −G/(H+λ): left 0/3 = 0, right 4/3; root 4/5.
        DenseMatrix X(4, 1);
        X << 1, 2, 3, 4;
        Vector y(4);
        y << 0, 0, 1, 3;
        const Dataset d = make_data(X, y, Task::regression);
        auto g = fit_gbdt(d, {{"n_estimators", 1}, {"max_depth", 1}, {"learning_rate", 1.0}, {"lambda", 1.0},
                              {"min_child_weight", 0.0}, {"base_score", 0.0}});
        const Tree& t = g->trees().at(0);
        REQUIRE(t.size() == 3);
        CHECK(t.node(0).feature == 0);
        CHECK(t.node(0).threshold == 2.5);
        CHECK(t.node(0).impurity == doctest::Approx(16.0 / 3 - 16.0 / 5).epsilon(1e-12));
        CHECK(t.node(0).weight == 4.0);
        CHECK(t.value(0)[0] == doctest::Approx(0.8).epsilon(1e-12));
        CHECK(t.value(t.node(0).left)[0] == doctest::Approx(0.0));
        CHECK(t.value(t.node(0).right)[0] == doctest::Approx(4.0 / 3).epsilon(1e-12));
        const Vector p = g->predict(d.X);
        CHECK(p[0] == doctest::Approx(0.0));
        CHECK(p[3] == doctest::Approx(4.0 / 3).epsilon(1e-12));

        // γ above the best gain: no split. λ = 0 changes the best split: gains 16/3 − 4,
        // 16/2 − 4, 1/3 + 9/1 − 4 = 5.33 (x <= 3.5), and the right leaf is η · 3/1 = 1.5 (η = 0.5).
        CHECK(fit_gbdt(d, {{"n_estimators", 1}, {"gamma", 2.2}, {"min_child_weight", 0.0}, {"base_score", 0.0}})
                  ->trees()
                  .at(0)
                  .size() == 1);
        auto g2 = fit_gbdt(d, {{"n_estimators", 1}, {"max_depth", 1}, {"learning_rate", 0.5}, {"lambda", 0.0},
                               {"min_child_weight", 0.0}, {"base_score", 0.0}});
        CHECK(g2->trees()[0].node(0).threshold == 3.5);
        CHECK(g2->trees()[0].value(g2->trees()[0].node(0).right)[0] == doctest::Approx(1.5).epsilon(1e-12));
    }

    TEST_CASE("gbdt: a sample weight of 2 is a duplicated row") {
        Dataset d = synthetic(120, 3, 0);
        Dataset dup = d;
        DenseMatrix X2(121, 3);
        X2.topRows(120) = d.X.dense_ref();
        X2.row(120) = d.X.dense_ref().row(7);
        Vector y2(121);
        y2.head(120) = d.y;
        y2[120] = d.y[7];
        dup.X = Features(X2);
        dup.y = y2;
        d.weights = Vector::Ones(120);
        d.weights[7] = 2;
        const Params p{{"n_estimators", 5}, {"max_depth", 3}};
        // 121 distinct-ish values: both under max_bins, so the bins are the same.
        CHECK((fit_gbdt(d, p)->predict(d.X) - fit_gbdt(dup, p)->predict(d.X)).cwiseAbs().maxCoeff() < 1e-12);
    }

    TEST_CASE("gbdt: missing values follow the learned default direction, sparse absent entries too") {
        // x0 < 10 -> y = 0, x0 >= 10 -> y = 1; the rows with x0 missing have y = 1 (then 0):
        // the best split sends them right (then left), with the rows they resemble.
        for (double missing_y : {1.0, 0.0}) {
            CAPTURE(missing_y);
            DenseMatrix X(30, 2);
            Vector y(30);
            for (Index i = 0; i < 30; ++i) {
                X(i, 0) = i < 20 ? static_cast<double>(i) + 1 : kNaN;
                X(i, 1) = static_cast<double>(i % 3) + 1;
                y[i] = i < 20 ? (i >= 10 ? 1.0 : 0.0) : missing_y;
            }
            const Dataset d = make_data(X, y, Task::regression);
            const Params p{{"n_estimators", 1}, {"max_depth", 1}, {"learning_rate", 1.0}, {"lambda", 0.0},
                           {"min_child_weight", 0.0}};
            auto g = fit_gbdt(d, p);
            const TreeNode& root = g->trees()[0].node(0);
            CHECK(root.feature == 0);
            CHECK(root.threshold == 10.5);
            CHECK(root.missing_left == (missing_y == 0.0));
            DenseMatrix q(1, 2);
            q << kNaN, 1;
            // Gradients are floats: exact to float rounding.
            CHECK(g->predict(Features(q))[0] == doctest::Approx(missing_y).epsilon(1e-6));

            // The same data as a sparse matrix with the missing entries absent.
            Dataset s = d;
            std::vector<Eigen::Triplet<double>> entries;
            for (Index i = 0; i < 30; ++i)
                for (Index j = 0; j < 2; ++j)
                    if (!std::isnan(X(i, j))) entries.emplace_back(static_cast<int>(i), static_cast<int>(j), X(i, j));
            SparseMatrix S(30, 2);
            S.setFromTriplets(entries.begin(), entries.end());
            s.X = Features(S);
            auto gs = fit_gbdt(s, p);
            CHECK(gs->save_state().dump() == g->save_state().dump());
            CHECK(gs->predict(s.X) == g->predict(d.X));
        }
    }

    TEST_CASE("gbdt: readers keep absent entries absent for gbdt and for adaboost over it") {
        // kestrel-train / -predict densify LIBSVM data only for models where absent means zero.
        CHECK(registry().create("gbdt", Params::object())->absent_is_missing());
        CHECK(registry().create("adaboost", Params{{"base", "gbdt(n_estimators=2)"}})->absent_is_missing());
        CHECK_FALSE(registry().create("adaboost", Params::object())->absent_is_missing());
        CHECK_FALSE(registry().create("logistic", Params::object())->absent_is_missing());
    }

    TEST_CASE("gbdt: early stopping stops and keeps the best round") {
        // Pure-noise labels: the validation loss soon rises.
        Dataset d = synthetic(300, 4, 0, 9);
        Rng rng(2);
        for (Index i = 0; i < d.rows(); ++i) d.y[i] = rng.normal();
        auto g = fit_gbdt(d, {{"n_estimators", 500}, {"learning_rate", 0.5}, {"early_stopping_rounds", 5},
                              {"validation_fraction", 0.2}});
        const auto& vl = g->validation_loss();
        REQUIRE(!vl.empty());
        CHECK(vl.size() < 500);
        const auto best = static_cast<Index>(std::min_element(vl.begin(), vl.end()) - vl.begin()) + 1;
        CHECK(g->rounds() == best);
        CHECK(static_cast<Index>(vl.size()) == best + 5);
        CHECK(g->train_loss().size() == vl.size());
        CHECK(g->report("trace", {{}, {}}).rfind("round,train_loss,validation_loss,holdout-rmse\n1,", 0) == 0);
        CHECK(g->best_iteration() == best - 1);
    }

    // XGBoost 1.7.4 (Debian python3-xgboost), tests/unit/boosting/make_xgboost_reference.py:
    // xgb.train({tree_method: hist, max_depth: 3, eta: 0.3, max_bin: 255, min_child_weight: 1,
    // lambda: 1, base_score: 0.5, nthread: 1}, 20 rounds), objectives reg:squarederror and
    // binary:logistic, on 300 rows of 6 integer features with 10 values each (so every value
    // has its own bin in both tools). XGBoost keeps gradients and leaf values in float: the
    // predictions agree to 1e-4.
    TEST_CASE("gbdt: agrees with XGBoost hist on a fixture") {
        const XgbFixture& f = xgb_fixture();
        const Params common{{"n_estimators", 20}, {"max_depth", 3}, {"learning_rate", 0.3}, {"max_bins", 255},
                            {"min_child_weight", 1.0}, {"min_data_in_leaf", 0}, {"lambda", 1.0}, {"base_score", 0.5}};
        auto reg = fit_gbdt(make_data(f.X, f.y_reg, Task::regression), common);
        CHECK((reg->predict(Features(f.X)) - f.xgb_reg).cwiseAbs().maxCoeff() < 1e-4);
        auto clf = fit_gbdt(make_data(f.X, f.y_bin, Task::classification, 2), common);
        const Matrix margin = clf->decision_function(Features(f.X));
        CHECK((margin.col(0) - f.xgb_margin).cwiseAbs().maxCoeff() < 1e-4);
    }

    // XGBoost 1.7.4 multi:softprob, tests/unit/boosting/make_xgboost_softmax_reference.py: the
    // fixture's features, a 3-class label, {tree_method: hist, max_depth: 3, eta: 0.3, max_bin:
    // 255, min_child_weight: 1, lambda: 1, base_score: 0.5, nthread: 1}, 10 rounds. The default
    // hessian=xgboost reproduces its margins (float there: 1e-4); hessian=sklearn takes twice
    // the step and does not.
    TEST_CASE("gbdt: softmax agrees with XGBoost multi:softprob at hessian=xgboost") {
        const std::vector<std::vector<double>> rows = csv_rows("xgb_softmax_fixture.csv");
        const auto n = static_cast<Index>(rows.size());
        REQUIRE(n == 300);
        DenseMatrix X(n, 6);
        Vector y(n);
        Matrix ref(n, 3);
        for (Index i = 0; i < n; ++i) {
            const auto& r = rows[static_cast<std::size_t>(i)];
            REQUIRE(r.size() == 10);
            for (Index j = 0; j < 6; ++j) X(i, j) = r[static_cast<std::size_t>(j)];
            y[i] = r[6];
            for (Index c = 0; c < 3; ++c) ref(i, c) = r[static_cast<std::size_t>(7 + c)];
        }
        const Dataset d = make_data(X, y, Task::classification, 3);
        const Params common{{"n_estimators", 10}, {"max_depth", 3}, {"learning_rate", 0.3}, {"max_bins", 255},
                            {"min_child_weight", 1.0}, {"min_data_in_leaf", 0}, {"lambda", 1.0}, {"base_score", 0.5}};
        auto xgb = fit_gbdt(d, common);
        CHECK((xgb->decision_function(Features(X)) - ref).cwiseAbs().maxCoeff() < 1e-4);
        Params sk = common;
        sk["hessian"] = "sklearn";
        auto skl = fit_gbdt(d, sk);
        CHECK((skl->decision_function(Features(X)) - ref).cwiseAbs().maxCoeff() > 0.1);
    }

    // tests/fixtures/gbdt-before-hessian (README there): a softmax model written before the
    // hessian parameter existed loads and predicts what the old kestrel predicted: prediction
    // does not read the Hessian.
    TEST_CASE("gbdt: a model file written before hessian= predicts as it did") {
        const std::string dir = std::string(KESTREL_SOURCE_DIR) + "/tests/fixtures/gbdt-before-hessian/";
        std::ifstream in(dir + "wine_gbdt_softmax.json");
        REQUIRE(in.good());
        std::stringstream text;
        text << in.rdbuf();
        const Model m = Model::from_json(Json::parse(text.str()), "wine_gbdt_softmax.json");
        const std::vector<std::vector<double>> expected = csv_rows_at(dir + "wine_gbdt_softmax.proba.csv");
        const Dataset t = test::load("wine/test.csv", Task::classification);
        REQUIRE(static_cast<Index>(expected.size()) == t.rows());
        const Matrix p = m.predict_proba(t.X);
        for (Index i = 0; i < t.rows(); ++i)
            for (Index c = 0; c < 3; ++c) CHECK(p(i, c) == expected[static_cast<std::size_t>(i)][static_cast<std::size_t>(c + 1)]);
    }

    // XGBoost 1.7.4's predict(pred_contribs=True) for the same two models (the same trees:
    // their predictions agree above), tests/unit/boosting/make_contrib_references.py:
    // TreeSHAP with each node's Hessian sum as its cover. XGBoost sums in float: 1e-4.
    TEST_CASE("gbdt: contributions agree with XGBoost pred_contribs on the fixture") {
        const XgbFixture& f = xgb_fixture();
        const std::vector<std::vector<double>> rows = csv_rows("xgb_contribs.csv");
        REQUIRE(static_cast<Index>(rows.size()) == f.X.rows());
        for (const auto& r : rows) REQUIRE(r.size() == 14);
        const Params common{{"n_estimators", 20}, {"max_depth", 3}, {"learning_rate", 0.3}, {"max_bins", 255},
                            {"min_child_weight", 1.0}, {"min_data_in_leaf", 0}, {"lambda", 1.0}, {"base_score", 0.5}};
        auto reg = fit_gbdt(make_data(f.X, f.y_reg, Task::regression), common);
        auto clf = fit_gbdt(make_data(f.X, f.y_bin, Task::classification, 2), common);
        const Matrix cr = reg->contributions(Features(f.X)), cb = clf->contributions(Features(f.X));
        REQUIRE(cr.cols() == 7);
        REQUIRE(cb.cols() == 7);
        double worst = 0;
        for (Index i = 0; i < f.X.rows(); ++i)
            for (Index j = 0; j < 7; ++j) {
                const auto& r = rows[static_cast<std::size_t>(i)];
                worst = std::max(worst, std::abs(cr(i, j) - r[static_cast<std::size_t>(j)]));
                worst = std::max(worst, std::abs(cb(i, j) - r[static_cast<std::size_t>(7 + j)]));
            }
        CHECK(worst < 1e-4);
    }

    TEST_CASE("gbdt: save and load give identical predictions, missing directions included") {
        Dataset d = synthetic(200, 4, 3);
        for (Index i = 0; i < d.rows(); i += 7) d.X.dense_mut()(i, 1) = kNaN;
        ModelSpec spec;
        spec.model = "gbdt";
        spec.params = {{"n_estimators", 10}, {"subsample", 0.8}, {"colsample", 0.75}};
        const Model m = Model::train(spec, d, Context{});
        const std::string saved = m.to_json().dump();
        CHECK(saved.find("missing_left") != std::string::npos);
        const Model back = Model::from_json(Json::parse(saved), "mem");
        CHECK(back.to_json().dump() == saved);
        CHECK(back.predict_proba(d.X) == m.predict_proba(d.X));
        CHECK(back.decision_function(d.X) == m.decision_function(d.X));
    }

    TEST_CASE("gbdt: raw scores walked tree by tree over blocks of rows are the row-by-row sums, bit for bit") {
        // Each row's base score plus its trees' leaves, added in round order one row at a time.
        const auto by_row = [](const Gbdt& g, const Features& X) {
            const DenseMatrix dense(X.is_sparse() ? DenseMatrix(X.sparse_ref()) : DenseMatrix(X.dense_ref()));
            Matrix out(X.rows(), g.n_outputs());
            std::vector<double> row(static_cast<std::size_t>(X.cols()));
            for (Index i = 0; i < X.rows(); ++i) {
                for (Index j = 0; j < X.cols(); ++j) {
                    const bool absent = X.is_sparse() && X.sparse_ref().coeff(i, j) == 0;
                    row[static_cast<std::size_t>(j)] = absent ? kNaN : dense(i, j);
                }
                for (Index c = 0; c < g.n_outputs(); ++c) out(i, c) = g.base_score()[static_cast<std::size_t>(c)];
                for (std::size_t t = 0; t < g.trees().size(); ++t)
                    out(i, static_cast<Index>(t) % g.n_outputs()) += g.trees()[t].value(g.apply_tree(t, row.data()))[0];
            }
            return out;
        };
        // 3 classes, 203 rows (three full blocks of 64 and a part), missing values.
        Dataset d = synthetic(203, 5, 3);
        for (Index i = 0; i < d.rows(); i += 5) d.X.dense_mut()(i, 2) = kNaN;
        const auto g = fit_gbdt(d, {{"n_estimators", 12}}, 2);
        const Matrix whole = g->raw_scores(d.X);
        CHECK(whole == by_row(*g, d.X));
        // One row alone is scored as within the whole.
        const DenseMatrix last = d.X.dense_ref().bottomRows(1);
        CHECK(g->raw_scores(Features(last)) == whole.bottomRows(1));
        // Sparse rows 2000 features wide: 16 rows per dense block; absent entries are missing.
        Rng rng(8);
        std::vector<Eigen::Triplet<double, int>> cells;
        Vector y(150);
        for (int i = 0; i < 150; ++i) {
            double s = 0;
            for (int k = 0; k < 12; ++k) {
                const int j = static_cast<int>(rng.below(2000)), sign = j % 3 == 0 ? -1 : 1;
                const double v = rng.normal();
                cells.emplace_back(i, j, v);
                s += sign * v;
            }
            y[i] = s;
        }
        SparseMatrix S(150, 2000);
        S.setFromTriplets(cells.begin(), cells.end());
        Dataset sp;
        sp.X = Features(S);
        sp.y = y;
        sp.task = Task::regression;
        const auto r = fit_gbdt(sp, {{"n_estimators", 15}, {"max_depth", 4}}, 2);
        CHECK(r->raw_scores(sp.X) == by_row(*r, sp.X));
    }

    TEST_CASE("gbdt: the same seed gives the same model at 1 and 2 threads") {
        // Enough rows for several blocks of the loss sums and wide parallel levels.
        const Dataset d = synthetic(9000, 6, 3);
        const Params p{{"n_estimators", 4}, {"subsample", 0.7}, {"colsample", 0.6}, {"early_stopping_rounds", 2}};
        const std::string one = fit_gbdt(d, p, 1, 11)->save_state().dump();
        CHECK(fit_gbdt(d, p, 2, 11)->save_state().dump() == one);
        CHECK(fit_gbdt(d, p, 3, 11)->save_state().dump() == one);
        CHECK(fit_gbdt(d, p, 2, 12)->save_state().dump() != one);
        // Five classes: at 2 threads the round's five trees grow in parallel, one thread each.
        const Dataset five = synthetic(3000, 5, 5);
        const Params p5{{"n_estimators", 3}, {"subsample", 0.8}};
        CHECK(fit_gbdt(five, p5, 2)->save_state().dump() == fit_gbdt(five, p5, 1)->save_state().dump());
        const Dataset r = synthetic(5000, 5, 0);
        const Params q{{"n_estimators", 3}, {"max_leaves", 12}, {"max_depth", 0}, {"loss", "huber"}};
        CHECK(fit_gbdt(r, q, 1)->save_state().dump() == fit_gbdt(r, q, 2)->save_state().dump());
    }

    TEST_CASE("gbdt: leaf-wise growth stops at max_leaves") {
        const Dataset d = synthetic(500, 4, 0);
        auto g = fit_gbdt(d, {{"n_estimators", 5}, {"max_leaves", 6}, {"max_depth", 0}});
        for (const Tree& t : g->trees()) CHECK(t.n_leaves() == 6);
        auto deep = fit_gbdt(d, {{"n_estimators", 2}, {"max_depth", 2}});
        for (const Tree& t : deep->trees()) CHECK(t.depth() <= 2);
    }

    TEST_CASE("gbdt: gain importances single out the informative features") {
        const Dataset d = synthetic(600, 5, 0);
        auto g = fit_gbdt(d, {{"n_estimators", 20}});
        const Vector& imp = g->feature_importances();
        CHECK(imp.sum() == doctest::Approx(1.0));
        CHECK(imp[3] < imp[0]);
        CHECK(imp[4] < imp[1]);
        CHECK(g->report("tree", {{}, {}}).rfind("round 1:\n|--- x", 0) == 0);
    }

    TEST_CASE("gbdt: quantile bins") {
        // At most max_bins distinct values: one bin each, edges at midpoints.
        DenseMatrix X(6, 1);
        X << 3, 1, 2, 2, kNaN, 1;
        const BinCuts c = BinCuts::fit(Features(X), {}, 255, 1, 1);
        CHECK(c.n_bins(0) == 3);
        CHECK(c.upper(0, 0) == 1.5);
        CHECK(c.upper(0, 1) == 2.5);
        CHECK(c.bin_of(0, 1.5) == 0);
        CHECK(c.bin_of(0, 1.6) == 1);
        CHECK(c.bin_of(0, 100) == 2);
        CHECK(c.bin_of(0, kNaN) == 3);
        // More: quantile edges, at most max_bins bins.
        DenseMatrix Y(1000, 1);
        for (Index i = 0; i < 1000; ++i) Y(i, 0) = static_cast<double>(i);
        const BinCuts q = BinCuts::fit(Features(Y), {}, 4, 1, 1);
        CHECK(q.n_bins(0) == 4);
        CHECK(q.upper(0, 0) == doctest::Approx(249.75));
        CHECK(q.upper(0, 1) == doctest::Approx(499.5));
        const BinnedMatrix b(q, Features(Y), {}, 2);
        CHECK(b.bin(0, 249) == 0);
        CHECK(b.bin(0, 250) == 1);
        CHECK(b.bin(0, 999) == 3);
    }

    TEST_CASE("gbdt: bad parameters and data give clear errors") {
        const auto create = [](const Params& p) { return registry().create("gbdt", p); };
        const std::pair<const char*, Json> bad[] = {
            {"n_estimators", 0}, {"learning_rate", 0.0}, {"learning_rate", -0.1}, {"max_bins", 1},
            {"max_bins", 65536}, {"subsample", 0.0},     {"subsample", 1.5},      {"colsample", 0.0},
            {"lambda", -1.0},    {"loss", "hinge"}};
        for (const auto& [name, value] : bad) {
            CAPTURE(name);
            try {
                create({{name, value}});
                FAIL("no error");
            } catch (const ParamError& e) {
                CHECK(std::string(e.what()).find(name) != std::string::npos);
            }
        }
        CHECK_NOTHROW(create({{"max_bins", 65535}, {"subsample", 1.0}}));
        const Dataset reg = synthetic(50, 3, 0), multi = synthetic(60, 3, 3);
        CHECK_THROWS_AS(fit_gbdt(reg, {{"loss", "logistic"}}), ParamError);
        CHECK_THROWS_AS(fit_gbdt(multi, {{"loss", "logistic"}}), ParamError);
        CHECK_THROWS_AS(fit_gbdt(multi, {{"loss", "squared"}}), ParamError);
        CHECK_THROWS_AS(fit_gbdt(reg, {{"max_leaves", 1}}), ParamError);
        CHECK_THROWS_AS(fit_gbdt(reg, {{"max_depth", 0}}), ParamError);
        Dataset inf = reg;
        inf.X.dense_mut()(3, 1) = std::numeric_limits<double>::infinity();
        CHECK_THROWS_AS(fit_gbdt(inf, {}), DataError);
        auto ok = fit_gbdt(multi, {{"loss", "softmax"}, {"n_estimators", 3}});
        CHECK(ok->n_outputs() == 3);
    }

    TEST_CASE("gbdt: softmax over thousands of classes is refused before its arrays are allocated") {
        // A label column of ids: 3000 rows, 3000 classes. 1000 rounds of 3000 trees of up to
        // 3000 leaves would need about 1 TB: no machine running this has it.
        const Index n = 3000;
        DenseMatrix X(n, 1);
        Vector y(n);
        for (Index i = 0; i < n; ++i) {
            X(i, 0) = static_cast<double>(i);
            y[i] = static_cast<double>(i);
        }
        const Dataset d = make_data(std::move(X), std::move(y), Task::classification, n);
        CHECK_THROWS_WITH_AS(fit_gbdt(d, {{"n_estimators", 1000}, {"max_depth", 12}}),
                             doctest::Contains("gbdt with 3000 raw scores per row (one per class) over 1000 rounds "
                                               "needs about"),
                             DataError);
    }
}

}  // namespace unit_boosting_gbdt_test
}  // namespace
