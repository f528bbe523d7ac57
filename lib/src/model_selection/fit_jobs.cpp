#include "fit_jobs.hpp"

#include <chrono>
#include <memory>
#include <mutex>

#include "byte_buffer.hpp"
#include "distributed_jobs.hpp"
#include "fold_runner.hpp"
#include "kestrel/metrics/metric_registry.hpp"
#include "kestrel/model_selection/fold_models.hpp"
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

namespace {

// One job: fit on the fold's training rows, score its test rows.
FitOutcome run_fit_job(const FitJob& job, const std::vector<std::string>& metrics, const Context& ctx,
                       const std::shared_ptr<std::mutex>& warn_mutex, const FitObserver& observer,
                       std::mutex& observer_mutex) {
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
    FitOutcome o;
    o.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    o.best_iteration = model.estimator().best_iteration();

    Predictions p = predict_rows(model, *job.spec, data, fold.test, test_X);
    for (const auto& m : metrics) o.scores.push_back(compute_metric(m, p));
    if (job.score_train) {
        const Predictions t = predict_rows(model, *job.spec, data, fold.train, train.X);
        for (const auto& m : metrics) o.train_scores.push_back(compute_metric(m, t));
    }
    if (job.keep_predictions) o.predictions = std::move(p);
    return o;
}

// A job's outcome and the warnings its fit gave, as sent from the rank that ran it.
JobBytes encode_outcome(const FitOutcome& o, const std::vector<std::string>& warnings) {
    ByteWriter w;
    w.put_reals(o.scores);
    w.put_reals(o.train_scores);
    w.put<double>(o.seconds);
    w.put<std::int64_t>(o.best_iteration);
    const Predictions& p = o.predictions;
    w.put<std::uint8_t>(p.task == Task::classification ? 1 : 0);
    w.put_vector(p.y_true);
    w.put_vector(p.y_pred);
    w.put_vector(p.weights);
    w.put_vector(p.qid);
    w.put_matrix(p.decision);
    w.put_matrix(p.proba);
    w.put<std::uint64_t>(p.classes.size());
    for (const auto& c : p.classes) w.put_string(c);
    w.put_string(p.model);
    w.put<std::uint64_t>(warnings.size());
    for (const auto& m : warnings) w.put_string(m);
    return std::move(w.bytes());
}

FitOutcome decode_outcome(const JobBytes& bytes, std::vector<std::string>& warnings) {
    ByteReader r(bytes);
    FitOutcome o;
    o.scores = r.get_reals();
    o.train_scores = r.get_reals();
    o.seconds = r.get<double>();
    o.best_iteration = r.get<std::int64_t>();
    Predictions& p = o.predictions;
    p.task = r.get<std::uint8_t>() == 1 ? Task::classification : Task::regression;
    p.y_true = r.get_vector();
    p.y_pred = r.get_vector();
    p.weights = r.get_vector();
    p.qid = r.get_vector();
    p.decision = r.get_matrix();
    p.proba = r.get_matrix();
    p.classes.resize(r.get<std::uint64_t>());
    for (auto& c : p.classes) c = r.get_string();
    p.model = r.get_string();
    warnings.resize(r.get<std::uint64_t>());
    for (auto& m : warnings) m = r.get_string();
    if (!r.done()) throw InternalError("a fit job's result from another rank has trailing bytes");
    return o;
}

// The jobs shared out over the ranks of the run's process group. A fit's warnings travel
// with its result and are given in job order on every rank (rank 0 shows them), so they
// do not depend on which rank ran what either. The audit observer sees the fits of its
// own process only, so runs that set it stay on one rank.
std::vector<FitOutcome> run_fit_jobs_across_ranks(const std::vector<FitJob>& jobs,
                                                  const std::vector<std::string>& metrics, const Context& ctx,
                                                  const std::string& progress_label) {
    std::mutex observer_mutex;
    const std::vector<JobBytes> results =
        run_across_ranks(jobs.size(), ctx, progress_label, [&](std::size_t j) {
            std::vector<std::string> warnings;
            Context collecting = ctx;
            collecting.warn = [&warnings](const std::string& message) { warnings.push_back(message); };
            // One job, one thread: the mutex only orders this job's own warnings.
            const FitOutcome o = run_fit_job(jobs[j], metrics, collecting, std::make_shared<std::mutex>(), {},
                                             observer_mutex);
            return encode_outcome(o, warnings);
        });
    std::vector<FitOutcome> out(jobs.size());
    for (std::size_t j = 0; j < jobs.size(); ++j) {
        std::vector<std::string> warnings;
        out[j] = decode_outcome(results[j], warnings);
        if (ctx.warn)
            for (const auto& m : warnings) ctx.warn(m);
    }
    return out;
}

}  // namespace

std::vector<FitOutcome> run_fit_jobs(const std::vector<FitJob>& jobs, const std::vector<std::string>& metrics,
                                     const Context& ctx, const std::string& progress_label,
                                     const FitObserver& observer) {
    if (!observer && share_jobs_across_ranks()) return run_fit_jobs_across_ranks(jobs, metrics, ctx, progress_label);
    std::vector<FitOutcome> out(jobs.size());
    const auto warn_mutex = std::make_shared<std::mutex>();
    std::mutex observer_mutex;
    run_parallel(jobs.size(), ctx, progress_label, [&](std::size_t j) {
        out[j] = run_fit_job(jobs[j], metrics, ctx, warn_mutex, observer, observer_mutex);
    });
    return out;
}

}  // namespace kestrel::detail

namespace kestrel {

// Here beside run_fit_job, whose fold context (fold_context of the job's seed and stream) and
// training rows it repeats: kestrel-auto's jobs run with stop_on_test_rows off, so no eval set.
std::vector<Model> fit_fold_models(const Dataset& data, const std::vector<Fold>& folds, const ModelSpec& spec,
                                   const Context& ctx, const std::string& label) {
    std::vector<Model> models(folds.size());
    const auto warn_mutex = std::make_shared<std::mutex>();
    const std::string of = "/" + std::to_string(folds.size());
    detail::run_parallel(folds.size(), ctx, label, [&](std::size_t k) {
        const Context fit_ctx = detail::fold_context(ctx, k, label + ", fold " + std::to_string(k + 1) + of, warn_mutex);
        models[k] = Model::train(spec, data.subset(folds[k].train), fit_ctx);
    });
    return models;
}

}  // namespace kestrel
