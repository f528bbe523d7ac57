#include "common/cv_threshold.hpp"

#include <iomanip>
#include <sstream>

#include "kestrel/core/error.hpp"
#include "kestrel/pipeline/registry.hpp"

namespace kestrel::cli {

void CvThresholdFlags::add_to(CLI::App& app) {
    app.add_option("--tune-threshold", tune,
                   "binary: choose the decision threshold on the out-of-fold scores: f1, precision=P or recall=R");
    app.add_option("-o,--output", output, "refit the model on all rows and save it (with the tuned threshold, if any)")->type_name("FILE");
}

void CvThresholdFlags::check(const ModelSpec& spec, const Dataset& data) const {
    if (tune.empty()) return;
    parse_threshold_criterion(tune);
    if (data.task != Task::classification)
        throw UsageError("--tune-threshold needs a binary classifier; the data is regression");
    if (data.n_classes() != 2)
        throw UsageError("--tune-threshold needs a binary classifier; the data has " +
                         plural(data.n_classes(), "class"));
    const Capabilities can = registry().capabilities(*resolved_params(spec));
    if (!can.predict_proba && !can.decision_function)
        throw UsageError("--tune-threshold: model " + spec.model + " gives neither probabilities nor decision values");
}

CvThresholdOutcome tune_and_refit(const CvThresholdFlags& flags, const ModelSpec& spec, const Dataset& data,
                                  const CvResult& r, const Context& ctx) {
    CvThresholdOutcome out;
    std::optional<DecisionThreshold> threshold;
    if (!flags.tune.empty()) {
        const ThresholdCriterion c = parse_threshold_criterion(flags.tune);
        const Predictions& p = r.out_of_fold;
        const Vector scores = positive_scores(p);
        if (scores.size() == 0) throw InternalError("--tune-threshold: the out-of-fold predictions carry no scores");
        const ThresholdChoice t = tune_threshold(scores, p.y_true, p.weights, c);
        const std::string score = p.proba.size() > 0 ? "proba" : "decision";
        threshold = DecisionThreshold{t.threshold, score, c.text};
        out.json["threshold"] = {{"criterion", c.text},
                                 {"value", t.threshold},
                                 {"score", score},
                                 {"precision", t.precision},
                                 {"recall", t.recall},
                                 {"f1", t.f1},
                                 {"positive_class", data.classes[1]}};
        std::ostringstream os;
        os << std::setprecision(6) << "\nThreshold for " << c.text << " on the out-of-fold "
           << (score == "proba" ? "P(" + data.classes[1] + ")" : std::string("decision values")) << ": " << t.threshold
           << " (precision " << std::fixed << std::setprecision(4) << t.precision << ", recall " << t.recall << ", f1 "
           << t.f1 << ")\n";
        out.text = os.str();
    }
    if (!flags.output.empty()) {
        Model m = Model::train(spec, data, ctx);
        if (threshold) {
            if (m.threshold_score() != threshold->score)
                throw InternalError("refit model scores with '" + m.threshold_score() + "', the folds with '" +
                                    threshold->score + "'");
            m.set_threshold(*threshold);
        }
        m.provenance()["data_file"] = data.source;
        m.provenance()["seed"] = ctx.seed;
        m.save(flags.output);
        out.json["output"] = flags.output;
        out.text += "Model refit on all " + plural(data.rows(), "row") + " -> " + flags.output + "\n";
    }
    return out;
}

}  // namespace kestrel::cli
