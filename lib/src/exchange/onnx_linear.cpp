// The linear family (every model whose fitted state is LinearModel's weights: logistic,
// linear_svm, ridge, lasso, ...): X Wᵀ + b by MatMul and Add in double, then logistic's
// probabilities as logistic_probabilities computes them. Standard operators rather than
// ai.onnx.ml's LinearClassifier / LinearRegressor, whose outputs are float: the scores stay
// exact in double. A one-vs-rest or one-vs-one wrapper of linear members (linear_svm,
// perceptron, lp_svm over more than two classes; logistic with multiclass=ovr or ovo, whose
// probabilities are combined too) is the same product with one column per member, then the
// wrapper's combination (multiclass_wrapper.cpp). adaboost over linear weak learners adds
// each learner's α to the class its scores pick (over learners of another family, to the
// class their own nodes give).
#include "kestrel/boosting/adaboost.hpp"
#include "kestrel/exchange/export.hpp"
#include "kestrel/linear/linear_model.hpp"
#include "kestrel/linear/logistic.hpp"
#include "kestrel/multiclass/multiclass_wrapper.hpp"
#include "kestrel/pipeline/model.hpp"
#include "onnx_parts.hpp"

namespace kestrel {
namespace {

using A = OnnxAttribute;

// X Wᵀ + b for the rows of W (one per output column), in double.
std::string linear_scores(const Eigen::MatrixXd& W, const Vector& b, const std::string& X, OnnxGraphBuilder& g) {
    const Index rows = W.rows(), d = W.cols();
    std::vector<double> weights;  // d x rows, row-major: Wᵀ
    for (Index j = 0; j < d; ++j)
        for (Index r = 0; r < rows; ++r) weights.push_back(W(r, j));
    const std::string product = g.add("MatMul", {X, g.doubles(std::move(weights), {d, rows})});
    return g.add("Add", {product, g.double_row(std::vector<double>(b.data(), b.data() + b.size()))});
}

// A wrapper of several linear members; nullopt when its members are not linear.
std::optional<OnnxScores> wrapped_linear_scores(const OnnxEstimator& e, const MulticlassWrapper& wrapper,
                                                const std::string& X, OnnxGraphBuilder& g) {
    const auto& members = wrapper.fitted_members();
    Eigen::MatrixXd W;
    Vector b(static_cast<Index>(members.size()));
    bool logistic = true;
    for (std::size_t m = 0; m < members.size(); ++m) {
        const auto* linear = dynamic_cast<const LinearModel*>(members[m].get());
        if (!linear || linear->coef_matrix().rows() != 1 || !members[m]->has_decision_function()) return std::nullopt;
        logistic = logistic && dynamic_cast<const LogisticRegression*>(linear) != nullptr;
        if (W.size() == 0) W.resize(static_cast<Index>(members.size()), linear->coef_matrix().cols());
        W.row(static_cast<Index>(m)) = linear->coef_matrix().row(0);
        b[static_cast<Index>(m)] = linear->intercepts()[0];
    }
    const std::string scores = linear_scores(W, b, X, g);
    // Binary logistic members: P(positive) = σ(z), logistic_probabilities' second column.
    const bool proba = logistic && wrapper.has_predict_proba();
    return onnx_multiclass_scores(e, wrapper, scores, g, proba ? g.add("Sigmoid", {scores}) : std::string());
}

// adaboost over weak learners other than trees (AdaBoost::do_decision_function): each
// learner's class as it predicts it, the learner's α added to that class's column (SAMME,
// more than two classes) or ±α to the one column (classes[1] or not), the learners in order
// from the first (kestrel adds to zeros; a column a learner does not pick adds 0). A linear
// learner's class from its scores (scores_to_classes: its one column above 0, else the first
// largest); another's from its nodes as its family exports it alone (onnx_label_index), or
// ExportRefused naming the base when that family does not export.
OnnxScores adaboost_linear_scores(const OnnxEstimator& est, const AdaBoost& ada, const std::string& X,
                                  bool float_inputs, OnnxGraphBuilder& g) {
    const auto k = static_cast<std::int64_t>(est.classes);
    std::vector<std::int64_t> range;
    for (std::int64_t c = 0; c < k; ++c) range.push_back(c);
    std::string F;
    for (std::size_t t = 0; t < ada.learners().size(); ++t) {
        const Estimator* e = ada.learners()[t].get();
        if (const auto* w = dynamic_cast<const MulticlassWrapper*>(e); w && w->direct_member()) e = w->direct_member();
        const auto* linear = dynamic_cast<const LinearModel*>(e);
        const std::string a = g.double_scalar(ada.rounds()[t].alpha);
        if (!linear || linear->coef_matrix().rows() != (k > 2 ? k : 1)) {
            // The learner's predicted class [N, 1] from its family's nodes.
            const OnnxEstimator learner = OnnxEstimator::member(est, *ada.learners()[t], k, false);
            const OnnxScores s = onnx_estimator_scores(learner, X, float_inputs, g);
            const std::string label =
                g.add("Unsqueeze", {onnx_label_index(s, k, g), g.int64s({1}, {1})});  // [N, 1] int64
            std::string term;
            if (k > 2) {
                const std::string picked = g.add("Cast", {g.add("Equal", {label, g.int64s(range, {1, k})})},
                                                 {A::of_int("to", static_cast<int>(OnnxType::float64))});
                term = g.add("Mul", {picked, a});
            } else {
                term = g.add("Where", {g.add("Equal", {label, g.int64s({1}, {1, 1})}), a, g.add("Neg", {a})});
            }
            F = F.empty() ? term : g.add("Add", {F, term});
            continue;
        }
        const std::string z = linear_scores(linear->coef_matrix(), linear->intercepts(), X, g);
        std::string term;
        if (k > 2) {
            const std::string best = g.add("ArgMax", {z}, {A::of_int("axis", 1), A::of_int("keepdims", 1)});
            const std::string picked = g.add("Cast", {g.add("Equal", {best, g.int64s(range, {1, k})})},
                                             {A::of_int("to", static_cast<int>(OnnxType::float64))});
            term = g.add("Mul", {picked, a});
        } else {
            term = g.add("Where", {g.add("Greater", {z, g.double_scalar(0.0)}), a, g.add("Neg", {a})});
        }
        F = F.empty() ? term : g.add("Add", {F, term});
    }
    if (F.empty()) throw ExportRefused("ONNX export: adaboost without weak learners has no ONNX form here");
    return OnnxScores{F, false};
}

}  // namespace

std::string onnx_logistic_pair(OnnxGraphBuilder& g, const std::string& z) {
    const std::string negative = g.add("Sigmoid", {g.add("Neg", {z})});
    return g.add("Concat", {negative, g.add("Sigmoid", {z})}, {A::of_int("axis", 1)});
}

std::optional<OnnxScores> onnx_linear_scores(const OnnxEstimator& e, const std::string& X, bool float_inputs,
                                             OnnxGraphBuilder& g) {
    const Estimator* estimator = &e.estimator;
    // adaboost whose weak learners are not trees (those are onnx_tree_scores').
    if (const auto* ada = dynamic_cast<const AdaBoost*>(estimator))
        return adaboost_linear_scores(e, *ada, X, float_inputs, g);
    // Two classes under a multiclass wrapper (linear_svm, perceptron): its one member, used as
    // it is. A wrapper of several members: their scores side by side, then its combination.
    if (const auto* wrapper = dynamic_cast<const MulticlassWrapper*>(estimator)) {
        if (!wrapper->direct_member()) return wrapped_linear_scores(e, *wrapper, X, g);
        estimator = wrapper->direct_member();
    }
    const auto* linear = dynamic_cast<const LinearModel*>(estimator);
    if (!linear) return std::nullopt;
    const std::string scores = linear_scores(linear->coef_matrix(), linear->intercepts(), X, g);
    if (!e.classifier()) return OnnxScores{scores, false};
    if (!e.estimator.has_predict_proba()) return OnnxScores{scores, false};
    // (σ(−z), σ(z)): each side from its own sign, as logistic_probabilities; or the softmax.
    OnnxScores out{linear->coef_matrix().rows() > 1 ? g.add("Softmax", {scores}, {A::of_int("axis", 1)})
                                                    : onnx_logistic_pair(g, scores),
                   true};
    out.decision = scores;
    return out;
}

}  // namespace kestrel
