// Feature selection by L1 models along their regularization path.
#include <algorithm>
#include <cmath>
#include <limits>

#include "kestrel/core/error.hpp"
#include "kestrel/model_selection/feature_selection.hpp"
#include "kestrel/pipeline/registry.hpp"

namespace kestrel {
namespace {

std::vector<Index> nonzero_of(const Eigen::Ref<const Vector>& w) {
    std::vector<Index> out;
    for (Index j = 0; j < w.size(); ++j)
        if (w[j] != 0.0) out.push_back(j);
    return out;
}

std::vector<Index> set_union(const std::vector<Index>& a, const std::vector<Index>& b) {
    std::vector<Index> out;
    std::set_union(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(out));
    return out;
}

// The binary problems of a classification: the data itself for two classes, else
// "class c against the rest" for each c (what multiclass=ovr fits).
std::vector<Dataset> binary_problems(const Dataset& data) {
    if (data.n_classes() == 2) return {data};
    std::vector<Dataset> out;
    for (Index c = 0; c < data.n_classes(); ++c) {
        Dataset b = data;
        b.y = (data.y.array() == static_cast<double>(c)).cast<double>();
        b.classes = {"rest", data.classes[static_cast<std::size_t>(c)]};
        out.push_back(std::move(b));
    }
    return out;
}

// X through the spec's preprocessing steps, fitted on X itself (as Model::train does).
Features preprocessed(Features X, const ModelSpec& spec) {
    for (const auto& kind : spec.preprocessing) {
        auto t = make_transformer(kind);
        t->fit(X);
        X = t->transform(X);
    }
    return X;
}

// The smallest C at which an L1 logistic model leaves its all-zero solution: the
// gradient of the loss at w = 0 (intercept at its optimum) is C·g, and zero stays
// optimal while C·max|g_j| <= 1. Rows count with their sample weights.
double l1_logistic_min_c(const std::vector<Dataset>& problems, const ModelSpec& spec, bool fit_intercept) {
    double c_min = std::numeric_limits<double>::infinity();
    for (const Dataset& p : problems) {
        const Features X = preprocessed(p.X, spec);
        Vector s(p.rows());
        for (Index i = 0; i < p.rows(); ++i) s[i] = p.weight(i);
        const double mean = fit_intercept ? s.dot(p.y) / s.sum() : 0.5;
        const Vector g = X.transpose_multiply(s.cwiseProduct(p.y.array().matrix() - Vector::Constant(p.rows(), mean)));
        const double gmax = g.cwiseAbs().maxCoeff();
        if (gmax > 0) c_min = std::min(c_min, 1.0 / gmax);
    }
    if (!std::isfinite(c_min))
        throw DataError(option_named("method") + " l1: no feature is related to the labels at all");
    return c_min;
}

// The same for the L1 squared-hinge SVM (LIBLINEAR -s 5), whose bias is an L1-penalised
// feature of value `bias`: at w = 0 every margin is 0, the loss gradient is
// -2C Σ s_i y_i x_ij (y = ±1), and zero stays optimal while C·max_j |2 Σ s_i y_i x_ij| <= 1.
double l1_svm_min_c(const std::vector<Dataset>& problems, const ModelSpec& spec, double bias) {
    double c_min = std::numeric_limits<double>::infinity();
    for (const Dataset& p : problems) {
        const Features X = preprocessed(p.X, spec);
        Vector sy(p.rows());
        for (Index i = 0; i < p.rows(); ++i) sy[i] = p.weight(i) * (p.y[i] > 0.5 ? 1.0 : -1.0);
        double gmax = 2.0 * X.transpose_multiply(sy).cwiseAbs().maxCoeff();
        gmax = std::max(gmax, 2.0 * std::abs(bias * sy.sum()));
        if (gmax > 0) c_min = std::min(c_min, 1.0 / gmax);
    }
    if (!std::isfinite(c_min))
        throw DataError(option_named("method") + " l1: no feature is related to the labels at all");
    return c_min;
}

// The weight vector of a binary linear model fitted by the path.
Vector binary_weights(const Estimator& e) {
    const Eigen::MatrixXd w = e.linear_weights();
    if (w.rows() != 1)
        throw InternalError(option_named("method") + " l1: the path model " + e.name() +
                            " has no binary weight vector");
    return w.row(0).transpose();
}

}  // namespace

L1SelectionResult l1_selection(const ModelSpec& spec, const Dataset& data, const SelectionOptions& opts, int points,
                               const Context& ctx) {
    const bool classify = data.task == Task::classification;
    const bool svm = spec.model == "linear_svm";
    if (classify ? !(spec.model == "logistic" || svm) : spec.model != "lasso")
        throw UsageError(option_named("method") + " l1 selects with " +
                         std::string(classify ? "logistic or linear_svm" : "lasso") + " for " + to_string(data.task) +
                         " data, not " + option_named("model") + " " + spec.model);
    if (points < 2) throw UsageError(option_named("path_points") + " must be at least 2");
    L1SelectionResult r;
    r.model = spec.model;
    r.strength_name = classify ? "C" : "lambda";
    r.metric = opts.metric.empty() ? (classify ? "accuracy" : "rmse") : opts.metric;
    check_metrics(spec, data.task, {r.metric});

    ModelSpec base = spec;
    if (classify) {
        base.params["penalty"] = "l1";
        if (data.n_classes() > 2) base.params["multiclass"] = "ovr";
    }
    resolve_params(base);
    const Params& resolved = base.resolved->values();

    if (classify) {
        const auto problems = binary_problems(data);
        const double bias =
            svm && get_bool(resolved, "fit_intercept") ? get_real(resolved, "intercept_scaling") : 0.0;
        const double c_min = svm ? l1_svm_min_c(problems, base, bias)
                                 : l1_logistic_min_c(problems, base, get_bool(resolved, "fit_intercept"));
        ModelSpec member = base;
        member.params.erase("multiclass");
        for (int t = 1; t <= points; ++t) {
            L1PathPoint p;
            p.strength = c_min * std::pow(10.0, 3.0 * t / points);
            member.params["C"] = p.strength;
            for (const Dataset& b : problems) {
                const Model m = Model::train(member, b, ctx);
                p.nonzero = set_union(p.nonzero, nonzero_of(binary_weights(m.estimator())));
            }
            r.path.push_back(std::move(p));
        }
    } else {
        const Model m = Model::train(base, data, ctx);
        const std::optional<RegularizationPath> path = m.estimator().regularization_path();
        if (!path)
            throw InternalError(option_named("method") + " l1: model " + spec.model + " fitted no regularization path");
        const auto n = path->strengths.size();
        // Evenly spaced along the (geometric) path, past its all-zero start.
        std::vector<Index> idx;
        for (int t = 0; t < points; ++t) {
            const auto i = static_cast<Index>(std::llround(1 + t * static_cast<double>(n - 2) / (points - 1)));
            if (i < n && (idx.empty() || idx.back() != i)) idx.push_back(i);
        }
        for (Index i : idx) r.path.push_back({path->strengths[i], nonzero_of(path->coef.row(i).transpose()), 0, 0});
    }

    CvOptions cv = opts.cv;
    cv.metrics = {r.metric};
    double best = std::numeric_limits<double>::infinity();
    bool found = false;
    for (std::size_t i = 0; i < r.path.size(); ++i) {
        L1PathPoint& p = r.path[i];
        ModelSpec s = base;
        s.params[r.strength_name] = p.strength;
        p.score = cross_validate(s, data, cv, ctx).mean(r.metric);
        p.error = metric_error(r.metric, p.score);
        const auto size = static_cast<int>(p.nonzero.size());
        if (size == 0 || (opts.max_features > 0 && size > opts.max_features)) continue;
        if (p.error < best) {
            best = p.error;
            r.chosen = i;
            found = true;
        }
    }
    if (!found)
        throw DataError(option_named("method") + " l1: no point of the path has between 1 and " +
                        (opts.max_features > 0 ? std::to_string(opts.max_features) : std::string("all")) +
                        " non-zero features");
    r.selected = r.path[r.chosen].nonzero;
    for (const auto& p : r.path)
        for (Index j : p.nonzero)
            if (std::find(r.entry_order.begin(), r.entry_order.end(), j) == r.entry_order.end())
                r.entry_order.push_back(j);
    return r;
}

}  // namespace kestrel
