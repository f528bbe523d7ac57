#pragma once
// The auto run as kestrel-auto does it, whole (docs/auto.md): a training table read as
// kestrel-train reads it, the portfolio searched by cross-validation under a budget
// (auto_search), and the choice (the best candidate, or the kept ensemble) refit on all
// rows and saved with its provenance. A program linking the library gets the command's
// leaderboard and model file from run_auto_task; auto_json.hpp serializes the result.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "kestrel/core/context.hpp"
#include "kestrel/core/dataset.hpp"
#include "kestrel/model_selection/auto_search.hpp"
#include "kestrel/pipeline/model.hpp"
#include "kestrel/tasks/training_data.hpp"

namespace kestrel {

// Without a budget in evaluations or seconds, the run gets this many seconds (docs/auto.md).
inline constexpr double kDefaultAutoTimeBudget = 60;

struct AutoRequest {
    // The training file ("-" for standard input) and how it is read: format, label column,
    // column types, missing cells (read.missing), limits, threads.
    TrainingDataOptions data;
    // Every candidate's share of the missing cells (ModelSpec::missing: "auto", "keep", an
    // imputer) and of the categorical columns (ModelSpec::encode).
    std::string missing = "auto";
    std::string encode = "auto";
    std::optional<Task> task;  // forced; else the labels decide (kestrel-train's rule)
    // The search. metric empty: default_metric of the task. Neither max_evals nor
    // time_budget: kDefaultAutoTimeBudget. ensemble_size > 0 builds an ensemble; the task
    // sets ensemble_excludes_absent_missing from the file's format and base from the fields
    // above; split.k, models, halving and confirmation are taken as given.
    AutoOptions search;
    // Where the choice is saved; empty: not refit, not saved.
    std::string output;
    // What is saved (docs/auto.md, "Bagging"): false, each chosen candidate as the equal-
    // weight average of its K fold models (AutoGluon's bagged models); true, refit on all
    // rows (AutoGluon's refit_full). A classifier without probabilities is always refit.
    bool refit_full = false;
};

// What the run did: the search's result and the options it ran with (the metric and budget
// chosen), with the facts of the table that the leaderboard's readers need.
struct AutoRun {
    AutoResult result;
    AutoOptions options;   // as run: metric and time_budget filled in
    std::string source;    // the table as its reader names it (Dataset::source)
    Task task = Task::classification;
    Index rows = 0;
    std::string output;    // the saved model file, or empty
    // The saved file's fold models per chosen candidate (its bag: the K of the search's
    // folds); 0 when it was refit on all rows (refit_full, or a classifier without
    // probabilities to average) or nothing was saved.
    std::size_t fold_models = 0;
    // Whether the choice is the kept stack (docs/auto.md, "Stacking"): it beat the ensemble too.
    bool chose_stack() const { return result.stack && result.stack->kept; }
    // Whether the choice is the kept ensemble (its members refit when saved), not the best candidate.
    bool chose_ensemble() const { return !chose_stack() && result.ensemble && result.ensemble->kept; }
};

// The search's choices a request can get wrong before any data is read: each model of the
// portfolio known (UsageError naming the option "models" and the valid models) and the
// metric known. run_auto_task checks them first; a caller may check them sooner.
void check_auto_options(const AutoOptions& options);

// The search options a request runs with before the data is read: the default budget, and
// for an ensemble whether the input is LIBSVM (its format forced, else detected from the
// name and head by the reader interface: then the candidates of models that read an
// absent entry as missing cannot join, since they are refit on another reading of it).
AutoOptions auto_options_for(const AutoRequest& request);

// Reads the table, searches, and refits and saves the choice when request.output is set.
// `started`: seconds already spent before the call (they count against the time budget
// and in each candidate's finished_at).
AutoRun run_auto_task(const AutoRequest& request, const Context& ctx, double started = 0);

// Whether the saved choice is bagged (auto_bags): not under refit_full, and a classifier's
// every chosen candidate gives probabilities (what a bag averages). chose_ensemble: the
// choice is the kept ensemble or the kept stack.
bool auto_bags(const AutoResult& result, bool chose_ensemble, bool refit_full);

// The choice fitted on `data` (the table the search ran on), its provenance stamped
// (stamp_provenance: date, data file, seed) with an "auto" section of its cv scores:
// bagged (auto_bags), a model of kind ensemble holding the candidate's K fold models of
// weight 1/K (fit_fold_models: the models the search scored); else refit on all rows. A
// best candidate of a model that reads absent sparse entries as missing (gbdt) is fitted
// on the file read again for that model, as kestrel-train would read it (not for standard
// input, which is read once), on the same rows and folds.
Model refit_auto_choice(const AutoResult& result, const Dataset& data, const AutoRequest& request,
                        const Context& ctx);

// The kept ensemble on `data`: bagged, each member's K fold models with weight w / K
// (one flat ensemble: the average is the same, and a member is never itself an ensemble);
// else each member refit on all rows by Model::train with its candidate's refit spec and
// `ctx` (the model kestrel-train gives with those parameters and seed), weighted as selected.
Model refit_auto_ensemble(const AutoResult& result, const Dataset& data, const Context& ctx, bool bagged);

// The kept stack on `data` (Model::stacked): bagged, each first-layer member's K fold
// models (fit_fold_models) and the second layer's K fold models fitted on the stack's
// inputs (AutoStack::inputs: the members' out-of-fold predictions), exactly the models
// whose out-of-fold scores chose it; else each member refit on all rows with its refit
// spec and the second layer fitted on all the stack's inputs.
Model refit_auto_stack(const AutoResult& result, const Dataset& data, const Context& ctx, bool bagged);

// The best candidate's bag alone (a model of kind ensemble, K members of weight 1/K).
Model auto_bag(const AutoResult& result, const AutoCandidate& candidate, const Dataset& data, const Context& ctx);

// The series the search's plot draws: the best cv mean found so far (x: each candidate's
// finished_at, in evaluation order; y: the best mean up to it), one step per evaluation.
struct AutoProgress {
    std::vector<double> seconds;
    std::vector<double> best;
};
AutoProgress auto_best_so_far(const AutoResult& result);

}  // namespace kestrel
