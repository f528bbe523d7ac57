#include "kestrel/tasks/auto_task.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <utility>

#include "kestrel/core/error.hpp"
#include "kestrel/io/table_format.hpp"
#include "kestrel/metrics/metric_registry.hpp"
#include "kestrel/model_selection/fold_models.hpp"
#include "kestrel/pipeline/registry.hpp"
#include "kestrel/tasks/auto_json.hpp"
#include "kestrel/tasks/auto_report.hpp"
#include "kestrel/tasks/provenance.hpp"

namespace kestrel {

void check_auto_options(const AutoOptions& options) {
    for (const auto& m : options.models) {
        if (registry().contains(m)) continue;
        try {
            (void)registry().info(m);
        } catch (const UsageError& e) {  // names the valid models; the option is named too
            throw UsageError(option_named("models") + ": " + e.text());
        }
    }
    if (!options.metric.empty()) (void)metric_info(options.metric);
}

AutoOptions auto_options_for(const AutoRequest& request) {
    AutoOptions options = request.search;
    // Standard input is read once: every member is refit on that reading (automatic here).
    if (options.ensemble_size > 0 || options.stack_members > 0)
        options.ensemble_excludes_absent_missing =
            peek_file_format(request.data.path, request.data.read) == FileFormat::libsvm;
    if (options.time_budget <= 0 && options.max_evals == 0) options.time_budget = kDefaultAutoTimeBudget;
    // The fits that save the choice are inside the budget: the search keeps room for them.
    using FinalFits = AutoOptions::FinalFits;
    options.final_fits = request.output.empty() ? FinalFits::none
                         : request.refit_full   ? FinalFits::refit_full
                                                : FinalFits::bagged;
    return options;
}

namespace {

// The table is read as for a model that learns both tasks and fills absent sparse
// entries with 0, so the labels decide the task as kestrel-train's rule does.
ModelSpec auto_reading_spec(const AutoRequest& request) {
    ModelSpec reading;
    reading.model = "forest";
    resolve_params(reading);
    reading.missing = request.missing;
    reading.task = request.task;
    reading.encode = request.encode;
    return reading;
}

}  // namespace

AutoRun run_auto_task(const AutoRequest& request, const Context& ctx, double started) {
    const auto start = std::chrono::steady_clock::now();
    AutoOptions options = auto_options_for(request);
    check_auto_options(options);
    const ModelSpec reading = auto_reading_spec(request);
    const Dataset d = read_rows_to_split(request.data, reading);
    if (options.metric.empty()) options.metric = default_metric(d.task);
    options.base = reading;
    options.base.task = d.task;  // every candidate learns the task the labels decided
    options.seconds_used = started + std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

    AutoRun run;
    run.result = auto_search(d, options, ctx);
    run.options = std::move(options);
    run.source = d.source;
    run.task = d.task;
    run.rows = d.rows();
    run.output = request.output;
    if (!request.output.empty()) {
        const auto fits_start = std::chrono::steady_clock::now();
        if (auto_bags(run.result, run.chose_ensemble() || run.chose_stack(), request.refit_full))
            run.fold_models = run.result.folds.size();
        refit_auto_choice(run.result, d, request, ctx).save(request.output);
        run.result.times.final_fits = std::chrono::duration<double>(std::chrono::steady_clock::now() - fits_start).count();
    }
    run.result.times.total = started + std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return run;
}

bool auto_bags(const AutoResult& result, bool chose_ensemble, bool refit_full) {
    if (refit_full || result.folds.empty()) return false;
    if (chose_ensemble) return true;  // its members (a stack's inputs) give probabilities: the pool's rule
    const AutoCandidate& best = result.best();
    return best.spec.task != Task::classification ||
           registry().capabilities(*resolved_params(best.spec)).predict_proba;
}

Model refit_auto_choice(const AutoResult& result, const Dataset& data, const AutoRequest& request,
                        const Context& ctx) {
    const ProvenanceRecord record{request.data.path, -1, ctx.seed, {}};
    const std::string cv = std::to_string(result.n_splits) + "-fold";
    const bool chose_stack = result.stack && result.stack->kept;
    const bool chose_ensemble = !chose_stack && result.ensemble && result.ensemble->kept;
    const bool bagged = auto_bags(result, chose_ensemble || chose_stack, request.refit_full);
    // How the file's models were fitted: the fold models of the search's K folds, or all rows.
    const Json saved = bagged ? Json{{"bagged", true}, {"fold_models", result.folds.size()}}
                              : Json{{"bagged", false}, {"refit", "all rows"}};
    if (chose_stack) {
        const AutoStack& s = *result.stack;
        Model m = refit_auto_stack(result, data, ctx, bagged);
        stamp_provenance(m, record);
        m.provenance()["auto"] = {{"metric", result.metric},
                                  {"cv", cv},
                                  {"cv_mean", s.best().score.mean},
                                  {"cv_std", s.best().score.std},
                                  {"second_layer", s.best().model},
                                  {"second_layer_params", auto_point_json(s.best().point)},
                                  {"stack_features", s.features},
                                  {"rival", s.rival},
                                  {"rival_mean", s.rival_mean},
                                  {"evaluations", result.evaluations()},
                                  {"saved", saved}};
        return m;
    }
    if (chose_ensemble) {
        const AutoEnsemble& e = *result.ensemble;
        Model m = refit_auto_ensemble(result, data, ctx, bagged);
        stamp_provenance(m, record);
        m.provenance()["auto"] = {{"metric", result.metric},
                                  {"cv", cv},
                                  {"cv_mean", e.score.mean},
                                  {"cv_std", e.score.std},
                                  {"best_single_cv_mean", e.best_single},
                                  {"held_out_mean", e.held_out.mean},
                                  {"held_out_single_mean", e.held_out_single.mean},
                                  {"ensemble_size", e.rounds},
                                  {"evaluations", result.evaluations()},
                                  {"saved", saved}};
        return m;
    }
    const AutoCandidate& best = result.best();
    // A model that reads absent sparse entries as missing (gbdt) is refit on the table
    // read as kestrel-train and kestrel-predict read it for that model.
    const bool reread = request.data.path != "-" &&
                        registry().capabilities(*resolved_params(best.refit_spec)).absent_is_missing;
    const ModelSpec& reading = bagged ? best.spec : best.refit_spec;
    const Dataset reread_data = reread ? read_training_data(request.data, reading) : Dataset{};
    const Dataset& rows = reread ? reread_data : data;
    Model m = bagged ? auto_bag(result, best, rows, ctx) : Model::train(best.refit_spec, rows, ctx);
    stamp_provenance(m, record);
    m.provenance()["auto"] = {{"metric", result.metric},
                              {"cv", cv},
                              {"cv_mean", best.score.mean},
                              {"cv_std", best.score.std},
                              {"params", auto_point_json(bagged ? best.point : best.refit_point)},
                              {"evaluations", result.evaluations()},
                              {"saved", saved}};
    return m;
}

namespace {

// Candidate c's fold models, each of weight `weight` / K, appended to `members`, each
// stamped with the candidate's leaderboard rank and its fold.
void add_bag(std::vector<EnsembleMember>& members, const AutoResult& result, std::size_t rank, double weight,
             const Dataset& data, const Context& ctx) {
    const AutoCandidate& c = result.leaderboard[rank];
    std::vector<Model> bag = fit_fold_models(data, result.folds, c.spec, ctx, c.model + " " + auto_point_text(c.point));
    const std::string of = "/" + std::to_string(bag.size());
    for (std::size_t k = 0; k < bag.size(); ++k) {
        bag[k].provenance()["auto"] = {{"rank", rank + 1},
                                       {"params", auto_point_json(c.point)},
                                       {"fold", std::to_string(k + 1) + of},
                                       {"cv_mean", c.score.mean},
                                       {"cv_std", c.score.std}};
        members.push_back({std::move(bag[k]), weight / static_cast<double>(bag.size())});
    }
}

}  // namespace

Model auto_bag(const AutoResult& result, const AutoCandidate& candidate, const Dataset& data, const Context& ctx) {
    std::vector<EnsembleMember> members;
    add_bag(members, result, static_cast<std::size_t>(&candidate - result.leaderboard.data()), 1.0, data, ctx);
    return Model::ensemble(std::move(members), data, ctx);
}

Model refit_auto_ensemble(const AutoResult& result, const Dataset& data, const Context& ctx, bool bagged) {
    const AutoEnsemble& e = *result.ensemble;
    std::vector<EnsembleMember> members;
    for (std::size_t i = 0; i < e.members.size(); ++i) {
        if (bagged) {
            add_bag(members, result, e.members[i], e.weights[i], data, ctx);
            continue;
        }
        const AutoCandidate& c = result.leaderboard[e.members[i]];
        Model m = Model::train(c.refit_spec, data, ctx);
        m.provenance()["auto"] = {{"rank", e.members[i] + 1},
                                  {"params", auto_point_json(c.refit_point)},
                                  {"cv_mean", c.score.mean},
                                  {"cv_std", c.score.std}};
        members.push_back({std::move(m), e.weights[i]});
    }
    return Model::ensemble(std::move(members), data, ctx);
}

Model refit_auto_stack(const AutoResult& result, const Dataset& data, const Context& ctx, bool bagged) {
    const AutoStack& s = *result.stack;
    std::vector<std::vector<EnsembleMember>> inputs;
    for (const std::size_t rank : s.members) {
        std::vector<EnsembleMember> input;
        if (bagged) {
            add_bag(input, result, rank, 1.0, data, ctx);
        } else {
            const AutoCandidate& c = result.leaderboard[rank];
            Model m = Model::train(c.refit_spec, data, ctx);
            m.provenance()["auto"] = {{"rank", rank + 1},
                                      {"params", auto_point_json(c.refit_point)},
                                      {"cv_mean", c.score.mean},
                                      {"cv_std", c.score.std}};
            input.push_back({std::move(m), 1.0});
        }
        inputs.push_back(std::move(input));
    }
    // The second layer as its out-of-fold score was measured: its K fold models on the
    // members' out-of-fold predictions (or, refit, one model on all of them).
    const AutoStackCandidate& chosen = s.best();
    Model stacker;
    if (bagged) {
        std::vector<Model> bag = fit_fold_models(s.inputs, result.folds, chosen.spec, ctx,
                                                 chosen.model + " (second layer) " + auto_point_text(chosen.point));
        std::vector<EnsembleMember> members;
        for (auto& model : bag) members.push_back({std::move(model), 1.0 / static_cast<double>(result.folds.size())});
        stacker = Model::ensemble(std::move(members), s.inputs, ctx);
    } else {
        stacker = Model::train(chosen.spec, s.inputs, ctx);
    }
    stacker.provenance()["auto"] = {{"second_layer", chosen.model},
                                    {"params", auto_point_json(chosen.point)},
                                    {"cv_mean", chosen.score.mean},
                                    {"cv_std", chosen.score.std}};
    return Model::stacked(std::move(inputs), std::move(stacker), data, ctx, s.features);
}

AutoProgress auto_best_so_far(const AutoResult& result) {
    std::vector<const AutoCandidate*> by_order;
    for (const auto& c : result.leaderboard) by_order.push_back(&c);
    std::sort(by_order.begin(), by_order.end(),
              [](const AutoCandidate* a, const AutoCandidate* b) { return a->order < b->order; });
    AutoProgress progress;
    for (const AutoCandidate* c : by_order) {
        const double y = c->score.mean;
        const bool improves =
            progress.best.empty() ||
            (std::isfinite(y) && (!std::isfinite(progress.best.back()) ||
                                  (result.greater_is_better ? y > progress.best.back() : y < progress.best.back())));
        progress.seconds.push_back(c->finished_at);
        progress.best.push_back(improves ? y : progress.best.back());
    }
    return progress;
}

}  // namespace kestrel
