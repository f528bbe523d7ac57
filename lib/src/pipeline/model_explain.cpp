// A row's path through the model's trees, for kestrel-predict --explain and any caller
// that would show why a tree model predicted what it did.
#include <string>
#include <vector>

#include "kestrel/common/row_scatter.hpp"
#include "kestrel/core/error.hpp"
#include "kestrel/core/number_text.hpp"
#include "kestrel/pipeline/model.hpp"
#include "kestrel/pipeline/registry.hpp"

namespace kestrel {

void Model::check_explains_rows() const {
    if (!ensemble_members() && registry().contains(spec_.model) &&
        registry().capabilities(*resolved_params(spec_)).explains_rows)
        return;
    std::string valid;
    for (const std::string& name : registry().names_with(&Capabilities::explains_rows))
        valid += (valid.empty() ? "" : ", ") + name;
    throw UsageError(option_named("explain") + ": model " + spec_.model + " is not a tree model (valid: " + valid + ")");
}

std::string Model::explain_rows(const Features& X, const Vector& predicted) const {
    const Features P = prepared(X);
    // As report("tree") names them, so that an explanation and a dumped tree read alike.
    const std::vector<std::string> names = prepared_feature_names();
    const CategoryLists categories = prepared_categories();
    RowScatter rows(P);
    std::string out;
    for (Index i = 0; i < P.rows(); ++i) {
        std::string label;
        if (task() == Task::classification) {
            const auto c = static_cast<std::size_t>(predicted[i]);
            label = c < classes().size() ? classes()[c] : std::to_string(c);
        } else {
            label = format_number(predicted[i]);
        }
        out += "row " + std::to_string(i + 1) + ": predicted " + label + "\n";
        out += estimator().explain_row(rows.row(i), {names, classes(), &categories});
    }
    return out;
}

}  // namespace kestrel
