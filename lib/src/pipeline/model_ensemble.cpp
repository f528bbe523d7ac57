// Model's ensemble kind (kEnsembleModel): built from fitted members by kestrel-auto
// --ensemble, saved and read as any model file (docs/model-format.md).
#include <memory>

#include "ensemble_estimator.hpp"
#include "kestrel/core/error.hpp"
#include "kestrel/pipeline/model.hpp"

namespace kestrel {

Model Model::ensemble(std::vector<EnsembleMember> members, const Dataset& data, const Context& ctx) {
    Model m;
    m.spec_.model = kEnsembleModel;
    m.task_ = data.task;
    m.classes_ = data.task == Task::classification ? data.classes : std::vector<std::string>{};
    m.feature_names_ = data.feature_names;
    if (!data.category_counts.empty()) m.categories_ = data.categories;
    m.n_features_ = data.cols();
    m.label_column_ = data.label_column;
    for (const auto& member : members)
        if (member.model.feature_names() != m.feature_names_ || member.model.categories() != m.categories_)
            throw InternalError("ensemble member " + member.model.model_name() + " was fitted on other columns");
    auto estimator = std::make_shared<detail::EnsembleEstimator>(std::move(members));
    estimator->fit(data, ctx);  // records the shape and checks the members; fits nothing
    m.estimator_ = std::move(estimator);
    m.provenance_["kestrel_version"] = kestrel_version();
    m.provenance_["rows"] = data.rows();
    if (!data.source.empty()) m.provenance_["data_file"] = data.source;
    return m;
}

const std::vector<EnsembleMember>* Model::ensemble_members() const {
    const auto* e = dynamic_cast<const detail::EnsembleEstimator*>(estimator_.get());
    return e ? &e->members() : nullptr;
}

}  // namespace kestrel
