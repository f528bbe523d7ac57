// A fit that continues a saved model (`kestrel-train --init-model`): the checks that make
// the old model's trees mean the same on the new rows. The estimator adds its own (the
// loss, the categories seen); Estimator::fit checks the kind, task and shape again.
#include "kestrel/core/error.hpp"
#include "kestrel/pipeline/model.hpp"
#include "kestrel/pipeline/registry.hpp"

namespace kestrel {

namespace {

std::string comma_joined_names(const std::vector<std::string>& v) {
    std::string s;
    for (const std::string& x : v) s += (s.empty() ? "" : ",") + x;
    return s;
}

}  // namespace

void Model::check_continuation(const ModelSpec& spec, Dataset& data) const {
    if (spec.model != spec_.model)
        throw UsageError(option_named("init_model") + ": the model to continue is a " + spec_.model + " model, not " + spec.model);
    if (!registry().capabilities(*resolved_params(spec)).continue_training)
        throw UsageError("model " + spec.model + " cannot continue training");
    if (!spec.calibrate.empty())
        throw UsageError(option_named("init_model") + " and " + option_named("calibrate") + " cannot go together (the calibration folds would not continue it)");
    if (!steps_.empty())
        throw UsageError(option_named("init_model") + ": the model to continue has preprocessing steps (" + comma_joined_names(step_kinds()) +
                         "); only a model without them can be continued");
    const std::string src = data.source.empty() ? std::string("training data") : data.source;
    if (data.task != task_)
        throw DataError(src + ": the data is " + to_string(data.task) + ", the model to continue learned " +
                        to_string(task_));
    if (data.X.is_sparse() && data.cols() < n_features_ && feature_names_.empty())
        data.X = data.X.with_cols(n_features_);
    if (data.cols() != n_features_)
        throw DataError(src + ": " + std::to_string(data.cols()) + " features, the model to continue has " +
                        std::to_string(n_features_));
    if (data.feature_names != feature_names_)
        throw DataError(src + ": the feature names differ from the model to continue's (" + comma_joined_names(feature_names_) + ")");
    const CategoryLists none;
    const CategoryLists& cats = data.category_counts.empty() ? none : data.categories;
    for (Index j = 0; j < n_features_; ++j) {
        const auto f = static_cast<std::size_t>(j);
        const std::vector<std::string> empty;
        const auto& mine = f < categories_.size() ? categories_[f] : empty;
        const auto& theirs = f < cats.size() ? cats[f] : empty;
        if (mine != theirs)
            throw DataError(src + ": the categories of feature " + input_names()[f] +
                            " differ from the model to continue's (" + comma_joined_names(mine) + ")");
    }
    if (data.task == Task::classification && data.classes != classes_)
        throw DataError(src + ": the classes (" + comma_joined_names(data.classes) + ") differ from the model to continue's (" +
                        comma_joined_names(classes_) + ")");
}

}  // namespace kestrel
