// The quantile, poisson, gamma and tweedie losses of gbdt and logistic's scale_pos_weight
// (docs/models/gbdt.md, "Losses"): derivatives against finite differences, base scores by
// hand, agreement with XGBoost 1.7.4 on a recorded fixture (scikit-learn 1.2.1 for quantile, which
// XGBoost 1.7 lacks), the quantile property, save/load,
// threads, and the errors of bad labels and parameters.
#include "estimator_test_util.hpp"
#include "gbdt_test_util.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "kestrel/boosting/gbdt.hpp"
#include "kestrel/boosting/losses.hpp"
#include "kestrel/core/error.hpp"
#include "kestrel/core/rng.hpp"
#include "kestrel/pipeline/model.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace unit_boosting_gbdt_objectives_test {

using namespace kestrel;
using gbdt_test::fit_gbdt;

namespace {

Dataset regression_data(DenseMatrix X, Vector y) {
    Dataset d;
    d.X = Features(std::move(X));
    d.y = std::move(y);
    d.task = Task::regression;
    return d;
}

// n rows of 3 normal features; y drawn by `kind` around the log-mean 0.3 + 0.5 x0 − 0.4 x1.
Dataset loglink_data(Index n, const std::string& kind, std::uint64_t seed = 5) {
    Rng rng(seed);
    DenseMatrix X(n, 3);
    Vector y(n);
    for (Index i = 0; i < n; ++i) {
        for (Index j = 0; j < 3; ++j) X(i, j) = rng.normal();
        const double mu = std::exp(0.3 + 0.5 * X(i, 0) - 0.4 * X(i, 1));
        if (kind == "quantile") {
            y[i] = std::sin(2 * X(i, 0)) + X(i, 1) + (1 + std::abs(X(i, 2))) * rng.normal();
        } else if (kind == "gamma") {
            y[i] = mu * (0.25 + 1.5 * rng.uniform());  // positive, mean mu
        } else {
            // A count with mean mu (Knuth's product of uniforms).
            const double limit = std::exp(-mu);
            double prod = rng.uniform();
            int k = 0;
            while (prod > limit) prod *= rng.uniform(), ++k;
            y[i] = k;
        }
    }
    return regression_data(std::move(X), std::move(y));
}

Loss loss_of(LossKind k) {
    Loss l;
    l.kind = k;
    return l;
}

}  // namespace

TEST_SUITE("gbdt objectives") {
    // g = ∂ℓ/∂F and h = ∂g/∂F by central differences of value() (step 1e-5), at several
    // labels and scores. Quantile: away from its kink, h the unit Hessian it declares.
    TEST_CASE("gradients and Hessians match finite differences of the loss") {
        const double e = 1e-5;
        const auto fd = [&](const Loss& l, double y, double F, double& g_fd, double& h_fd) {
            double fp = F + e, fm = F - e, gp, gm, hh;
            g_fd = (l.value(y, &fp, 1) - l.value(y, &fm, 1)) / (2 * e);
            l.derivatives(y, &fp, 1, &gp, &hh);
            l.derivatives(y, &fm, 1, &gm, &hh);
            h_fd = (gp - gm) / (2 * e);
        };
        std::vector<Loss> smooth;
        smooth.push_back(loss_of(LossKind::poisson));  // max_delta_step 0: the true Hessian
        smooth.push_back(loss_of(LossKind::gamma));
        for (double rho : {1.1, 1.5, 1.9}) {
            Loss t = loss_of(LossKind::tweedie);
            t.tweedie_power = rho;
            smooth.push_back(t);
        }
        for (const Loss& l : smooth)
            for (double y : {0.0, 0.5, 1.0, 3.0, 12.0})
                for (double F : {-2.0, -0.3, 0.0, 0.7, 2.5}) {
                    if (l.kind == LossKind::gamma && y == 0) continue;
                    CAPTURE(to_string(l.kind));
                    CAPTURE(l.tweedie_power);
                    CAPTURE(y);
                    CAPTURE(F);
                    double g, h, g_fd, h_fd;
                    const double v = l.derivatives(y, &F, 1, &g, &h);
                    CHECK(v == doctest::Approx(l.value(y, &F, 1)).epsilon(1e-12));
                    fd(l, y, F, g_fd, h_fd);
                    CHECK(g == doctest::Approx(g_fd).epsilon(1e-6).scale(1));
                    CHECK(h == doctest::Approx(h_fd).epsilon(1e-5).scale(1));
                }
        // XGBoost's count:poisson Hessian: the true one times e^max_delta_step.
        Loss p = loss_of(LossKind::poisson);
        p.max_delta_step = 0.7;
        for (double F : {-1.0, 0.0, 1.5}) {
            double g, h, g_fd, h_fd;
            p.derivatives(2.0, &F, 1, &g, &h);
            fd(p, 2.0, F, g_fd, h_fd);
            CHECK(g == doctest::Approx(g_fd).epsilon(1e-6));
            CHECK(h == doctest::Approx(std::exp(F + 0.7)).epsilon(1e-12));
            CHECK(h == doctest::Approx(std::exp(0.7) * h_fd).epsilon(1e-5));
        }
        for (double alpha : {0.1, 0.5, 0.85}) {
            Loss q = loss_of(LossKind::quantile);
            q.alpha = alpha;
            for (double y : {-1.0, 0.0, 2.0})
                for (double F : {-2.0, -0.5, 0.5, 3.0}) {
                    double g, h, g_fd, h_fd;
                    q.derivatives(y, &F, 1, &g, &h);
                    fd(q, y, F, g_fd, h_fd);
                    CHECK(g == doctest::Approx(g_fd).epsilon(1e-9).scale(1));
                    CHECK(h == 1.0);
                }
            // Pinball by hand: α (y − F) above, (1 − α)(F − y) below.
            double F = 1.0;
            CHECK(q.value(3.0, &F, 1) == doctest::Approx(2 * alpha));
            CHECK(q.value(0.0, &F, 1) == doctest::Approx(1 - alpha));
        }
    }

    TEST_CASE("base scores: weighted α-quantile and log of the weighted mean") {
        Vector y(5);
        y << 4, 1, 3, 5, 2;
        Loss q = loss_of(LossKind::quantile);
        q.alpha = 0.3;  // cumulative 1/5, 2/5 >= 0.3: the second smallest
        CHECK(q.initial_scores(y, Vector(), 1)[0] == 2.0);
        Vector w(5);
        w << 1, 1, 1, 1, 6;  // y = 2 carries 6 of 10: cumulative 1 (y=1), 7 (y=2) >= 3
        CHECK(q.initial_scores(y, w, 1)[0] == 2.0);
        q.alpha = 0.9;  // 9 of 10: y = 1, 2, 3, 4 reach 9 only with y = 4
        CHECK(q.initial_scores(y, w, 1)[0] == 4.0);
        for (LossKind k : {LossKind::poisson, LossKind::gamma, LossKind::tweedie}) {
            CHECK(loss_of(k).initial_scores(y, Vector(), 1)[0] == doctest::Approx(std::log(3.0)));
            // (4 + 1 + 3 + 5 + 12) / 10
            CHECK(loss_of(k).initial_scores(y, w, 1)[0] == doctest::Approx(std::log(2.5)));
        }
        // The fit starts there; base_score=0.5 is an output-space mean (margin log 0.5) as XGBoost's.
        const Dataset d = loglink_data(200, "poisson");
        CHECK(fit_gbdt(d, {{"loss", "poisson"}, {"n_estimators", 1}})->base_score()[0] ==
              doctest::Approx(std::log(d.y.mean())));
        CHECK(fit_gbdt(d, {{"loss", "poisson"}, {"n_estimators", 1}, {"base_score", 0.5}})->base_score()[0] ==
              doctest::Approx(std::log(0.5)));
    }

    // XGBoost 1.7.4, tests/unit/boosting/make_xgboost_loglink_reference.py (its docstring has
    // the command and every setting): 300 rows of 4 integer features with 10 values each,
    // count:poisson (max_delta_step 0.7), reg:gamma and reg:tweedie (power 1.5), hist, depth 3,
    // eta 0.3, lambda 1, base_score 0.5, 10 rounds. XGBoost keeps gradients in float; the
    // margins differ by 2.4e-7 at most.
    TEST_CASE("log-link losses agree with XGBoost 1.7.4") {
        const std::vector<std::vector<double>> rows = gbdt_test::csv_rows("xgb_loglink_fixture.csv");
        const auto n = static_cast<Index>(rows.size());
        REQUIRE(n == 300);
        DenseMatrix X(n, 4);
        for (Index i = 0; i < n; ++i) {
            REQUIRE(rows[static_cast<std::size_t>(i)].size() == 10);
            for (Index j = 0; j < 4; ++j) X(i, j) = rows[static_cast<std::size_t>(i)][static_cast<std::size_t>(j)];
        }
        const char* names[] = {"poisson", "gamma", "tweedie"};
        for (std::size_t k = 0; k < 3; ++k) {
            CAPTURE(names[k]);
            Vector y(n), ref(n);
            for (Index i = 0; i < n; ++i) {
                y[i] = rows[static_cast<std::size_t>(i)][4 + k];
                ref[i] = rows[static_cast<std::size_t>(i)][7 + k];
            }
            auto g = fit_gbdt(regression_data(X, y), {{"loss", names[k]}, {"n_estimators", 10}, {"max_depth", 3},
                                                      {"learning_rate", 0.3}, {"max_bins", 255},
                                                      {"min_child_weight", 1.0}, {"min_data_in_leaf", 0}, {"lambda", 1.0}, {"base_score", 0.5}});
            const Matrix raw = g->raw_scores(Features(X));
            CHECK((raw.col(0) - ref).cwiseAbs().maxCoeff() < 1e-5);  // 2.4e-7 measured
            // predict() is the output space, e^F.
            CHECK((g->predict(Features(X)) - raw.col(0).array().exp().matrix()).cwiseAbs().maxCoeff() == 0.0);
        }
    }

    // On its own training rows a quantile model's predictions have about α of the labels
    // below them (each leaf renewed to its residuals' α-quantile: exactly α per leaf at round 1).
    TEST_CASE("quantile: the share of labels below the prediction is close to alpha") {
        const Dataset d = loglink_data(2000, "quantile");
        for (double alpha : {0.05, 0.5, 0.95}) {
            CAPTURE(alpha);
            auto g = fit_gbdt(d, {{"loss", "quantile"}, {"alpha", alpha}, {"n_estimators", 50},
                                  {"learning_rate", 0.1}, {"max_depth", 3}});
            const Vector p = g->predict(d.X);
            double below = 0;
            for (Index i = 0; i < d.rows(); ++i) below += d.y[i] <= p[i] ? 1 : 0;
            CHECK(below / static_cast<double>(d.rows()) == doctest::Approx(alpha).epsilon(0).scale(1).epsilon(0.03));
        }
        // The two ends of a 90 % interval are ordered on (nearly) every row.
        auto lo = fit_gbdt(d, {{"loss", "quantile"}, {"alpha", 0.05}, {"n_estimators", 50}, {"max_depth", 3}});
        auto hi = fit_gbdt(d, {{"loss", "quantile"}, {"alpha", 0.95}, {"n_estimators", 50}, {"max_depth", 3}});
        const Vector l = lo->predict(d.X), h = hi->predict(d.X);
        Index ordered = 0;
        for (Index i = 0; i < d.rows(); ++i) ordered += l[i] < h[i] ? 1 : 0;
        CHECK(ordered >= d.rows() * 99 / 100);
    }

    // XGBoost 1.7 has no quantile objective: the anchor is scikit-learn 1.2.1's
    // HistGradientBoostingRegressor(loss="quantile"), recorded by
    // make_histgb_quantile_reference.py. Its unweighted leaves are np.percentile's
    // interpolated quantiles where kestrel's are the pinball minimisers, so the figures a
    // user sees are compared. Measured: pinball 0.2513 vs 0.2534 (alpha 0.1) and 0.2499 vs
    // 0.2544 (0.9); coverage 0.126 vs 0.118 and 0.872 vs 0.862; mean |difference| 0.061
    // and 0.067 of the labels' standard deviation.
    TEST_CASE("quantile agrees with scikit-learn's HistGradientBoosting") {
        const std::vector<std::vector<double>> rows = gbdt_test::csv_rows("histgb_quantile_fixture.csv");
        REQUIRE(rows.size() == 2000);
        std::vector<std::size_t> train, test;
        for (std::size_t i = 0; i < rows.size(); ++i) (rows[i][5] == 1 ? train : test).push_back(i);
        REQUIRE(train.size() == 1500);
        const auto take = [&](const std::vector<std::size_t>& idx, DenseMatrix& X, Vector& y) {
            X.resize(static_cast<Index>(idx.size()), 4);
            y.resize(static_cast<Index>(idx.size()));
            for (std::size_t k = 0; k < idx.size(); ++k) {
                for (Index j = 0; j < 4; ++j) X(static_cast<Index>(k), j) = rows[idx[k]][static_cast<std::size_t>(j)];
                y[static_cast<Index>(k)] = rows[idx[k]][4];
            }
        };
        DenseMatrix Xtr, Xte;
        Vector ytr, yte;
        take(train, Xtr, ytr);
        take(test, Xte, yte);
        const double mean = yte.mean();
        const double sd = std::sqrt((yte.array() - mean).square().mean());
        const auto pinball = [&](const Vector& q, double alpha) {
            double s = 0;
            for (Index i = 0; i < yte.size(); ++i) {
                const double r = yte[i] - q[i];
                s += r >= 0 ? alpha * r : (alpha - 1) * r;
            }
            return s / static_cast<double>(yte.size());
        };
        const auto coverage = [&](const Vector& q) {
            double below = 0;
            for (Index i = 0; i < yte.size(); ++i) below += yte[i] <= q[i] ? 1 : 0;
            return below / static_cast<double>(yte.size());
        };
        for (const auto& [alpha, column] : {std::pair{0.1, std::size_t{6}}, std::pair{0.9, std::size_t{7}}}) {
            CAPTURE(alpha);
            auto g = fit_gbdt(regression_data(Xtr, ytr),
                              {{"loss", "quantile"}, {"alpha", alpha}, {"n_estimators", 60}, {"learning_rate", 0.1},
                               {"max_depth", 4}, {"lambda", 1.0}, {"min_child_weight", 20.0}});
            const Vector ours = g->predict(Features(Xte));
            Vector theirs(yte.size());
            for (std::size_t k = 0; k < test.size(); ++k) theirs[static_cast<Index>(k)] = rows[test[k]][column];
            CHECK(pinball(ours, alpha) <= 1.01 * pinball(theirs, alpha));
            CHECK(std::abs(coverage(ours) - coverage(theirs)) <= 0.02);
            CHECK((ours - theirs).cwiseAbs().mean() <= 0.1 * sd);
        }
    }

    // XGBoost multiplies the weight of positive rows by scale_pos_weight: with the same base
    // score the model equals the one trained with those weights.
    TEST_CASE("scale_pos_weight is a weight on the rows of classes[1]") {
        Dataset d = loglink_data(300, "poisson");
        d.task = Task::classification;
        d.classes = {"neg", "pos"};
        Vector w(d.rows());
        for (Index i = 0; i < d.rows(); ++i) {
            d.y[i] = d.y[i] > 1 ? 1 : 0;
            w[i] = d.y[i] == 1 ? 3.0 : 1.0;
        }
        const Params common{{"n_estimators", 8}, {"base_score", 0.5}};
        Params scaled = common;
        scaled["scale_pos_weight"] = 3.0;
        const Matrix a = fit_gbdt(d, scaled)->decision_function(d.X);
        Dataset dw = d;
        dw.weights = w;
        const Matrix b = fit_gbdt(dw, common)->decision_function(d.X);
        CHECK((a - b).cwiseAbs().maxCoeff() < 1e-12);
        CHECK((a - fit_gbdt(d, common)->decision_function(d.X)).cwiseAbs().maxCoeff() > 0.1);
    }

    // XGBoost 1.7.4 binary:logistic with scale_pos_weight 3 and 0.25 on xgb_fixture.csv's
    // features and binary label (make_xgboost_scale_pos_weight_reference.py: hist, depth 3,
    // eta 0.3, lambda 1, base_score 0.5, 20 rounds). XGBoost keeps gradients in float.
    TEST_CASE("scale_pos_weight agrees with XGBoost 1.7.4") {
        const std::vector<std::vector<double>> rows = gbdt_test::csv_rows("xgb_fixture.csv");
        const std::vector<std::vector<double>> ref = gbdt_test::csv_rows("xgb_scale_pos_weight.csv");
        const auto n = static_cast<Index>(rows.size());
        REQUIRE(static_cast<Index>(ref.size()) == n);
        DenseMatrix X(n, 6);
        Vector y(n);
        for (Index i = 0; i < n; ++i) {
            for (Index j = 0; j < 6; ++j) X(i, j) = rows[static_cast<std::size_t>(i)][static_cast<std::size_t>(j)];
            y[i] = rows[static_cast<std::size_t>(i)][7];
        }
        const Dataset d = gbdt_test::make_data(X, y, Task::classification, 2);
        for (std::size_t k = 0; k < 2; ++k) {
            const double s = k == 0 ? 3.0 : 0.25;
            CAPTURE(s);
            auto g = fit_gbdt(d, {{"loss", "logistic"}, {"scale_pos_weight", s}, {"n_estimators", 20},
                                  {"max_depth", 3}, {"learning_rate", 0.3}, {"max_bins", 255},
                                  {"min_child_weight", 1.0}, {"min_data_in_leaf", 0}, {"lambda", 1.0}, {"base_score", 0.5}});
            const Matrix margin = g->decision_function(Features(X));
            double worst = 0;
            for (Index i = 0; i < n; ++i)
                worst = std::max(worst, std::abs(margin(i, 0) - ref[static_cast<std::size_t>(i)][k]));
            CHECK(worst < 1e-4);
        }
    }

    TEST_CASE("save and load give identical predictions; 1 and 2 threads the same model") {
        for (const char* loss : {"quantile", "poisson", "gamma", "tweedie"}) {
            CAPTURE(loss);
            const Dataset d = loglink_data(400, std::string(loss) == "tweedie" ? "poisson" : loss);
            ModelSpec spec;
            spec.model = "gbdt";
            spec.params = {{"loss", loss}, {"n_estimators", 15}, {"alpha", 0.8}, {"subsample", 0.8}};
            const Model m = Model::train(spec, d, Context{});
            const std::string saved = m.to_json().dump();
            const Model back = Model::from_json(Json::parse(saved), "mem");
            CHECK(back.to_json().dump() == saved);
            CHECK(back.predict(d.X) == m.predict(d.X));
            const Params p{{"loss", loss}, {"n_estimators", 15}, {"alpha", 0.8}, {"subsample", 0.8}};
            CHECK(fit_gbdt(d, p, 2, 7)->save_state().dump() == fit_gbdt(d, p, 1, 7)->save_state().dump());
        }
    }

    TEST_CASE("bad labels and parameters are one-line errors") {
        Dataset d = loglink_data(50, "gamma");
        const auto message = [&](const Params& p) -> std::string {
            try {
                fit_gbdt(d, p);
            } catch (const std::exception& e) {
                return e.what();
            }
            return "";
        };
        d.y[2] = -1;
        CHECK_THROWS_AS(fit_gbdt(d, {{"loss", "poisson"}}), DataError);
        CHECK(message({{"loss", "poisson"}}) == "gbdt: loss=poisson needs y >= 0; row 3 has y = -1");
        CHECK(message({{"loss", "tweedie"}}) == "gbdt: loss=tweedie needs y >= 0; row 3 has y = -1");
        d.y[2] = 0;
        CHECK_NOTHROW(fit_gbdt(d, {{"loss", "poisson"}, {"n_estimators", 2}}));
        CHECK_THROWS_AS(fit_gbdt(d, {{"loss", "gamma"}}), DataError);
        CHECK(message({{"loss", "gamma"}}) == "gbdt: loss=gamma needs y > 0; row 3 has y = 0");
        Dataset zeros = d;
        zeros.y.setZero();
        CHECK_THROWS_WITH_AS(fit_gbdt(zeros, {{"loss", "poisson"}}),
                             "gbdt: loss=poisson needs some y > 0 (every label is 0)", DataError);
        CHECK_THROWS_AS(gbdt_test::make_gbdt({{"loss", "tweedie"}, {"tweedie_variance_power", 2.0}}), ParamError);
        CHECK_THROWS_AS(gbdt_test::make_gbdt({{"loss", "tweedie"}, {"tweedie_variance_power", 1.0}}), ParamError);
        CHECK_THROWS_AS(gbdt_test::make_gbdt({{"loss", "quantile"}, {"alpha", 1.0}}), ParamError);
        CHECK_THROWS_AS(fit_gbdt(d, {{"loss", "poisson"}, {"base_score", -1.0}}), ParamError);
        CHECK_THROWS_AS(fit_gbdt(d, {{"scale_pos_weight", 2.0}}), ParamError);
        for (const std::string& m : {message({{"loss", "poisson"}, {"base_score", -1.0}}),
                                     message({{"scale_pos_weight", 2.0}})})
            CHECK(m.find('\n') == std::string::npos);
    }
}

}  // namespace unit_boosting_gbdt_objectives_test
}  // namespace
