#include "ensemble_estimator.hpp"

#include <cmath>

#include "kestrel/core/error.hpp"

namespace kestrel::detail {

namespace {

// Weights are counts over rounds: positive, summing to 1 up to rounding.
void check_weights(const std::vector<EnsembleMember>& members) {
    if (members.empty()) throw ModelStateError("an ensemble needs at least one member");
    double total = 0;
    for (const auto& m : members) {
        if (!std::isfinite(m.weight) || !(m.weight > 0))
            throw ModelStateError("an ensemble member's weight must be a positive number");
        total += m.weight;
    }
    if (std::abs(total - 1) > 1e-9) throw ModelStateError("an ensemble's weights must sum to 1");
}

}  // namespace

EnsembleEstimator::EnsembleEstimator(std::vector<EnsembleMember> members) : members_(std::move(members)) {
    set_identity(kEnsembleModel, Params::object());
}

bool EnsembleEstimator::native_missing() const {
    ReadOptions strict;
    strict.missing = MissingPolicy::error;
    for (const auto& m : members_)
        if (m.model.align_options(strict).missing != MissingPolicy::keep) return false;
    return true;
}

void EnsembleEstimator::do_fit(const Dataset& data, const Context&) {
    try {
        check_weights(members_);
    } catch (const ModelStateError& e) {  // the same checks as a loaded ensemble's
        throw UsageError(e.what());
    }
    for (const auto& m : members_) {
        if (m.model.model_name() == kEnsembleModel) throw UsageError("an ensemble member cannot be an ensemble");
        if (m.model.task() != data.task || m.model.n_features() != data.cols() ||
            (data.task == Task::classification && m.model.classes() != data.classes))
            throw InternalError("ensemble member " + m.model.model_name() +
                                " was not fitted on the ensemble's task, classes and columns");
        if (data.task == Task::classification && !m.model.has_predict_proba())
            throw UsageError("ensemble member " + m.model.model_name() + " gives no probabilities to average");
    }
}

Matrix EnsembleEstimator::do_predict_proba(const Features& X) const {
    Matrix sum;
    for (const auto& m : members_) {
        const Matrix p = m.model.predict_proba(X);
        if (sum.size() == 0) sum = Matrix::Zero(p.rows(), p.cols());
        sum += m.weight * p;
    }
    return sum;
}

Vector EnsembleEstimator::do_predict(const Features& X) const {
    if (task() == Task::classification) return scores_to_classes(do_predict_proba(X));
    Vector sum = Vector::Zero(X.rows());
    for (const auto& m : members_) sum += m.weight * m.model.predict(X);
    return sum;
}

Json EnsembleEstimator::do_save_state() const {
    Json members = Json::array();
    for (const auto& m : members_) members.push_back({{"weight", m.weight}, {"model", m.model.to_json()}});
    return {{"members", std::move(members)}};
}

Json EnsembleEstimator::do_save_state_for_file(JsonTextSlots& slots) const {
    Json members = Json::array();
    for (const auto& m : members_) members.push_back({{"weight", m.weight}, {"model", m.model.to_json(slots)}});
    return {{"members", std::move(members)}};
}

void EnsembleEstimator::do_load_state(const Json& state) {
    std::vector<EnsembleMember> members;
    const Json& list = state.at("members");
    if (!list.is_array()) throw ModelStateError("ensemble members must be an array");
    for (std::size_t i = 0; i < list.size(); ++i) {
        const Json& entry = list[i];
        const std::string where = "ensemble member " + std::to_string(i + 1);
        if (!entry.at("weight").is_number()) throw ModelStateError(where + ": weight is not a number");
        const Json& model = entry.at("model");
        if (model.is_object() && model.value("model", std::string()) == kEnsembleModel)
            throw ModelStateError(where + " is itself an ensemble");
        Model m;
        try {
            m = Model::from_json(model, where);
        } catch (const ModelFileError& e) {  // the caller names the file
            throw ModelStateError(e.what());
        }
        if (m.task() != task() || m.n_features() != n_features() ||
            (task() == Task::classification && static_cast<Index>(m.classes().size()) != n_classes()))
            throw ModelStateError(where + ": its task, features or classes disagree with the ensemble's");
        if (task() == Task::classification && !m.has_predict_proba())
            throw ModelStateError(where + ": gives no probabilities to average");
        members.push_back({std::move(m), entry["weight"].get<double>()});
    }
    check_weights(members);
    members_ = std::move(members);
}

void EnsembleEstimator::check_members(const std::vector<std::string>& classes,
                                      const std::vector<std::string>& feature_names) const {
    for (std::size_t i = 0; i < members_.size(); ++i) {
        const Model& m = members_[i].model;
        if (m.classes() != classes || m.feature_names() != feature_names)
            throw ModelStateError("ensemble member " + std::to_string(i + 1) +
                                  ": its classes or column names disagree with the ensemble's");
    }
}

}  // namespace kestrel::detail
