#include "kestrel/boosting/adaboost.hpp"

#include <algorithm>
#include <cmath>
#include <optional>

#include "kestrel/common/class_weight.hpp"
#include "kestrel/core/interrupt.hpp"
#include "kestrel/core/param_binding.hpp"
#include "kestrel/core/error.hpp"
#include "kestrel/core/json_read.hpp"
#include "kestrel/core/number_text.hpp"

namespace kestrel {
namespace {

// Whether a weak learner renders as a tree (--dump-tree, --explain).
bool base_is_tree(const Estimator& learner) {
    const auto reports = learner.report_names();
    return std::find(reports.begin(), reports.end(), "tree") != reports.end();
}

}  // namespace

// The weak learner named by the `base` parameter ({"model": name, "params": {...}}).
std::unique_ptr<Estimator> AdaBoost::make_base(const Json& spec) const {
    const std::string name = spec.at("model").get<std::string>();
    const Params given = spec.contains("params") ? spec.at("params") : Params::object();
    // The default weak learner, a tree, is made as the tree itself (its own parameters,
    // no multiclass wrapper): the state saved for it is the one adaboost always saved.
    std::unique_ptr<Estimator> e = name == "tree" ? maker_.create_unwrapped(name, given) : maker_.create(name, given);
    if (!e->supports_sample_weights()) {
        std::string valid = "tree";
        for (const auto& n : maker_.names()) {
            if (n == "tree" || n == "adaboost") continue;
            if (maker_.info(n).capabilities.sample_weights) valid += ", " + n;
        }
        throw ParamError("parameter base=" + name +
                         " of model adaboost: the weak learner must accept sample weights (valid: " + valid + ")");
    }
    return e;
}

Vector adaboost_update(const Vector& D, const std::vector<char>& mistake, double alpha, bool samme) {
    Vector next(D.size());
    for (Index i = 0; i < D.size(); ++i) {
        const double m = mistake[static_cast<std::size_t>(i)] ? 1.0 : (samme ? 0.0 : -1.0);
        next[i] = D[i] * std::exp(alpha * m);
    }
    return next / next.sum();
}

void AdaBoost::do_fit(const Dataset& data, const Context& ctx) {
    if (data.task != Task::classification) throw UsageError("adaboost: learns classification only");
    const AdaBoostParams& p = p_;
    const Json& base = p.base;
    // Checks the weak learner before any work; a learner that can prepare its fits on
    // these rows (a tree sorts each column once) is refitted with each round's weights.
    const std::unique_ptr<Refitter> refit = make_base(base)->refitter(data, ctx);
    const Index n = data.rows(), k = data.n_classes(), rounds = static_cast<Index>(p.n_estimators);
    const double rate = p.learning_rate;
    const bool samme = k > 2;
    // ε_t must stay below ½ (binary) or 1 − 1/k (SAMME) for α_t > 0.
    const double chance = samme ? 1.0 - 1.0 / static_cast<double>(k) : 0.5;

    const Vector s = class_weighted_rows(data, p.class_weight, "adaboost");
    if (!(s.sum() > 0)) throw DataError("adaboost: the sample weights sum to zero");
    Vector D = s / s.sum();
    std::optional<Dataset> work;  // the data with D, for a learner fitted afresh each round
    if (!refit) work = data;
    Matrix F = Matrix::Zero(n, samme ? k : 1);
    std::vector<std::unique_ptr<Estimator>> learners;
    std::vector<BoostRound> trace;
    double alpha_sum = 0;
    for (Index t = 0; t < rounds; ++t) {
        interruption_point();
        const Vector weights = D * static_cast<double>(n);  // mean 1: row-count limits keep their meaning
        const Context round = ctx.child(static_cast<std::uint64_t>(t));
        std::unique_ptr<Estimator> h;
        if (refit) {
            h = refit->fit(weights, round);
        } else {
            h = make_base(base);
            work->weights = weights;
            h->fit(*work, round);
        }
        const Vector pred = h->predict(data.X);
        std::vector<char> mistake(static_cast<std::size_t>(n));
        double eps = 0;
        for (Index i = 0; i < n; ++i) {
            mistake[static_cast<std::size_t>(i)] = pred[i] != data.y[i];
            if (mistake[static_cast<std::size_t>(i)]) eps += D[i];
        }
        if (eps >= chance) {
            if (t == 0)
                throw DataError("adaboost: the first weak learner has weighted error " + std::to_string(eps) +
                                ", no better than chance; use a stronger base (e.g. base=tree(max_depth=3))");
            break;  // h_t is discarded, as Freund & Schapire's algorithm requires ε_t < ½
        }
        double alpha;
        if (eps <= 0) {
            // A perfect h_t has α = ∞ in the formula: a weight above all the others
            // together makes it decide alone, which is that limit.
            alpha = alpha_sum + 1.0;
        } else {
            alpha = rate * (samme ? std::log((1 - eps) / eps) + std::log(static_cast<double>(k - 1))
                                  : 0.5 * std::log((1 - eps) / eps));
        }
        alpha_sum += alpha;
        double train_error = 0;
        for (Index i = 0; i < n; ++i) {
            Index predicted;
            if (samme) {
                F(i, static_cast<Index>(pred[i])) += alpha;
                F.row(i).maxCoeff(&predicted);
            } else {
                F(i, 0) += pred[i] == 1 ? alpha : -alpha;
                predicted = F(i, 0) > 0 ? 1 : 0;
            }
            if (predicted != static_cast<Index>(data.y[i])) train_error += s[i];
        }
        trace.push_back({eps, alpha, train_error / s.sum()});
        learners.push_back(std::move(h));
        if (eps <= 0) break;
        D = adaboost_update(D, mistake, alpha, samme);
    }
    learners_ = std::move(learners);
    rounds_ = std::move(trace);
}

Matrix AdaBoost::do_decision_function(const Features& X) const {
    const bool samme = n_classes() > 2;
    Matrix F = Matrix::Zero(X.rows(), samme ? n_classes() : 1);
    for (std::size_t t = 0; t < learners_.size(); ++t) {
        const Vector pred = learners_[t]->predict(X);
        const double a = rounds_[t].alpha;
        for (Index i = 0; i < X.rows(); ++i) {
            if (samme)
                F(i, static_cast<Index>(pred[i])) += a;
            else
                F(i, 0) += pred[i] == 1 ? a : -a;
        }
    }
    return F;
}

Json AdaBoost::do_save_state() const {
    Json learners = Json::array(), trace = Json::array();
    for (const auto& h : learners_) learners.push_back(h->save_state());
    for (const auto& r : rounds_)
        trace.push_back(Json{{"error", r.error}, {"alpha", r.alpha}, {"train_error", r.train_error}});
    const Json base{{"model", learners_.front()->name()}, {"params", learners_.front()->params()}};
    return Json{{"base", base}, {"learners", learners}, {"rounds", trace}};
}

void AdaBoost::do_load_state(const Json& state) {
    for (const char* key : {"base", "learners", "rounds"})
        if (!state.contains(key)) throw ModelStateError(std::string("adaboost state lacks \"") + key + "\"");
    const Json& ls = state.at("learners");
    const Json& rs = state.at("rounds");
    if (!ls.is_array() || ls.empty() || !rs.is_array() || rs.size() != ls.size())
        throw ModelStateError("adaboost state needs as many rounds as learners, at least one");
    std::vector<std::unique_ptr<Estimator>> learners;
    std::vector<BoostRound> trace;
    for (std::size_t t = 0; t < ls.size(); ++t) {
        auto h = make_base(state.at("base"));
        // A learner's class count sizes its tables: checked before it is read.
        if (ls[t].is_object() && ls[t].contains("n_classes") && json_integer<Index>(ls[t].at("n_classes")) != n_classes())
            throw ModelStateError("adaboost learner " + std::to_string(t) + " does not match the model's shape");
        h->load_state(ls[t], declared_categories());
        if (h->n_features() != n_features() || h->n_classes() != n_classes())
            throw ModelStateError("adaboost learner " + std::to_string(t) + " does not match the model's shape");
        learners.push_back(std::move(h));
        trace.push_back(
            {rs[t].at("error").get<double>(), rs[t].at("alpha").get<double>(), rs[t].at("train_error").get<double>()});
    }
    learners_ = std::move(learners);
    rounds_ = std::move(trace);
}

void AdaBoost::on_params(const Params& resolved) {
    p_ = adaboost_params().read(resolved);
}

const ParamBinding<AdaBoostParams>& adaboost_params() {
    using P = AdaBoostParams;
    static const ParamBinding<P> binding{
        bind(&P::n_estimators, int_param("n_estimators", 50, "maximum number of boosting rounds")
                                   .range(1, std::nullopt)
                                   .like("scikit-learn AdaBoostClassifier n_estimators")),
        bind(&P::learning_rate, real_param("learning_rate", 1.0, "shrinks each α_t (1 = the textbook algorithm)")
                                    .range(0.0, std::nullopt)
                                    .open_below()
                                    .like("scikit-learn learning_rate")),
        bind(&P::base, model_param("base", "tree(max_depth=1)", "the weak learner; must accept sample weights")
                           .like("scikit-learn estimator=DecisionTreeClassifier(max_depth=1)")),
        class_weight_param("\"\" (all 1), \"balanced\" (n/(k*n_c)) or label:weight,...; multiplies the initial "
                           "boosting weight of that class's rows",
                           "scikit-learn sample_weight scaled by compute_class_weight"),
    };
    return binding;
}

ModelInfo adaboost_model_info(const EstimatorMaker& learners) {
    ModelInfo info = model_info(
        "adaboost",
        "AdaBoost (Freund & Schapire; SAMME for k > 2 classes) over decision stumps or any weighted learner",
        adaboost_params().spec(), {Task::classification}, {.decision_function = true, .sample_weights = true});
    // Sparse input and absent-is-missing are the weak learner's: a sparse matrix then
    // reaches a tree base without densifying.
    info.refine = [&learners](const Capabilities& declared, const Params& resolved) {
        Capabilities c = declared;
        try {
            const Json& base = resolved.at("base");
            const ModelInfo& b = learners.info(base.at("model").get<std::string>());
            const Capabilities bc = b.capabilities_for(
                b.spec.resolve(base.contains("params") ? base.at("params") : Params::object(), b.name));
            c.sparse_input = bc.sparse_input;
            c.absent_is_missing = bc.absent_is_missing;
            c.native_missing = bc.native_missing;
            c.native_categories = bc.native_categories;
            c.explains_rows = bc.explains_rows;  // a path through each round's tree
        } catch (const Error&) {
            // fit reports the bad base
        }
        return c;
    };
    info.reports = [](const Params&) { return std::vector<std::string>{"trace", "tree"}; };
    info.factory = [&learners] { return std::make_unique<AdaBoost>(learners); };
    return info;
}

// The "tree" report: every round's tree with its α; "trace": one CSV row per round.
std::string AdaBoost::do_report(const std::string& report_name, const ReportNames& names) const {
    if (report_name == "tree") {
        std::string out;
        for (std::size_t t = 0; t < learners_.size(); ++t) {
            if (!base_is_tree(*learners_[t]))
                throw UsageError("model adaboost has a base that is not a tree; nothing to dump");
            out += "round " + std::to_string(t) + " (alpha=" + format_number(rounds_[t].alpha) + "):\n" +
                   learners_[t]->report("tree", names);
        }
        return out;
    }
    std::string csv = "round,weighted_error,alpha,train_error\n";
    for (std::size_t t = 0; t < rounds_.size(); ++t)
        csv += std::to_string(t + 1) + "," + format_number(rounds_[t].error) + "," + format_number(rounds_[t].alpha) +
               "," + format_number(rounds_[t].train_error) + "\n";
    return csv;
}

std::string AdaBoost::do_explain_row(const double* row, const ReportNames& names, const std::string& indent) const {
    std::string out;
    for (std::size_t t = 0; t < learners_.size(); ++t) {
        if (!base_is_tree(*learners_[t]))
            throw UsageError(option_named("explain") + ": model adaboost has a base that is not a tree");
        out += indent + "round " + std::to_string(t) + " (alpha=" + format_number(rounds_[t].alpha) + "):\n" +
               learners_[t]->explain_row(row, names, indent + "  ");
    }
    return out;
}

}  // namespace kestrel
