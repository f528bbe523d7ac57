#include "kestrel/model_selection/cross_validate.hpp"

#include <chrono>
#include <cmath>
#include <mutex>
#include <optional>

#include "fold_runner.hpp"
#include "kestrel/core/error.hpp"
#include "kestrel/core/registry.hpp"
#include "kestrel/metrics/metric_registry.hpp"

namespace kestrel {

namespace {

struct Capabilities {
    bool scores = false, proba = false;
};

// What the model will offer the metrics, known before any fit: building the
// estimator is cheap and also rejects bad parameters early.
Capabilities capabilities(const ModelSpec& spec) {
    const auto est = registry().create(spec.model, spec.params);
    return {est->has_decision_function() || est->has_predict_proba(), est->has_predict_proba()};
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
    if (task == Task::regression) return {"r2", "rmse", "mae"};
    std::vector<std::string> m{"accuracy", "balanced_accuracy", "f1_macro"};
    if (has_scores) m.emplace_back("roc_auc");
    if (has_proba) m.emplace_back("log_loss");
    return m;
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

    const Features X = data.X.rows_subset(fold.test);
    const auto n = static_cast<Index>(fold.test.size());
    Predictions p;
    p.task = data.task;
    p.model = spec.model;
    p.y_true.resize(n);
    for (Index i = 0; i < n; ++i) p.y_true[i] = data.y[fold.test[static_cast<std::size_t>(i)]];
    if (data.has_weights()) {
        p.weights.resize(n);
        for (Index i = 0; i < n; ++i) p.weights[i] = data.weights[fold.test[static_cast<std::size_t>(i)]];
    }
    p.y_pred = model.predict(X);
    if (data.task == Task::classification) {
        p.classes = data.classes;
        if (model.has_decision_function()) p.decision = model.decision_function(X);
        if (model.has_predict_proba()) p.proba = model.predict_proba(X);
    }
    return p;
}

void check_metrics(const ModelSpec& spec, Task task, const std::vector<std::string>& metrics) {
    std::optional<Capabilities> caps;
    for (const auto& name : metrics) {
        const MetricInfo& info = metric_info(name);  // UsageError listing the valid names
        if (info.task != task)
            throw UsageError("--metric " + name + " is a " + to_string(info.task) + " metric, but the data is " +
                             to_string(task));
        if (!info.needs_scores && !info.needs_proba) continue;
        if (!caps) caps = capabilities(spec);
        if (info.needs_proba && !caps->proba)
            throw UsageError("--metric " + name + " needs probabilities, which model '" + spec.model +
                             "' does not give with these parameters");
        if (info.needs_scores && !caps->scores)
            throw UsageError("--metric " + name + " needs decision values or probabilities, which model '" +
                             spec.model + "' does not give");
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
    const std::vector<Fold> folds = make_folds(data, opts.k, opts.repeats, ctx.seed);
    CvResult result;
    if (opts.metrics.empty()) {
        const Capabilities caps = capabilities(spec);
        result.metrics = default_cv_metrics(data.task, caps.scores, caps.proba);
    } else {
        result.metrics = opts.metrics;
    }
    check_metrics(spec, data.task, result.metrics);

    result.folds.resize(folds.size());
    std::vector<Predictions> first_repeat(static_cast<std::size_t>(opts.k));
    const auto warn_mutex = std::make_shared<std::mutex>();
    detail::run_parallel(folds.size(), ctx, "cv", [&](std::size_t f) {
        const Fold& fold = folds[f];
        const Context fold_ctx = detail::fold_context(ctx, f, fold_label(fold, opts.k, opts.repeats), warn_mutex);
        FoldResult& out = result.folds[f];
        out.repeat = fold.repeat;
        out.index = fold.index;
        Predictions p = fit_and_predict(spec, data, fold, fold_ctx, &out.fit_seconds);
        out.scores = score_predictions(p, result.metrics);
        if (fold.repeat == 0) first_repeat[static_cast<std::size_t>(fold.index)] = std::move(p);
    });

    for (const auto& name : result.metrics) {
        std::vector<double> values;
        values.reserve(result.folds.size());
        for (const auto& f : result.folds) values.push_back(f.scores.at(name));
        result.summary[name] = summarize(values);
    }
    result.out_of_fold = assemble_out_of_fold(data, folds, first_repeat, ctx);
    return result;
}

}  // namespace kestrel
