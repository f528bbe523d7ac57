#include "ensemble_estimator.hpp"

#include <cmath>

#include "kestrel/core/error.hpp"

namespace kestrel::detail {

namespace {

// Weights are counts over rounds: positive, summing to 1 up to rounding; in a stack, each
// group's (`inputs`: the group sizes, which must cover the members).
void check_weights(const std::vector<EnsembleMember>& members, const std::vector<std::size_t>& inputs) {
    if (members.empty()) throw ModelStateError("an ensemble needs at least one member");
    for (const auto& m : members)
        if (!std::isfinite(m.weight) || !(m.weight > 0))
            throw ModelStateError("an ensemble member's weight must be a positive number");
    const std::vector<std::size_t> groups = inputs.empty() ? std::vector<std::size_t>{members.size()} : inputs;
    std::size_t first = 0;
    for (const std::size_t size : groups) {
        if (size == 0 || first + size > members.size())
            throw ModelStateError("a stack's input groups must be non-empty and cover its members");
        double total = 0;
        for (std::size_t i = first; i < first + size; ++i) total += members[i].weight;
        if (std::abs(total - 1) > 1e-9)
            throw ModelStateError(inputs.empty() ? "an ensemble's weights must sum to 1"
                                                 : "the weights of each of a stack's input groups must sum to 1");
        first += size;
    }
    if (first != members.size()) throw ModelStateError("a stack's input groups must be non-empty and cover its members");
}

// The stacker's input columns: a classifier's probabilities of every class per group, a
// regressor's value per group, then with `features` the ensemble's own n_features columns.
Index stack_width(Task task, Index n_classes, std::size_t groups, bool features, Index n_features) {
    return static_cast<Index>(groups) * (task == Task::classification ? n_classes : 1) + (features ? n_features : 0);
}

}  // namespace

EnsembleEstimator::EnsembleEstimator(std::vector<EnsembleMember> members) : members_(std::move(members)) {
    set_identity(kEnsembleModel, Params::object());
}

EnsembleEstimator::EnsembleEstimator(std::vector<EnsembleMember> members, std::vector<std::size_t> inputs,
                                     Model stacker, bool features)
    : members_(std::move(members)),
      inputs_(std::move(inputs)),
      stacker_(std::make_shared<const Model>(std::move(stacker))),
      features_(features) {
    set_identity(kEnsembleModel, Params::object());
}

DenseMatrix EnsembleEstimator::stack_columns(const Features& X) const {
    const bool classes = task() == Task::classification;
    const Index width = classes ? n_classes() : 1;
    const Index groups = stack_width(task(), n_classes(), inputs_.size(), false, 0);
    DenseMatrix Z = DenseMatrix::Zero(X.rows(), groups + (features_ ? X.cols() : 0));
    if (features_) {
        DenseMatrix scratch;
        Z.rightCols(X.cols()) = X.dense(scratch);
    }
    std::size_t m = 0;
    for (std::size_t g = 0; g < inputs_.size(); ++g) {
        for (std::size_t end = m + inputs_[g]; m < end; ++m) {
            const EnsembleMember& member = members_[m];
            if (classes) Z.middleCols(static_cast<Index>(g) * width, width) += member.weight * member.model.predict_proba(X);
            else Z.col(static_cast<Index>(g)) += member.weight * member.model.predict(X);
        }
    }
    return Z;
}

bool EnsembleEstimator::native_missing() const {
    ReadOptions strict;
    strict.missing = MissingPolicy::error;
    for (const auto& m : members_)
        if (m.model.align_options(strict).missing != MissingPolicy::keep) return false;
    // A stacker that takes the raw columns is handed their missing cells too.
    return !stack_features() || stacker_->align_options(strict).missing == MissingPolicy::keep;
}

void EnsembleEstimator::do_fit(const Dataset& data, const Context&) {
    try {
        check_weights(members_, inputs_);
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
    if (stacker_ && (stacker_->task() != data.task ||
                     stacker_->n_features() != stack_width(data.task, data.n_classes(), inputs_.size(), features_, data.cols()) ||
                     (data.task == Task::classification && stacker_->classes() != data.classes)))
        throw InternalError("a stack's second layer was not fitted on its inputs' columns, task and classes");
}

Matrix EnsembleEstimator::do_predict_proba(const Features& X) const {
    if (stacker_) return stacker_->predict_proba(Features(stack_columns(X)));
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
    if (stacker_) return stacker_->predict(Features(stack_columns(X)));
    Vector sum = Vector::Zero(X.rows());
    for (const auto& m : members_) sum += m.weight * m.model.predict(X);
    return sum;
}

Json EnsembleEstimator::do_save_state() const {
    Json members = Json::array();
    for (const auto& m : members_) members.push_back({{"weight", m.weight}, {"model", m.model.to_json()}});
    return save_stack(std::move(members), stacker_ ? stacker_->to_json() : Json());
}

Json EnsembleEstimator::save_stack(Json members, Json stacker) const {
    Json state = {{"members", std::move(members)}};
    if (stacker_) {
        state["inputs"] = inputs_;
        if (features_) state["stack_features"] = true;
        state["stacker"] = std::move(stacker);
    }
    return state;
}

Json EnsembleEstimator::do_save_state_for_file(JsonTextSlots& slots) const {
    Json members = Json::array();
    for (const auto& m : members_) members.push_back({{"weight", m.weight}, {"model", m.model.to_json(slots)}});
    return save_stack(std::move(members), stacker_ ? stacker_->to_json(slots) : Json());
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
    std::vector<std::size_t> inputs;
    std::shared_ptr<const Model> stacker;
    bool features = false;
    if (state.contains("stacker")) {
        const Json& sizes = state.at("inputs");
        if (!sizes.is_array()) throw ModelStateError("a stack's inputs must be an array of group sizes");
        for (const auto& size : sizes) {
            if (!size.is_number_unsigned()) throw ModelStateError("a stack's inputs must be an array of group sizes");
            inputs.push_back(size.get<std::size_t>());
        }
        if (inputs.empty()) throw ModelStateError("a stack needs at least one input");
        if (state.contains("stack_features") && !state["stack_features"].is_boolean())
            throw ModelStateError("a stack's stack_features must be true or false");
        features = state.value("stack_features", false);
        try {
            stacker = std::make_shared<const Model>(Model::from_json(state.at("stacker"), "the stack's second layer"));
        } catch (const ModelFileError& e) {
            throw ModelStateError(e.what());
        }
        if (stacker->task() != task() ||
            stacker->n_features() != stack_width(task(), n_classes(), inputs.size(), features, n_features()) ||
            (task() == Task::classification && static_cast<Index>(stacker->classes().size()) != n_classes()))
            throw ModelStateError("the stack's second layer: its task, inputs or classes disagree with the stack's");
    }
    check_weights(members, inputs);
    members_ = std::move(members);
    inputs_ = std::move(inputs);
    stacker_ = std::move(stacker);
    features_ = features;
}

void EnsembleEstimator::check_members(const std::vector<std::string>& classes,
                                      const std::vector<std::string>& feature_names) const {
    for (std::size_t i = 0; i < members_.size(); ++i) {
        const Model& m = members_[i].model;
        if (m.classes() != classes || m.feature_names() != feature_names)
            throw ModelStateError("ensemble member " + std::to_string(i + 1) +
                                  ": its classes or column names disagree with the ensemble's");
    }
    if (stacker_ && stacker_->classes() != classes)
        throw ModelStateError("the stack's second layer: its classes disagree with the stack's");
}

}  // namespace kestrel::detail
