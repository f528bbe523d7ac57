// gbdt's learning-to-rank losses (docs/models/gbdt.md, "Learning to rank"): rank_pairwise's
// gradient and Hessian against finite differences of its pairwise logistic loss,
// lambdarank's on a 3-document query worked by hand, the quality against XGBoost 1.7.4's
// rank:ndcg on a recorded fixture (make_xgboost_ranking_reference.py), save/load, threads,
// early stopping on ndcg, and the errors of ranking without queries or with bad grades.
#include "gbdt_test_util.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>
#include <vector>

#include "kestrel/boosting/eval_metrics.hpp"
#include "kestrel/boosting/losses.hpp"
#include "kestrel/boosting/rank_losses.hpp"
#include "kestrel/core/error.hpp"
#include "kestrel/core/rng.hpp"
#include "kestrel/io/data_reader.hpp"
#include "kestrel/metrics/query_metrics.hpp"
#include "kestrel/pipeline/model.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace unit_boosting_gbdt_ranking_test {

using namespace kestrel;
using gbdt_test::fit_gbdt;

namespace {

Loss ranking_loss(LossKind k, double sigma = 1.0) {
    Loss l;
    l.kind = k;
    l.rank_sigma = sigma;
    return l;
}

std::vector<GradPair> derivatives_of(const Loss& loss, const std::vector<double>& F, const Vector& y,
                                     const std::vector<Index>& starts) {
    std::vector<GradPair> gh(F.size());
    loss.gradients(F.data(), y, Vector(), 1, gh.data(), 1, starts);
    return gh;
}

Dataset read_ranking(const std::string& name) {
    const Table t = read_table(std::string(KESTREL_SOURCE_DIR) + "/tests/unit/boosting/data/" + name, ReadOptions{});
    return make_dataset(t, Task::regression);
}

// Queries of 5-12 documents, 4 features; grades 0-3 from x0 + x1 x2 plus noise.
Dataset small_ranking(Index queries, std::uint64_t seed = 3) {
    Rng rng(seed);
    std::vector<std::vector<double>> rows;
    std::vector<double> y, qid;
    for (Index q = 0; q < queries; ++q) {
        const auto m = 5 + static_cast<Index>(rng.below(8));
        for (Index i = 0; i < m; ++i) {
            std::vector<double> x(4);
            for (double& v : x) v = rng.normal();
            const double u = x[0] + x[1] * x[2] + 0.4 * rng.normal();
            rows.push_back(x);
            y.push_back(u > 1.2 ? 3 : u > 0.5 ? 2 : u > 0 ? 1 : 0);
            qid.push_back(static_cast<double>(q + 1));
        }
    }
    DenseMatrix X(static_cast<Index>(rows.size()), 4);
    for (std::size_t i = 0; i < rows.size(); ++i)
        for (Index j = 0; j < 4; ++j) X(static_cast<Index>(i), j) = rows[i][static_cast<std::size_t>(j)];
    Dataset d = gbdt_test::make_data(std::move(X), Eigen::Map<const Vector>(y.data(), static_cast<Index>(y.size())),
                                     Task::regression);
    d.qid = Eigen::Map<const Vector>(qid.data(), static_cast<Index>(qid.size()));
    return d;
}

}  // namespace

TEST_SUITE("gbdt ranking") {
    TEST_CASE("rank_pairwise and lambdarank: gradients and Hessians are finite differences of the pair losses") {
        // Two queries; scores distinct and far enough apart that ±h keeps every rank, so
        // lambdarank's |ΔNDCG| weights stay fixed and its loss is Σ Δ_ij log(1 + e^(−σ d)).
        const Vector y = (Vector(7) << 2, 0, 1, 3, 0, 1, 1).finished();
        const std::vector<double> F0{0.3, -0.2, 0.9, -0.5, 0.4, 0.1, 1.3};
        const std::vector<Index> starts{0, 3, 7};
        for (const LossKind kind : {LossKind::rank_pairwise, LossKind::lambdarank}) {
            for (const double sigma : {1.0, 2.5}) {
                CAPTURE(static_cast<int>(kind));
                CAPTURE(sigma);
                const Loss loss = ranking_loss(kind, sigma);
                const std::vector<GradPair> gh = derivatives_of(loss, F0, y, starts);
                const double h = 1e-5;
                for (std::size_t i = 0; i < F0.size(); ++i) {
                    std::vector<double> up = F0, down = F0;
                    up[i] += h;
                    down[i] -= h;
                    const double fd = (rank_surrogate_sum(loss, up.data(), y, starts, 1) -
                                       rank_surrogate_sum(loss, down.data(), y, starts, 1)) / (2 * h);
                    CHECK(gh[i].g == doctest::Approx(fd).epsilon(1e-5));
                    // The Hessian from the float gradients: a wider step keeps their rounding small.
                    std::vector<double> up2 = F0, down2 = F0;
                    up2[i] += 1e-3;
                    down2[i] -= 1e-3;
                    const double fd2 = (derivatives_of(loss, up2, y, starts)[i].g -
                                        derivatives_of(loss, down2, y, starts)[i].g) / 2e-3;
                    CHECK(gh[i].h == doctest::Approx(fd2).epsilon(1e-3));
                }
            }
        }
    }

    TEST_CASE("the pair derivatives match the formulas directly, with near and far-apart scores") {
        // 37 documents, grades 0-4, scores spread over 4 units, then over 4000 (beyond the
        // per-document exponentials' range): both ways through the pairs against a plain
        // double loop over every pair with y_i > y_j.
        Rng rng(11);
        const Index m = 37;
        Vector y(m);
        std::vector<double> F(static_cast<std::size_t>(m));
        for (Index i = 0; i < m; ++i) {
            y[i] = static_cast<double>(rng.below(5));
            F[static_cast<std::size_t>(i)] = 4 * rng.uniform() - 2;
        }
        for (const double spread : {1.0, 1000.0}) {
            std::vector<double> Fs = F;
            for (double& f : Fs) f *= spread;
            for (const LossKind kind : {LossKind::rank_pairwise, LossKind::lambdarank}) {
                CAPTURE(spread);
                CAPTURE(static_cast<int>(kind));
                const Loss loss = ranking_loss(kind, 1.5);
                std::vector<Index> order(static_cast<std::size_t>(m));
                std::iota(order.begin(), order.end(), Index{0});
                std::stable_sort(order.begin(), order.end(), [&](Index a, Index b) { return Fs[a] > Fs[b]; });
                std::vector<double> rank(static_cast<std::size_t>(m)), sorted(y.data(), y.data() + m);
                for (Index r = 0; r < m; ++r) rank[static_cast<std::size_t>(order[static_cast<std::size_t>(r)])] = r;
                std::sort(sorted.begin(), sorted.end(), std::greater<>());
                double idcg = 0;
                for (Index r = 0; r < m; ++r) idcg += (std::exp2(sorted[static_cast<std::size_t>(r)]) - 1) / std::log2(r + 2.0);
                std::vector<double> g(static_cast<std::size_t>(m)), h(static_cast<std::size_t>(m));
                for (Index i = 0; i < m; ++i)
                    for (Index j = 0; j < m; ++j) {
                        if (!(y[i] > y[j])) continue;
                        const auto ui = static_cast<std::size_t>(i), uj = static_cast<std::size_t>(j);
                        const double delta =
                            kind == LossKind::rank_pairwise
                                ? 1.0
                                : (std::exp2(y[i]) - std::exp2(y[j])) *
                                      std::abs(1 / std::log2(rank[ui] + 2) - 1 / std::log2(rank[uj] + 2)) / idcg;
                        const double rho = 1 / (1 + std::exp(1.5 * (Fs[ui] - Fs[uj])));
                        g[ui] -= 1.5 * rho * delta;
                        g[uj] += 1.5 * rho * delta;
                        h[ui] += 2.25 * rho * (1 - rho) * delta;
                        h[uj] += 2.25 * rho * (1 - rho) * delta;
                    }
                const std::vector<GradPair> gh = derivatives_of(loss, Fs, y, {0, m});
                for (std::size_t i = 0; i < g.size(); ++i) {
                    CHECK(gh[i].g == doctest::Approx(g[i]).epsilon(1e-6).scale(1e-30));
                    CHECK(gh[i].h == doctest::Approx(h[i]).epsilon(1e-6).scale(1e-30));
                }
            }
        }
    }

    TEST_CASE("the training loss: 1 - NDCG for lambdarank (@T when truncated), the pair losses for rank_pairwise") {
        // Three queries: one without a relevant document (NDCG 1 there, as the ndcg metric).
        const Vector y = (Vector(9) << 2, 0, 1, 3, 0, 0, 0, 1, 0).finished();
        const std::vector<double> F{0.3, -0.2, 0.9, -0.5, 0.4, 0.1, 1.3, 0.2, 0.8};
        const std::vector<Index> starts{0, 3, 5, 9};
        const auto metric = [&](const char* name) { return query_metric(*parse_query_metric(name), F.data(), y, starts); };
        const Loss lambdarank = ranking_loss(LossKind::lambdarank);
        CHECK(lambdarank.mean(F.data(), y, Vector(), 1, 1, starts) == doctest::Approx(1 - metric("ndcg")).epsilon(1e-14));
        Loss top2 = lambdarank;
        top2.truncation_level = 2;
        CHECK(top2.mean(F.data(), y, Vector(), 1, 1, starts) == doctest::Approx(1 - metric("ndcg@2")).epsilon(1e-14));
        // The gradient pass returns the same loss (times the rows).
        std::vector<GradPair> gh(F.size());
        CHECK(lambdarank.gradients(F.data(), y, Vector(), 1, gh.data(), 1, starts) / 9 ==
              doctest::Approx(1 - metric("ndcg")).epsilon(1e-14));
        // rank_pairwise: Σ log(1 + e^(s_j − s_i)) over the pairs with y_i > y_j, over the rows.
        double pairs = 0;
        for (std::size_t q = 0; q + 1 < starts.size(); ++q)
            for (Index i = starts[q]; i < starts[q + 1]; ++i)
                for (Index j = starts[q]; j < starts[q + 1]; ++j)
                    if (y[i] > y[j]) pairs += std::log1p(std::exp(F[static_cast<std::size_t>(j)] - F[static_cast<std::size_t>(i)]));
        const Loss pairwise = ranking_loss(LossKind::rank_pairwise);
        CHECK(pairwise.mean(F.data(), y, Vector(), 1, 1, starts) == doctest::Approx(pairs / 9).epsilon(1e-14));
        CHECK(rank_surrogate_sum(pairwise, F.data(), y, starts, 1) == doctest::Approx(pairs).epsilon(1e-14));
    }

    TEST_CASE("lambdarank on a 3-document query, by hand") {
        // Grades 2, 0, 1 at equal scores: ranks by row order 0, 1, 2; ρ = 1/2 for every pair.
        // IDCG = 3 + 1/log2 3. Pairs (more relevant first) and |ΔNDCG|:
        //   (0, 1): |3 − 0| |1 − 1/log2 3| / IDCG;  (0, 2): |3 − 1| |1 − 1/2| / IDCG;
        //   (2, 1): |1 − 0| |1/2 − 1/log2 3| / IDCG.
        const double l3 = std::log2(3.0), idcg = 3 + 1 / l3;
        const double d01 = 3 * (1 - 1 / l3) / idcg, d02 = 2 * 0.5 / idcg, d21 = (1 / l3 - 0.5) / idcg;
        const Vector y = (Vector(3) << 2, 0, 1).finished();
        const std::vector<GradPair> gh = derivatives_of(ranking_loss(LossKind::lambdarank), {0, 0, 0}, y, {0, 3});
        CHECK(gh[0].g == doctest::Approx(-0.5 * (d01 + d02)).epsilon(1e-6));
        CHECK(gh[1].g == doctest::Approx(0.5 * (d01 + d21)).epsilon(1e-6));
        CHECK(gh[2].g == doctest::Approx(0.5 * (d02 - d21)).epsilon(1e-6));
        CHECK(gh[0].h == doctest::Approx(0.25 * (d01 + d02)).epsilon(1e-6));
        CHECK(gh[1].h == doctest::Approx(0.25 * (d01 + d21)).epsilon(1e-6));
        CHECK(gh[2].h == doctest::Approx(0.25 * (d02 + d21)).epsilon(1e-6));
        // Truncation level 1: only pairs with a document ranked first (row 0), and IDCG@1 = 3.
        Loss top1 = ranking_loss(LossKind::lambdarank);
        top1.truncation_level = 1;
        const std::vector<GradPair> t = derivatives_of(top1, {0, 0, 0}, y, {0, 3});
        CHECK(t[0].g == doctest::Approx(-0.5 * (d01 + d02) * idcg / 3).epsilon(1e-6));
        CHECK(t[2].g == doctest::Approx(0.5 * d02 * idcg / 3).epsilon(1e-6));
        CHECK(t[1].g == doctest::Approx(0.5 * d01 * idcg / 3).epsilon(1e-6));
        CHECK(t[1].h == doctest::Approx(0.25 * d01 * idcg / 3).epsilon(1e-6));
        // Level 2: every pair has a document in the top 2, and IDCG@2 (grades 2, 1) is IDCG.
        Loss top2 = ranking_loss(LossKind::lambdarank);
        top2.truncation_level = 2;
        const std::vector<GradPair> t2 = derivatives_of(top2, {0, 0, 0}, y, {0, 3});
        for (std::size_t i = 0; i < 3; ++i) {
            CHECK(t2[i].g == doctest::Approx(gh[i].g).epsilon(1e-6));
            CHECK(t2[i].h == doctest::Approx(gh[i].h).epsilon(1e-6));
        }
        // A query whose documents share one grade has no pair: zero gradients.
        const std::vector<GradPair> flat =
            derivatives_of(ranking_loss(LossKind::lambdarank), {1, 2}, (Vector(2) << 1, 1).finished(), {0, 2});
        CHECK(flat[0].g == 0.0f);
        CHECK(flat[1].h == 0.0f);
    }

    TEST_CASE("lambdarank's NDCG@10 on held-out queries is within 0.01 of XGBoost 1.7.4 rank:ndcg") {
        const Dataset train = read_ranking("ranking_train.libsvm"), test = read_ranking("ranking_test.libsvm");
        REQUIRE(train.has_queries());
        REQUIRE(test.has_queries());
        const Params p{{"loss", "lambdarank"}, {"n_estimators", 100}, {"learning_rate", 0.1}, {"max_depth", 6},
                       {"min_data_in_leaf", 0}};
        const auto g = fit_gbdt(train, p, 2);
        const Vector scores = g->raw_scores(test.X).col(0);
        const double ndcg10 = query_metric(*parse_query_metric("ndcg@10"), scores.data(), test.y, query_starts(test.qid));
        // make_xgboost_ranking_reference.py: XGBoost 1.7.4, the same rounds, eta, depth, lambda, bins.
        constexpr double xgboost_ndcg10 = 0.90348024724684606;
        MESSAGE("kestrel lambdarank NDCG@10 " << ndcg10 << ", XGBoost rank:ndcg " << xgboost_ndcg10);
        CHECK(ndcg10 >= xgboost_ndcg10 - 0.01);
        const auto pw = fit_gbdt(
            train, {{"loss", "rank_pairwise"}, {"n_estimators", 100}, {"learning_rate", 0.1}, {"min_data_in_leaf", 0}}, 2);
        const Vector pscores = pw->raw_scores(test.X).col(0);
        const double pndcg = query_metric(*parse_query_metric("ndcg@10"), pscores.data(), test.y, query_starts(test.qid));
        MESSAGE("kestrel rank_pairwise NDCG@10 " << pndcg);
        CHECK(pndcg >= xgboost_ndcg10 - 0.02);
    }

    TEST_CASE("save and load give identical scores; 1 and 2 threads the same model") {
        const Dataset d = small_ranking(60);
        for (const char* loss : {"lambdarank", "rank_pairwise"}) {
            CAPTURE(loss);
            ModelSpec spec;
            spec.model = "gbdt";
            spec.params = {{"loss", loss}, {"n_estimators", 12}, {"subsample", 0.8}};
            const Model m = Model::train(spec, d, Context{});
            const std::string saved = m.to_json().dump();
            const Model back = Model::from_json(Json::parse(saved), "mem");
            CHECK(back.to_json().dump() == saved);
            CHECK(back.predict(d.X) == m.predict(d.X));
            const Params p{{"loss", loss}, {"n_estimators", 12}, {"subsample", 0.8}, {"lambdarank_truncation_level", 4}};
            CHECK(fit_gbdt(d, p, 2, 7)->save_state().dump() == fit_gbdt(d, p, 1, 7)->save_state().dump());
        }
    }

    TEST_CASE("early stopping watches ndcg on a held-out share of whole queries, and maximises it") {
        const Dataset d = small_ranking(80);
        const auto g = fit_gbdt(d, {{"loss", "lambdarank"}, {"n_estimators", 200}, {"early_stopping_rounds", 5},
                                    {"eval_metric", "ndcg@5"}});
        REQUIRE(g->eval_columns() == std::vector<std::string>{"holdout-ndcg@5"});
        const std::vector<double>& v = g->eval_history().front();
        const Index best = g->best_iteration();
        REQUIRE(best >= 0);
        for (const double x : v) CHECK(x <= v[static_cast<std::size_t>(best)]);
        CHECK(g->rounds() == best + 1);
        const EvalMetric m = parse_eval_metrics("auto", ranking_loss(LossKind::lambdarank)).front();
        CHECK(m.name == "ndcg");
        CHECK(m.maximize);
        CHECK(parse_eval_metrics("auto", ranking_loss(LossKind::rank_pairwise)).front().name == "map");
        CHECK_THROWS_AS(parse_eval_metrics("rmse", ranking_loss(LossKind::lambdarank)), ParamError);
        Loss squared;
        CHECK_THROWS_AS(parse_eval_metrics("ndcg@3", squared), ParamError);
    }

    TEST_CASE("ranking without queries, with weights or with bad grades: one-line errors") {
        Dataset d = small_ranking(10);
        const auto message = [&](const Dataset& data, const Params& p) -> std::string {
            try {
                fit_gbdt(data, p);
            } catch (const DataError& e) {
                return e.what();
            }
            return "";
        };
        Dataset no_queries = d;
        no_queries.qid = Vector();
        CHECK(message(no_queries, {{"loss", "lambdarank"}}).starts_with(
            "gbdt: loss=lambdarank ranks the documents of each query, and the training data has no query groups"));
        Dataset weighted = d;
        weighted.weights = Vector::Ones(d.rows());
        CHECK(message(weighted, {{"loss", "rank_pairwise"}}) ==
              "gbdt: loss=rank_pairwise takes no sample weights (XGBoost weighs whole queries, not rows)");
        Dataset graded = d;
        graded.y[3] = 1.5;
        CHECK(message(graded, {{"loss", "lambdarank"}}) ==
              "gbdt: a ranking loss takes relevance grades, whole numbers from 0 to 31; row 4 has y = 1.5");
        graded.y[3] = -1;
        CHECK(message(graded, {{"loss", "lambdarank"}}).ends_with("row 4 has y = -1"));
    }
}

}  // namespace unit_boosting_gbdt_ranking_test
}  // namespace
