#include "kestrel/tasks/auto_json.hpp"

#include <utility>

namespace kestrel {

Json auto_point_json(const GridPoint& point) {
    Json params = Json::object();
    for (const auto& [name, value] : point) params[name] = value;
    return params;
}

Json auto_ensemble_json(const AutoResult& result) {
    const AutoEnsemble& e = *result.ensemble;
    Json j = {{"rounds", e.rounds}, {"pool", e.pool}, {"best_single_mean", e.best_single}, {"kept", e.kept}};
    if (e.members.empty()) {
        j["note"] = e.note;
        return j;
    }
    j["members"] = Json::array();
    for (std::size_t i = 0; i < e.members.size(); ++i) {
        const AutoCandidate& c = result.leaderboard[e.members[i]];
        j["members"].push_back({{"rank", e.members[i] + 1},
                                {"model", c.model},
                                {"params", auto_point_json(c.point)},
                                {"mean", c.score.mean},
                                {"weight", e.weights[i]}});
    }
    j["mean"] = e.score.mean;
    j["std"] = e.score.std;
    j["fold_scores"] = e.fold_scores;
    if (!e.held_out_scores.empty()) {
        j["held_out_mean"] = e.held_out.mean;
        j["held_out_std"] = e.held_out.std;
        j["held_out_fold_scores"] = e.held_out_scores;
        j["held_out_single_mean"] = e.held_out_single.mean;
        j["held_out_single_std"] = e.held_out_single.std;
        j["held_out_single_fold_scores"] = e.held_out_single_scores;
    }
    return j;
}

Json auto_stack_json(const AutoResult& result) {
    const AutoStack& s = *result.stack;
    Json j = {{"kept", s.kept}, {"features", s.features}};
    j["members"] = Json::array();
    for (const std::size_t m : s.members) {
        const AutoCandidate& c = result.leaderboard[m];
        j["members"].push_back({{"rank", m + 1}, {"model", c.model}, {"params", auto_point_json(c.point)}, {"mean", c.score.mean}});
    }
    if (s.candidates.empty()) {
        j["note"] = s.note;
        return j;
    }
    j["second_layer"] = Json::array();
    for (const auto& c : s.candidates)
        j["second_layer"].push_back({{"model", c.model},
                                     {"params", auto_point_json(c.point)},
                                     {"mean", c.score.mean},
                                     {"std", c.score.std},
                                     {"fold_scores", c.fold_scores},
                                     {"seconds", c.seconds}});
    j["chosen"] = s.best().model;
    j["mean"] = s.best().score.mean;
    j["rival"] = s.rival;
    j["rival_mean"] = s.rival_mean;
    j["margin"] = s.margin;
    return j;
}

namespace {

Json leaderboard_json(const std::vector<AutoCandidate>& leaderboard) {
    Json board = Json::array();
    for (std::size_t i = 0; i < leaderboard.size(); ++i) {
        const auto& c = leaderboard[i];
        Json entry{{"rank", i + 1},
                   {"order", c.order},
                   {"model", c.model},
                   {"params", auto_point_json(c.point)},
                   {"mean", c.score.mean},
                   {"std", c.score.std},
                   {"fold_scores", c.fold_scores},
                   {"mean_fit_seconds", c.fit_seconds}};
        if (c.confirmed()) entry["repeat_fold_scores"] = c.repeat_fold_scores;
        if (!c.fold_rounds.empty()) {  // early stopping: the rounds per fold, and the refit's
            entry["fold_rounds"] = c.fold_rounds;
            entry["refit_params"] = auto_point_json(c.refit_point);
        }
        board.push_back(std::move(entry));
    }
    return board;
}

}  // namespace

Json auto_run_json(const AutoRun& run) {
    const AutoResult& r = run.result;
    const AutoOptions& o = run.options;
    Json j = {{"task", to_string(run.task)},
              {"metric", r.metric},
              {"greater_is_better", r.greater_is_better},
              {"folds", r.n_splits},
              {"portfolio", r.portfolio},
              {"evaluations", r.evaluations()},
              {"stopped_by", r.stopped_by},
              {"max_evals", o.max_evals},
              {"time_budget_seconds", o.time_budget},
              {"seconds", r.seconds},
              {"halving_batch", o.halving_batch},
              {"screened", r.screened},
              {"screening_rounds", r.screening_rounds},
              {"confirm_leaders", o.confirm_leaders},
              {"confirm_splits", o.confirm_splits},
              {"confirmed", r.confirmed},
              {"confirmation_rounds", r.confirmation_rounds},
              {"confirmation_fits", r.confirmation_fits},
              {"unconfirmed", r.unconfirmed}};
    j["leaderboard"] = leaderboard_json(r.leaderboard);
    j["skipped"] = Json::array();
    for (const auto& s : r.skipped) j["skipped"].push_back({{"model", s.model}, {"reason", s.reason}});
    j["failed"] = Json::array();
    for (const auto& s : r.failed) j["failed"].push_back({{"candidate", s.model}, {"error", s.reason}});
    j["best"] = j["leaderboard"][0];
    if (r.ensemble) j["ensemble"] = auto_ensemble_json(r);
    if (r.stack) j["stack"] = auto_stack_json(r);
    j["chosen"] = run.chose_stack() ? "stack" : run.chose_ensemble() ? "ensemble" : "single";
    if (!run.output.empty()) {
        j["output"] = run.output;
        j["fold_models"] = run.fold_models;  // per chosen candidate; 0 = refit on all rows
    }
    const AutoTimes& t = r.times;
    j["time"] = {{"reading", t.reading},
                 {"search", t.search},
                 {"confirmation", t.confirmation},
                 {"ensemble", t.ensemble},
                 {"stack", t.stack},
                 {"final_fits", t.final_fits},
                 {"final_fits_reserved", t.final_fits_reserved},
                 {"total", t.total}};
    return j;
}

}  // namespace kestrel
