// gbdt's per-round evaluation metrics; the formulas are in eval_metrics.hpp.
#include "kestrel/boosting/eval_metrics.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <optional>
#include <sstream>

#include "kestrel/common/logistic_math.hpp"
#include "kestrel/core/error.hpp"
#include "kestrel/metrics/query_metrics.hpp"

namespace kestrel {
namespace {

constexpr double kProbEps = 1e-15;

enum class Needs { classes, binary, regression, log_link, quantile, any };

struct Known {
    const char* name;
    Needs needs;
    bool maximize;
};

constexpr Known kKnown[] = {
    {"logloss", Needs::classes, false}, {"mlogloss", Needs::classes, false}, {"error", Needs::classes, false},
    {"merror", Needs::classes, false},  {"auc", Needs::classes, true},       {"aucpr", Needs::binary, true},
    {"rmse", Needs::regression, false}, {"mae", Needs::regression, false},   {"mape", Needs::regression, false},
    {"poisson-nloglik", Needs::log_link, false}, {"gamma-nloglik", Needs::log_link, false},
    {"gamma-deviance", Needs::log_link, false},  {"tweedie-nloglik", Needs::log_link, false},
    {"quantile", Needs::quantile, false},        {"loss", Needs::any, false},
};

std::string known_names() {
    std::string s;
    for (const Known& k : kKnown) s += (s.empty() ? "" : ", ") + std::string(k.name);
    return s;
}

double weight(const Vector& w, Index i) { return w.size() ? w[i] : 1.0; }

// Class probabilities of row i into p (K = 1: the logistic's two).
void row_probabilities(const Loss& loss, const double* F, Index K, Index i, std::vector<double>& p) {
    if (loss.kind == LossKind::logistic) {
        const double p1 = sigmoid(F[i]);
        p.assign({1 - p1, p1});
        return;
    }
    const double* f = F + i * K;
    const double m = *std::max_element(f, f + K);
    p.resize(static_cast<std::size_t>(K));
    double s = 0;
    for (Index c = 0; c < K; ++c) s += (p[static_cast<std::size_t>(c)] = std::exp(f[c] - m));
    for (double& v : p) v /= s;
}

// Weighted P(score of a positive > score of a negative), ties counted half.
double weighted_auc(const std::vector<double>& score, const std::vector<char>& positive, const Vector& w) {
    std::vector<Index> order(score.size());
    std::iota(order.begin(), order.end(), Index{0});
    std::stable_sort(order.begin(), order.end(), [&](Index a, Index b) {
        return score[static_cast<std::size_t>(a)] > score[static_cast<std::size_t>(b)];
    });
    double above = 0, area = 0, total_pos = 0, total_neg = 0;
    for (std::size_t k = 0; k < order.size();) {
        double pos = 0, neg = 0;
        const double s = score[static_cast<std::size_t>(order[k])];
        for (; k < order.size() && score[static_cast<std::size_t>(order[k])] == s; ++k) {
            const Index i = order[k];
            (positive[static_cast<std::size_t>(i)] ? pos : neg) += weight(w, i);
        }
        area += neg * (above + pos / 2);
        above += pos;
        total_pos += pos;
        total_neg += neg;
    }
    if (total_pos <= 0 || total_neg <= 0) return std::nan("");
    return area / (total_pos * total_neg);
}

// scikit-learn's average precision: Σ over thresholds (R_k − R_{k−1}) P_k.
double weighted_average_precision(const std::vector<double>& score, const std::vector<char>& positive,
                                  const Vector& w) {
    std::vector<Index> order(score.size());
    std::iota(order.begin(), order.end(), Index{0});
    std::stable_sort(order.begin(), order.end(), [&](Index a, Index b) {
        return score[static_cast<std::size_t>(a)] > score[static_cast<std::size_t>(b)];
    });
    double total_pos = 0;
    for (std::size_t i = 0; i < positive.size(); ++i)
        if (positive[i]) total_pos += weight(w, static_cast<Index>(i));
    if (total_pos <= 0) return std::nan("");
    double tp = 0, fp = 0, recall = 0, ap = 0;
    for (std::size_t k = 0; k < order.size();) {
        const double s = score[static_cast<std::size_t>(order[k])];
        for (; k < order.size() && score[static_cast<std::size_t>(order[k])] == s; ++k) {
            const Index i = order[k];
            (positive[static_cast<std::size_t>(i)] ? tp : fp) += weight(w, i);
        }
        const double r = tp / total_pos;
        if (tp + fp > 0) ap += (r - recall) * tp / (tp + fp);
        recall = r;
    }
    return ap;
}

}  // namespace

std::vector<EvalMetric> parse_eval_metrics(const std::string& list, const Loss& loss) {
    const bool classes = is_classification_loss(loss.kind);
    const bool binary = loss.kind == LossKind::logistic;
    if (list.empty() || list == "auto") {
        switch (loss.kind) {
            case LossKind::squared: return {{"rmse", false}};
            case LossKind::absolute: return {{"mae", false}};
            case LossKind::logistic: return {{"logloss", false}};
            case LossKind::softmax: return {{"mlogloss", false}};
            case LossKind::poisson: return {{"poisson-nloglik", false}};
            case LossKind::gamma: return {{"gamma-nloglik", false}};
            case LossKind::tweedie: return {{"tweedie-nloglik", false}};
            case LossKind::quantile: return {{"quantile", false}};
            case LossKind::lambdarank: return {{"ndcg", true}};
            case LossKind::rank_pairwise: return {{"map", true}};
            default: return {{"loss", false}};
        }
    }
    std::vector<EvalMetric> out;
    std::stringstream in(list);
    std::string name;
    while (std::getline(in, name, ',')) {
        std::optional<QueryMetric> ranking;
        try {
            ranking = parse_query_metric(name);
        } catch (const UsageError& e) {
            throw ParamError(std::string("parameter eval_metric of model gbdt: ") + e.what());
        }
        if (ranking) {
            if (!is_ranking_loss(loss.kind))
                throw ParamError("parameter eval_metric of model gbdt: " + name + " ranks documents within queries; it "
                                 "applies to loss=lambdarank and loss=rank_pairwise (the loss is " +
                                 to_string(loss.kind) + ")");
            if (std::none_of(out.begin(), out.end(), [&](const EvalMetric& m) { return m.name == name; }))
                out.push_back({name, true});
            continue;
        }
        const Known* k = std::find_if(std::begin(kKnown), std::end(kKnown), [&](const Known& x) { return name == x.name; });
        if (k == std::end(kKnown))
            throw ParamError("parameter eval_metric of model gbdt: unknown metric \"" + name + "\" (valid: " +
                             known_names() + ", ndcg@k, map@k, mrr@k, or auto)");
        if (is_ranking_loss(loss.kind) && k->needs != Needs::any)
            throw ParamError("parameter eval_metric of model gbdt: " + name + " does not apply to loss " +
                             to_string(loss.kind) + " (valid: ndcg, ndcg@k, map, map@k, mrr, mrr@k, loss)");
        const bool fits = k->needs == Needs::any || (k->needs == Needs::classes && classes) ||
                          (k->needs == Needs::binary && binary) || (k->needs == Needs::regression && !classes) ||
                          (k->needs == Needs::log_link && has_log_link(loss.kind)) ||
                          (k->needs == Needs::quantile && loss.kind == LossKind::quantile);
        if (!fits)
            throw ParamError("parameter eval_metric of model gbdt: " + name + " does not apply to loss " +
                             to_string(loss.kind) +
                             (k->needs == Needs::binary     ? " (two classes only)"
                              : k->needs == Needs::log_link ? " (poisson, gamma, tweedie only)"
                              : k->needs == Needs::quantile ? " (loss=quantile only: its alpha)"
                                                            : ""));
        if (std::none_of(out.begin(), out.end(), [&](const EvalMetric& m) { return m.name == name; }))
            out.push_back({name, k->maximize});
    }
    if (out.empty()) throw ParamError("parameter eval_metric of model gbdt: no metric named (valid: " + known_names() + ")");
    return out;
}

double evaluate_metric(const EvalMetric& metric, const Loss& loss, const double* F, Index K, const Vector& y,
                       const Vector& w, int threads, std::span<const Index> queries) {
    const std::string& m = metric.name;
    const Index n = y.size();
    if (m == "loss") return loss.mean(F, y, w, K, threads, queries);
    if (const auto q = parse_query_metric(m))
        return query_metric(*q, F, y, queries);
    double wsum = 0;
    for (Index i = 0; i < n; ++i) wsum += weight(w, i);
    if (!(wsum > 0)) return std::nan("");
    if (m == "rmse" || m == "mae" || m == "mape") {
        // On the prediction: e^F under a log link.
        const bool log_link = has_log_link(loss.kind);
        double s = 0;
        for (Index i = 0; i < n; ++i) {
            const double r = y[i] - (log_link ? std::exp(F[i]) : F[i]);
            s += weight(w, i) * (m == "rmse" ? r * r : m == "mae" ? std::abs(r) : std::abs(r / y[i]));
        }
        return m == "rmse" ? std::sqrt(s / wsum) : s / wsum;
    }
    if (m == "quantile") return loss.mean(F, y, w, K, threads);  // the pinball loss at the loss's alpha
    if (m == "poisson-nloglik" || m == "gamma-nloglik" || m == "gamma-deviance" || m == "tweedie-nloglik") {
        // XGBoost 1.7's formulas (src/metric/elementwise_metric.cu), μ = e^F the predicted mean.
        const double rho = loss.tweedie_power;
        double s = 0;
        for (Index i = 0; i < n; ++i) {
            const double mu = std::max(std::exp(F[i]), 1e-16), yi = y[i];
            double v = 0;
            if (m == "poisson-nloglik") {
                v = std::lgamma(yi + 1) + mu - yi * std::log(mu);
            } else if (m == "gamma-nloglik") {
                v = yi / mu + std::log(mu);
            } else if (m == "gamma-deviance") {
                constexpr double kEps = 1e-6;
                v = std::log((mu + kEps) / (yi + kEps)) + (yi + kEps) / (mu + kEps) - 1;
            } else {
                v = -yi * std::exp((1 - rho) * std::log(mu)) / (1 - rho) + std::exp((2 - rho) * std::log(mu)) / (2 - rho);
            }
            s += weight(w, i) * v;
        }
        return (m == "gamma-deviance" ? 2 : 1) * s / wsum;
    }
    const Index classes = loss.kind == LossKind::logistic ? 2 : K;
    std::vector<double> p;
    if (m == "logloss" || m == "mlogloss" || m == "error" || m == "merror") {
        const bool log = m == "logloss" || m == "mlogloss";
        double s = 0;
        for (Index i = 0; i < n; ++i) {
            row_probabilities(loss, F, K, i, p);
            const auto yi = static_cast<std::size_t>(y[i]);
            if (log) {
                s -= weight(w, i) * std::log(std::clamp(p[yi], kProbEps, 1 - kProbEps));
            } else {
                // Two classes: class 1 when p > 0.5 (XGBoost's error); more: the first largest.
                const auto pred = static_cast<std::size_t>(std::max_element(p.begin(), p.end()) - p.begin());
                const std::size_t guess = classes == 2 ? (p[1] > 0.5 ? 1 : 0) : pred;
                if (guess != yi) s += weight(w, i);
            }
        }
        return s / wsum;
    }
    // auc, aucpr: per class c, the rows of class c against the rest, scored by p_c.
    std::vector<std::vector<double>> score(static_cast<std::size_t>(classes), std::vector<double>(static_cast<std::size_t>(n)));
    for (Index i = 0; i < n; ++i) {
        row_probabilities(loss, F, K, i, p);
        for (Index c = 0; c < classes; ++c) score[static_cast<std::size_t>(c)][static_cast<std::size_t>(i)] = p[static_cast<std::size_t>(c)];
    }
    const auto one_vs_rest = [&](Index c) {
        std::vector<char> positive(static_cast<std::size_t>(n));
        for (Index i = 0; i < n; ++i) positive[static_cast<std::size_t>(i)] = static_cast<Index>(y[i]) == c;
        return m == "auc" ? weighted_auc(score[static_cast<std::size_t>(c)], positive, w)
                          : weighted_average_precision(score[static_cast<std::size_t>(c)], positive, w);
    };
    if (classes == 2) {
        const double v = one_vs_rest(1);
        if (std::isnan(v)) throw DataError(m + " needs rows of both classes");
        return v;
    }
    // XGBoost 1.7's multiclass AUC: each class against the rest, averaged with the
    // classes' weight totals; a class absent from the set makes it undefined.
    double total = 0, weighted = 0;
    for (Index c = 0; c < classes; ++c) {
        double wc = 0;
        for (Index i = 0; i < n; ++i)
            if (static_cast<Index>(y[i]) == c) wc += weight(w, i);
        const double v = one_vs_rest(c);
        if (std::isnan(v)) throw DataError(m + " needs rows of every class (class " + std::to_string(c + 1) + " has none)");
        weighted += wc * v;
        total += wc;
    }
    return weighted / total;
}

}  // namespace kestrel
