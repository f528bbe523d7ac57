#pragma once
// Learning-to-rank metrics over query groups, XGBoost 1.7's `ndcg@k`, `map@k` and an
// `mrr@k`, each the unweighted mean over the queries of the per-query value. Within a
// query the documents are ordered by score, highest first; tied scores keep their row
// order (XGBoost's stable sort). Relevance grades are the labels y (non-negative integers).
//   ndcg@k  DCG@k / IDCG@k, DCG@k = Σ_{r<k} (2^y_(r) − 1) / log2(r + 2) over the ranks r
//           (0-based) of the score order, IDCG@k the same over the order of the labels;
//           a query without a relevant document (IDCG 0) counts 1 (XGBoost's `ndcg`; its
//           `ndcg-` would count 0).
//   map@k   Σ_{r<k, y_(r)>0} P@(r + 1) / H, H the query's relevant documents (y > 0) in all
//           ranks (XGBoost's denominator, not min(H, k)); a query with H = 0 counts 1.
//   mrr@k   1 / (r + 1) for the first rank r < k holding a relevant document, else 0
//           (neither XGBoost nor LightGBM has it; this is the textbook reciprocal rank).
// Without @k, k is the query's length.
#include <cmath>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "kestrel/core/dataset.hpp"
#include "kestrel/core/params.hpp"
#include "kestrel/metrics/predictions.hpp"

namespace kestrel {

struct QueryMetric {
    enum class Kind { ndcg, map, mrr };
    Kind kind = Kind::ndcg;
    Index k = 0;  // 0: every rank
};

// "ndcg", "ndcg@10", "map@5", "mrr"; nullopt for another name, UsageError for a bad k.
std::optional<QueryMetric> parse_query_metric(const std::string& name);

// The mean over the queries [starts[q], starts[q + 1]) (query_starts) of the metric of
// the scores `score` (one per row) against the grades y. NaN when there is no query.
double query_metric(const QueryMetric& m, const double* score, const Vector& y, std::span<const Index> starts);

// One query's value, its rows given in score order (their grades).
double query_metric_of_ranked(const QueryMetric& m, const std::vector<double>& ranked, std::vector<double>& scratch);

// The gain 2^y − 1 of a grade, and the discount 1 / log2(r + 2) of a 0-based rank.
inline double ndcg_gain(double y) { return std::exp2(y) - 1; }
inline double ndcg_discount(Index rank) { return 1 / std::log2(static_cast<double>(rank) + 2); }

// kestrel-predict --metrics on rows in query groups: the metrics by name, in a fixed
// order (ndcg@1, @3, @5, @10, ndcg, map@10, map, mrr), and the counts.
struct RankingReport {
    long long n = 0, queries = 0;
    std::vector<std::pair<std::string, double>> values;
    std::string to_text() const;
    Json to_json() const;
};
// DataError when p has no query ids.
RankingReport ranking_report(const Predictions& p);

}  // namespace kestrel
