#include "kestrel/tasks/selection_refit.hpp"

#include "kestrel/preprocess/column_selector.hpp"
#include "kestrel/tasks/provenance.hpp"

namespace kestrel {

std::vector<std::string> selection_feature_names(const Dataset& data) {
    if (!data.feature_names.empty()) return data.feature_names;
    std::vector<std::string> out;
    for (Index j = 0; j < data.cols(); ++j) {
        // LIBSVM's 1-based indices. Appended, not "x" + number: GCC 12 warns falsely on that.
        std::string name = "x";
        name += std::to_string(j + 1);
        out.push_back(std::move(name));
    }
    return out;
}

Model refit_on_selected(const ModelSpec& spec, const Dataset& data, const std::vector<Index>& selected,
                        const Context& ctx) {
    // The selection is the model's first step, so it reads the same files as before.
    ModelSpec s = spec;
    s.preprocessing.insert(s.preprocessing.begin(), column_selector_spec(selected));
    Model m = Model::train(s, data, ctx);
    stamp_provenance(m, {data.source, -1, ctx.seed, ""});
    const std::vector<std::string> names = selection_feature_names(data);
    Json kept = Json::array();
    for (Index j : selected) kept.push_back(names[static_cast<std::size_t>(j)]);
    m.provenance()["selected_features"] = std::move(kept);
    return m;
}

}  // namespace kestrel
