// The table of metrics by name. Each entry states its task, direction and what it
// needs, so cv and gridsearch can check a request before any model is fitted.
#include "kestrel/metrics/metric_registry.hpp"

#include <cmath>
#include <deque>
#include <limits>
#include <mutex>
#include <optional>
#include <string>

#include "kestrel/core/error.hpp"
#include "kestrel/metrics/classification.hpp"
#include "kestrel/metrics/query_metrics.hpp"
#include "kestrel/metrics/regression.hpp"
#include "metrics_internal.hpp"

namespace kestrel {
namespace {

double value_or_nan(const std::optional<double>& v) { return v ? *v : metrics_internal::kNaN; }

ClassScores averaged(const Predictions& p, Average avg) {
    return averaged_scores(confusion_matrix(p.y_true, p.y_pred, metrics_internal::covered_classes(p)), avg);
}

MetricInfo cls(std::string name, std::string help, std::function<double(const Predictions&)> f) {
    return MetricInfo{std::move(name), std::move(help), Task::classification, true, false, false, std::move(f)};
}

MetricInfo reg(std::string name, std::string help, bool greater_is_better, std::function<double(const Predictions&)> f) {
    return MetricInfo{std::move(name), std::move(help), Task::regression, greater_is_better, false, false, std::move(f)};
}

// A loss of the probabilities (lower is better) and its negation "neg_NAME", as scikit-learn
// names the scorer.
void add_probability_loss(std::vector<MetricInfo>& t, const std::string& name, const std::string& help,
                          std::optional<double> (*loss)(const Predictions&)) {
    MetricInfo plain = cls(name, help + " (lower is better)", [loss](const Predictions& p) { return value_or_nan(loss(p)); });
    plain.greater_is_better = false;
    plain.needs_scores = plain.needs_proba = true;
    t.push_back(plain);
    MetricInfo negated = cls("neg_" + name, name + " negated, so that greater is better",
                             [loss](const Predictions& p) { return -value_or_nan(loss(p)); });
    negated.needs_scores = negated.needs_proba = true;
    t.push_back(negated);
}

// ndcg, map, mrr and their @k forms: the rows' query ids come with the predictions.
MetricInfo query_metric_info(const std::string& name, const QueryMetric& q) {
    static const char* const help[] = {"normalised discounted cumulative gain per query, averaged (XGBoost's ndcg)",
                                       "mean average precision per query, averaged (XGBoost's map)",
                                       "reciprocal rank of the first relevant document, averaged over the queries"};
    return reg(name, help[static_cast<int>(q.kind)], true, [name, q](const Predictions& p) {
        if (p.qid.size() == 0 || p.qid.size() != p.y_true.size())
            throw DataError("metric " + name + " ranks documents within queries: the data has no query groups " +
                            "(qid:N in a LIBSVM file, " + option_named("group_col") + " COLUMN in a CSV file)");
        return query_metric(q, p.y_pred.data(), p.y_true, query_starts(p.qid));
    });
}

std::vector<MetricInfo> build_table() {
    std::vector<MetricInfo> t;
    t.push_back(cls("accuracy", "fraction of correct predictions",
                    [](const Predictions& p) { return accuracy(p.y_true, p.y_pred); }));
    t.push_back(cls("balanced_accuracy", "mean recall over the classes present in the truth",
                    [](const Predictions& p) {
                        return balanced_accuracy(p.y_true, p.y_pred, metrics_internal::covered_classes(p));
                    }));
    t.push_back(cls("f1_macro", "unweighted mean of per-class F1",
                    [](const Predictions& p) { return averaged(p, Average::macro).f1; }));
    t.push_back(cls("f1_micro", "F1 of the pooled counts (equals accuracy for single-label data)",
                    [](const Predictions& p) { return averaged(p, Average::micro).f1; }));
    t.push_back(cls("f1_weighted", "per-class F1 weighted by support",
                    [](const Predictions& p) { return averaged(p, Average::weighted).f1; }));
    t.push_back(cls("precision_macro", "unweighted mean of per-class precision",
                    [](const Predictions& p) { return averaged(p, Average::macro).precision; }));
    t.push_back(cls("recall_macro", "unweighted mean of per-class recall",
                    [](const Predictions& p) { return averaged(p, Average::macro).recall; }));
    t.push_back(cls("precision_weighted", "per-class precision weighted by support",
                    [](const Predictions& p) { return averaged(p, Average::weighted).precision; }));
    t.push_back(cls("recall_weighted", "per-class recall weighted by support",
                    [](const Predictions& p) { return averaged(p, Average::weighted).recall; }));

    MetricInfo auc = cls("roc_auc", "area under the ROC curve (binary; one-vs-rest macro for multiclass)",
                         [](const Predictions& p) { return value_or_nan(roc_auc(p)); });
    auc.needs_scores = true;
    t.push_back(auc);
    MetricInfo ap = cls("average_precision", "area under the precision-recall curve, step-wise (one-vs-rest macro)",
                        [](const Predictions& p) { return value_or_nan(average_precision(p)); });
    ap.needs_scores = true;
    t.push_back(ap);
    add_probability_loss(t, "log_loss", "mean negative log-likelihood of the true class", log_loss);
    add_probability_loss(t, "brier_score", "mean squared error of the probabilities", brier_score);

    const auto r2 = [](const Predictions& p) { return r2_score(p.y_true, p.y_pred); };
    const auto mse = [](const Predictions& p) { return mean_squared_error(p.y_true, p.y_pred); };
    const auto rmse = [](const Predictions& p) { return std::sqrt(mean_squared_error(p.y_true, p.y_pred)); };
    const auto mae = [](const Predictions& p) { return mean_absolute_error(p.y_true, p.y_pred); };
    t.push_back(reg("r2", "coefficient of determination", true, r2));
    t.push_back(reg("mse", "mean squared error (lower is better)", false, mse));
    t.push_back(reg("rmse", "root mean squared error (lower is better)", false, rmse));
    t.push_back(reg("mae", "mean absolute error (lower is better)", false, mae));
    t.push_back(reg("max_error", "largest absolute error (lower is better)", false,
                    [](const Predictions& p) { return max_error(p.y_true, p.y_pred); }));
    t.push_back(reg("neg_mean_squared_error", "mse negated, so that greater is better", true,
                    [mse](const Predictions& p) { return -mse(p); }));
    t.push_back(reg("neg_root_mean_squared_error", "rmse negated, so that greater is better", true,
                    [rmse](const Predictions& p) { return -rmse(p); }));
    t.push_back(reg("neg_mean_absolute_error", "mae negated, so that greater is better", true,
                    [mae](const Predictions& p) { return -mae(p); }));
    for (const char* name : {"ndcg", "map", "mrr"}) t.push_back(query_metric_info(name, *parse_query_metric(name)));
    return t;
}

const std::vector<MetricInfo>& table() {
    static const std::vector<MetricInfo> t = build_table();
    return t;
}

std::string joined(const std::vector<std::string>& names) {
    std::string out;
    for (const std::string& n : names) out += (out.empty() ? "" : ", ") + n;
    return out;
}

}  // namespace

const MetricInfo& metric_info(const std::string& name) {
    for (const MetricInfo& m : table())
        if (m.name == name) return m;
    if (const auto q = parse_query_metric(name)) {
        // ndcg@k and the like, made once per name; a deque keeps references stable.
        static std::mutex mutex;
        static std::deque<MetricInfo> made;
        const std::lock_guard<std::mutex> lock(mutex);
        for (const MetricInfo& m : made)
            if (m.name == name) return m;
        return made.emplace_back(query_metric_info(name, *q));
    }
    throw UsageError("unknown metric '" + name + "'; classification metrics: " +
                     joined(metric_names(Task::classification)) +
                     "; regression metrics: " + joined(metric_names(Task::regression)) +
                     "; ranking (query groups): ndcg@k, map@k, mrr@k");
}

std::vector<std::string> metric_names(Task task) {
    std::vector<std::string> out;
    for (const MetricInfo& m : table())
        if (m.task == task) out.push_back(m.name);
    return out;
}

double compute_metric(const std::string& name, const Predictions& p) {
    const MetricInfo& m = metric_info(name);
    if (m.task != p.task)
        throw UsageError("metric " + name + " is for " + to_string(m.task) + "; these are " + to_string(p.task) +
                         " predictions (" + to_string(p.task) + " metrics: " + joined(metric_names(p.task)) + ")");
    const std::string model = p.model.empty() ? "the model" : "model " + p.model;
    if (m.needs_proba && p.proba.size() == 0)
        throw UsageError("metric " + name + " needs probabilities; " + model + " has none");
    if (m.needs_scores && !p.has_scores())
        throw UsageError("metric " + name + " needs decision values or probabilities; " + model + " has none");
    return m.compute(p);
}

bool model_gives(const MetricInfo& m, bool has_scores, bool has_proba) {
    return (!m.needs_proba || has_proba) && (!m.needs_scores || has_scores || has_proba);
}

std::vector<std::string> metrics_given(Task task, bool has_scores, bool has_proba) {
    std::vector<std::string> out;
    for (const MetricInfo& m : table())
        if (m.task == task && model_gives(m, has_scores, has_proba)) out.push_back(m.name);
    return out;
}

void check_metric_task(const std::string& name, Task task) {
    const Task own = metric_info(name).task;
    if (own != task)
        throw UsageError(option_named("metric") + " " + name + " is a " + to_string(own) + " metric, but this is " +
                         to_string(task));
}

std::string default_metric(Task task) { return task == Task::classification ? "accuracy" : "r2"; }

}  // namespace kestrel
