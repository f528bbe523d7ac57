#pragma once
// Scores a block of rows with a model so that a row's results do not depend on how many
// rows are scored with it: one row alone, a piece of a stream or a whole file give the
// same bytes. Model::predict alone does not promise that (see kMinScoredRows), so every
// front end scores through here.
#include "kestrel/pipeline/model.hpp"

namespace kestrel {

// What to compute besides the predictions.
struct ScoreOutputs {
    bool proba = false;          // Model::predict_proba
    bool decision = false;       // Model::decision_function
    bool contributions = false;  // Model::contributions
};

// The scores of a block of rows; a matrix not asked for is empty.
struct ScoredRows {
    Vector predicted;  // class index or value
    Matrix proba;      // n x k
    Matrix decision;   // n x 1 or n x k
    Matrix contrib;    // n x K·(n_features + 1): Model::contributions
};

// Eigen picks its product kernels by size: a matrix of one row is multiplied as a dot
// product, one of a few rows coefficient by coefficient, larger ones by blocks, and each
// sums in its own order. Blocks of fewer rows than this are scored with their last row
// repeated up to it, dense and sparse alike.
inline constexpr Index kMinScoredRows = 32;

// X with its last row repeated up to `rows` rows (X has at least one row).
Features padded_rows(const Features& X, Index rows);

// Scores X's rows (padded when fewer than kMinScoredRows) and returns each asked-for
// output for exactly X's rows.
ScoredRows score_rows(const Model& model, const Features& X, const ScoreOutputs& outputs);

}  // namespace kestrel
