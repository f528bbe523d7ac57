#pragma once
// Ensemble selection (Caruana, Niculescu-Mizil, Crew and Ksikes 2004, "Ensemble selection
// from libraries of models"; auto-sklearn's EnsembleSelection): greedy forward selection
// with replacement over candidates' out-of-fold predictions on shared folds. Each round
// adds the candidate that makes the running average score best; a candidate may be added
// again, so the weights are the selection counts over the rounds. docs/auto.md states the
// rule, the tie rule and what guards the optimism of scoring on the same predictions.
#include <cstddef>
#include <string>
#include <vector>

#include "kestrel/metrics/predictions.hpp"
#include "kestrel/model_selection/cross_validate.hpp"

namespace kestrel {

struct EnsembleSelection {
    std::vector<std::size_t> picks;    // the candidate added in each round, in order
    std::vector<std::size_t> members;  // the distinct candidates picked, ascending
    std::vector<double> weights;       // per member: its picks / rounds
    std::vector<double> fold_scores;   // the weighted average's metric on each fold
    MetricSummary score;               // their mean and population std (the leaderboard's summary)
};

// oof[c][f] is candidate c's predictions on fold f's test rows; every candidate has the
// same folds and rows (classification: probabilities, which are averaged; regression:
// predictions). Each of `rounds` rounds adds the candidate whose addition gives the best
// mean over folds of `metric` on the average (ties: the lowest index, so pass candidates
// best first). The score is that of the final weights. UsageError for no candidates,
// rounds < 1, a classification candidate without probabilities, or mismatched folds.
EnsembleSelection select_ensemble(const std::vector<std::vector<Predictions>>& oof, const std::string& metric,
                                  int rounds);

// The selection checked on rows it did not see: for each fold f, the same selection
// (`rounds` rounds) run on the other folds' predictions only, its weights scored on fold f.
// UsageError as select_ensemble, and for fewer than 2 folds.
std::vector<double> held_out_ensemble_scores(const std::vector<std::vector<Predictions>>& oof, const std::string& metric,
                                             int rounds);

// Picking the best single candidate checked the same way: for each fold f, the fold-f score
// of the candidate whose mean over the other folds is best (ties: the lowest index).
// fold_scores[c][f] is candidate c's score on fold f.
std::vector<double> held_out_best_scores(const std::vector<std::vector<double>>& fold_scores, bool greater);

// The weighted average of predictions of the same rows (probabilities for classification,
// with y_pred their argmax, the first class on ties; predictions for regression).
Predictions weighted_average(const std::vector<const Predictions*>& parts, const std::vector<double>& weights);

}  // namespace kestrel
