#pragma once
// An auto run as JSON: what kestrel-auto --json prints, and what the C and Python
// interfaces return. The fields are docs/auto.md's ("The JSON").
#include "kestrel/core/params.hpp"
#include "kestrel/model_selection/auto_search.hpp"
#include "kestrel/tasks/auto_task.hpp"

namespace kestrel {

// A candidate's point (its sampled values; empty = the model's defaults) as a JSON object.
Json auto_point_json(const GridPoint& point);

// The ensemble of result (result.ensemble set): rounds, pool, kept, and its members with
// their weights and scores, or the note saying why none was formed.
Json auto_ensemble_json(const AutoResult& result);

// The stack of result (result.stack set): its first-layer members, each second-layer
// candidate's out-of-fold scores, the chosen one, the rival it had to beat, the margin
// (> 0: the stack is better) and kept, or the note saying why none was fitted.
Json auto_stack_json(const AutoResult& result);

// The whole run: task, metric, budget and what stopped it, the leaderboard (rank, model,
// params, fold scores, ...), skipped and failed candidates, the best, the ensemble, the
// stack, the saved model file and what it holds (`chosen`: single, ensemble or stack), and
// `time`: where the wall time went (AutoTimes).
Json auto_run_json(const AutoRun& run);

}  // namespace kestrel
