#pragma once
// kestrel-auto's pool of out-of-fold predictions and the ensemble selected from it
// (docs/auto.md, "Ensemble"): which candidates can join, how many keep their predictions
// while the search runs, and the selection with its keep rule after the search. The
// second layer (kestrel/model_selection/auto_stack.hpp) reads the same pool.
#include <cstddef>
#include <vector>

#include "kestrel/model_selection/auto_search.hpp"

namespace kestrel::detail {

// The stack's pool: this many times its members keep their predictions during the search.
inline constexpr int kAutoStackPoolFactor = 4;

// Whether the search keeps candidates' out-of-fold predictions: --ensemble or --stack.
bool auto_keeps_predictions(const AutoOptions& opts);

// Whether a candidate's out-of-fold predictions can join an ensemble or a stack: a
// classifier's must hold probabilities (averaging decision values of different scales
// means nothing), and on a LIBSVM file not a model that reads absent entries as missing.
bool auto_can_join(const std::vector<Predictions>& oof, const ModelSpec& spec, const AutoOptions& opts);

// Keeps the out-of-fold predictions of the best candidates only, as many as the ensemble's
// pool needs (ensemble_nbest) or kAutoStackPoolFactor times the stack's members, whichever
// is larger (the worst holder, the later on ties, lets go): memory stays bounded by the pool.
void trim_auto_pool(std::vector<AutoCandidate>& leaderboard, const AutoOptions& opts, bool greater);

// Ensemble selection over the pool of r's ranked leaderboard, with its keep rule.
AutoEnsemble build_auto_ensemble(const AutoResult& r, const AutoOptions& opts);

}  // namespace kestrel::detail
