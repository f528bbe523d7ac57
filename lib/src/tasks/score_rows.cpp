#include "kestrel/tasks/score_rows.hpp"

#include <algorithm>
#include <vector>

namespace kestrel {
namespace {

ScoredRows score_rows_as_given(const Model& model, const Features& X, const ScoreOutputs& outputs) {
    ScoredRows scored;
    scored.predicted = model.predict(X);
    if (outputs.proba) scored.proba = model.predict_proba(X);
    if (outputs.decision) scored.decision = model.decision_function(X);
    if (outputs.contributions) scored.contrib = model.contributions(X);
    return scored;
}

// The first `n` rows of every output that was computed.
void keep_first_scored_rows(ScoredRows& scored, Index n) {
    scored.predicted = scored.predicted.head(n).eval();
    for (Matrix* m : {&scored.proba, &scored.decision, &scored.contrib})
        if (m->rows() > 0) *m = m->topRows(n).eval();
}

}  // namespace

Features padded_rows(const Features& X, Index rows) {
    const Index n = X.rows();
    if (!X.is_sparse()) {
        DenseMatrix padded(rows, X.cols());
        padded.topRows(n) = X.dense_ref();
        for (Index i = n; i < rows; ++i) padded.row(i) = X.dense_ref().row(n - 1);
        return Features(std::move(padded));
    }
    const SparseMatrix& S = X.sparse_ref();
    std::vector<Eigen::Triplet<double, int>> entries;
    for (Index i = 0; i < rows; ++i)
        for (SparseMatrix::InnerIterator it(S, std::min(i, n - 1)); it; ++it)
            entries.emplace_back(static_cast<int>(i), static_cast<int>(it.col()), it.value());
    SparseMatrix padded(rows, X.cols());
    padded.setFromTriplets(entries.begin(), entries.end());
    return Features(std::move(padded));
}

ScoredRows score_rows(const Model& model, const Features& X, const ScoreOutputs& outputs) {
    const Index n = X.rows();
    if (n == 0 || n >= kMinScoredRows) return score_rows_as_given(model, X, outputs);
    ScoredRows scored = score_rows_as_given(model, padded_rows(X, kMinScoredRows), outputs);
    keep_first_scored_rows(scored, n);
    return scored;
}

}  // namespace kestrel
