#include "kestrel/model_selection/auto_stack.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <set>

#include "auto_ensemble.hpp"
#include "fit_jobs.hpp"
#include "kestrel/core/error.hpp"
#include "search_run.hpp"

namespace kestrel {

namespace {

using StackClock = std::chrono::steady_clock;

// The rival the stack must beat: the strongest of the first layer's figures (docs/auto.md).
struct StackRival {
    std::string name;
    double mean = std::numeric_limits<double>::quiet_NaN();
};

// The first layer's best figures on the search's folds and beyond: the best single
// candidate's mean on the search's folds, the confirmed winner's on its fresh splits, the
// ensemble's held-out mean (in-sample with one fold). The strongest is the rival.
StackRival stack_rival(const AutoResult& r) {
    StackRival rival;
    auto consider = [&](const std::string& name, double mean) {
        if (!std::isfinite(mean)) return;
        if (!std::isfinite(rival.mean) || detail::better_score(mean, rival.mean, r.greater_is_better)) rival = {name, mean};
    };
    for (const auto& c : r.leaderboard) consider("best single model", summarize(c.fold_scores).mean);
    if (!r.leaderboard.empty() && r.best().confirmed()) consider("confirmed winner", r.best().score.mean);
    if (r.ensemble && !r.ensemble->members.empty())
        consider("ensemble", r.ensemble->held_out_scores.empty() ? r.ensemble->score.mean : r.ensemble->held_out.mean);
    return rival;
}

// The column name of member m's input: its leaderboard rank and model ("L1_3_gbdt").
std::string stack_member_name(const AutoResult& r, std::size_t m) {
    return "L1_" + std::to_string(m + 1) + "_" + r.leaderboard[m].model;
}

// The names and categories of data's own columns after the `predicted` columns of the
// members' predictions (numeric): the second layer splits or encodes a category as the
// first layer's models do. A table without a header names its columns by position (x1, x2, ...).
void append_own_columns(Dataset& out, const Dataset& data, Index predicted) {
    for (Index j = 0; j < data.cols(); ++j)
        out.feature_names.push_back(static_cast<Index>(data.feature_names.size()) == data.cols()
                                        ? data.feature_names[static_cast<std::size_t>(j)]
                                        : "x" + std::to_string(j + 1));
    if (data.category_counts.empty()) return;
    out.category_counts.assign(static_cast<std::size_t>(predicted), 0);
    out.category_counts.insert(out.category_counts.end(), data.category_counts.begin(), data.category_counts.end());
    out.categories.assign(static_cast<std::size_t>(predicted), {});
    out.categories.insert(out.categories.end(), data.categories.begin(), data.categories.end());
}

}  // namespace

Dataset stack_inputs(const Dataset& data, const std::vector<Fold>& folds,
                     const std::vector<const std::vector<Predictions>*>& oof, const std::vector<std::string>& names,
                     bool with_features) {
    if (oof.size() != names.size() || oof.empty()) throw InternalError("stack_inputs: one name per member, at least one");
    const bool classes = data.task == Task::classification;
    const Index width = classes ? data.n_classes() : 1;
    const Index predicted = width * static_cast<Index>(oof.size());
    DenseMatrix Z = DenseMatrix::Constant(data.rows(), predicted + (with_features ? data.cols() : 0),
                                          std::numeric_limits<double>::quiet_NaN());
    std::vector<int> seen(static_cast<std::size_t>(data.rows()), 0);
    for (const auto& fold : folds)
        for (const Index i : fold.test) ++seen[static_cast<std::size_t>(i)];
    if (std::any_of(seen.begin(), seen.end(), [](int n) { return n != 1; }))
        throw UsageError("a stack needs folds whose test rows cover every row once");
    for (std::size_t m = 0; m < oof.size(); ++m) {
        const std::vector<Predictions>& member = *oof[m];
        if (member.size() != folds.size()) throw UsageError("stack member " + names[m] + ": not one prediction set per fold");
        for (std::size_t f = 0; f < folds.size(); ++f) {
            const Predictions& p = member[f];
            const auto& rows = folds[f].test;
            if (static_cast<std::size_t>(p.y_pred.size()) != rows.size() ||
                (classes && (p.proba.rows() != static_cast<Index>(rows.size()) || p.proba.cols() != width)))
                throw UsageError("stack member " + names[m] + ": its fold " + std::to_string(f + 1) +
                                 " predictions do not match the fold's rows and classes");
            for (std::size_t t = 0; t < rows.size(); ++t) {
                const auto at = static_cast<Index>(t);
                if (classes) Z.row(rows[t]).segment(static_cast<Index>(m) * width, width) = p.proba.row(at);
                else Z(rows[t], static_cast<Index>(m)) = p.y_pred[at];
            }
        }
    }
    if (with_features) {
        DenseMatrix scratch;
        Z.rightCols(data.cols()) = data.X.dense(scratch);
    }
    Dataset out = data.with_features(Features(std::move(Z)));
    for (std::size_t m = 0; m < names.size(); ++m) {
        if (!classes) out.feature_names.push_back(names[m]);
        else
            for (const auto& c : data.classes) out.feature_names.push_back(names[m] + ":" + c);
    }
    if (with_features) append_own_columns(out, data, predicted);
    return out;
}

std::vector<std::size_t> stack_member_choice(const AutoResult& r, int at_most) {
    // The first kAutoStackPoolFactor x at_most holders only, not the families' bests the pool
    // keeps beyond them for the ensemble: a weak family's best (a single tree, k-NN) in a
    // linear second layer's few inputs cost the stack on credit_data and attrition, where a
    // strong family's next candidates served it (docs/auto.md, "Stacking").
    std::vector<std::size_t> holders;
    for (std::size_t i = 0; i < r.leaderboard.size(); ++i)
        if (!r.leaderboard[i].oof.empty() &&
            holders.size() < static_cast<std::size_t>(detail::kAutoStackPoolFactor) * static_cast<std::size_t>(std::max(at_most, 0)))
            holders.push_back(i);
    std::vector<std::size_t> members;
    std::vector<bool> taken(r.leaderboard.size(), false);
    std::set<std::string> families;
    for (int pass = 0; pass < 2; ++pass)
        for (const std::size_t i : holders) {
            if (members.size() >= static_cast<std::size_t>(std::max(at_most, 0))) return members;
            if (taken[i]) continue;
            if (pass == 0 && !families.insert(r.leaderboard[i].model).second) continue;
            taken[i] = true;
            members.push_back(i);
        }
    return members;
}

std::vector<GridPoint> stack_layer_points(Task task, std::vector<std::string>& models) {
    const bool classes = task == Task::classification;
    models = {classes ? "logistic" : "ridge", "gbdt"};
    return {{{classes ? "C" : "alpha", "1"}, {"scale", "standard"}}, {{"early_stopping_rounds", "20"}}};
}

AutoStack build_auto_stack(const Dataset& data, const AutoResult& r, const AutoOptions& opts, const Context& ctx,
                           double seconds_left) {
    const StackClock::time_point start = StackClock::now();
    AutoStack s;
    s.members = stack_member_choice(r, opts.stack_members);
    if (s.members.empty()) {
        s.note = "no candidate can be a stack's input (a classifier's must give probabilities)";
        return s;
    }
    if (!(seconds_left > 0)) {
        s.note = "the time budget left no time for the second layer";
        return s;
    }
    std::vector<const std::vector<Predictions>*> oof;
    std::vector<std::string> names;
    for (const std::size_t m : s.members) {
        oof.push_back(&r.leaderboard[m].oof);
        names.push_back(stack_member_name(r, m));
    }
    s.features = opts.stack_features;
    s.inputs = stack_inputs(data, r.folds, oof, names, s.features);
    std::vector<std::string> models;
    const std::vector<GridPoint> points = stack_layer_points(data.task, models);
    double last = 0;
    for (std::size_t c = 0; c < points.size(); ++c) {
        const double used = std::chrono::duration<double>(StackClock::now() - start).count();
        // Its fits, and if it is chosen its saved bag's fits again (the same K fits).
        if (used + 2 * last > seconds_left) break;
        AutoStackCandidate cand;
        cand.model = models[c];
        cand.point = points[c];
        ModelSpec base = opts.base;
        base.model = models[c];
        base.params = Params::object();
        base.resolved.reset();
        cand.spec = apply_point(base, points[c]);
        cand.spec.resolved.reset();
        resolve_params(cand.spec);
        std::vector<detail::FitJob> jobs(r.folds.size());
        for (std::size_t k = 0; k < jobs.size(); ++k) {
            auto& job = jobs[k];
            job.data = &s.inputs;
            job.fold = &r.folds[k];
            job.spec = &cand.spec;
            job.seed = ctx.seed;
            job.stream = k;  // fit_fold_models' stream: the saved bag is these models
            job.stop_on_test_rows = false;
            job.label = cand.model + " (second layer), fold " + std::to_string(k + 1) + "/" + std::to_string(jobs.size());
        }
        const StackClock::time_point t0 = StackClock::now();
        for (const auto& o : detail::run_fit_jobs(jobs, {opts.metric}, ctx, "auto")) cand.fold_scores.push_back(o.scores.at(0));
        cand.score = summarize(cand.fold_scores);
        cand.seconds = std::chrono::duration<double>(StackClock::now() - t0).count();
        last = cand.seconds;
        if (s.candidates.empty() || detail::better_score(cand.score.mean, s.best().score.mean, r.greater_is_better))
            s.chosen = s.candidates.size();
        s.candidates.push_back(std::move(cand));
    }
    if (s.candidates.empty()) {
        s.note = "the time budget left no time for the second layer";
        return s;
    }
    const StackRival rival = stack_rival(r);
    s.rival = rival.name;
    s.rival_mean = rival.mean;
    const double mean = s.best().score.mean;
    s.margin = r.greater_is_better ? mean - rival.mean : rival.mean - mean;
    s.kept = std::isfinite(mean) && (!std::isfinite(rival.mean) || s.margin > 0);
    return s;
}

}  // namespace kestrel
