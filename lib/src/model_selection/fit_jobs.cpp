#include "fit_jobs.hpp"

#include <chrono>
#include <memory>
#include <mutex>

#include "fold_runner.hpp"
#include "kestrel/metrics/metric_registry.hpp"
#include "kestrel/pipeline/registry.hpp"

namespace kestrel::detail {

Predictions predict_rows(const Model& model, const ModelSpec& spec, const Dataset& data,
                         std::span<const Index> rows, const Features& X) {
    const auto n = static_cast<Index>(rows.size());
    Predictions p;
    p.task = data.task;
    p.model = spec.model;
    p.y_true.resize(n);
    for (Index i = 0; i < n; ++i) p.y_true[i] = data.y[rows[static_cast<std::size_t>(i)]];
    if (data.has_weights()) {
        p.weights.resize(n);
        for (Index i = 0; i < n; ++i) p.weights[i] = data.weights[rows[static_cast<std::size_t>(i)]];
    }
    if (data.has_queries()) {
        p.qid.resize(n);
        for (Index i = 0; i < n; ++i) p.qid[i] = data.qid[rows[static_cast<std::size_t>(i)]];
    }
    p.y_pred = model.predict(X);
    if (data.task == Task::classification) {
        p.classes = data.classes;
        if (model.has_decision_function()) p.decision = model.decision_function(X);
        if (model.has_predict_proba()) p.proba = model.predict_proba(X);
    }
    return p;
}

std::vector<FitOutcome> run_fit_jobs(const std::vector<FitJob>& jobs, const std::vector<std::string>& metrics,
                                     const Context& ctx, const std::string& progress_label,
                                     const FitObserver& observer) {
    std::vector<FitOutcome> out(jobs.size());
    const auto warn_mutex = std::make_shared<std::mutex>();
    std::mutex observer_mutex;
    run_parallel(jobs.size(), ctx, progress_label, [&](std::size_t j) {
        const FitJob& job = jobs[j];
        const Dataset& data = *job.data;
        const Fold& fold = *job.fold;
        Context base = ctx;
        base.seed = job.seed;
        Context fit_ctx = fold_context(base, job.stream, job.label, warn_mutex);

        const Dataset train = data.subset(fold.train);
        const Features test_X = data.X.rows_subset(fold.test);
        // A model that stops early watches the held-out fold (as XGBoost's cv does):
        // otherwise it would hold out rows of the fold's training part of its own.
        Dataset watched;
        if (job.stop_on_test_rows && registry().capabilities(*resolved_params(*job.spec)).early_stopping) {
            watched = data.subset(fold.test);
            fit_ctx.eval_sets = {{"validation_0", &watched}};
        }
        if (observer) {
            std::lock_guard<std::mutex> lock(observer_mutex);
            observer(FitRecord{job.outer, job.phase, train, test_X});
        }
        const auto start = std::chrono::steady_clock::now();
        const Model model = Model::train(*job.spec, train, fit_ctx);
        FitOutcome& o = out[j];
        o.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        o.best_iteration = model.estimator().best_iteration();

        Predictions p = predict_rows(model, *job.spec, data, fold.test, test_X);
        for (const auto& m : metrics) o.scores.push_back(compute_metric(m, p));
        if (job.score_train) {
            const Predictions t = predict_rows(model, *job.spec, data, fold.train, train.X);
            for (const auto& m : metrics) o.train_scores.push_back(compute_metric(m, t));
        }
        if (job.keep_predictions) o.predictions = std::move(p);
    });
    return out;
}

}  // namespace kestrel::detail
