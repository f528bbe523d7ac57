// Model's share of probability calibration: the out-of-fold scores the calibrators are
// fitted on, and the calibrated probabilities (scikit-learn 1.2's CalibratedClassifierCV
// with ensemble=False; docs/calibration.md).
#include <string>
#include <vector>

#include "kestrel/common/splits.hpp"
#include "kestrel/core/error.hpp"
#include "kestrel/core/json_read.hpp"
#include "kestrel/core/rng.hpp"
#include "kestrel/pipeline/model.hpp"

namespace kestrel {

Matrix Model::uncalibrated_scores(const Estimator& e, const Features& prepared, Index n_columns) {
    if (e.has_decision_function()) {
        Matrix d = e.decision_function(prepared);
        if (d.cols() == n_columns) return d;
    }
    if (!e.has_predict_proba())
        throw UsageError(option_named("calibrate") + ": the model gives neither probabilities nor one decision value per class");
    Matrix p = e.predict_proba(prepared);
    if (n_columns == 1) return p.col(1);  // binary: P(classes[1]), as scikit-learn's [:, 1:]
    return p;
}

Matrix Model::calibration_scores(const Features& X) const {
    if (!calibration_) throw InternalError("calibration_scores of an uncalibrated model");
    return uncalibrated_scores(*estimator_, prepare(X), calibration_->n_columns());
}

Matrix Model::probabilities(const Features& prepared) const {
    if (!calibration_) return estimator_->predict_proba(prepared);
    return calibration_->probabilities(uncalibrated_scores(*estimator_, prepared, calibration_->n_columns()));
}

void Model::calibrate(const Dataset& data, const Context& ctx) {
    const Index k = data.n_classes();
    const int folds = spec_.calibrate_folds;
    // scikit-learn refuses the same: a fold's training rows would miss a class.
    std::vector<Index> counts(static_cast<std::size_t>(k), 0);
    for (Index i = 0; i < data.rows(); ++i) ++counts[static_cast<std::size_t>(data.y[i])];
    for (Index c = 0; c < k; ++c)
        if (counts[static_cast<std::size_t>(c)] < folds)
            throw UsageError(option_named("calibrate") + " with " + std::to_string(folds) + " folds needs " + std::to_string(folds) +
                             " rows of every class; class " + classes_[static_cast<std::size_t>(c)] + " has " +
                             std::to_string(counts[static_cast<std::size_t>(c)]) + " (" + option_named("calibrate_folds") + ")");
    ModelSpec fold_spec = spec_;
    fold_spec.calibrate.clear();
    const Index columns = k == 2 ? 1 : k;
    Matrix scores(data.rows(), columns);
    const std::vector<Fold> splits = stratified_kfold(data.y, k, folds, derive_seed(ctx.seed, 0xca11b7a7e));
    // One fold after the other, each with the whole thread budget and a seed of its own:
    // the scores do not depend on --threads.
    for (const Fold& f : splits) {
        const Context fold_ctx = ctx.child(0xca11b000 + static_cast<std::uint64_t>(f.index), ctx.threads);
        const Model m = train(fold_spec, data.subset(f.train), fold_ctx);
        const Matrix s = uncalibrated_scores(*m.estimator_, m.prepare(data.X.rows_subset(f.test)), columns);
        for (std::size_t r = 0; r < f.test.size(); ++r) scores.row(f.test[r]) = s.row(static_cast<Index>(r));
    }
    const std::vector<double> weights(data.weights.data(), data.weights.data() + data.weights.size());
    calibration_ = Calibration::fit(spec_.calibrate, scores, data.y, k, weights);
}

void Model::load_calibration(const Json& j, const std::string& source) {
    if (task_ != Task::classification) throw ModelFileError(source, "calibration in a regression model");
    try {
        Calibration c = Calibration::from_json(j);
        if (c.n_classes() != static_cast<Index>(classes_.size()))
            throw DataError("calibration class count disagrees with the model's classes");
        if (j.contains("folds")) spec_.calibrate_folds = json_integer<int>(j["folds"]);
        spec_.calibrate = c.method();
        calibration_ = std::move(c);
    } catch (const std::exception& e) {
        throw ModelFileError(source, std::string("invalid calibration: ") + e.what());
    }
}

}  // namespace kestrel
