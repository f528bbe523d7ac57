// ndcg@k, map@k and mrr@k over query groups (metrics/query_metrics.hpp) on queries
// worked by hand, and their agreement with XGBoost 1.7.4's metrics on the same queries.
#include <doctest/doctest.h>

#include <cmath>

#include "kestrel/core/error.hpp"
#include "kestrel/metrics/metric_registry.hpp"
#include "kestrel/metrics/query_metrics.hpp"

// Each test file in a namespace of its own: the tests build in unity batches (tests/CMakeLists.txt).
namespace {
namespace unit_metrics_query_metrics_test {

using namespace kestrel;

namespace {

// Query A: scores 3, 2, 1 on grades 0, 2, 1 (the best document second); query B: no
// relevant document; query C: a tie of scores, broken by row order (grade 0 first).
const Vector kGrades = (Vector(7) << 0, 2, 1, 0, 0, 0, 1).finished();
const Vector kScores = (Vector(7) << 3, 2, 1, 1, 2, 1, 1).finished();
const Vector kQid = (Vector(7) << 5, 5, 5, 9, 9, 2, 2).finished();

double metric(const std::string& name) {
    return query_metric(*parse_query_metric(name), kScores.data(), kGrades, query_starts(kQid));
}

}  // namespace

TEST_SUITE("metrics") {
    TEST_CASE("query_starts: the runs of equal query ids") {
        CHECK(query_starts(kQid) == std::vector<Index>{0, 3, 5, 7});
        CHECK(query_starts(Vector()) == std::vector<Index>{0});
    }

    TEST_CASE("ndcg, map, mrr by hand") {
        const double l3 = std::log2(3.0);
        // A: ranked grades 0, 2, 1. DCG = 3/log2 3 + 1/2, IDCG (2, 1, 0) = 3 + 1/log2 3.
        const double a = (3 / l3 + 0.5) / (3 + 1 / l3), a2 = (3 / l3) / (3 + 1 / l3);
        // C: ranked 0, 1: DCG = 1/log2 3, IDCG = 1. B counts 1 (no relevant document).
        const double c = 1 / l3;
        CHECK(metric("ndcg") == doctest::Approx((a + 1 + c) / 3).epsilon(1e-12));
        CHECK(metric("ndcg@2") == doctest::Approx((a2 + 1 + c) / 3).epsilon(1e-12));
        CHECK(metric("ndcg@1") == doctest::Approx(1.0 / 3).epsilon(1e-12));
        // A: relevant at ranks 2 and 3: (1/2 + 2/3) / 2; C: 1/2 / 1; map@2 keeps H = 2 for A.
        CHECK(metric("map") == doctest::Approx((7.0 / 12 + 1 + 0.5) / 3).epsilon(1e-12));
        CHECK(metric("map@2") == doctest::Approx((0.25 + 1 + 0.5) / 3).epsilon(1e-12));
        // First relevant at rank 2 in A and C; none in B.
        CHECK(metric("mrr") == doctest::Approx((0.5 + 0 + 0.5) / 3).epsilon(1e-12));
        CHECK(metric("mrr@1") == 0.0);
    }

    TEST_CASE("the same queries through XGBoost 1.7.4 give the same values") {
        // /usr/bin/python3: DMatrix of these grades, set_group([3, 2, 2]), set_base_margin(scores),
        // xgb.train({"objective": "rank:ndcg", "eval_metric": m}, d, num_boost_round=0).eval(d)
        CHECK(metric("ndcg") == doctest::Approx(0.76331051945795692).epsilon(1e-12));
        CHECK(metric("ndcg@1") == doctest::Approx(0.33333333333333331).epsilon(1e-12));
        CHECK(metric("ndcg@2") == doctest::Approx(0.71740859406192581).epsilon(1e-12));
        CHECK(metric("map") == doctest::Approx(0.69444444444444431).epsilon(1e-12));
        CHECK(metric("map@2") == doctest::Approx(0.58333333333333337).epsilon(1e-12));
    }

    TEST_CASE("the registry knows ndcg@k; without query ids it is a data error") {
        Predictions p;
        p.task = Task::regression;
        p.y_true = kGrades;
        p.y_pred = kScores;
        CHECK_THROWS_AS(compute_metric("ndcg@2", p), DataError);
        p.qid = kQid;
        CHECK(compute_metric("ndcg@2", p) == doctest::Approx(metric("ndcg@2")));
        CHECK(metric_info("map@7").greater_is_better);
        CHECK_THROWS_AS(metric_info("ndcg@0"), UsageError);
        CHECK_THROWS_AS(metric_info("ndcg@x"), UsageError);
        const RankingReport r = ranking_report(p);
        CHECK(r.queries == 3);
        CHECK(r.values.front().first == "ndcg@1");
    }
}

}  // namespace unit_metrics_query_metrics_test
}  // namespace
