// Learning-to-rank metrics over query groups; the conventions are in query_metrics.hpp.
#include "kestrel/metrics/query_metrics.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <functional>
#include <numeric>

#include "kestrel/core/error.hpp"
#include "metrics_internal.hpp"

namespace kestrel {

std::optional<QueryMetric> parse_query_metric(const std::string& name) {
    const std::size_t at = name.find('@');
    const std::string base = name.substr(0, at);
    QueryMetric m;
    if (base == "ndcg") m.kind = QueryMetric::Kind::ndcg;
    else if (base == "map") m.kind = QueryMetric::Kind::map;
    else if (base == "mrr") m.kind = QueryMetric::Kind::mrr;
    else return std::nullopt;
    if (at == std::string::npos) return m;
    const char* b = name.data() + at + 1;
    const char* e = name.data() + name.size();
    long long k = 0;
    const auto [ptr, ec] = std::from_chars(b, e, k);
    if (b == e || ec != std::errc() || ptr != e || k < 1)
        throw UsageError("metric " + name + ": the cut-off after @ is a whole number >= 1 (e.g. " + base + "@10)");
    m.k = static_cast<Index>(k);
    return m;
}

double query_metric_of_ranked(const QueryMetric& m, const std::vector<double>& ranked, std::vector<double>& scratch) {
    const auto n = static_cast<Index>(ranked.size());
    const Index k = m.k > 0 ? std::min(m.k, n) : n;
    switch (m.kind) {
        case QueryMetric::Kind::ndcg: {
            double dcg = 0, idcg = 0;
            for (Index r = 0; r < k; ++r) dcg += ndcg_gain(ranked[static_cast<std::size_t>(r)]) * ndcg_discount(r);
            scratch = ranked;
            std::sort(scratch.begin(), scratch.end(), std::greater<>());
            for (Index r = 0; r < k; ++r) idcg += ndcg_gain(scratch[static_cast<std::size_t>(r)]) * ndcg_discount(r);
            return idcg > 0 ? dcg / idcg : 1.0;
        }
        case QueryMetric::Kind::map: {
            double hits = 0, sum = 0;
            for (Index r = 0; r < n; ++r) {
                if (!(ranked[static_cast<std::size_t>(r)] > 0)) continue;
                hits += 1;
                if (r < k) sum += hits / static_cast<double>(r + 1);
            }
            return hits > 0 ? sum / hits : 1.0;
        }
        case QueryMetric::Kind::mrr:
            for (Index r = 0; r < k; ++r)
                if (ranked[static_cast<std::size_t>(r)] > 0) return 1 / static_cast<double>(r + 1);
            return 0.0;
    }
    return 0.0;
}

double query_metric(const QueryMetric& m, const double* score, const Vector& y, std::span<const Index> starts) {
    if (starts.size() < 2) return std::nan("");
    std::vector<Index> order;
    std::vector<double> ranked, scratch;
    double total = 0;
    for (std::size_t q = 0; q + 1 < starts.size(); ++q) {
        const Index b = starts[q], e = starts[q + 1];
        order.resize(static_cast<std::size_t>(e - b));
        std::iota(order.begin(), order.end(), b);
        std::stable_sort(order.begin(), order.end(), [&](Index i, Index j) { return score[i] > score[j]; });
        ranked.clear();
        for (Index i : order) ranked.push_back(y[i]);
        total += query_metric_of_ranked(m, ranked, scratch);
    }
    return total / static_cast<double>(starts.size() - 1);
}

RankingReport ranking_report(const Predictions& p) {
    if (p.qid.size() == 0 || p.qid.size() != p.y_true.size())
        throw DataError("the ranking report needs each row's query (qid:N, " + option_named("group_col") + ")");
    RankingReport r;
    r.n = p.y_true.size();
    const std::vector<Index> starts = query_starts(p.qid);
    r.queries = static_cast<long long>(starts.size()) - 1;
    for (const char* name : {"ndcg@1", "ndcg@3", "ndcg@5", "ndcg@10", "ndcg", "map@10", "map", "mrr"})
        r.values.emplace_back(name, query_metric(*parse_query_metric(name), p.y_pred.data(), p.y_true, starts));
    return r;
}

std::string RankingReport::to_text() const {
    std::string out = "n           " + std::to_string(n) + "\nqueries     " + std::to_string(queries) + "\n";
    for (const auto& [name, v] : values) {
        std::string label = name;
        label.resize(std::max<std::size_t>(label.size() + 1, 12), ' ');
        out += label + metrics_internal::fixed4(v) + "\n";
    }
    return out;
}

Json RankingReport::to_json() const {
    Json j{{"n", n}, {"queries", queries}};
    for (const auto& [name, v] : values) j[name] = v;
    return j;
}

}  // namespace kestrel
