#include "kestrel/metrics/predictions.hpp"

#include <algorithm>

#include "kestrel/core/error.hpp"

namespace kestrel {
namespace {

bool is_prefix(const std::vector<std::string>& a, const std::vector<std::string>& b) {
    return a.size() <= b.size() && std::equal(a.begin(), a.end(), b.begin());
}

Eigen::VectorXd concat(const Eigen::VectorXd& a, const Eigen::VectorXd& b) {
    Eigen::VectorXd out(a.size() + b.size());
    out << a, b;
    return out;
}

// Scores stack row-wise; a side with no rows contributes nothing, but a side that has
// rows and no scores cannot be stacked with one that has them (the rows would misalign).
Eigen::MatrixXd stack(const Eigen::MatrixXd& a, Index a_rows, const Eigen::MatrixXd& b, Index b_rows,
                      const char* what) {
    if (a_rows == 0) return b;
    if (b_rows == 0) return a;
    if (a.size() == 0 && b.size() == 0) return {};
    if (a.rows() != a_rows || b.rows() != b_rows || a.cols() != b.cols())
        throw InternalError(std::string("Predictions::append: ") + what + " shapes differ (" +
                            std::to_string(a.rows()) + "x" + std::to_string(a.cols()) + " and " +
                            std::to_string(b.rows()) + "x" + std::to_string(b.cols()) + ")");
    Eigen::MatrixXd out(a.rows() + b.rows(), a.cols());
    out << a, b;
    return out;
}

}  // namespace

void Predictions::append(const Predictions& other) {
    const Index n = y_true.size();
    const Index m = other.y_true.size();
    if (n == 0 && classes.empty() && decision.size() == 0 && proba.size() == 0) {
        *this = other;
        return;
    }
    if (m == 0 && other.classes.empty()) return;
    if (task != other.task) throw InternalError("Predictions::append: the two parts are of different tasks");
    if (y_pred.size() != n || other.y_pred.size() != m)
        throw InternalError("Predictions::append: y_true and y_pred lengths differ");
    if (is_prefix(other.classes, classes)) {
        // keep ours: it already covers the other's classes with the same indices
    } else if (is_prefix(classes, other.classes)) {
        classes = other.classes;
    } else {
        throw InternalError("Predictions::append: the two parts have different class lists");
    }
    decision = stack(decision, n, other.decision, m, "decision value");
    proba = stack(proba, n, other.proba, m, "probability");
    if ((qid.size() > 0) != (other.qid.size() > 0))
        throw InternalError("Predictions::append: one part has query ids, the other none");
    if (qid.size() > 0) qid = concat(qid, other.qid);
    if (weights.size() > 0 || other.weights.size() > 0) {
        // Unit weights are implicit; materialise them so the rows stay aligned.
        const Eigen::VectorXd a = weights.size() > 0 ? weights : Eigen::VectorXd::Ones(n);
        const Eigen::VectorXd b = other.weights.size() > 0 ? other.weights : Eigen::VectorXd::Ones(m);
        weights = concat(a, b);
    }
    y_true = concat(y_true, other.y_true);
    y_pred = concat(y_pred, other.y_pred);
    if (model.empty()) model = other.model;
}

}  // namespace kestrel
