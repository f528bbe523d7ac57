// Feature contributions per input column: the estimator's own (the trees), or the
// linear ones from its weights and the training mean, mapped back through the steps.
#include "kestrel/pipeline/model.hpp"

#include <string>
#include <vector>

#include "kestrel/core/error.hpp"

namespace kestrel {

std::vector<Index> Model::contribution_sources() const {
    if (ensemble_members())
        throw UsageError(option_named("contributions") + ": an ensemble (kestrel-auto " + option_named("ensemble") +
                         ") gives no feature contributions; explain its members, or use permutation importance "
                         "(kestrel-explain " + option_named("importance") + "), which works for every model");
    if (!estimator_->has_contributions()) {
        const bool linear = estimator_->linear_weights().size() > 0;
        if (!linear)
            throw UsageError(option_named("contributions") + ": model " + spec_.model + " gives no feature contributions (valid: tree, "
                             "forest, gbdt and the linear models; docs/explanations.md)");
        if (!feature_mean_)
            throw UsageError(option_named("contributions") + ": this " + spec_.model + " model file holds no training mean (written before "
                             "format version 4); retrain it to get contributions");
    }
    // The input column each column the estimator sees is made from.
    std::vector<Index> source(static_cast<std::size_t>(n_features_));
    for (Index j = 0; j < n_features_; ++j) source[static_cast<std::size_t>(j)] = j;
    for (const auto& s : steps_) {
        const auto from = s->output_sources(static_cast<Index>(source.size()));
        if (!from)
            throw UsageError(option_named("contributions") + ": preprocessing step '" + s->kind() +
                             "' mixes input columns; contributions per input column are not defined for it");
        std::vector<Index> next;
        for (Index j : *from) next.push_back(source.at(static_cast<std::size_t>(j)));
        source = std::move(next);
    }
    return source;
}

Matrix Model::contributions(const Features& X) const {
    const std::vector<Index> source = contribution_sources();
    const Features P = prepare(X);
    const Matrix c = estimator_->has_contributions() ? estimator_->contributions(P) : linear_contributions(P);
    const auto dp = static_cast<Index>(source.size()), d = n_features_;
    const Index outputs = c.cols() / (dp + 1);
    Matrix out = Matrix::Zero(c.rows(), outputs * (d + 1));
    for (Index o = 0; o < outputs; ++o) {
        // Column by column in the estimator's order: a row's sums do not depend on the rows beside it.
        for (Index j = 0; j < dp; ++j) out.col(o * (d + 1) + source[static_cast<std::size_t>(j)]) += c.col(o * (dp + 1) + j);
        out.col(o * (d + 1) + d) = c.col(o * (dp + 1) + dp);
    }
    return out;
}

Matrix Model::linear_contributions(const Features& P) const {
    const Matrix W = estimator_->linear_weights();
    const Vector& mean = *feature_mean_;
    const Index d = P.cols(), K = W.rows();
    if (W.cols() != d || mean.size() != d) throw InternalError("linear contributions: widths disagree");
    const auto refuse = [&] {
        return UsageError(option_named("contributions") + ": model " + spec_.model + " has " + std::to_string(K) +
                          " rows of weights for its outputs; no contributions");
    };
    // The bias: the model's output at the mean, w·mean + b, for every row the same.
    const Features centre(DenseMatrix(mean.transpose()));
    const Matrix at_mean = task_ == Task::classification ? estimator_->decision_function(centre)
                                                         : Matrix(estimator_->predict(centre));
    if (at_mean.cols() != K) throw refuse();
    Matrix out(P.rows(), K * (d + 1));
    const bool dense = !P.is_sparse();
    for (Index i = 0; i < P.rows(); ++i) {
        Vector x = dense ? Vector(P.dense_ref().row(i).transpose()) : Vector(Vector::Zero(d));
        if (!dense)
            for (SparseMatrix::InnerIterator it(P.sparse_ref(), i); it; ++it) x[it.col()] = it.value();
        for (Index o = 0; o < K; ++o) {
            for (Index j = 0; j < d; ++j) out(i, o * (d + 1) + j) = W(o, j) * (x[j] - mean[j]);
            out(i, o * (d + 1) + d) = at_mean(0, o);
        }
    }
    return out;
}

std::vector<std::string> Model::contribution_names(Index outputs) const {
    std::vector<std::string> features = input_names();
    features.emplace_back("bias");
    if (outputs == 1) return features;
    std::vector<std::string> out;
    for (Index o = 0; o < outputs; ++o)
        for (const auto& f : features)
            out.push_back((static_cast<std::size_t>(o) < classes_.size() ? classes_[static_cast<std::size_t>(o)]
                                                                         : std::to_string(o)) +
                          ":" + f);
    return out;
}

}  // namespace kestrel
