#include "kestrel/core/estimator.hpp"

#include <algorithm>
#include <cmath>
#include <set>

#include "kestrel/core/error.hpp"
#include "kestrel/core/json_read.hpp"

namespace kestrel {
bool has_non_finite(const Json& j) {
    if (j.is_number_float()) return !std::isfinite(j.get<double>());
    if (j.is_array() || j.is_object())
        for (const auto& x : j)
            if (has_non_finite(x)) return true;
    return false;
}

void Estimator::begin_fit(const Dataset& data, const Context& ctx) {
    const std::string src = data.source.empty() ? std::string("training data") : data.source;
    if (ctx.rows_sharded && !fits_sharded_rows())
        throw UsageError("model " + name_ + " with these parameters cannot train on rows spread over MPI ranks (" +
                         option_named("rows_sharded") + "; docs/distributed.md lists the models that can)");
    // A rank's share may hold no rows, or one class: the reader checked the whole data.
    if (data.rows() == 0 && !ctx.rows_sharded) throw DataError(src + ": no training rows");
    if (data.cols() == 0) throw DataError(src + ": no feature columns");
    if (data.y.size() != data.rows()) throw InternalError("dataset has " + std::to_string(data.y.size()) +
                                                          " targets for " + std::to_string(data.rows()) + " rows");
    if (data.has_weights()) {
        if (!supports_sample_weights())
            throw UsageError("model " + name_ + " does not support sample weights");
        if (data.weights.size() != data.rows()) throw InternalError("weights and rows differ in length");
        for (Index i = 0; i < data.weights.size(); ++i)
            if (!std::isfinite(data.weights[i]) || data.weights[i] < 0)
                throw DataError(src + ": sample weight of row " + std::to_string(i + 1) + " is negative or not finite");
    }
    if (data.task == Task::classification && !ctx.rows_sharded) {
        std::set<double> present(data.y.data(), data.y.data() + data.y.size());
        if (present.size() < 2) {
            const auto c = static_cast<std::size_t>(*present.begin());
            throw DataError(src + ": a classifier needs at least two classes, but every row has class '" +
                            (c < data.classes.size() ? data.classes[c] : std::string("?")) + "'");
        }
    }
    if (const Estimator* init = ctx.init_model) {
        // A continuation adds rounds to a model of the same kind, shape and classes.
        if (!continues_training()) throw UsageError("model " + name_ + " cannot continue training");
        if (init == this || !init->fitted_) throw InternalError("model " + name_ + ": the model to continue is not fitted");
        if (init->name_ != name_)
            throw UsageError("the model to continue is a " + init->name_ + " model, not " + name_);
        if (init->task_ != data.task)
            throw DataError(src + ": the model to continue learned " + to_string(init->task_) + ", this data is " +
                            to_string(data.task));
        if (init->n_features_ != data.cols())
            throw DataError(src + ": " + std::to_string(data.cols()) + " features, the model to continue has " +
                            std::to_string(init->n_features_));
        if (data.task == Task::classification && init->n_classes_ != data.n_classes())
            throw DataError(src + ": " + std::to_string(data.n_classes()) + " classes, the model to continue has " +
                            std::to_string(init->n_classes_));
    }
    fitted_ = false;
    task_ = data.task;
    n_features_ = data.cols();
    n_classes_ = data.task == Task::classification ? data.n_classes() : 0;
}

void Estimator::fit(const Dataset& data, const Context& ctx) {
    begin_fit(data, ctx);
    if (data.X.is_sparse() && !supports_sparse()) {
        Dataset dense = data;
        dense.X = Features(data.X.to_dense());
        do_fit_owned(std::move(dense), ctx);
    } else {
        do_fit(data, ctx);
    }
    fitted_ = true;
}

void Estimator::fit(Dataset&& data, const Context& ctx) {
    begin_fit(data, ctx);
    if (data.X.is_sparse() && !supports_sparse()) data.X = Features(data.X.to_dense());
    do_fit_owned(std::move(data), ctx);
    fitted_ = true;
}

void Estimator::check_features(const Features& X) const {
    if (!fitted_) throw InternalError("model " + name_ + " used before it was fitted");
    if (X.cols() != n_features_)
        throw DataError("data has " + std::to_string(X.cols()) + " features but model " + name_ + " expects " +
                        std::to_string(n_features_));
}

Vector Estimator::predict(const Features& X) const {
    check_features(X);
    Vector out = X.is_sparse() && !supports_sparse() ? do_predict(Features(X.to_dense())) : do_predict(X);
    if (task_ != Task::classification) require_finite_scores(out, name_);
    return out;
}

Matrix Estimator::decision_function(const Features& X) const {
    check_features(X);
    if (!has_decision_function()) throw UsageError("model " + name_ + " has no decision function");
    Matrix out = X.is_sparse() && !supports_sparse() ? do_decision_function(Features(X.to_dense()))
                                                     : do_decision_function(X);
    require_finite_scores(out, name_);
    return out;
}

Matrix Estimator::predict_proba(const Features& X) const {
    check_features(X);
    if (!has_predict_proba()) throw UsageError("model " + name_ + " does not give probabilities");
    Matrix out = X.is_sparse() && !supports_sparse() ? do_predict_proba(Features(X.to_dense())) : do_predict_proba(X);
    require_finite_scores(out, name_);
    return out;
}

Matrix Estimator::contributions(const Features& X) const {
    check_features(X);
    if (!has_contributions())
        throw UsageError("model " + name_ + " gives no feature contributions (valid: tree, forest, gbdt, and linear "
                         "models; docs/explanations.md)");
    if (X.is_sparse() && !supports_sparse()) return do_contributions(Features(X.to_dense()));
    return do_contributions(X);
}

Vector Estimator::do_predict(const Features& X) const {
    if (task_ != Task::classification) throw InternalError("regressor " + name_ + " must implement do_predict");
    if (has_predict_proba()) return scores_to_classes(do_predict_proba(X));
    if (has_decision_function()) return scores_to_classes(do_decision_function(X));
    throw InternalError("classifier " + name_ + " must implement do_predict");
}

Matrix Estimator::do_decision_function(const Features&) const {
    throw InternalError("model " + name_ + " declares a decision function but does not implement it");
}

Matrix Estimator::do_contributions(const Features&) const {
    throw InternalError("model " + name_ + " declares contributions but does not implement them");
}

Matrix Estimator::do_predict_proba(const Features&) const {
    throw InternalError("model " + name_ + " declares probabilities but does not implement them");
}

Json Estimator::save_state() const {
    if (!fitted_) throw InternalError("model " + name_ + " saved before it was fitted");
    return finish_state(do_save_state());
}

Json Estimator::save_state(JsonTextSlots& slots) const {
    if (!fitted_) throw InternalError("model " + name_ + " saved before it was fitted");
    return finish_state(do_save_state_for_file(slots));
}

Json Estimator::do_save_state_for_file(JsonTextSlots&) const { return do_save_state(); }

Json Estimator::finish_state(Json s) const {
    if (has_non_finite(s))
        // The data drove the maths out of the double range (JSON cannot even hold
        // NaN): refuse the model as unusable input, with what usually helps.
        throw DataError("model " + name_ + " has NaN or infinite values in its learned state; "
                        "not saving it (try scaling the features or stronger regularization)");
    return with_shape(std::move(s), state_version(), task_, n_features_, n_classes_);
}

Json Estimator::with_shape(Json state, int version, Task task, Index n_features, Index n_classes) {
    state["state_version"] = version;
    state["task"] = to_string(task);
    state["n_features"] = n_features;
    state["n_classes"] = n_classes;
    return state;
}

void Estimator::load_state(const Json& state, const std::vector<Index>* declared_categories) {
    if (!state.is_object()) throw ModelStateError("state is not an object");
    const int v = json_integer<int>(state.at("state_version"));
    if (v < oldest_state_version() || v > state_version()) {
        const std::string readable =
            oldest_state_version() == state_version()
                ? "version " + std::to_string(state_version())
                : "versions " + std::to_string(oldest_state_version()) + " to " + std::to_string(state_version());
        throw ModelStateError("state version " + std::to_string(v) + " of model " + name_ +
                              " is not supported (this kestrel reads " + readable + ")");
    }
    task_ = task_from_string(state.at("task").get<std::string>());
    n_features_ = json_integer<Index>(state.at("n_features"));
    n_classes_ = json_integer<Index>(state.at("n_classes"));
    if (n_features_ < 1 || n_classes_ < 0) throw ModelStateError("invalid feature or class count");
    has_declared_categories_ = declared_categories != nullptr;
    if (declared_categories) {
        if (!declared_categories->empty() && static_cast<Index>(declared_categories->size()) != n_features_)
            throw ModelStateError("state feature count disagrees with the model's features");
        declared_categories_ = *declared_categories;
    } else {
        declared_categories_.clear();
    }
    do_load_state(state);
    fitted_ = true;
}

std::string Estimator::report(const std::string& report_name, const ReportNames& names) const {
    if (!fitted_) throw InternalError("model " + name_ + " asked for a report before it was fitted");
    const auto available = report_names();
    if (std::find(available.begin(), available.end(), report_name) == available.end()) {
        std::string valid;
        for (const auto& n : available) valid += (valid.empty() ? "" : ", ") + n;
        throw UsageError("model " + name_ + " has no '" + report_name + "' output" +
                         (valid.empty() ? std::string() : " (it has: " + valid + ")"));
    }
    return do_report(report_name, names);
}

std::string Estimator::explain_row(const double* row, const ReportNames& names, const std::string& indent) const {
    if (!fitted_) throw UsageError("model " + name_ + " is not fitted; nothing to explain");
    const std::vector<std::string> no_classes;
    const ReportNames shown{names.features, task_ == Task::classification ? names.classes : no_classes,
                            names.categories};
    return do_explain_row(row, shown, indent);
}

std::string Estimator::do_explain_row(const double*, const ReportNames&, const std::string&) const {
    // Model::check_explains_rows lists the models that do (core knows none by name).
    throw UsageError(option_named("explain") + ": model " + name_ + " is not a tree model");
}

std::string Estimator::do_report(const std::string& report_name, const ReportNames&) const {
    throw InternalError("model " + name_ + " lists report '" + report_name + "' but does not produce it");
}

ModelInfo model_info(std::string name, std::string summary, ParamSpec spec, std::vector<Task> tasks,
                     Capabilities capabilities) {
    ModelInfo info;
    info.name = std::move(name);
    info.summary = std::move(summary);
    info.spec = std::move(spec);
    info.tasks = std::move(tasks);
    info.capabilities = capabilities;
    return info;
}

bool ModelInfo::supports(Task t) const {
    return std::find(tasks.begin(), tasks.end(), t) != tasks.end();
}

void Estimator::set_identity(const ModelInfo& info, Params resolved) {
    name_ = info.name;
    factory_ = info.factory;
    declared_ = info.capabilities;
    refine_ = info.refine;
    reports_ = info.reports;
    take_params(std::move(resolved));
}

void Estimator::set_identity(std::string name, Params resolved) {
    name_ = std::move(name);
    take_params(std::move(resolved));
}

void Estimator::take_params(Params resolved) {
    capabilities_ = refine_ ? refine_(declared_, resolved) : declared_;
    params_ = std::move(resolved);
    on_params(params_);
}

std::unique_ptr<Estimator> Estimator::clone_unfitted(const Params& resolved) const {
    if (!factory_) throw InternalError("model " + name_ + " was not made from its ModelInfo; it cannot be cloned");
    auto e = factory_();
    e->name_ = name_;
    e->factory_ = factory_;
    e->declared_ = declared_;
    e->refine_ = refine_;
    e->reports_ = reports_;
    e->take_params(resolved);
    return e;
}

namespace {
thread_local bool finite_scores_checked = false;
}  // namespace

FiniteScoresCheck::FiniteScoresCheck(bool on) : previous_(finite_scores_checked) { finite_scores_checked = on; }
FiniteScoresCheck::~FiniteScoresCheck() { finite_scores_checked = previous_; }

void require_finite_scores(const Matrix& scores, const std::string& model) {
    if (!finite_scores_checked) return;
    for (Index i = 0; i < scores.rows(); ++i)
        for (Index c = 0; c < scores.cols(); ++c)
            if (!std::isfinite(scores(i, c)))
                throw DataError("row " + std::to_string(i + 1) + ": " + (model.empty() ? "the model" : "model " + model) +
                                " gives a score of " +
                                (std::isnan(scores(i, c)) ? std::string("nan") : scores(i, c) > 0 ? "inf" : "-inf") +
                                " (its coefficients, scales or leaf values overflow on this row)");
}

Vector scores_to_classes(const Matrix& scores) {
    require_finite_scores(scores, "");
    Vector out(scores.rows());
    if (scores.cols() == 1) {
        for (Index i = 0; i < scores.rows(); ++i) out[i] = scores(i, 0) > 0 ? 1.0 : 0.0;
        return out;
    }
    for (Index i = 0; i < scores.rows(); ++i) {
        Index best = 0;
        for (Index c = 1; c < scores.cols(); ++c)
            if (scores(i, c) > scores(i, best)) best = c;
        out[i] = static_cast<double>(best);
    }
    return out;
}

}  // namespace kestrel
