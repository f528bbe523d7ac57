#include "kestrel/multiclass/multiclass_wrapper.hpp"

#include <algorithm>
#include <cmath>
#include <exception>

#include "kestrel/common/class_weight.hpp"
#include "kestrel/core/error.hpp"
#include "kestrel/core/json_read.hpp"
#include "kestrel/core/memory.hpp"
#include "kestrel/multiclass/ecoc.hpp"

namespace kestrel {

MulticlassWrapper::MulticlassWrapper(MemberFactory make_member)
    : make_member_(std::move(make_member)), prototype_(make_member_()) {}

namespace {

// A class_weight given by label names the user's classes, which a member relabelled
// {"rest", "member"} does not know: such weights become per-row sample weights of
// the member (exact for any grouping of classes), and the member's own class_weight
// is cleared. "balanced" passes through, so each member balances its own binary
// problem, as scikit-learn's OneVsRestClassifier(LogisticRegression(class_weight=
// "balanced")) does. Returns an empty vector when nothing is translated.
Vector translated_class_weights(const Params& p, const Dataset& data, const std::string& model,
                                bool member_takes_weights) {
    if (!p.is_object() || !p.contains("class_weight") || !p["class_weight"].is_string()) return {};
    const std::string text = p["class_weight"].get<std::string>();
    const auto first = text.find_first_not_of(" \t");
    if (first == std::string::npos || text.substr(first, 8) == "balanced") return {};
    if (!member_takes_weights)
        throw ParamError("parameter class_weight of model " + model +
                         ": by label it needs sample weights in each multiclass member, which " + model + " lacks");
    return parse_class_weights(text, data.classes, data.y);
}

}  // namespace

void MulticlassWrapper::do_fit_owned(Dataset&& data, const Context& ctx) {
    // Two classes and one member on the data as it is: the member may take the rows over.
    if (data.task == Task::classification && data.n_classes() == 2 && direct_for_two_classes()) {
        k_ = 2;
        direct_ = true;
        members_.clear();
        members_.push_back(make_member_());
        members_[0]->fit(std::move(data), ctx);
        return;
    }
    do_fit(data, ctx);
}

void MulticlassWrapper::do_fit(const Dataset& data, const Context& ctx) {
    k_ = data.n_classes();
    members_.clear();
    direct_ = data.task != Task::classification || (k_ == 2 && direct_for_two_classes());
    if (direct_) {
        members_.push_back(make_member_());
        members_[0]->fit(data, ctx);
        return;
    }
    // The members fit at once on this rank's cores; sums over ranks would need one order.
    if (ctx.rows_sharded)
        throw UsageError("model " + name() + ": on rows spread over MPI ranks it fits two classes only (the data has " +
                         std::to_string(k_) + "); multiclass members are not fitted across ranks");
    check_member_memory(data);
    const auto probs = problems(k_);
    const Vector class_weights = translated_class_weights(params(), data, name(), prototype_->supports_sample_weights());
    Params member_params = params();
    if (class_weights.size() > 0) member_params["class_weight"] = "";
    members_.resize(probs.size());
    std::vector<std::exception_ptr> errors(probs.size());
    const int threads = ctx.resolved_threads();
    // Members are independent: run them on the cores, each with a seed derived from
    // its index, so the result does not depend on the schedule.
#pragma omp parallel for schedule(dynamic) num_threads(threads)
    for (std::size_t m = 0; m < probs.size(); ++m) {
        try {
            const auto& [neg, pos] = probs[m];
            std::vector<char> side(static_cast<std::size_t>(k_), -1);
            for (Index c : neg) side[static_cast<std::size_t>(c)] = 0;
            for (Index c : pos) side[static_cast<std::size_t>(c)] = 1;
            std::vector<Index> rows;
            for (Index i = 0; i < data.rows(); ++i)
                if (side[static_cast<std::size_t>(data.y[i])] >= 0) rows.push_back(i);
            Dataset sub = rows.size() == static_cast<std::size_t>(data.rows()) ? data : data.subset(rows);
            if (class_weights.size() > 0) {
                Vector w(sub.rows());
                for (Index i = 0; i < sub.rows(); ++i) w[i] = class_weights[static_cast<Index>(sub.y[i])] * sub.weight(i);
                sub.weights = std::move(w);
            }
            for (Index i = 0; i < sub.rows(); ++i) sub.y[i] = side[static_cast<std::size_t>(sub.y[i])];
            sub.classes = {"rest", "member"};
            auto member = make_member_();
            if (class_weights.size() > 0) member->set_identity(member->name(), member_params);
            member->fit(std::move(sub), ctx.child(m, 1));  // its own copy: the member may take it over
            members_[m] = std::move(member);
        } catch (...) {
            errors[m] = std::current_exception();
        }
    }
    for (auto& e : errors)
        if (e) std::rethrow_exception(e);
}

void MulticlassWrapper::check_member_memory(const Dataset& data) const {
    // A lower bound only (each member's fitted state, its problem's two class lists and
    // its pointer; none of the working memory of its fit): a label column of ids under
    // ovo is refused here, before problems(k) builds k(k-1)/2 class lists.
    const double members = member_count(k_);
    const double per_member = static_cast<double>(prototype_->fitted_bytes_lower_bound(data.rows(), data.cols())) +
                              2 * sizeof(std::vector<Index>) + sizeof(std::unique_ptr<Estimator>);
    const double bytes = members * per_member;
    check_memory(bytes >= 1.8e19 ? ~std::uint64_t{0} : static_cast<std::uint64_t>(bytes), 0,
                 std::string(strategy()) + " over " + std::to_string(k_) + " classes (" +
                     std::to_string(static_cast<long long>(members)) + " members of " + prototype_->name() + ")");
}

Matrix MulticlassWrapper::member_scores(const Features& X) const {
    Matrix s(X.rows(), static_cast<Index>(members_.size()));
    for (std::size_t m = 0; m < members_.size(); ++m) {
        const auto& e = *members_[m];
        s.col(static_cast<Index>(m)) =
            e.has_decision_function() ? Vector(e.decision_function(X).col(0)) : Vector(e.predict_proba(X).col(1).array() - 0.5);
    }
    return s;
}

Vector MulticlassWrapper::do_predict(const Features& X) const {
    if (direct_) return members_[0]->predict(X);
    return scores_to_classes(combine_decisions(member_scores(X)));
}

Matrix MulticlassWrapper::do_decision_function(const Features& X) const {
    if (direct_) return members_[0]->decision_function(X);
    return combine_decisions(member_scores(X));
}

Matrix MulticlassWrapper::do_predict_proba(const Features& X) const {
    if (direct_) return members_[0]->predict_proba(X);
    std::vector<Matrix> p;
    p.reserve(members_.size());
    for (const auto& m : members_) p.push_back(m->predict_proba(X));
    return combine_probabilities(p);
}

Json MulticlassWrapper::do_save_state() const {
    if (transparent_ && direct_) return members_[0]->save_state();
    Json s;
    s["strategy"] = strategy();
    s["classes_seen"] = k_;
    s["direct"] = direct_;
    s["members"] = Json::array();
    for (const auto& m : members_) s["members"].push_back(m->save_state());
    return s;
}

void MulticlassWrapper::do_load_state(const Json& state) {
    if (transparent_ && !state.contains("strategy")) {  // a two-class model's own state
        auto e = make_member_();
        e->set_identity(name(), params());
        e->load_state(state, declared_categories());
        k_ = 2;
        direct_ = true;
        members_.clear();
        members_.push_back(std::move(e));
        return;
    }
    if (state.at("strategy").get<std::string>() != strategy())
        throw ModelStateError("state is for strategy " + state.at("strategy").get<std::string>() + ", not " +
                              strategy());
    k_ = json_integer<Index>(state.at("classes_seen"));
    direct_ = state.at("direct").get<bool>();
    const auto& ms = state.at("members");
    // classes_seen sizes the class lists problems() builds (k(k-1)/2 pairs for ovo): bounded
    // first by what the file holds, one member per class (ovr) or per pair (ovo).
    if (k_ < 0 || k_ > n_classes() || !ms.is_array() ||
        (!direct_ && std::string(strategy()) != "ecoc" && (k_ < 2 || static_cast<std::size_t>(k_) > ms.size() + 1)))
        throw ModelStateError("classes_seen " + std::to_string(k_) + " does not fit the " +
                              std::to_string(n_classes()) + " classes and " +
                              std::to_string(ms.is_array() ? ms.size() : 0) + " members");
    const std::size_t expected = direct_ ? 1 : problems(k_).size();
    if (!ms.is_array() || ms.size() != expected)
        throw ModelStateError("expected " + std::to_string(expected) + " member models");
    members_.clear();
    for (const auto& m : ms) {
        auto e = make_member_();
        e->set_identity(name(), params());
        // A member solves a binary problem: its class count (which sizes its tables) is 2 at most.
        if (m.is_object() && m.contains("n_classes") && json_integer<Index>(m.at("n_classes")) > 2)
            throw ModelStateError("a member has more than two classes");
        e->load_state(m, declared_categories());
        if (e->n_features() != n_features()) throw ModelStateError("member feature count differs from the model's");
        members_.push_back(std::move(e));
    }
}

std::vector<std::string> MulticlassWrapper::report_names() const {
    if (!fitted()) return prototype_->report_names();
    return direct_ ? members_[0]->report_names() : std::vector<std::string>{};
}

std::string MulticlassWrapper::do_report(const std::string& report_name, const ReportNames& names) const {
    if (direct_) return members_[0]->report(report_name, names);
    return Estimator::do_report(report_name, names);
}

std::vector<std::pair<std::vector<Index>, std::vector<Index>>> OneVsRest::problems(Index k) const {
    std::vector<std::pair<std::vector<Index>, std::vector<Index>>> out;
    for (Index c = 0; c < k; ++c) {
        std::vector<Index> rest;
        for (Index o = 0; o < k; ++o)
            if (o != c) rest.push_back(o);
        out.push_back({rest, {c}});
    }
    return out;
}

Matrix OneVsRest::combine_decisions(const Matrix& member_scores) const { return member_scores; }

Matrix OneVsRest::combine_probabilities(const std::vector<Matrix>& member_proba) const {
    // P(class c) proportional to member c's P(positive), as scikit-learn's OneVsRestClassifier.
    const Index n = member_proba.front().rows();
    Matrix p(n, static_cast<Index>(member_proba.size()));
    for (std::size_t c = 0; c < member_proba.size(); ++c) p.col(static_cast<Index>(c)) = member_proba[c].col(1);
    for (Index i = 0; i < n; ++i) {
        const double s = p.row(i).sum();
        if (s > 0) p.row(i) /= s;
        else p.row(i).setConstant(1.0 / static_cast<double>(p.cols()));
    }
    return p;
}

std::vector<std::pair<std::vector<Index>, std::vector<Index>>> OneVsOne::problems(Index k) const {
    std::vector<std::pair<std::vector<Index>, std::vector<Index>>> out;
    for (Index i = 0; i < k; ++i)
        for (Index j = i + 1; j < k; ++j) out.push_back({{i}, {j}});
    return out;
}

Matrix OneVsOne::combine_decisions(const Matrix& member_scores) const {
    const Index n = member_scores.rows();
    Matrix votes = Matrix::Zero(n, k_);
    Matrix confidence = Matrix::Zero(n, k_);
    Index m = 0;
    for (Index i = 0; i < k_; ++i)
        for (Index j = i + 1; j < k_; ++j, ++m)
            for (Index r = 0; r < n; ++r) {
                const double s = member_scores(r, m);
                votes(r, s > 0 ? j : i) += 1;
                confidence(r, j) += s;
                confidence(r, i) -= s;
            }
    // Map confidence into (-1/3, 1/3) so it only breaks ties between equal vote counts.
    return votes.array() + confidence.array() / (3.0 * (confidence.array().abs() + 1.0));
}

Vector OneVsOne::do_predict(const Features& X) const {
    if (direct_) return MulticlassWrapper::do_predict(X);
    // LIBSVM's rule: most votes, ties to the lowest class index.
    const Matrix d = combine_decisions(member_scores(X));
    Vector out(d.rows());
    for (Index r = 0; r < d.rows(); ++r) {
        Index best = 0;
        for (Index c = 1; c < d.cols(); ++c)
            if (std::floor(d(r, c) + 0.5) > std::floor(d(r, best) + 0.5)) best = c;
        out[r] = static_cast<double>(best);
    }
    return out;
}

Matrix OneVsOne::combine_probabilities(const std::vector<Matrix>& member_proba) const {
    const Index n = member_proba.front().rows();
    Matrix out(n, k_);
    Matrix r = Matrix::Zero(k_, k_);
    for (Index row = 0; row < n; ++row) {
        std::size_t m = 0;
        for (Index i = 0; i < k_; ++i)
            for (Index j = i + 1; j < k_; ++j, ++m) {
                // Clip as LIBSVM does so the coupling system stays well-posed.
                const double pj = std::clamp(member_proba[m](row, 1), 1e-7, 1 - 1e-7);
                r(i, j) = 1 - pj;
                r(j, i) = pj;
            }
        out.row(row) = pairwise_coupling(r).transpose();
    }
    return out;
}

std::unique_ptr<Estimator> make_multiclass_wrapper(const std::string& strategy, MemberFactory make_member,
                                                   bool transparent) {
    std::unique_ptr<MulticlassWrapper> w;
    if (strategy == "ovr")
        w = std::make_unique<OneVsRest>(std::move(make_member));
    else if (strategy == "ovo")
        w = std::make_unique<OneVsOne>(std::move(make_member));
    else if (strategy == "ecoc")
        w = std::make_unique<Ecoc>(std::move(make_member));
    else
        throw UsageError("unknown multiclass strategy '" + strategy + "' (valid: ovr, ovo, ecoc)");
    w->set_transparent(transparent);
    return w;
}

Capabilities wrapped_capabilities(const std::string& strategy, Capabilities member) {
    if (strategy != "ovr" && strategy != "ovo" && strategy != "ecoc")
        throw UsageError("unknown multiclass strategy '" + strategy + "' (valid: ovr, ovo, ecoc)");
    Capabilities c = member;
    c.contributions = c.eval_sets = c.early_stopping = c.continue_training = c.explains_rows = false;
    c.quantized_rows = false;  // members fit on relabelled or fewer rows, with seeds of their own
    if (strategy == "ecoc") {
        c.decision_function = true;
        c.predict_proba = false;
    }
    return c;
}

}  // namespace kestrel
