#include "kestrel/model_selection/permutation_importance.hpp"

#include <omp.h>

#include <cmath>
#include <exception>
#include <numeric>
#include <vector>

#include "kestrel/core/error.hpp"
#include "kestrel/core/rng.hpp"
#include "kestrel/metrics/metric_registry.hpp"

namespace kestrel {

PermutationImportance permutation_importance(const Features& X, const ScoreFunction& score, int repeats,
                                             std::uint64_t seed, int threads) {
    if (repeats < 1) throw UsageError(option_named("permutation_importance.repeats") + " must be at least 1");
    if (X.rows() < 2) throw DataError("permutation importance needs at least two rows");
    PermutationImportance out;
    out.baseline = score(X);
    const Index d = X.cols(), n = X.rows();
    out.drops = Eigen::MatrixXd::Zero(d, repeats);
    DenseMatrix scratch;
    const DenseView base = X.dense(scratch);
    std::vector<std::exception_ptr> errors(static_cast<std::size_t>(d));
#pragma omp parallel for schedule(dynamic) num_threads(threads > 0 ? threads : omp_get_num_procs())
    for (Index j = 0; j < d; ++j) {
        try {
            Rng rng(derive_seed(seed, static_cast<std::uint64_t>(j)));
            DenseMatrix shuffled(base);
            std::vector<Index> perm(static_cast<std::size_t>(n));
            for (int r = 0; r < repeats; ++r) {
                std::iota(perm.begin(), perm.end(), 0);
                rng.shuffle(perm);
                for (Index i = 0; i < n; ++i) shuffled(i, j) = base(perm[static_cast<std::size_t>(i)], j);
                const Features F = X.is_sparse() ? Features(SparseMatrix(shuffled.sparseView())) : Features(shuffled);
                out.drops(j, r) = out.baseline - score(F);
            }
        } catch (...) {
            errors[static_cast<std::size_t>(j)] = std::current_exception();
        }
    }
    for (const auto& e : errors)
        if (e) std::rethrow_exception(e);
    out.mean = out.drops.rowwise().mean();
    out.std = ((out.drops.colwise() - out.mean).array().square().rowwise().sum() / repeats).sqrt().matrix();
    return out;
}

PermutationImportance permutation_importance(const Model& model, const Features& X, const Vector& y,
                                             const std::string& metric, int repeats, std::uint64_t seed, int threads) {
    const MetricInfo& info = metric_info(metric);
    if (info.task != model.task())
        throw UsageError(option_named("metric") + " " + metric + " is a " + to_string(info.task) +
                         " metric, but the model does " + to_string(model.task()));
    if (info.needs_proba && !model.has_predict_proba())
        throw UsageError(option_named("metric") + " " + metric + " needs probabilities, which model " +
                         model.model_name() + " does not give");
    if (info.needs_scores && !model.has_predict_proba() && !model.has_decision_function())
        throw UsageError(option_named("metric") + " " + metric +
                         " needs decision values or probabilities, which model " + model.model_name() +
                         " does not give");
    const double sign = info.greater_is_better ? 1.0 : -1.0;
    const ScoreFunction score = [&](const Features& F) {
        Predictions p;
        p.task = model.task();
        p.model = model.model_name();
        p.y_true = y;
        p.y_pred = model.predict(F);
        if (model.task() == Task::classification) {
            p.classes = model.classes();
            if (info.needs_proba || (info.needs_scores && model.has_predict_proba()))
                p.proba = model.predict_proba(F);
            else if (info.needs_scores)
                p.decision = model.decision_function(F);
        }
        return sign * compute_metric(metric, p);
    };
    return permutation_importance(X, score, repeats, seed, threads);
}

}  // namespace kestrel
