// Model's ensemble kind (kEnsembleModel): built from fitted members by kestrel-auto
// --ensemble, saved and read as any model file (docs/model-format.md).
#include <memory>

#include "ensemble_estimator.hpp"
#include "kestrel/core/error.hpp"
#include "kestrel/pipeline/model.hpp"

namespace kestrel {

namespace {

// The shape an ensemble or a stack records: the members' task, classes and input columns.
void check_ensemble_columns(const std::vector<EnsembleMember>& members, const std::vector<std::string>& names,
                            const CategoryLists& categories) {
    for (const auto& member : members)
        if (member.model.feature_names() != names || member.model.categories() != categories)
            throw InternalError("ensemble member " + member.model.model_name() + " was fitted on other columns");
}

}  // namespace

Model Model::ensemble(std::vector<EnsembleMember> members, const Dataset& data, const Context& ctx) {
    return combined(std::make_shared<detail::EnsembleEstimator>(std::move(members)), data, ctx);
}

Model Model::stacked(std::vector<std::vector<EnsembleMember>> inputs, Model stacker, const Dataset& data,
                     const Context& ctx, bool features) {
    std::vector<EnsembleMember> members;
    std::vector<std::size_t> sizes;
    for (auto& input : inputs) {
        sizes.push_back(input.size());
        for (auto& member : input) members.push_back(std::move(member));
    }
    return combined(std::make_shared<detail::EnsembleEstimator>(std::move(members), std::move(sizes), std::move(stacker), features),
                    data, ctx);
}

Model Model::combined(std::shared_ptr<detail::EnsembleEstimator> estimator, const Dataset& data, const Context& ctx) {
    Model m;
    m.spec_.model = kEnsembleModel;
    m.task_ = data.task;
    m.classes_ = data.task == Task::classification ? data.classes : std::vector<std::string>{};
    m.feature_names_ = data.feature_names;
    if (!data.category_counts.empty()) m.categories_ = data.categories;
    m.n_features_ = data.cols();
    m.label_column_ = data.label_column;
    check_ensemble_columns(estimator->members(), m.feature_names_, m.categories_);
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

const Model* Model::stacker() const {
    const auto* e = dynamic_cast<const detail::EnsembleEstimator*>(estimator_.get());
    return e ? e->stacker() : nullptr;
}

bool Model::stacker_takes_features() const {
    const auto* e = dynamic_cast<const detail::EnsembleEstimator*>(estimator_.get());
    return e != nullptr && e->stack_features();
}

}  // namespace kestrel
