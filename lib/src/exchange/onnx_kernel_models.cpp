// The kernel_methods and svm families' models (svc, nu_svc, svr, nu_svr, one_class; kernel_ridge,
// kernel_logistic, kernel_perceptron; knn, below) in standard operators, in double: the
// kernel matrix K(X, rows) [N, rows] as kestrel's Kernel computes it (dot products by MatMul, the separable kernels by
// broadcasting over the features), the decision values as products with the dual
// coefficients, then what kestrel derives from them. For the SVMs: the one-vs-one votes (the
// label, ties to the lower class as LIBSVM's), decision_function's scores, and with
// probability=1 Platt's sigmoids (and their coupling). ai.onnx.ml's SVMClassifier / SVMRegressor
// compute in float32 throughout, so their decision values would carry float error into every
// vote and probability; these nodes keep kestrel's arithmetic. For the kernel expansions
// (f = K coef + intercept): kernel_logistic's probabilities as the linear logistic's.
//
// one_class: +1 where Σ coef K − rho > 0, else −1, and the decision value beside it.
//
// The precomputed kernel reads its values from the input, as kestrel does: K(x, sv) is x's
// column at sv's serial number (`Gather`).
//
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "kestrel/core/error.hpp"
#include "kestrel/exchange/export.hpp"
#include "kestrel/kernel_methods/kernel_logistic.hpp"
#include "kestrel/kernel_methods/kernel_perceptron.hpp"
#include "kestrel/kernel_methods/kernel_ridge.hpp"
#include "kestrel/kernel_methods/knn.hpp"
#include "kestrel/kernels/kernel.hpp"
#include "kestrel/kernels/kernel_spec.hpp"
#include "kestrel/multiclass/multiclass_wrapper.hpp"
#include "kestrel/pipeline/model.hpp"
#include "kestrel/svm/svc.hpp"
#include "kestrel/svm/svr.hpp"
#include "onnx_parts.hpp"

namespace kestrel {
namespace {

using A = OnnxAttribute;

// The support vectors' values and the tensors the kernels read from them, made on demand.
class SupportVectorTensors {
public:
    SupportVectorTensors(const Features& sv, const std::string& X, OnnxGraphBuilder& g)
        : sv_(sv.to_dense()), X_(X), g_(g) {}

    // X · SVᵀ [N, nSV].
    const std::string& dots() {
        if (dots_.empty()) {
            std::vector<double> t;  // d x nSV, row-major
            for (Index j = 0; j < sv_.cols(); ++j)
                for (Index i = 0; i < sv_.rows(); ++i) t.push_back(sv_(i, j));
            dots_ = g_.add("MatMul", {X_, g_.doubles(std::move(t), {sv_.cols(), sv_.rows()})});
        }
        return dots_;
    }
    // ||x − sv||² [N, nSV] as kestrel: max(0, ||x||² + ||sv||² − 2 x·sv).
    const std::string& squared_distances() {
        if (squared_.empty()) {
            const std::string x2 = g_.add("ReduceSum", {g_.add("Mul", {X_, X_}), g_.int64s({1}, {1})},
                                          {A::of_int("keepdims", 1)});
            std::vector<double> norms;
            for (Index i = 0; i < sv_.rows(); ++i) norms.push_back(sv_.row(i).squaredNorm());
            const std::string sum = g_.add("Add", {x2, g_.double_row(std::move(norms))});
            const std::string twice = g_.add("Mul", {dots(), g_.double_scalar(2.0)});
            squared_ = g_.add("Max", {g_.add("Sub", {sum, twice}), g_.double_scalar(0.0)});
        }
        return squared_;
    }
    // x − sv per feature [N, nSV, d], for the separable kernels.
    std::string differences() {
        return g_.add("Sub", {unsqueezed_x(), sv3()});
    }
    const std::string& unsqueezed_x() {
        if (x3_.empty()) x3_ = g_.add("Unsqueeze", {X_, g_.int64s({1}, {1})});
        return x3_;
    }
    // SV as [1, nSV, d].
    const std::string& sv3() {
        if (sv3_.empty()) {
            std::vector<double> v;
            for (Index i = 0; i < sv_.rows(); ++i)
                for (Index j = 0; j < sv_.cols(); ++j) v.push_back(sv_(i, j));
            sv3_ = g_.doubles(std::move(v), {1, sv_.rows(), sv_.cols()});
        }
        return sv3_;
    }
    // The precomputed kernel's K(x, sv) = x[serial(sv)] (kernel.cpp, LIBSVM's
    // kernel_precomputed): the input's columns at the support vectors' serials [N, nSV].
    std::string precomputed_values() {
        std::vector<std::int64_t> serials;
        for (Index i = 0; i < sv_.rows(); ++i) serials.push_back(static_cast<std::int64_t>(sv_(i, 0)));
        const auto n = static_cast<std::int64_t>(serials.size());
        return g_.add("Gather", {X_, g_.int64s(std::move(serials), {n})}, {A::of_int("axis", 1)});
    }
    std::string sum_over_features(const std::string& t) {
        return g_.add("ReduceSum", {t, g_.int64s({2}, {1})}, {A::of_int("keepdims", 0)});
    }

private:
    DenseMatrix sv_;
    std::string X_;
    OnnxGraphBuilder& g_;
    std::string dots_, squared_, x3_, sv3_;
};

std::string times_gamma(OnnxGraphBuilder& g, const std::string& t, double gamma) {
    return g.add("Mul", {t, g.double_scalar(gamma)});
}

// One base kernel's values [N, nSV] (kernel.cpp's factor_values).
std::string base_kernel(const BaseKernel& k, SupportVectorTensors& sv, OnnxGraphBuilder& g) {
    const double gamma = k.gamma.value_or(0), coef0 = k.coef0.value_or(0);
    const auto degree = static_cast<double>(k.degree.value_or(1));
    switch (k.kind) {
        case KernelKind::linear: return sv.dots();
        case KernelKind::poly:
            return g.add("Pow", {g.add("Add", {times_gamma(g, sv.dots(), gamma), g.double_scalar(coef0)}), g.double_scalar(degree)});
        case KernelKind::sigmoid:
            return g.add("Tanh", {g.add("Add", {times_gamma(g, sv.dots(), gamma), g.double_scalar(coef0)})});
        case KernelKind::rbf: return g.add("Exp", {times_gamma(g, sv.squared_distances(), -gamma)});
        case KernelKind::exponential:
            return g.add("Exp", {times_gamma(g, g.add("Sqrt", {sv.squared_distances()}), -gamma)});
        case KernelKind::laplacian:
            return g.add("Exp", {times_gamma(g, sv.sum_over_features(g.add("Abs", {sv.differences()})), -gamma)});
        case KernelKind::min: return sv.sum_over_features(g.add("Min", {sv.unsqueezed_x(), sv.sv3()}));
        case KernelKind::anova: {
            const std::string d = sv.differences();
            const std::string e = g.add("Exp", {times_gamma(g, g.add("Mul", {d, d}), -gamma)});
            return sv.sum_over_features(g.add("Pow", {e, g.double_scalar(degree)}));
        }
        case KernelKind::precomputed: return sv.precomputed_values();
    }
    throw InternalError("ONNX export: an unknown kernel");
}

// The spec's weighted sum of products of base kernels, each factor's values [N, columns]
// from `factor`.
template <class Factor>
std::string kernel_terms(const KernelSpec& spec, OnnxGraphBuilder& g, Factor factor) {
    std::string total;
    for (const KernelTerm& term : spec.terms) {
        std::string product;
        for (const BaseKernel& f : term.factors) {
            const std::string k = factor(f);
            product = product.empty() ? k : g.add("Mul", {product, k});
        }
        if (term.weight != 1.0) product = g.add("Mul", {product, g.double_scalar(term.weight)});
        total = total.empty() ? product : g.add("Add", {total, product});
    }
    return total;
}

// K(X, rows) [N, rows].
std::string kernel_matrix(const KernelSpec& spec, const Features& rows, const std::string& X, OnnxGraphBuilder& g) {
    SupportVectorTensors sv(rows, X, g);
    return kernel_terms(spec, g, [&](const BaseKernel& k) { return base_kernel(k, sv, g); });
}

// One base kernel of each row of X with itself [N, 1] (Kernel's k(x, x)): the dot-product
// kernels from x·x; the distance-based ones at distance 0 (rbf, exponential and laplacian 1,
// anova one per feature: Kernel computes the same, but for rbf and exponential up to the
// rounding of ‖x‖² + ‖x‖² − 2x·x); min Σ x.
std::string self_kernel(const BaseKernel& k, const std::string& X, Index d, OnnxGraphBuilder& g) {
    const double gamma = k.gamma.value_or(0), coef0 = k.coef0.value_or(0);
    const auto degree = static_cast<double>(k.degree.value_or(1));
    const auto row_sum = [&](const std::string& t) {
        return g.add("ReduceSum", {t, g.int64s({1}, {1})}, {A::of_int("keepdims", 1)});
    };
    const auto scaled_dot = [&] {
        return g.add("Add", {times_gamma(g, row_sum(g.add("Mul", {X, X})), gamma), g.double_scalar(coef0)});
    };
    const auto constant = [&](double v) {
        return g.add("Expand", {g.doubles({v}, {1, 1}), g.add("Shape", {onnx_column(g, X, 0)})});
    };
    switch (k.kind) {
        case KernelKind::linear:
            return row_sum(g.add("Mul", {X, X}));
        case KernelKind::poly:
            return g.add("Pow", {scaled_dot(), g.double_scalar(degree)});
        case KernelKind::sigmoid:
            return g.add("Tanh", {scaled_dot()});
        case KernelKind::rbf:
        case KernelKind::exponential:
        case KernelKind::laplacian:
            return constant(1.0);
        case KernelKind::anova:
            return constant(static_cast<double>(d));
        case KernelKind::min:
            return row_sum(X);
        case KernelKind::precomputed: break;  // knn's kernel metric, the one user, refuses it
    }
    throw InternalError("ONNX export: no k(x, x) for this kernel");
}

// k(x, x) of the spec [N, 1].
std::string self_kernel_matrix(const KernelSpec& spec, const std::string& X, Index d, OnnxGraphBuilder& g) {
    return kernel_terms(spec, g, [&](const BaseKernel& k) { return self_kernel(k, X, d, g); });
}

// A [rows, cols] double constant from a row-major filler.
template <class Fill>
std::string matrix(OnnxGraphBuilder& g, Index rows, Index cols, Fill fill) {
    std::vector<double> v(static_cast<std::size_t>(rows * cols), 0.0);
    fill([&](Index r, Index c, double x) { v[static_cast<std::size_t>(r * cols + c)] = x; });
    return g.doubles(std::move(v), {rows, cols});
}

// decision_function's values from the pairwise ones pw [N, pairs] and the votes: two classes
// −pw; more votes + conf / (3 (|conf| + 1)), conf a class's summed pair values (svc.cpp).
std::string svc_decision(Index k, const std::string& pw, const std::string& votes, OnnxGraphBuilder& g) {
    if (k == 2) return g.add("Neg", {pw});
    const Index pairs = k * (k - 1) / 2;
    const std::string signs = matrix(g, pairs, k, [&](auto set) {
        Index p = 0;
        for (Index s = 0; s < k; ++s)
            for (Index t = s + 1; t < k; ++t, ++p) {
                set(p, s, 1.0);
                set(p, t, -1.0);
            }
    });
    const std::string conf = g.add("MatMul", {pw, signs});
    const std::string shrink =
        g.add("Mul", {g.add("Add", {g.add("Abs", {conf}), g.double_scalar(1.0)}), g.double_scalar(3.0)});
    return g.add("Add", {votes, g.add("Div", {conf, shrink})});
}

// svc's scores: the pairwise decision values, then votes, decision_function and with
// probability=1 the probabilities, as svc.cpp and svm_model.cpp compute them.
OnnxScores svc_scores(const OnnxEstimator& e, const SvmModel& m, const std::string& X, OnnxGraphBuilder& g) {
    const auto k = static_cast<Index>(m.n_sv.size());
    const Index pairs = k * (k - 1) / 2, n_sv = m.sv_coef.cols();
    std::vector<Index> start(static_cast<std::size_t>(k) + 1, 0);
    for (Index c = 0; c < k; ++c)
        start[static_cast<std::size_t>(c) + 1] = start[static_cast<std::size_t>(c)] + m.n_sv[static_cast<std::size_t>(c)];
    // Pair (s, t)'s weights: class s's vectors take row t−1 of sv_coef, class t's row s.
    const std::string W = matrix(g, n_sv, pairs, [&](auto set) {
        Index p = 0;
        for (Index s = 0; s < k; ++s)
            for (Index t = s + 1; t < k; ++t, ++p) {
                for (Index j = start[s]; j < start[s + 1]; ++j) set(j, p, m.sv_coef(t - 1, j));
                for (Index j = start[t]; j < start[t + 1]; ++j) set(j, p, m.sv_coef(s, j));
            }
    });
    const std::string pw = g.add("Sub", {g.add("MatMul", {kernel_matrix(m.kernel_spec, m.support_vectors, X, g), W}),
                                         g.double_row(std::vector<double>(m.rho.begin(), m.rho.end()))});
    // Votes: pair (s, t) gives s a vote where its value is above 0, else t.
    auto pair_to_class = [&](bool first) {
        return matrix(g, pairs, k, [&](auto set) {
            Index p = 0;
            for (Index s = 0; s < k; ++s)
                for (Index t = s + 1; t < k; ++t, ++p) set(p, first ? s : t, 1.0);
        });
    };
    const std::string won = g.add("Cast", {g.add("Greater", {pw, g.double_scalar(0.0)})}, {A::of_int("to", 11)});
    const std::string lost = g.add("Sub", {g.double_scalar(1.0), won});
    const std::string votes = g.add("Add", {g.add("MatMul", {won, pair_to_class(true)}),
                                            g.add("MatMul", {lost, pair_to_class(false)})});
    // A calibration maps the decision values (Model::uncalibrated_scores), never these
    // probabilities: without them the graph has no unused coupling. A wrapper's member gives
    // both (its decision value to the wrapper's decisions, its probabilities to its coupling).
    // A weak learner gives its class only: the votes.
    if (e.nested && !e.wants_decision) return OnnxScores{votes, false, votes};
    if (!m.has_probability() || (e.wants_decision && !e.nested))
        return OnnxScores{svc_decision(k, pw, votes, g), false, votes};
    // SvmModel::probabilities: each pair's r(s, t) = sigmoid_probability(f, A, B) clipped to
    // [1e-7, 1 − 1e-7] (LIBSVM's min_prob), r(t, s) = 1 − r(s, t); two classes (r(0, 1),
    // r(1, 0)), more their pairwise coupling.
    const std::string r_st =
        g.add("Clip", {onnx_platt_sigmoid(g, pw, g.double_row(std::vector<double>(m.prob_a.begin(), m.prob_a.end())),
                                          g.double_row(std::vector<double>(m.prob_b.begin(), m.prob_b.end()))),
                       g.double_scalar(1e-7), g.double_scalar(1 - 1e-7)});
    const std::string r_ts = g.add("Sub", {g.double_scalar(1.0), r_st});
    OnnxScores out{
        k == 2 ? g.add("Concat", {r_st, r_ts}, {A::of_int("axis", 1)}) : onnx_pairwise_coupling(g, k, r_st, r_ts), true,
        votes};
    if (e.wants_decision) out.decision = svc_decision(k, pw, votes, g);
    return out;
}

// A double [N, 1] of zeros, one per row of X: what a model without kept rows adds its constant to.
std::string zero_column(const std::string& X, OnnxGraphBuilder& g) {
    return g.add("ReduceSum", {g.add("Mul", {X, g.double_scalar(0.0)}), g.int64s({1}, {1})}, {A::of_int("keepdims", 1)});
}

// svr's prediction: Σ_j coef_j K(x, sv_j) − rho.
OnnxScores svr_scores(const SvmModel& m, const std::string& X, OnnxGraphBuilder& g) {
    const Index n_sv = m.sv_coef.cols();
    if (n_sv == 0) {
        // No support vectors (nu = 1 and the like): the constant −rho for every row.
        return OnnxScores{g.add("Sub", {zero_column(X, g), g.double_scalar(m.rho[0])}), false};
    }
    const std::string coef = matrix(g, n_sv, 1, [&](auto set) {
        for (Index j = 0; j < n_sv; ++j) set(j, 0, m.sv_coef(0, j));
    });
    return OnnxScores{g.add("Sub", {g.add("MatMul", {kernel_matrix(m.kernel_spec, m.support_vectors, X, g), coef}), g.double_scalar(m.rho[0])}), false};
}

// kernel_ridge, kernel_logistic, kernel_perceptron: K(X, rows) coef + intercept, then
// kernel_logistic's probabilities as logistic_probabilities computes them.
std::string expansion_columns(const KernelExpansion& e, const std::string& X, OnnxGraphBuilder& g) {
    const Index rows = e.coef.rows(), outputs = e.coef.cols();
    const std::string intercepts = g.double_row(std::vector<double>(e.intercept.begin(), e.intercept.end()));
    if (rows == 0) {
        // No rows kept (every coefficient zero): the intercepts for every row.
        return g.add("Add", {zero_column(X, g), intercepts});
    }
    const std::string coef = matrix(g, rows, outputs, [&](auto set) {
        for (Index j = 0; j < rows; ++j)
            for (Index q = 0; q < outputs; ++q) set(j, q, e.coef(j, q));
    });
    return g.add("Add", {g.add("MatMul", {kernel_matrix(e.kernel_spec, e.rows, X, g), coef}), intercepts});
}

OnnxScores expansion_scores(const OnnxEstimator& est, const KernelExpansion& e, bool logistic, const std::string& X,
                            OnnxGraphBuilder& g) {
    const Index outputs = e.coef.cols();
    const std::string scores = expansion_columns(e, X, g);
    if (!logistic || !est.estimator.has_predict_proba()) return OnnxScores{scores, false};
    OnnxScores out{outputs > 1 ? g.add("Softmax", {scores}, {A::of_int("axis", 1)}) : onnx_logistic_pair(g, scores),
                   true};
    out.decision = scores;
    return out;
}

// A wrapper's kernel_perceptron or kernel_logistic members, each one score column f, side by
// side, and (kernel_logistic) their P(positive) = σ(f); nullopt for other members.
std::optional<OnnxScores> kernel_member_scores(const OnnxEstimator& e, const MulticlassWrapper& wrapper,
                                               const std::string& X, OnnxGraphBuilder& g) {
    std::vector<std::string> columns;
    bool logistic = true;
    for (const auto& member : wrapper.fitted_members()) {
        const auto* perceptron = dynamic_cast<const KernelPerceptron*>(member.get());
        const auto* klr = dynamic_cast<const KernelLogistic*>(member.get());
        if (!perceptron && !klr) return std::nullopt;
        logistic = logistic && klr;
        columns.push_back(expansion_columns(perceptron ? perceptron->expansion() : klr->expansion(), X, g));
    }
    const std::string scores = g.add("Concat", columns, {A::of_int("axis", 1)});
    const bool proba = logistic && wrapper.has_predict_proba();
    return onnx_multiclass_scores(e, wrapper, scores, g, proba ? g.add("Sigmoid", {scores}) : std::string());
}

// knn in standard operators, in double, as knn.cpp and knn_search.cpp compute it: the exact
// distance to every kept training row summed feature by feature in feature order (one Sub and
// Mul or Abs and Add per feature, so the sums are kestrel's bit for bit; cosine from the
// products and norms summed alike), the k nearest by TopK (smallest first, the lower training
// row on ties, as kestrel's (distance, row) order), the reported distance (euclidean's square
// root, cosine clipped to [0, 2]), the weights (1, or 1/distance with a zero distance taking
// all the weight), then each class's summed weight over the row's total or the weighted mean
// target, the neighbours added one after the other as kestrel adds them. metric=kernel ranks
// by the distance the kernel induces (knn_kernel_distances).

// Σ_j f(x_j, z_j) over the features in order [N, rows]; `term` makes one feature's [N, rows].
template <class Term>
std::string knn_feature_sum(const DenseMatrix& Z, const std::string& X, OnnxGraphBuilder& g, Term term) {
    std::string sum;
    for (Index j = 0; j < Z.cols(); ++j) {
        std::vector<double> column(static_cast<std::size_t>(Z.rows()));
        for (Index i = 0; i < Z.rows(); ++i) column[static_cast<std::size_t>(i)] = Z(i, j);
        const std::string t = term(onnx_column(g, X, j), g.double_row(std::move(column)));
        sum = sum.empty() ? t : g.add("Add", {sum, t});
    }
    return sum;
}

// What kestrel ranks the rows by [N, rows]: the squared euclidean distance, the L1 distance,
// or 1 − cos (1 where either norm is 0).
std::string knn_ranked_distances(KnnMetric metric, const DenseMatrix& Z, const std::string& X, OnnxGraphBuilder& g) {
    switch (metric) {
        case KnnMetric::euclidean:
            return knn_feature_sum(Z, X, g, [&](const std::string& x, const std::string& z) {
                const std::string t = g.add("Sub", {x, z});
                return g.add("Mul", {t, t});
            });
        case KnnMetric::manhattan:
            return knn_feature_sum(Z, X, g, [&](const std::string& x, const std::string& z) {
                return g.add("Abs", {g.add("Sub", {x, z})});
            });
        case KnnMetric::cosine: {
            const std::string dot = knn_feature_sum(Z, X, g, [&](const std::string& x, const std::string& z) {
                return g.add("Mul", {x, z});
            });
            std::string x2;  // ||x||² in feature order [N, 1]
            for (Index j = 0; j < Z.cols(); ++j) {
                const std::string x = onnx_column(g, X, j);
                const std::string sq = g.add("Mul", {x, x});
                x2 = x2.empty() ? sq : g.add("Add", {x2, sq});
            }
            std::vector<double> norms;
            for (Index i = 0; i < Z.rows(); ++i) {
                double s = 0;
                for (Index j = 0; j < Z.cols(); ++j) s += Z(i, j) * Z(i, j);
                norms.push_back(std::sqrt(s));
            }
            const std::string zn = g.double_row(std::move(norms)), xn = g.add("Sqrt", {x2});
            const std::string zero = g.double_scalar(0.0);
            const std::string either_zero = g.add("Or", {g.add("Equal", {xn, zero}), g.add("Equal", {zn, zero})});
            const std::string v = g.add("Sub", {g.double_scalar(1.0), g.add("Div", {dot, g.add("Mul", {xn, zn})})});
            return g.add("Where", {either_zero, g.double_scalar(1.0), v});
        }
        case KnnMetric::kernel: break;
    }
    throw InternalError("knn_ranked_distances: the kernel metric is knn_kernel_distances'");
}

// metric=kernel (knn_search.cpp brute_kernel): max(0, k(x, x) − 2 k(x, z) + k(z, z)), the
// squared distance the kernel induces; k(z, z) of each kept row evaluated here by kestrel's
// Kernel, as KnnIndex keeps it, the kernel values against x in the graph as the SVMs'.
std::string knn_kernel_distances(const KernelSpec& spec, const Features& train, const std::string& X,
                                 OnnxGraphBuilder& g) {
    const Kernel kernel(spec);
    const KernelRows rows(train);
    std::vector<double> kzz;
    for (Index j = 0; j < rows.size(); ++j) kzz.push_back(kernel(rows, j, rows, j));
    const std::string twice = g.add("Mul", {kernel_matrix(spec, train, X, g), g.double_scalar(2.0)});
    const std::string v = g.add(
        "Add", {g.add("Sub", {self_kernel_matrix(spec, X, train.cols(), g), twice}), g.double_row(std::move(kzz))});
    return g.add("Max", {v, g.double_scalar(0.0)});
}

// Column t of a [N, k, ...] tensor, added up for t = 0..k−1 in order: [N, 1, ...].
std::string knn_sum_over_neighbours(const std::string& x, Index k, OnnxGraphBuilder& g) {
    std::string sum;
    for (Index t = 0; t < k; ++t) {
        const std::string c = onnx_column(g, x, t);
        sum = sum.empty() ? c : g.add("Add", {sum, c});
    }
    return sum;
}

}  // namespace

std::optional<OnnxScores> onnx_kernel_model_scores(const OnnxEstimator& e, const std::string& X, OnnxGraphBuilder& g) {
    const Estimator* estimator = &e.estimator;
    // A multiclass wrapper (kernel_perceptron): its one member with two classes, else its
    // members' scores combined by its strategy.
    if (const auto* wrapper = dynamic_cast<const MulticlassWrapper*>(estimator)) {
        if (!wrapper->direct_member()) return kernel_member_scores(e, *wrapper, X, g);
        estimator = wrapper->direct_member();
    }
    if (const auto* svc = dynamic_cast<const Svc*>(estimator)) return svc_scores(e, svc->model(), X, g);
    if (dynamic_cast<const Svr*>(estimator) || dynamic_cast<const NuSvr*>(estimator))
        return svr_scores(static_cast<const KernelSvmRegressor*>(estimator)->model(), X, g);
    if (const auto* one_class = dynamic_cast<const OneClassSvm*>(estimator)) {
        // OneClassSvm::do_predict: +1 where Σ coef K − rho is above 0, else −1 (its `variable`),
        // the decision value beside it (`scores`).
        const std::string f = svr_scores(one_class->model(), X, g).tensor;
        OnnxScores out{g.add("Where", {g.add("Greater", {f, g.double_scalar(0.0)}), g.double_scalar(1.0),
                                       g.double_scalar(-1.0)}),
                       false};
        out.decision = f;
        return out;
    }
    if (const auto* ridge = dynamic_cast<const KernelRidge*>(estimator))
        return expansion_scores(e, ridge->expansion(), false, X, g);
    if (const auto* klr = dynamic_cast<const KernelLogistic*>(estimator))
        return expansion_scores(e, klr->expansion(), true, X, g);
    if (const auto* perceptron = dynamic_cast<const KernelPerceptron*>(estimator))
        return expansion_scores(e, perceptron->expansion(), false, X, g);
    return std::nullopt;
}

std::optional<OnnxScores> onnx_knn_scores(const OnnxEstimator& e, const std::string& X, OnnxGraphBuilder& g) {
    const auto* knn = dynamic_cast<const Knn*>(&e.estimator);
    if (!knn) return std::nullopt;
    const KnnMetric metric = knn_metric_from_string(knn->settings().metric);
    const DenseMatrix Z = knn->index().train().to_dense();
    const auto k = static_cast<Index>(knn->settings().n_neighbors);
    const std::string ranked = metric == KnnMetric::kernel
                                   ? knn_kernel_distances(*knn->kernel(), knn->index().train(), X, g)
                                   : knn_ranked_distances(metric, Z, X, g);
    const std::vector<std::string> top =
        g.add_outputs("TopK", {ranked, g.int64s({k}, {1})}, 2,
                      {A::of_int("axis", 1), A::of_int("largest", 0), A::of_int("sorted", 1)});
    const std::string& rows = top[1];  // [N, k] training row indices, nearest first
    const bool uniform = knn->settings().weights == "uniform";
    std::string w;  // the neighbours' weights [N, k]; empty: uniform
    if (!uniform) {
        std::string distance = top[0];
        if (metric == KnnMetric::euclidean || metric == KnnMetric::kernel)
            distance = g.add("Sqrt", {g.add("Max", {distance, g.double_scalar(0.0)})});
        if (metric == KnnMetric::cosine)
            distance = g.add("Clip", {distance, g.double_scalar(0.0), g.double_scalar(2.0)});
        const std::string inverse = g.add("Div", {g.double_scalar(1.0), distance});
        const std::string infinite =
            g.add("Cast", {g.add("IsInf", {inverse})}, {A::of_int("to", static_cast<int>(OnnxType::float64))});
        const std::string any_infinite =
            g.add("Greater", {g.add("ReduceMax", {infinite}, {A::of_ints("axes", {1}), A::of_int("keepdims", 1)}),
                              g.double_scalar(0.0)});
        w = g.add("Where", {any_infinite, infinite, inverse});
    }
    const Vector& y = knn->targets();
    if (e.classifier()) {
        const auto classes = static_cast<std::int64_t>(e.classes);
        std::vector<std::int64_t> labels, range;
        for (Index i = 0; i < y.size(); ++i) labels.push_back(static_cast<std::int64_t>(y[i]));
        for (std::int64_t c = 0; c < classes; ++c) range.push_back(c);
        const std::string neighbour_class =
            g.add("Gather", {g.int64s(std::move(labels), {static_cast<std::int64_t>(y.size())}), rows},
                  {A::of_int("axis", 0)});
        // [N, k, classes]: the neighbour's weight in its class's column.
        std::string votes = g.add("Cast",
                                  {g.add("Equal", {g.add("Unsqueeze", {neighbour_class, g.int64s({2}, {1})}),
                                                   g.int64s(std::move(range), {1, 1, classes})})},
                                  {A::of_int("to", static_cast<int>(OnnxType::float64))});
        if (!uniform) votes = g.add("Mul", {votes, g.add("Unsqueeze", {w, g.int64s({2}, {1})})});
        const std::string per_class = g.add("Squeeze", {knn_sum_over_neighbours(votes, k, g), g.int64s({1}, {1})});
        std::string total;
        for (std::int64_t c = 0; c < classes; ++c) {
            const std::string col = onnx_column(g, per_class, c);
            total = total.empty() ? col : g.add("Add", {total, col});
        }
        const std::string zero = g.double_scalar(0.0);
        total = g.add("Where", {g.add("Equal", {total, zero}), g.double_scalar(1.0), total});  // scikit-learn's guard
        return OnnxScores{g.add("Div", {per_class, total}), true};
    }
    const std::string neighbour_y =
        g.add("Gather", {g.doubles(std::vector<double>(y.data(), y.data() + y.size()), {y.size()}), rows},
              {A::of_int("axis", 0)});
    if (uniform)
        return OnnxScores{
            g.add("Div", {knn_sum_over_neighbours(neighbour_y, k, g), g.double_scalar(static_cast<double>(k))}), false};
    const std::string num = knn_sum_over_neighbours(g.add("Mul", {neighbour_y, w}), k, g);
    return OnnxScores{g.add("Div", {num, knn_sum_over_neighbours(w, k, g)}), false};
}

}  // namespace kestrel
