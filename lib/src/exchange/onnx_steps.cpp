// The fitted preprocessing steps as standard operators on the double matrix, each computing
// what the step's transform computes (preprocess/): imputation with its missing
// indicators, the affine scalers, one-hot encoding, polynomial features, column selection.
#include <cmath>

#include "kestrel/exchange/export.hpp"
#include "kestrel/pipeline/model.hpp"
#include "kestrel/preprocess/polynomial_features.hpp"
#include "onnx_parts.hpp"

namespace kestrel {
namespace {

using A = OnnxAttribute;

std::vector<double> numbers(const Json& j) { return j.get<std::vector<double>>(); }

std::string columns(OnnxGraphBuilder& g, const std::string& X, std::vector<std::int64_t> indices) {
    const auto n = static_cast<std::int64_t>(indices.size());
    return g.add("Gather", {X, g.int64s(std::move(indices), {n})}, {A::of_int("axis", 1)});
}

std::string concat(OnnxGraphBuilder& g, const std::vector<std::string>& parts) {
    return parts.size() == 1 ? parts.front() : g.add("Concat", parts, {A::of_int("axis", 1)});
}

// impute and impute_mean: NaN cells take the column's fill; impute's indicator columns
// (1 where the cell was missing) follow, in the order recorded.
std::string impute(OnnxGraphBuilder& g, const std::string& X, const Json& step) {
    const std::string missing = g.add("IsNaN", {X});
    const std::string filled = g.add("Where", {missing, g.double_row(numbers(step.at("fill"))), X});
    if (!step.contains("indicator")) return filled;
    const auto cols = step.at("indicator").get<std::vector<std::int64_t>>();
    if (cols.empty()) return filled;
    const std::string flags = g.add("Cast", {columns(g, missing, cols)}, {A::of_int("to", static_cast<int>(OnnxType::float64))});
    return concat(g, {filled, flags});
}

// standard and minmax: (x − shift) · scale, the expression of their transform.
std::string affine(OnnxGraphBuilder& g, const std::string& X, const std::vector<double>& shift,
                   const std::vector<double>& scale) {
    const std::string centred = g.add("Sub", {X, g.double_row(shift)});
    return g.add("Mul", {centred, g.double_row(scale)});
}

// onehot: each categorical column's block of 0/1 columns (a code's slot; missing, unknown
// and dropped codes all zero), the other columns passed on in place.
std::string onehot(OnnxGraphBuilder& g, const std::string& X, const Json& step) {
    const auto in_features = step.at("in_features").get<std::int64_t>();
    std::vector<std::string> parts;
    std::size_t b = 0;
    const Json& blocks = step.at("columns");
    for (std::int64_t j = 0; j < in_features; ++j) {
        if (b >= blocks.size() || blocks[b].at("column").get<std::int64_t>() != j) {
            parts.push_back(columns(g, X, {j}));
            continue;
        }
        const Json& block = blocks[b++];
        const auto slot = block.at("slot").get<std::vector<int>>();
        const auto width = block.at("width").get<std::int64_t>();
        const auto k = static_cast<std::int64_t>(slot.size());
        std::vector<double> codes, to_slot(static_cast<std::size_t>(k * width), 0.0);
        for (std::int64_t c = 0; c < k; ++c) {
            codes.push_back(static_cast<double>(c));
            if (slot[static_cast<std::size_t>(c)] >= 0) to_slot[static_cast<std::size_t>(c * width + slot[static_cast<std::size_t>(c)])] = 1;
        }
        const std::string hit = g.add("Equal", {columns(g, X, {j}), g.double_row(codes)});
        const std::string ones = g.add("Cast", {hit}, {A::of_int("to", static_cast<int>(OnnxType::float64))});
        parts.push_back(g.add("MatMul", {ones, g.doubles(to_slot, {k, width})}));
    }
    return concat(g, parts);
}

// poly: every product of up to `degree` columns in kestrel's column order, read from the
// step's feature names over the names 0..d−1 ("0 2^2": x0·x2·x2).
std::string poly(OnnxGraphBuilder& g, const std::string& X, const Json& step) {
    const auto d = step.at("in_features").get<Index>();
    std::vector<std::string> ids;
    for (Index j = 0; j < d; ++j) ids.push_back(std::to_string(j));
    const auto terms = poly_feature_names(ids, step.at("degree").get<int>(), step.at("interaction_only").get<bool>());
    std::vector<std::string> parts;
    for (const std::string& term : terms) {
        std::vector<std::int64_t> factors;
        std::size_t at = 0;
        while (at < term.size()) {
            std::size_t end = term.find(' ', at);
            if (end == std::string::npos) end = term.size();
            const std::string factor = term.substr(at, end - at);
            const std::size_t caret = factor.find('^');
            const std::int64_t feature = std::stoll(factor.substr(0, caret));
            const int power = caret == std::string::npos ? 1 : std::stoi(factor.substr(caret + 1));
            factors.insert(factors.end(), static_cast<std::size_t>(power), feature);
            at = end + 1;
        }
        parts.push_back(factors.size() == 1 ? columns(g, X, factors)
                                            : g.add("ReduceProd", {columns(g, X, factors)},
                                                    {A::of_ints("axes", {1}), A::of_int("keepdims", 1)}));
    }
    return concat(g, parts);
}

}  // namespace

bool steps_keep_input_values(const Model& model) {
    for (const std::string& kind : model.step_kinds())
        if (kind != "impute" && kind != "impute_mean" && kind != "onehot" && kind != "select_columns") return false;
    return true;
}

std::string onnx_pipeline_steps(const Model& model, const std::string& X, OnnxGraphBuilder& g) {
    const Json envelope = model.to_json();
    std::string out = X;
    for (const Json& step : envelope.at("preprocessing")) {
        const std::string type = step.at("type").get<std::string>();
        if (type == "impute" || type == "impute_mean") out = impute(g, out, step);
        else if (type == "standard") out = affine(g, out, numbers(step.at("mean")), numbers(step.at("scale")));
        else if (type == "minmax") out = affine(g, out, numbers(step.at("shift")), numbers(step.at("scale")));
        else if (type == "onehot") out = onehot(g, out, step);
        else if (type == "poly") out = poly(g, out, step);
        else if (type == "select_columns") out = columns(g, out, step.at("columns").get<std::vector<std::int64_t>>());
        else throw ExportRefused("ONNX export: the preprocessing step '" + type + "' has no ONNX form");
    }
    return out;
}

}  // namespace kestrel
