#include "kestrel/model_selection/cross_validate.hpp"

#include <chrono>
#include <cmath>
#include <mutex>
#include <optional>

#include "fit_jobs.hpp"
#include "fold_runner.hpp"
#include "kestrel/core/error.hpp"
#include "kestrel/metrics/metric_registry.hpp"
#include "kestrel/pipeline/registry.hpp"

namespace kestrel {

namespace {

struct Offers {
    bool scores = false, proba = false;
};

// What the model will offer the metrics, known before any fit from its declared
// capabilities (resolving the parameters also rejects bad ones early).
Offers offers(const ModelSpec& spec) {
    const Capabilities c = registry().capabilities(*resolved_params(spec));
    const bool proba = c.predict_proba || !spec.calibrate.empty();  // a calibrated model gives them
    return {c.decision_function || proba, proba};
}

std::string fold_label(const Fold& f, int k, int repeats) {
    std::string label = "fold " + std::to_string(f.index + 1) + "/" + std::to_string(k);
    if (repeats > 1) label = "repeat " + std::to_string(f.repeat + 1) + " " + label;
    return label;
}

// Puts the first repetition's per-fold predictions back in file order.
Predictions assemble_out_of_fold(const Dataset& data, const std::vector<Fold>& folds,
                                 const std::vector<Predictions>& parts, const Context& ctx) {
    Predictions out;
    out.task = data.task;
    out.classes = data.classes;
    out.y_true = data.y;
    if (data.has_weights()) out.weights = data.weights;
    if (data.has_queries()) out.qid = data.qid;  // file order: each query's rows together again
    out.y_pred = Vector::Zero(data.rows());
    if (parts.empty()) return out;

    // Scores are kept only when every fold has them with the same width, so the
    // assembled matrix never mixes models that described classes differently.
    auto same_width = [&](auto member) {
        const Index cols = (parts.front().*member).cols();
        for (const auto& p : parts)
            if ((p.*member).cols() != cols || (p.*member).size() == 0) return Index{0};
        return cols;
    };
    const Index decision_cols = same_width(&Predictions::decision);
    const Index proba_cols = same_width(&Predictions::proba);
    if ((decision_cols == 0 && parts.front().decision.size() > 0) || (proba_cols == 0 && parts.front().proba.size() > 0))
        ctx.warning("cross-validation: folds disagree on score columns; out-of-fold scores left out");
    if (decision_cols > 0) out.decision = Matrix::Zero(data.rows(), decision_cols);
    if (proba_cols > 0) out.proba = Matrix::Zero(data.rows(), proba_cols);

    for (std::size_t f = 0; f < parts.size(); ++f) {
        const auto& test = folds[f].test;
        const auto& p = parts[f];
        for (std::size_t i = 0; i < test.size(); ++i) {
            const auto row = test[i];
            const auto r = static_cast<Index>(i);
            out.y_pred[row] = p.y_pred[r];
            if (decision_cols > 0) out.decision.row(row) = p.decision.row(r);
            if (proba_cols > 0) out.proba.row(row) = p.proba.row(r);
        }
    }
    return out;
}

}  // namespace

std::vector<std::string> default_cv_metrics(Task task, bool has_scores, bool has_proba) {
    const std::vector<std::string> standard = task == Task::regression
                                                  ? std::vector<std::string>{"r2", "rmse", "mae"}
                                                  : std::vector<std::string>{"accuracy", "balanced_accuracy", "f1_macro",
                                                                             "roc_auc", "log_loss"};
    std::vector<std::string> out;
    for (const std::string& name : standard)
        if (model_gives(metric_info(name), has_scores, has_proba)) out.push_back(name);
    return out;
}

std::vector<std::string> default_cv_metrics(const ModelSpec& spec, const Dataset& data) {
    // Ranking by default when rows are in queries and the task is a score (a classifier
    // trained on a qid file keeps the classification metrics).
    if (data.has_queries() && data.task == Task::regression) return {kDefaultRankingMetric};
    const Offers caps = offers(spec);
    return default_cv_metrics(data.task, caps.scores, caps.proba);
}

std::vector<Fold> make_folds(const Dataset& data, int k, int repeats, std::uint64_t seed) {
    const Index n_classes = data.task == Task::classification ? data.n_classes() : 0;
    return repeated_kfold(data.y, n_classes, k, repeats, seed);
}

Predictions fit_and_predict(const ModelSpec& spec, const Dataset& data, const Fold& fold, const Context& ctx,
                            double* fit_seconds) {
    const auto start = std::chrono::steady_clock::now();
    const Model model = Model::train(spec, data.subset(fold.train), ctx);
    if (fit_seconds) *fit_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return detail::predict_rows(model, spec, data, fold.test, data.X.rows_subset(fold.test));
}

void check_metrics(const ModelSpec& spec, Task task, const std::vector<std::string>& metrics) {
    std::optional<Offers> caps;
    for (const auto& name : metrics) {
        const MetricInfo& info = metric_info(name);  // UsageError listing the valid names
        if (info.task != task)
            throw UsageError(option_named("metric") + " " + name + " is a " + to_string(info.task) +
                             " metric, but the data is " + to_string(task));
        if (!info.needs_scores && !info.needs_proba) continue;
        if (!caps) caps = offers(spec);
        if (info.needs_proba && !caps->proba)
            throw UsageError(option_named("metric") + " " + name + " needs probabilities, which model '" + spec.model +
                             "' does not give with these parameters");
        if (info.needs_scores && !caps->scores)
            throw UsageError(option_named("metric") + " " + name +
                             " needs decision values or probabilities, which model '" + spec.model + "' does not give");
    }
}

std::map<std::string, double> score_predictions(const Predictions& p, const std::vector<std::string>& metrics) {
    std::map<std::string, double> scores;
    for (const auto& name : metrics) scores[name] = compute_metric(name, p);
    return scores;
}

MetricSummary summarize(const std::vector<double>& values) {
    MetricSummary s;
    if (values.empty()) return s;
    for (double v : values) s.mean += v;
    s.mean /= static_cast<double>(values.size());
    double ss = 0;
    for (double v : values) ss += (v - s.mean) * (v - s.mean);
    s.std = std::sqrt(ss / static_cast<double>(values.size()));
    return s;
}

CvResult cross_validate(const ModelSpec& spec, const Dataset& data, const CvOptions& opts, const Context& ctx) {
    // Everything that can be wrong with the request fails here, before any fit.
    const std::vector<Fold> folds = make_splits(data, opts, ctx.seed);
    CvResult result;
    result.metrics = opts.metrics.empty() ? default_cv_metrics(spec, data) : opts.metrics;
    check_metrics(spec, data.task, result.metrics);

    const bool partition = tests_partition_rows(opts.scheme);
    const int per_repeat = partition && opts.scheme == CvScheme::kfold && opts.repeats > 1
                               ? static_cast<int>(folds.size()) / opts.repeats
                               : static_cast<int>(folds.size());
    std::vector<detail::FitJob> jobs(folds.size());
    for (std::size_t f = 0; f < folds.size(); ++f) {
        auto& job = jobs[f];
        job.data = &data;
        job.fold = &folds[f];
        job.spec = &spec;
        job.seed = ctx.seed;
        job.stream = f;
        job.label = fold_label(folds[f], per_repeat, opts.scheme == CvScheme::kfold ? opts.repeats : 1);
        job.keep_predictions = true;
    }
    auto outcomes = detail::run_fit_jobs(jobs, result.metrics, ctx, "cv", opts.observe);

    result.folds.resize(folds.size());
    result.fold_predictions.resize(folds.size());
    std::vector<Predictions> first_repeat;
    std::vector<Fold> first_folds;
    for (std::size_t f = 0; f < folds.size(); ++f) {
        FoldResult& out = result.folds[f];
        out.repeat = folds[f].repeat;
        out.index = folds[f].index;
        out.fit_seconds = outcomes[f].seconds;
        out.rounds = outcomes[f].best_iteration + 1;
        for (std::size_t m = 0; m < result.metrics.size(); ++m) out.scores[result.metrics[m]] = outcomes[f].scores[m];
        result.fold_predictions[f] = std::move(outcomes[f].predictions);
        if (folds[f].repeat == 0) {
            first_repeat.push_back(result.fold_predictions[f]);
            first_folds.push_back(folds[f]);
        }
    }

    for (const auto& name : result.metrics) {
        std::vector<double> values;
        values.reserve(result.folds.size());
        for (const auto& f : result.folds) values.push_back(f.scores.at(name));
        result.summary[name] = summarize(values);
    }
    if (partition) {
        result.out_of_fold = assemble_out_of_fold(data, first_folds, first_repeat, ctx);
    } else {
        result.pooled_splits = true;
        result.out_of_fold = result.fold_predictions.front();
        for (std::size_t f = 1; f < result.fold_predictions.size(); ++f)
            result.out_of_fold.append(result.fold_predictions[f]);
    }
    result.pooled = score_predictions(result.out_of_fold, result.metrics);
    result.splits = folds;
    return result;
}

}  // namespace kestrel
