#pragma once
// Permutation importance (Breiman 2001; scikit-learn's
// sklearn.inspection.permutation_importance): how much a fitted model's score drops
// when one feature's values are shuffled across the rows, breaking its link with the
// target. Generic over anything that scores a feature matrix, so that forests,
// kestrel-select and any model share it.
#include <cstdint>
#include <functional>
#include <string>

#include "kestrel/pipeline/model.hpp"

namespace kestrel {

// Scores a feature matrix; greater is better.
using ScoreFunction = std::function<double(const Features& X)>;

struct PermutationImportance {
    double baseline = 0;    // the score on the rows as they are
    Eigen::MatrixXd drops;  // d x repeats: baseline - score with feature j shuffled
    Vector mean, std;       // over the repeats (population std, as scikit-learn)
};

// Shuffles each feature `repeats` times; feature j's shuffles come from a generator
// seeded by (seed, j), so the result does not depend on `threads`. `score` must be
// safe to call from several threads at once.
PermutationImportance permutation_importance(const Features& X, const ScoreFunction& score, int repeats,
                                             std::uint64_t seed, int threads);

// A fitted model on labelled held-out data, scored by a registered metric (an error
// metric is negated, so an importance is always the loss of quality, as
// scikit-learn's scorers). `y` holds class indices into model.classes() or targets.
PermutationImportance permutation_importance(const Model& model, const Features& X, const Vector& y,
                                             const std::string& metric, int repeats, std::uint64_t seed, int threads);

}  // namespace kestrel
