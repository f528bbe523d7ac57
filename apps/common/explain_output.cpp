#include "common/explain_output.hpp"

#include <vector>

#include "kestrel/common/row_scatter.hpp"
#include "kestrel/core/error.hpp"
#include "kestrel/core/number_text.hpp"

namespace kestrel::cli {
namespace {

// As Model::report names them, so that --explain and --dump-tree read alike.
std::vector<std::string> feature_names(const Model& model) { return model.prepared_feature_names(); }

}  // namespace

void check_explain(const Model& model, bool predictions_on_stdout) {
    // A walk of an all-zero row: cheap, and throws the model-kind error of explain_row.
    const std::vector<double> zeros(static_cast<std::size_t>(model.estimator().n_features()), 0.0);
    const auto names = feature_names(model);
    model.estimator().explain_row(zeros.data(), {names, model.classes()});
    if (predictions_on_stdout) throw UsageError("--explain prints to stdout; write the predictions to a file with -o");
}

std::string explain_text(const Model& model, const Features& X, const Vector& predicted) {
    const Features P = model.prepared(X);
    const auto names = feature_names(model);
    const CategoryLists categories = model.prepared_categories();
    RowScatter rows(P);
    std::string out;
    for (Index i = 0; i < P.rows(); ++i) {
        std::string label;
        if (model.task() == Task::classification) {
            const auto c = static_cast<std::size_t>(predicted[i]);
            label = c < model.classes().size() ? model.classes()[c] : std::to_string(c);
        } else {
            label = format_number(predicted[i]);
        }
        out += "row " + std::to_string(i + 1) + ": predicted " + label + "\n";
        out += model.estimator().explain_row(rows.row(i), {names, model.classes(), &categories});
    }
    return out;
}

}  // namespace kestrel::cli
