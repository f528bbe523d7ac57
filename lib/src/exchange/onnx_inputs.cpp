// The graph's inputs: one per column of the training table, named after it, [N, 1]: float
// for a numeric column, string for a categorical one, whose text a LabelEncoder maps to the
// category code kestrel reads (-1: unseen in training; NaN: a missing marker).
#include <algorithm>
#include <cmath>
#include <limits>

#include "kestrel/exchange/export.hpp"
#include "kestrel/io/missing_tokens.hpp"
#include "kestrel/pipeline/model.hpp"
#include "onnx_parts.hpp"

namespace kestrel {
namespace {

std::string category_codes(const std::string& input, const std::vector<std::string>& categories,
                            OnnxGraphBuilder& g) {
    std::vector<std::string> keys = categories;
    std::vector<float> values;
    for (std::size_t c = 0; c < categories.size(); ++c) values.push_back(static_cast<float>(c));
    // A cell holding one of the readers' missing markers is missing, not a category.
    for (std::string_view marker : kMissingTokens) {
        const std::string m(marker);
        if (std::find(categories.begin(), categories.end(), m) != categories.end()) continue;
        keys.push_back(m);
        values.push_back(std::numeric_limits<float>::quiet_NaN());
    }
    return g.add("LabelEncoder", {input},
                 {OnnxAttribute::of_strings("keys_strings", std::move(keys)),
                  OnnxAttribute::of_floats("values_floats", std::move(values)),
                  OnnxAttribute::of_float("default_float", static_cast<float>(kUnknownCategory))},
                 kOnnxMlDomain, "codes");
}

}  // namespace

std::string onnx_input_matrix(const Model& model, OnnxGraphBuilder& g) {
    const std::vector<std::string> names = model.input_names();
    const CategoryLists& categories = model.categories();
    const auto categorical = [&](std::size_t j) { return j < categories.size() && !categories[j].empty(); };
    for (std::size_t j = 0; j < names.size(); ++j) {
        // The outputs' names are not columns'; the nodes' generated names avoid the inputs'.
        for (const char* reserved : {"label", "probabilities", "scores", "variable"})
            if (names[j] == reserved)
                throw ExportRefused("ONNX export: an input column is named '" + names[j] + "', the name of an output");
        for (std::size_t k = 0; k < j; ++k)
            if (names[k] == names[j])
                throw ExportRefused("ONNX export: two input columns are named '" + names[j] +
                                    "' (graph inputs need distinct names)");
        g.add_input({.name = names[j], .type = categorical(j) ? OnnxType::string : OnnxType::float32, .dims = {-1, 1}});
    }
    std::vector<std::string> columns;
    for (std::size_t j = 0; j < names.size(); ++j)
        columns.push_back(categorical(j) ? category_codes(names[j], categories[j], g) : names[j]);
    const std::string joined =
        columns.size() == 1 ? columns.front() : g.add("Concat", columns, {OnnxAttribute::of_int("axis", 1)}, "", "X");
    return g.add("Cast", {joined}, {OnnxAttribute::of_int("to", static_cast<int>(OnnxType::float64))}, "", "X");
}

}  // namespace kestrel
