#include "kestrel/exchange/onnx_export.hpp"

#include <charconv>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "../pipeline/ensemble_estimator.hpp"
#include "kestrel/calibration/calibration.hpp"
#include "kestrel/multiclass/multiclass_wrapper.hpp"
#include "kestrel/pipeline/model.hpp"
#include "onnx_parts.hpp"

namespace kestrel {
namespace {

using A = OnnxAttribute;

// Whether every class label is a whole number as written ("0", "-1", not "1.0"): the labels
// are then int64, as skl2onnx gives them for integer classes; else strings.
bool integer_classes(const std::vector<std::string>& classes, std::vector<std::int64_t>& values) {
    values.clear();
    for (const auto& c : classes) {
        std::int64_t v = 0;
        const auto [end, ec] = std::from_chars(c.data(), c.data() + c.size(), v);
        if (ec != std::errc() || end != c.data() + c.size() || std::to_string(v) != c) return false;
        values.push_back(v);
    }
    return true;
}

// A probability calibration (kestrel-train --calibrate; calibration.cpp) on top of the
// estimator's nodes, in double: the scores it maps as Model::uncalibrated_scores takes them
// (the decision values when the estimator gives them, else its probabilities, of classes[1]
// for two classes), one calibrator per column, then Calibration::probabilities' combination.
// sigmoid: 1 / (1 + exp(a s + b)) in the form sigmoid_probability evaluates (e = exp(−|a s +
// b|), e / (1 + e) where a s + b ≥ 0, else 1 / (1 + e)). isotonic: IsotonicFit's clipped
// linear interpolation, its interval found by counting the interior knots below the score
// (std::lower_bound's index) and its knot and slope gathered from tables.

// What the calibrators map [N, columns]: uncalibrated_scores' choice.
std::string calibration_input(const Model& model, const OnnxScores& scores, Index columns, OnnxGraphBuilder& g) {
    if (model.estimator().has_decision_function()) {
        const std::string& d = scores.probabilities ? scores.decision : scores.tensor;
        if (d.empty())
            throw ExportRefused("ONNX export: the decision values that the calibration of " + model.model_name() +
                                " maps have no ONNX form here");
        return d;
    }
    if (!scores.probabilities)
        throw ExportRefused("ONNX export: model " + model.model_name() + " gives no scores for its calibration");
    return columns == 1 ? onnx_column(g, scores.tensor, 1) : scores.tensor;
}

// One isotonic map of a score column s [N, 1].
std::string isotonic_column(const IsotonicFit& f, const std::string& s, OnnxGraphBuilder& g) {
    const std::size_t n = f.x.size();
    if (n == 1) return g.add("Expand", {g.double_scalar(f.y[0]), g.add("Shape", {s})});
    const std::string clipped = g.add("Clip", {s, g.double_scalar(f.x.front()), g.double_scalar(f.x.back())});
    // The interval [x[lo], x[lo + 1]]: lo counts the interior knots below the score.
    std::vector<double> x_lo, y_lo, slope;
    for (std::size_t lo = 0; lo + 1 < n; ++lo) {
        x_lo.push_back(f.x[lo]);
        y_lo.push_back(f.y[lo]);
        slope.push_back((f.y[lo + 1] - f.y[lo]) / (f.x[lo + 1] - f.x[lo]));
    }
    std::string at_x = g.double_scalar(x_lo[0]), at_y = g.double_scalar(y_lo[0]), at_slope = g.double_scalar(slope[0]);
    if (n > 2) {
        const std::string interior = g.double_row(std::vector<double>(f.x.begin() + 1, f.x.end() - 1));
        const std::string below =
            g.add("Cast", {g.add("Less", {interior, clipped})}, {A::of_int("to", static_cast<int>(OnnxType::int64))});
        const std::string lo = g.add("ReduceSum", {below, g.int64s({1}, {1})}, {A::of_int("keepdims", 1)});  // [N, 1]
        const auto knots = static_cast<std::int64_t>(n - 1);
        const auto gather = [&](std::vector<double> table) {
            return g.add("Gather", {g.doubles(std::move(table), {knots}), lo}, {A::of_int("axis", 0)});
        };
        at_x = gather(std::move(x_lo));
        at_y = gather(std::move(y_lo));
        at_slope = gather(std::move(slope));
    }
    return g.add("Add", {g.add("Mul", {at_slope, g.add("Sub", {clipped, at_x})}), at_y});
}

// Σ w_m s_m over members [first, first + count): each member's probabilities (a classifier's,
// as Model::predict_proba gives them) or prediction (a regressor's) on the raw columns, through
// its own steps; added in the members' order, the first term alone (kestrel adds to zeros).
std::string weighted_members(const Model& model, const std::vector<EnsembleMember>& members, std::size_t first,
                             std::size_t count, const std::string& raw, bool float_inputs, OnnxGraphBuilder& g) {
    std::string sum;
    for (std::size_t i = first; i < first + count; ++i) {
        const Model& member = members[i].model;
        // The members read the envelope's columns, its categories' codes included.
        if (member.input_names() != model.input_names() || member.categories() != model.categories())
            throw ExportRefused("ONNX export: a member (" + member.model_name() + ") of " + model.model_name() +
                                " reads other columns or categories than the ensemble's");
        const OnnxScores s = onnx_model_scores(member, raw, float_inputs, g);
        if (model.task() == Task::classification && !s.probabilities)
            throw ExportRefused("ONNX export: the probabilities of " + member.model_name() + " (a member of " +
                                model.model_name() + ") have no ONNX form here");
        const std::string term = g.add("Mul", {g.double_scalar(members[i].weight), s.tensor});
        sum = sum.empty() ? term : g.add("Add", {sum, term});
    }
    return sum;
}

// A saved decision threshold's label (Model::predict): classes[1] where the score (P(classes[1])
// or the one decision column: the last column either way) is above the threshold.
std::string threshold_label_index(const Model& model, const OnnxScores& scores, OnnxGraphBuilder& g) {
    const DecisionThreshold& t = *model.threshold();
    if ((t.score == "proba") != scores.probabilities)
        throw ExportRefused("ONNX export: the score the decision threshold of " + model.model_name() +
                            " applies to ('" + t.score + "') has no ONNX form here");
    const std::string above = g.add("Greater", {onnx_column(g, scores.tensor, -1), g.double_scalar(t.value)});
    const std::string index = g.add("Cast", {above}, {A::of_int("to", static_cast<int>(OnnxType::int64))});
    return g.add("Reshape", {index, g.int64s({-1}, {1})});
}

// label: the argmax of the scores (the first class on ties, as kestrel predicts; one
// decision column: classes[1] where it is positive), or a saved threshold's.
std::string label_output(const Model& model, const OnnxScores& scores, OnnxGraphBuilder& g, bool& integers,
                         std::vector<std::int64_t>& int_classes) {
    const auto& classes = model.classes();
    const auto k = static_cast<std::int64_t>(classes.size());
    integers = integer_classes(classes, int_classes);
    const std::string labels = integers ? g.int64s(int_classes, {k}) : g.strings(classes, {k});
    const std::string best = model.threshold() ? threshold_label_index(model, scores, g) : onnx_label_index(scores, k, g);
    g.add_named("Gather", {labels, best}, {"label"}, {A::of_int("axis", 0)});
    g.add_output({.name = "label", .type = integers ? OnnxType::int64 : OnnxType::string, .dims = {-1}});
    return labels;
}

// label, then probabilities: float [N, classes], or with zipmap ZipMap's sequence of maps;
// a classifier without probabilities gives its decision values as `scores` (float).
void classifier_outputs(const Model& model, const OnnxScores& scores, const ExportOptions& options,
                        OnnxGraphBuilder& g) {
    bool integers = false;
    std::vector<std::int64_t> int_classes;
    label_output(model, scores, g, integers, int_classes);
    const auto k = static_cast<std::int64_t>(model.classes().size());
    if (!scores.probabilities) {
        if (options.zipmap)
            throw ExportRefused("ONNX export: model " + model.model_name() + " gives no probabilities for ZipMap");
        g.add_named("Identity", {onnx_to_float(g, scores.tensor)}, {"scores"});
        const std::int64_t columns = scores.columns > 0 ? scores.columns : k == 2 ? 1 : k;
        g.add_output({.name = "scores", .type = OnnxType::float32, .dims = {-1, columns}});
        return;
    }
    const auto& classes = model.classes();
    const OnnxType label_type = integers ? OnnxType::int64 : OnnxType::string;
    const std::string p = onnx_to_float(g, scores.tensor);
    if (!options.zipmap) {
        g.add_named("Identity", {p}, {"probabilities"});
        g.add_output({.name = "probabilities", .type = OnnxType::float32, .dims = {-1, k}});
        return;
    }
    g.add_named("ZipMap", {p}, {"probabilities"},
                {integers ? A::of_ints("classlabels_int64s", int_classes) : A::of_strings("classlabels_strings", classes)},
                kOnnxMlDomain);
    g.add_output({.name = "probabilities", .type = OnnxType::float32, .sequence_of_maps = true, .map_key = label_type});
}

}  // namespace

std::string onnx_platt_sigmoid(OnnxGraphBuilder& g, const std::string& s, const std::string& a, const std::string& b) {
    const std::string f_apb = g.add("Add", {g.add("Mul", {s, a}), b});
    const std::string e = g.add("Exp", {g.add("Neg", {g.add("Abs", {f_apb})})});
    const std::string numerator =
        g.add("Where", {g.add("GreaterOrEqual", {f_apb, g.double_scalar(0.0)}), e, g.double_scalar(1.0)});
    return g.add("Div", {numerator, g.add("Add", {g.double_scalar(1.0), e})});
}

std::string onnx_column(OnnxGraphBuilder& g, const std::string& x, std::int64_t c) {
    const std::int64_t end = c == -1 ? std::numeric_limits<std::int64_t>::max() : c + 1;
    return g.add("Slice", {x, g.int64s({c}, {1}), g.int64s({end}, {1}), g.int64s({1}, {1})});
}

std::string onnx_label_index(const OnnxScores& scores, Index classes, OnnxGraphBuilder& g) {
    std::string ranked = scores.label_scores.empty() ? scores.tensor : scores.label_scores;
    if (scores.label_scores.empty() && !scores.probabilities && classes == 2) {
        // Column 1 wins only where the decision value is above 0 (ArgMax keeps the first on ties).
        const std::string zero = g.add("Sub", {scores.tensor, scores.tensor});
        ranked = g.add("Concat", {zero, scores.tensor}, {A::of_int("axis", 1)});
    }
    return g.add("ArgMax", {ranked}, {A::of_int("axis", 1), A::of_int("keepdims", 0)});
}

OnnxEstimator OnnxEstimator::of(const Model& model) {
    return OnnxEstimator{.model = model,
                         .estimator = model.estimator(),
                         .classes = model.task() == Task::classification ? static_cast<Index>(model.classes().size()) : 0,
                         .wants_decision = model.calibration().has_value(),
                         .nested = false};
}

OnnxEstimator OnnxEstimator::member(const OnnxEstimator& parent, const Estimator& e, Index classes, bool decision) {
    return OnnxEstimator{
        .model = parent.model, .estimator = e, .classes = classes, .wants_decision = decision, .nested = true};
}

OnnxScores onnx_calibrated_scores(const Model& model, const OnnxScores& scores, OnnxGraphBuilder& g) {
    const Calibration& c = *model.calibration();
    const Index columns = c.n_columns(), k = c.n_classes();
    const std::string s = calibration_input(model, scores, columns, g);
    std::vector<std::string> p;  // each column's calibrated score [N, 1]
    if (c.method() == "sigmoid") {
        const std::string all = onnx_platt_sigmoid(g, s, g.double_row(c.sigmoid_a()), g.double_row(c.sigmoid_b()));
        for (Index j = 0; j < columns; ++j) p.push_back(columns == 1 ? all : onnx_column(g, all, j));
    } else {
        for (Index j = 0; j < columns; ++j)
            p.push_back(isotonic_column(c.isotonic_maps()[static_cast<std::size_t>(j)],
                                        columns == 1 ? s : onnx_column(g, s, j), g));
    }
    std::string probabilities;
    if (k == 2) {
        probabilities = g.add("Concat", {g.add("Sub", {g.double_scalar(1.0), p[0]}), p[0]}, {A::of_int("axis", 1)});
    } else {
        // Each column over the row's sum (added left to right, as Eigen's row sum), 1/k each
        // where the sum is 0.
        std::string sum = p[0];
        for (std::size_t j = 1; j < p.size(); ++j) sum = g.add("Add", {sum, p[j]});
        const std::string all = g.add("Concat", p, {A::of_int("axis", 1)});
        probabilities = g.add("Where", {g.add("Equal", {sum, g.double_scalar(0.0)}),
                                        g.double_scalar(1.0 / static_cast<double>(k)), g.add("Div", {all, sum})});
    }
    // Values within 1e-5 above 1 become 1, as scikit-learn.
    const std::string one = g.double_scalar(1.0);
    const std::string barely_above = g.add("And", {g.add("Greater", {probabilities, one}),
                                                   g.add("LessOrEqual", {probabilities, g.double_scalar(1.0 + 1e-5)})});
    return OnnxScores{g.add("Where", {barely_above, one, probabilities}), true};
}

OnnxScores onnx_estimator_scores(const Model& model, const std::string& X, bool float_inputs, OnnxGraphBuilder& g) {
    return onnx_estimator_scores(OnnxEstimator::of(model), X, float_inputs, g);
}

OnnxScores onnx_estimator_scores(const OnnxEstimator& e, const std::string& X, bool float_inputs, OnnxGraphBuilder& g) {
    const auto* wrapper = dynamic_cast<const MulticlassWrapper*>(&e.estimator);
    // Two classes under a wrapper: its one member, used as it is.
    if (wrapper && wrapper->direct_member()) {
        const OnnxEstimator direct{.model = e.model,
                                   .estimator = *wrapper->direct_member(),
                                   .classes = e.classes,
                                   .wants_decision = e.wants_decision,
                                   .nested = e.nested};
        return onnx_estimator_scores(direct, X, float_inputs, g);
    }
    if (auto s = onnx_tree_scores(e, X, float_inputs, g)) return *s;
    if (auto s = onnx_linear_scores(e, X, float_inputs, g)) return *s;
    if (auto s = onnx_kernel_model_scores(e, X, g)) return *s;
    if (auto s = onnx_knn_scores(e, X, g)) return *s;
    // A wrapper of members of another family: each member as its family exports it alone.
    if (wrapper) return onnx_wrapper_scores(e, *wrapper, X, float_inputs, g);
    throw ExportRefused(
        "ONNX export: " + (e.nested ? "a member (" + e.estimator.name() + ") of model " : std::string("model ")) +
        e.model.model_name() +
        " has no ONNX form here (exported: tree, forest, "
        "gbdt, adaboost, the kernel SVMs (one_class too) and kernel methods, knn, the linear models, their "
        "multiclass wrappers, and ensembles of these; docs/exchange.md)");
}

OnnxScores onnx_ensemble_scores(const Model& model, const std::string& raw, bool float_inputs, OnnxGraphBuilder& g) {
    const auto& e = dynamic_cast<const detail::EnsembleEstimator&>(model.estimator());
    const auto& members = e.members();
    if (!e.stacker())
        return OnnxScores{weighted_members(model, members, 0, members.size(), raw, float_inputs, g),
                          model.task() == Task::classification};
    // A stack: each group's average, side by side (EnsembleEstimator::stack_columns), then
    // the second layer on those columns, computed in double: its trees keep double thresholds.
    std::vector<std::string> columns;
    std::size_t first = 0;
    for (const std::size_t size : e.inputs()) {
        columns.push_back(weighted_members(model, members, first, size, raw, float_inputs, g));
        first += size;
    }
    // With the table's own columns (kestrel-auto --stack-features): the raw matrix after them.
    if (e.stack_features()) columns.push_back(raw);
    const std::string Z = columns.size() == 1 ? columns.front() : g.add("Concat", columns, {A::of_int("axis", 1)});
    const OnnxScores s = onnx_model_scores(*e.stacker(), Z, false, g);
    if (model.task() == Task::classification && !s.probabilities)
        throw ExportRefused("ONNX export: the second layer of " + model.model_name() + " gives no probabilities here");
    return OnnxScores{s.tensor, model.task() == Task::classification};
}

OnnxScores onnx_model_scores(const Model& model, const std::string& raw, bool float_inputs, OnnxGraphBuilder& g) {
    if (model.ensemble_members()) return onnx_ensemble_scores(model, raw, float_inputs, g);
    const std::string X = onnx_pipeline_steps(model, raw, g);
    OnnxScores scores = onnx_estimator_scores(model, X, float_inputs, g);
    if (model.calibration()) scores = onnx_calibrated_scores(model, scores, g);
    return scores;
}

std::string model_to_onnx(const Model& model, const ExportOptions& options) {
    OnnxGraphBuilder g;
    const OnnxScores scores = onnx_model_scores(model, onnx_input_matrix(model, g), true, g);
    if (model.task() == Task::classification) {
        classifier_outputs(model, scores, options, g);
    } else {
        // Double, not skl2onnx's float: a float output would round a prediction of a few
        // hundred by up to 1.5e-5, more than the trees' or the coefficients' own error.
        g.add_named("Identity", {scores.tensor}, {"variable"});
        g.add_output({.name = "variable", .type = OnnxType::float64, .dims = {-1, 1}});
        if (!scores.decision.empty()) {  // one_class's decision values, in double as variable
            g.add_named("Identity", {scores.decision}, {"scores"});
            g.add_output({.name = "scores", .type = OnnxType::float64, .dims = {-1, 1}});
        }
    }
    OnnxModel m{.opsets = {{"", kOnnxDefaultOpset}, {kOnnxMlDomain, kOnnxMlOpset}},
                .producer_name = "kestrel",
                .producer_version = kestrel_version(),
                .doc_string = "kestrel model " + model.model_name()};
    m.graph = g.take("kestrel_" + model.model_name());
    return serialize(m);
}

}  // namespace kestrel
