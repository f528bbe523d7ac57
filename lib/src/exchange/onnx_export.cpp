#include "kestrel/exchange/onnx_export.hpp"

#include <charconv>

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

void refuse_settings(const Model& model) {
    if (model.ensemble_members()) throw ExportRefused("ONNX export: an ensemble model has no ONNX form (export its members)");
    if (model.calibration())
        throw ExportRefused("ONNX export: the probability calibration of the model has no ONNX form");
    if (model.threshold())
        throw ExportRefused("ONNX export: the model's decision threshold has no ONNX form (train it without one)");
}

// label: the argmax of the scores (the first class on ties, as kestrel predicts; one
// decision column: classes[1] where it is positive).
std::string label_output(const Model& model, const OnnxScores& scores, OnnxGraphBuilder& g, bool& integers,
                         std::vector<std::int64_t>& int_classes) {
    const auto& classes = model.classes();
    const auto k = static_cast<std::int64_t>(classes.size());
    integers = integer_classes(classes, int_classes);
    const std::string labels = integers ? g.int64s(int_classes, {k}) : g.strings(classes, {k});
    std::string ranked = scores.label_scores.empty() ? scores.tensor : scores.label_scores;
    if (scores.label_scores.empty() && !scores.probabilities && k == 2) {
        // Column 1 wins only where the decision value is above 0 (ArgMax keeps the first on ties).
        const std::string zero = g.add("Sub", {scores.tensor, scores.tensor});
        ranked = g.add("Concat", {zero, scores.tensor}, {A::of_int("axis", 1)});
    }
    const std::string best = g.add("ArgMax", {ranked}, {A::of_int("axis", 1), A::of_int("keepdims", 0)});
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
        g.add_output({.name = "scores", .type = OnnxType::float32, .dims = {-1, k == 2 ? 1 : k}});
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

OnnxScores onnx_estimator_scores(const Model& model, const std::string& X, OnnxGraphBuilder& g) {
    if (auto s = onnx_tree_scores(model, X, g)) return *s;
    if (auto s = onnx_linear_scores(model, X, g)) return *s;
    if (auto s = onnx_kernel_model_scores(model, X, g)) return *s;
    throw ExportRefused("ONNX export: model " + model.model_name() + " has no ONNX form here (exported: tree, forest, "
                        "gbdt, the kernel SVMs and kernel methods, and the linear models; docs/exchange.md)");
}

std::string model_to_onnx(const Model& model, const ExportOptions& options) {
    refuse_settings(model);
    OnnxGraphBuilder g;
    const std::string raw = onnx_input_matrix(model, g);
    const std::string X = onnx_pipeline_steps(model, raw, g);
    const OnnxScores scores = onnx_estimator_scores(model, X, g);
    if (model.task() == Task::classification) {
        classifier_outputs(model, scores, options, g);
    } else {
        // Double, not skl2onnx's float: a float output would round a prediction of a few
        // hundred by up to 1.5e-5, more than the trees' or the coefficients' own error.
        g.add_named("Identity", {scores.tensor}, {"variable"});
        g.add_output({.name = "variable", .type = OnnxType::float64, .dims = {-1, 1}});
    }
    OnnxModel m{.opsets = {{"", kOnnxDefaultOpset}, {kOnnxMlDomain, kOnnxMlOpset}},
                .producer_name = "kestrel",
                .producer_version = kestrel_version(),
                .doc_string = "kestrel model " + model.model_name()};
    m.graph = g.take("kestrel_" + model.model_name());
    return serialize(m);
}

}  // namespace kestrel
