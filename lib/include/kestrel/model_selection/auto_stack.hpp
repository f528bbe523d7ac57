#pragma once
// kestrel-auto's second layer (docs/auto.md, "Stacking"): AutoGluon's multi-layer stack
// ensembling, one layer deep. The first layer is the search's candidates, each bagged on
// the search's K folds; the second layer's rows are the out-of-fold predictions of a few of
// them (a classifier's probabilities of each class, a regressor's values), and each
// second-layer candidate is bagged on the same folds, so its own out-of-fold predictions,
// and the score the keep rule compares, are of rows its fold model never saw.
#include <cstddef>
#include <string>
#include <vector>

#include "kestrel/model_selection/auto_search.hpp"

namespace kestrel {

// The second layer's training table. oof[m][f] is first-layer member m's predictions of
// folds[f].test, in that order (as the search keeps them); row i of the table holds, member
// after member, its prediction of row i from the fold where i was a test row: a
// classifier's probability of each of data's classes (columns "<names[m]>:<class>"), a
// regressor's value (column "<names[m]>"). With `with_features` (--stack-features,
// AutoGluon's use_orig_features) data's own columns follow, with their names (by position
// without a header), categories and missing cells as the first layer was given them. The
// labels, weights, classes and task are data's. UsageError when the folds do not cover
// each row once, or a classifier's predictions hold no probabilities of every class.
Dataset stack_inputs(const Dataset& data, const std::vector<Fold>& folds,
                     const std::vector<const std::vector<Predictions>*>& oof, const std::vector<std::string>& names,
                     bool with_features = false);

// The first-layer members a stack takes: among the first 4 x `at_most` of r's leaderboard
// entries that kept their out-of-fold predictions, each family's best first, then the
// others, each pass in leaderboard order, at most `at_most`. Leaderboard indices, in input order.
std::vector<std::size_t> stack_member_choice(const AutoResult& r, int at_most);

// The second layer's candidates for a task, tried in this order: a regularized linear
// model (logistic C=1, or ridge alpha=1, on standardized inputs), then gbdt with its
// defaults, early-stopped on a tenth of each fold's training rows.
std::vector<GridPoint> stack_layer_points(Task task, std::vector<std::string>& models);

// The stack over r (its leaderboard ranked, its ensemble built): the members
// (stack_member_choice of opts.stack_members), their inputs (stack_inputs), each
// second-layer candidate scored out of fold on r.folds (fold k's fit on stream k, as
// fit_fold_models fits it again), the best kept when strictly better than every first-layer
// rival (AutoStack::rival). `seconds_left`: what the time budget leaves after the room kept
// for saving the first layer (infinity without one); a candidate starts only while twice
// the previous one's time still fits (its fits, and its saved bag's if it is chosen), none
// when nothing is left, and the note then says the budget left no time for the second layer.
AutoStack build_auto_stack(const Dataset& data, const AutoResult& r, const AutoOptions& opts, const Context& ctx,
                           double seconds_left);

}  // namespace kestrel
