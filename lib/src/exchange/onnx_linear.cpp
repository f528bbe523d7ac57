// The linear family (every model whose fitted state is LinearModel's weights: logistic,
// linear_svm, ridge, lasso, ...): X Wᵀ + b by MatMul and Add in double, then logistic's
// probabilities as logistic_probabilities computes them. Standard operators rather than
// ai.onnx.ml's LinearClassifier / LinearRegressor, whose outputs are float: the scores stay
// exact in double.
#include "kestrel/linear/linear_model.hpp"
#include "kestrel/multiclass/multiclass_wrapper.hpp"
#include "kestrel/pipeline/model.hpp"
#include "onnx_parts.hpp"

namespace kestrel {

std::optional<OnnxScores> onnx_linear_scores(const Model& model, const std::string& X, OnnxGraphBuilder& g) {
    const Estimator* estimator = &model.estimator();
    // Two classes under a multiclass wrapper (linear_svm, perceptron): its one member, used as
    // it is. A wrapper of several members is refused by the caller.
    if (const auto* wrapper = dynamic_cast<const MulticlassWrapper*>(estimator); wrapper && wrapper->direct_member())
        estimator = wrapper->direct_member();
    const auto* linear = dynamic_cast<const LinearModel*>(estimator);
    if (!linear) return std::nullopt;
    const Eigen::MatrixXd& W = linear->coef_matrix();  // rows x d
    const Index rows = W.rows(), d = W.cols();
    std::vector<double> weights;  // d x rows, row-major: Wᵀ
    for (Index j = 0; j < d; ++j)
        for (Index r = 0; r < rows; ++r) weights.push_back(W(r, j));
    const Vector& b = linear->intercepts();
    const std::string product = g.add("MatMul", {X, g.doubles(std::move(weights), {d, rows})});
    const std::string scores = g.add("Add", {product, g.double_row(std::vector<double>(b.data(), b.data() + b.size()))});
    if (model.task() != Task::classification) return OnnxScores{scores, false};
    if (!model.has_predict_proba()) return OnnxScores{scores, false};
    if (rows > 1) return OnnxScores{g.add("Softmax", {scores}, {OnnxAttribute::of_int("axis", 1)}), true};
    // (σ(−z), σ(z)): each side from its own sign, as logistic_probabilities.
    const std::string negative = g.add("Sigmoid", {g.add("Neg", {scores})});
    const std::string positive = g.add("Sigmoid", {scores});
    return OnnxScores{g.add("Concat", {negative, positive}, {OnnxAttribute::of_int("axis", 1)}), true};
}

}  // namespace kestrel
