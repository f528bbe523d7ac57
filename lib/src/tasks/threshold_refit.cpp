#include "kestrel/tasks/threshold_refit.hpp"

#include "kestrel/core/error.hpp"
#include "kestrel/pipeline/registry.hpp"
#include "kestrel/tasks/provenance.hpp"

namespace kestrel {

void check_threshold_tuning(const std::string& criterion, const ModelSpec& spec, const Dataset& data) {
    if (criterion.empty()) return;
    parse_threshold_criterion(criterion);
    if (data.task != Task::classification)
        throw UsageError(option_named("tune_threshold") + " needs a binary classifier; the data is regression");
    if (data.n_classes() != 2) {
        const Index n = data.n_classes();
        throw UsageError(option_named("tune_threshold") + " needs a binary classifier; the data has " +
                         std::to_string(n) + (n == 1 ? " class" : " classes"));
    }
    const Capabilities can = registry().capabilities(*resolved_params(spec));
    if (!can.predict_proba && !can.decision_function)
        throw UsageError(option_named("tune_threshold") + ": model " + spec.model +
                         " gives neither probabilities nor decision values");
}

TunedThreshold tune_cv_threshold(const std::string& criterion, const CvResult& cv, const Dataset& data) {
    const ThresholdCriterion c = parse_threshold_criterion(criterion);
    const Predictions& p = cv.out_of_fold;
    const Vector scores = positive_scores(p);
    if (scores.size() == 0)
        throw InternalError(option_named("tune_threshold") + ": the out-of-fold predictions carry no scores");
    const ThresholdChoice t = tune_threshold(scores, p.y_true, p.weights, c);
    const std::string score = p.proba.size() > 0 ? "proba" : "decision";
    return {DecisionThreshold{t.threshold, score, c.text}, t, data.classes[1]};
}

Json tuned_threshold_json(const TunedThreshold& tuned) {
    return {{"criterion", tuned.threshold.criterion},
            {"value", tuned.choice.threshold},
            {"score", tuned.threshold.score},
            {"precision", tuned.choice.precision},
            {"recall", tuned.choice.recall},
            {"f1", tuned.choice.f1},
            {"positive_class", tuned.positive_class}};
}

Model refit_with_threshold(const ModelSpec& spec, const Dataset& data, const std::optional<DecisionThreshold>& threshold,
                           const Context& ctx) {
    Model m = Model::train(spec, data, ctx);
    if (threshold) {
        if (m.threshold_score() != threshold->score)
            throw InternalError("refit model scores with '" + m.threshold_score() + "', the folds with '" +
                                threshold->score + "'");
        m.set_threshold(*threshold);
    }
    stamp_provenance(m, {data.source, -1, ctx.seed, ""});
    return m;
}

}  // namespace kestrel
