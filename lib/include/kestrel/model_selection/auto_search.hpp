#pragma once
// kestrel-auto's search: a portfolio of model families, each searched over the space it
// declares (ModelInfo::search_space), every candidate scored on the same cross-validation
// folds, under a budget counted in evaluations (deterministic) and/or wall-clock seconds.
// docs/auto.md states the portfolio order, the allocation rule and the budget rule.
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "kestrel/model_selection/grid_search.hpp"

namespace kestrel {

// The model's declared search space as parsed axes. UsageError naming the model when it
// declares none (kestrel-gridsearch -m MODEL without -g).
std::vector<GridAxis> declared_axes(const std::string& model);
// The model's portfolio (SearchSpace::portfolio) as points over the space's fixed settings,
// in declared order: what kestrel-auto evaluates after the model's defaults, before any draw.
std::vector<GridPoint> declared_portfolio(const std::string& model);

// Every model that declares a search space and learns `task`, cheapest first (the
// space's cost, then the name): kestrel-auto's default portfolio.
std::vector<std::string> default_portfolio(Task task);

struct AutoOptions {
    SplitOptions split;               // the folds every candidate is scored on
    std::string metric;               // the metric to optimize (its direction from the metric registry)
    std::vector<std::string> models;  // the portfolio, in order; empty = default_portfolio(task)
    int max_evals = 0;                // > 0: stop after this many evaluations
    double time_budget = 0;           // > 0: seconds; no evaluation starts once spent
    double seconds_used = 0;          // already spent before the search (reading the data)
    ModelSpec base;                   // preprocessing and flags every candidate starts from (model ignored)
    // After round 0, a family's turn screens its next halving_batch candidates by
    // successive halving on rows (factor 3) and evaluates the survivor; < 3 = no screening.
    int halving_batch = 9;
    // --ensemble: > 0 runs this many rounds of ensemble selection (select_ensemble) over the
    // ensemble_nbest best candidates that can join (docs/auto.md); 0 = no ensemble.
    int ensemble_size = 0;
    int ensemble_nbest = 50;
    // Candidates of models that read an absent sparse entry as missing (gbdt) cannot join:
    // set when the file is LIBSVM, where they are refit on another reading of it than the
    // other members, and one model file reads its input once.
    bool ensemble_excludes_absent_missing = false;
    // After the search, the leaders (confirmation_leaders, at most this many) are scored on
    // fresh K-fold splits of the rows, one split per round, up to confirm_splits rounds; after
    // each round those clearly behind drop out (confirmation_survivors). They rank first, by
    // their mean over the fresh splits only (docs/auto.md, "Confirming the leaders").
    // confirm_leaders < 2 or confirm_splits < 1 = no confirmation.
    int confirm_leaders = 4;
    int confirm_splits = 3;
    // --stack: > 0 fits a second layer on the out-of-fold predictions of this many first-
    // layer candidates (each family's best first) and keeps it only when its own out-of-
    // fold score beats the first layer's choice (docs/auto.md, "Stacking"); 0 = no stack.
    // Under a time budget the first layer then stops at (1 - stack_time_share) of it.
    int stack_members = 0;
    double stack_time_share = 0.1;
    // The second layer also takes the table's own columns after the members' predictions
    // (AutoGluon's use_orig_features): it can learn where each member is right, not only
    // how to weigh them. Only with stack_members > 0.
    bool stack_features = false;
    // How the choice is saved after the search (run_auto_task with an output): each chosen
    // candidate's K fold models again, or one refit on all rows; none = not saved. Under a
    // time budget the search keeps room for these fits (final_fit_estimate), so that the
    // whole run, the saved model included, ends within the budget.
    enum class FinalFits { none, bagged, refit_full };
    FinalFits final_fits = FinalFits::none;
};

struct AutoCandidate {
    int order = 0;          // 1-based evaluation order
    std::string model;
    GridPoint point;        // the sampled values; empty = the model's defaults
    ModelSpec spec;
    // Early stopping (gbdt's early_stopping_rounds) keeps a number of rounds per fold. The
    // refit on all rows then boosts their mean, rounded, with no hold-out (the cv-then-train
    // habit of XGBoost and LightGBM users): refit_point is `point` with n_estimators set to
    // it and early_stopping_rounds=0, refit_spec its spec. Without early stopping both are
    // point and spec.
    std::vector<long long> fold_rounds;
    GridPoint refit_point;
    ModelSpec refit_spec;
    // Over the search's K folds; once confirmed, over the fresh splits' folds only (the
    // search's mean is biased upward by the very choice that made it a leader).
    MetricSummary score;
    std::vector<double> fold_scores;  // on the search's folds (what the ensemble and its keep rule use)
    std::vector<double> repeat_fold_scores;  // on the fresh splits, K per confirmation round it took part in
    bool confirmed() const { return !repeat_fold_scores.empty(); }
    double fit_seconds = 0; // mean fit time per fold
    double seconds = 0;     // wall time of the whole evaluation (all folds)
    double finished_at = 0; // seconds from the command's start (reading included) to its end
    // --ensemble: the out-of-fold predictions per fold (probabilities for classification),
    // kept only while the candidate is among the ensemble_nbest best that can join.
    std::vector<Predictions> oof;
};

// The ensemble built after the search (--ensemble), scored on the same folds.
struct AutoEnsemble {
    int rounds = 0;
    std::size_t pool = 0;               // candidates it chose from (the best that can join)
    std::vector<std::size_t> members;   // leaderboard indices (0-based), best first
    std::vector<double> weights;        // per member: its picks / rounds
    std::vector<double> fold_scores;
    MetricSummary score;
    double best_single = 0;             // the leaderboard winner's mean on these folds
    // The keep rule (docs/auto.md): each fold scored by a selection made on the other folds,
    // against the single candidate best on the other folds; kept when the first mean is
    // strictly better than that and than best_single, the winner's own mean on the same folds.
    // Empty with one fold (then the in-sample rule: score vs best_single).
    std::vector<double> held_out_scores;
    std::vector<double> held_out_single_scores;
    MetricSummary held_out;
    MetricSummary held_out_single;
    bool kept = false;
    std::string note;                   // why no ensemble was formed (then members is empty)
};

// One second-layer candidate of the stack, bagged on the search's folds: fold k's model is
// fitted on fold k's training rows of the stack's inputs and predicts its test rows.
struct AutoStackCandidate {
    std::string model;
    GridPoint point;
    ModelSpec spec;
    std::vector<double> fold_scores;  // on the search's folds, out of fold
    MetricSummary score;
    double seconds = 0;  // wall time of its K fits
};

// The stack built after the search (--stack, docs/auto.md "Stacking").
struct AutoStack {
    std::vector<std::size_t> members;  // its first-layer inputs: leaderboard indices (0-based), in input order
    // The second layer's training table: the members' out-of-fold predictions, then with
    // `features` the table's own columns (stack_inputs).
    Dataset inputs;
    bool features = false;
    std::vector<AutoStackCandidate> candidates;  // the second-layer candidates scored, in the order tried
    std::size_t chosen = 0;                      // the best of them (ties: the first)
    // What the stack had to beat, and by how much it did (> 0: better, in the metric's
    // direction): the strongest of the first layer's best single mean on the search's folds,
    // the confirmed winner's mean on its fresh splits and the ensemble's held-out mean.
    std::string rival;   // "best single model", "confirmed winner" or "ensemble"
    double rival_mean = 0;
    double margin = 0;
    bool kept = false;
    std::string note;    // why no stack was fitted (then candidates is empty)
    const AutoStackCandidate& best() const { return candidates.at(chosen); }
};

// The warnings the search's fits gave with one cause: the message without the candidate and
// fold that gave it ("linear_svm: dual coordinate descent reached max_iter=1000; ...").
struct AutoWarning {
    std::string cause;
    std::size_t count = 0;
    std::string first;  // the fit that gave the first: "linear_svm C=2e4 scale=standard, fold 2/5" (can depend on --threads)
};

// Where a run's wall time went (docs/auto.md, "The budget"), in seconds from the command's
// start: what auto_search measured, then what run_auto_task adds.
struct AutoTimes {
    double reading = 0;       // before the search (AutoOptions::seconds_used: reading the table)
    double search = 0;        // the first layer: the portfolio, the draws and their screening
    double confirmation = 0;  // the leaders' race on fresh splits
    double ensemble = 0;      // ensemble selection and its held-out check
    double stack = 0;         // the second layer's candidates
    // The room the schedule kept for the final fits when the search ended (final_fit_estimate).
    double final_fits_reserved = 0;
    double final_fits = 0;    // the saved model's fold models or refits, and writing it (run_auto_task)
    double total = 0;         // from the command's start to the model written (or to the search's end)
};

struct AutoSkip {
    std::string model;
    std::string reason;
};

struct AutoResult {
    std::string metric;
    bool greater_is_better = true;
    std::vector<AutoCandidate> leaderboard;  // best first (ties: evaluation order)
    std::vector<AutoSkip> skipped;           // families not searched, and why
    std::vector<AutoSkip> failed;            // candidates whose fit the table refused (model + point, error)
    std::vector<std::string> portfolio;      // the families searched, in order
    std::size_t n_splits = 0;
    std::vector<Fold> folds;                 // the search's split: every candidate's fold_scores and oof are on it
    std::string stopped_by;                  // "max-evals", "time-budget" or "space" (every space exhausted)
    double seconds = 0;                      // wall time of the search
    std::size_t screened = 0;                // candidates halving dropped on subsamples (not on the leaderboard)
    int screening_rounds = 0;                // halving rounds run on subsamples
    std::size_t confirmed = 0;               // leaders re-scored on at least one fresh split (not counted in evaluations)
    std::size_t unconfirmed = 0;             // leaders the time budget left no room to re-score
    int confirmation_rounds = 0;             // fresh splits the confirmation ran (each: every surviving leader)
    std::size_t confirmation_fits = 0;       // leader evaluations the confirmation ran, over all its rounds
    std::size_t warning_count = 0;           // warnings the fits gave (non-convergence), over all causes
    std::vector<AutoWarning> warnings;       // grouped by cause, most frequent first (ties: by cause): a line each on stderr
    std::optional<AutoEnsemble> ensemble;    // --ensemble
    std::optional<AutoStack> stack;          // --stack
    AutoTimes times;
    const AutoCandidate& best() const { return leaderboard.front(); }
    std::size_t evaluations() const { return leaderboard.size() + failed.size(); }  // what --max-evals counts
};

// Runs the search. UsageError for a model without a space or for the task, for a
// metric of the other task, and when the budget ends before any evaluation ran.
AutoResult auto_search(const Dataset& data, const AutoOptions& opts, const Context& ctx);

// The candidates whose cv means cannot be told apart from the best's: those within one
// standard error of the best mean (its fold std / sqrt(K - 1)), at most `at_most`, each
// family's best first (so a tie across families is settled), then the others, each pass
// best first (ties: evaluation order). Indices into `candidates`; empty when fewer than two
// qualify (a clear winner) or at_most < 2. NaN means never qualify.
std::vector<std::size_t> confirmation_leaders(const std::vector<AutoCandidate>& candidates, bool greater, int at_most);

// After a confirmation round, the leaders `alive` (indices into `candidates`, each scored on
// the same fresh splits) still in the race: those whose mean over the fresh folds lies within
// one standard error of the best such mean (its std / sqrt(n - 1), n its fresh folds), in the
// order given. NaN means drop out, unless every one is NaN (then all stay).
std::vector<std::size_t> confirmation_survivors(const std::vector<AutoCandidate>& candidates,
                                                const std::vector<std::size_t>& alive, bool greater);

// The time budget's guess at a family's first evaluation, before it has run: the slowest
// of the evaluations measured so far (cost class, seconds), doubled for each cost class
// the family lies above that one's; 0 when nothing was measured (the first one runs).
double first_evaluation_estimate(int cost, const std::vector<std::pair<int, double>>& measured);

// The time the fits that save the choice would take if the search ended now (docs/auto.md,
// "The budget"), from what the candidates' evaluations measured: bagged, a candidate's K
// fold models cost its evaluation's wall time again; refit, its mean fold fit scaled to all
// rows (K / (K - 1)). The choice is the costliest of the best candidate and the leaders the
// race would confirm (confirmation_leaders); with an ensemble, when larger, the sum over
// each family's best (its likely members); with a stack, over each family's best first, at
// most stack_members. 0 when nothing is saved or nothing was evaluated.
double final_fit_estimate(const std::vector<AutoCandidate>& candidates, const AutoOptions& opts, bool greater);

// "60s", "90", "2m", "1.5h", "500ms" -> seconds (> 0). UsageError naming --time-budget.
double parse_duration(const std::string& text);

}  // namespace kestrel
