#include "kestrel/model_selection/auto_search.hpp"

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <limits>

#include "auto_ensemble.hpp"
#include "auto_portfolio.hpp"
#include "fit_jobs.hpp"
#include "kestrel/core/error.hpp"
#include "kestrel/core/number_text.hpp"
#include "kestrel/core/rng.hpp"
#include "kestrel/metrics/metric_registry.hpp"
#include "kestrel/model_selection/auto_stack.hpp"
#include "kestrel/model_selection/ensemble_selection.hpp"
#include "kestrel/pipeline/registry.hpp"
#include "kestrel/pipeline/search_spaces.hpp"
#include "search_run.hpp"

namespace kestrel {

namespace {

// The second K-fold split the leaders are re-scored on (docs/auto.md, "Confirming the
// leaders"): its folds' seed, apart from every family's draws.
constexpr std::uint64_t kConfirmStream = 0xa071'0000'0000ULL;

using detail::AutoFamily;

using Clock = std::chrono::steady_clock;
double since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

// AutoCandidate::refit_point and refit_spec: with every fold stopped early, the mean of
// their rounds on all rows and no hold-out; else the candidate as evaluated.
void set_refit(AutoCandidate& c, std::size_t folds) {
    c.refit_point = c.point;
    c.refit_spec = c.spec;
    if (c.fold_rounds.empty() || c.fold_rounds.size() != folds) return;
    double total = 0;
    for (const long long r : c.fold_rounds) total += static_cast<double>(r);
    const long long rounds = std::max(1LL, std::llround(total / static_cast<double>(folds)));
    const GridPoint refit{{"n_estimators", std::to_string(rounds)}, {"early_stopping_rounds", "0"}};
    for (const auto& [name, value] : refit) detail::set_point_setting(c.refit_point, name, value);
    c.refit_spec = apply_point(c.spec, refit);
    c.refit_spec.resolved.reset();
    resolve_params(c.refit_spec);
}

// Better first; a NaN mean (a metric undefined on some fold) ranks last.
bool better(double a, double b, bool greater) { return detail::better_score(a, b, greater); }

}  // namespace

double first_evaluation_estimate(int cost, const std::vector<std::pair<int, double>>& measured) {
    double estimate = 0;
    for (const auto& [measured_cost, seconds] : measured)
        estimate = std::max(estimate, std::ldexp(seconds, std::max(0, cost - measured_cost)));
    return estimate;
}

double parse_duration(const std::string& text) {
    static const std::vector<std::pair<std::string, double>> units = {{"ms", 0.001}, {"s", 1}, {"m", 60}, {"h", 3600}};
    std::string number = text;
    double scale = 1;
    for (const auto& [suffix, factor] : units) {
        if (number.size() > suffix.size() && number.compare(number.size() - suffix.size(), suffix.size(), suffix) == 0 &&
            (suffix != "s" || number[number.size() - 2] != 'm')) {
            number.resize(number.size() - suffix.size());
            scale = factor;
            break;
        }
    }
    double v = 0;
    const auto [ptr, ec] = std::from_chars(number.data(), number.data() + number.size(), v);
    if (number.empty() || ec != std::errc() || ptr != number.data() + number.size() || !std::isfinite(v) || !(v > 0))
        throw UsageError(option_named("time_budget") + " " + text + ": expected a positive duration such as 60s, 90, 2m, 1.5h or 500ms");
    return v * scale;
}

namespace {

// A fit's warning split into the fit that gave it and its cause: every fit's label ends in
// ", fold k/K" (fold_jobs, SearchRun), and the label's first word is the model, named in
// front of the cause unless the message names it itself. A message without a label is
// its own cause.
AutoWarning warning_cause(const std::string& message) {
    for (std::size_t at = message.find(", fold "); at != std::string::npos; at = message.find(", fold ", at + 1)) {
        std::size_t i = at + 7;
        const std::size_t digits = i;
        while (i < message.size() && ((message[i] >= '0' && message[i] <= '9') || message[i] == '/')) ++i;
        if (i == digits || message.compare(i, 2, ": ") != 0) continue;
        const std::string model = message.substr(0, std::min(message.find(' '), at));
        const std::string rest = message.substr(i + 2);
        return {rest.rfind(model + ":", 0) == 0 ? rest : model + ": " + rest, 0, message.substr(0, i)};
    }
    return {message, 0, ""};
}

// Runs fits the table may refuse: a drawn point some rows cannot take (k-NN's k above a
// fold's rows) raises a UsageError or a DataError. Returns the refusal's message, empty
// when the fits ran; every step of the search treats a refusal as a result, not a failure.
template <class Fits>
std::optional<std::string> refusal_of(Fits&& fits) {
    try {
        fits();
    } catch (const UsageError& e) {
        return std::string(e.what());
    } catch (const DataError& e) {
        return std::string(e.what());
    }
    return std::nullopt;
}

// One auto search (docs/auto.md), step by step: the portfolio of families, the schedule of
// rounds that gives them turns, the screen a turn may run before its evaluation, the
// confirmation of the leaders on fresh splits, and the final ranking.
class AutoSearchRun {
public:
    AutoSearchRun(const Dataset& data, const AutoOptions& opts, const Context& ctx);
    AutoSearchRun(const AutoSearchRun&) = delete;  // quiet_.warn holds this
    AutoSearchRun& operator=(const AutoSearchRun&) = delete;

    AutoResult run();

private:
    void choose_portfolio();
    void quiet_fits();
    void schedule();
    bool waits(const AutoFamily& f, double used);
    bool take_turn(AutoFamily& f);
    std::size_t screen(AutoFamily& f, std::size_t first, std::size_t batch);
    bool evaluate_at(AutoFamily& f, std::size_t c);
    void confirm();
    bool confirm_on(AutoCandidate& c, const std::vector<Fold>& split, int q);
    void rank();
    void report_warnings();

    std::vector<detail::FitJob> fold_jobs(const std::vector<Fold>& on, std::size_t first_stream, const ModelSpec& spec,
                                          const std::string& label, bool keep_predictions) const;
    double elapsed() const { return opts_.seconds_used + since(start_); }
    double best_so_far() const;
    void report_progress() const;
    double confirmation_reserve() const;
    // The room kept for the fits that save the choice (final_fit_estimate); 0 without a time budget.
    double final_reserve() const {
        return budget_ > 0 ? final_fit_estimate(r_.leaderboard, opts_, r_.greater_is_better) : 0.0;
    }

    const Clock::time_point start_;
    const Dataset& data_;
    const AutoOptions& opts_;
    const Context& ctx_;
    AutoResult r_;
    std::vector<AutoFamily> families_;
    std::vector<Fold> folds_;
    Context quiet_;
    std::map<std::string, double> waited_;  // families never evaluated: the estimate that did not fit
    // The first layer's share of the time budget: all of it, or with a stack, all but the
    // second layer's share (opts.stack_time_share). 0 = no time budget.
    double budget_ = 0;
};

AutoSearchRun::AutoSearchRun(const Dataset& data, const AutoOptions& opts, const Context& ctx)
    : start_(Clock::now()), data_(data), opts_(opts), ctx_(ctx) {
    const MetricInfo& metric = metric_info(opts.metric);
    if (metric.task != data.task)
        throw UsageError(option_named("metric") + " " + opts.metric + " is a " + to_string(metric.task) + " metric, but this is " +
                         to_string(data.task));
    if (opts.ensemble_size < 0 || opts.ensemble_nbest < 1)
        throw UsageError(option_named("ensemble_size") + " must be at least 1 and " + option_named("ensemble_nbest") +
                         " at least 1");
    if (opts.max_evals <= 0 && !(opts.time_budget > 0))
        throw UsageError("the automatic search needs a budget: " + option_named("max_evals") + " N or " +
                         option_named("time_budget") + " T");
    if (opts.stack_members < 0 || !(opts.stack_time_share >= 0 && opts.stack_time_share < 1))
        throw UsageError(option_named("stack_members") + " must be at least 0 and the stack's time share in [0, 1)");
    r_.metric = opts.metric;
    r_.greater_is_better = metric.greater_is_better;
    budget_ = opts.time_budget > 0 && opts.stack_members > 0 ? opts.time_budget * (1 - opts.stack_time_share)
                                                              : opts.time_budget;
}

AutoResult AutoSearchRun::run() {
    r_.times.reading = opts_.seconds_used;
    choose_portfolio();
    folds_ = make_splits(data_, opts_.split, ctx_.seed);
    r_.n_splits = folds_.size();
    r_.folds = folds_;
    quiet_fits();
    schedule();
    r_.times.search = since(start_);
    if (!r_.leaderboard.empty()) confirm();
    r_.times.confirmation = since(start_) - r_.times.search;
    rank();
    r_.times.total = elapsed();
    return std::move(r_);
}

// The families searched: the named models, or every model declaring a space for this task,
// less those too large for this table or refusing the metric (skipped, with why).
void AutoSearchRun::choose_portfolio() {
    const bool named = !opts_.models.empty();
    const std::vector<std::string> wanted = named ? opts_.models : default_portfolio(data_.task);
    for (const auto& model : wanted) {
        if (!registry().contains(model)) {
            const auto names = registry().names();
            std::string list;
            for (const auto& n : names) list += (list.empty() ? "" : ", ") + n;
            throw UsageError(option_named("models") + " " + model + ": unknown model (models: " + list + ")");
        }
        const ModelInfo& info = registry().info(model);
        if (!search_space(model).declared())
            throw UsageError(option_named("models") + " " + model + ": " + model + " declares no search space (docs/auto.md lists those that do)");
        if (!info.supports(data_.task))
            throw UsageError(option_named("models") + " " + model + ": " + model + " does not learn " + to_string(data_.task));
        if (std::any_of(families_.begin(), families_.end(), [&](const AutoFamily& f) { return f.model == model; }))
            throw UsageError(option_named("models") + " " + model + ": given twice");
        const SearchSpace& space = search_space(model);
        if (space.max_rows > 0 && static_cast<std::size_t>(data_.rows()) > space.max_rows) {
            r_.skipped.push_back({model, space.too_large + " (this table has " + std::to_string(data_.rows()) + ")"});
            continue;
        }
        AutoFamily f = detail::make_auto_family(model, opts_, ctx_.seed);
        try {
            check_metrics(f.specs[0], data_.task, {opts_.metric});
        } catch (const UsageError& e) {
            r_.skipped.push_back({model, e.what()});
            continue;
        }
        r_.portfolio.push_back(model);
        families_.push_back(std::move(f));
    }
    if (families_.empty()) {
        std::string why;
        for (const auto& s : r_.skipped) why += "; " + s.model + ": " + s.reason;
        throw UsageError("no model of the portfolio can be searched on this table" + why);
    }
}

// The auto loop reports progress itself, one line per evaluation. Hundreds of candidates
// can each warn on every fold (linear_svm at a huge C reaching max_iter): they are counted
// by cause, and one line per cause at the end says how many and shows the first.
void AutoSearchRun::quiet_fits() {
    quiet_ = ctx_;
    quiet_.progress = nullptr;
    auto warnings = std::make_shared<std::mutex>();
    quiet_.warn = [this, warnings](const std::string& message) {
        const std::lock_guard<std::mutex> lock(*warnings);
        ++r_.warning_count;
        const AutoWarning given = warning_cause(message);
        auto at = std::find_if(r_.warnings.begin(), r_.warnings.end(),
                               [&](const AutoWarning& w) { return w.cause == given.cause; });
        if (at == r_.warnings.end()) at = r_.warnings.insert(r_.warnings.end(), given);
        ++at->count;
    };
}

// One fit per fold of `on`; fold k's fit draws from stream first_stream + k.
std::vector<detail::FitJob> AutoSearchRun::fold_jobs(const std::vector<Fold>& on, std::size_t first_stream,
                                                     const ModelSpec& spec, const std::string& label,
                                                     bool keep_predictions) const {
    std::vector<detail::FitJob> jobs(on.size());
    for (std::size_t k = 0; k < on.size(); ++k) {
        auto& job = jobs[k];
        job.data = &data_;
        job.fold = &on[k];
        job.spec = &spec;
        job.seed = ctx_.seed;  // the fold's seed, as every search's: candidates differ only in parameters
        job.stream = first_stream + k;
        job.stop_on_test_rows = false;  // a fair ranking: gbdt stops on its own hold-out
        job.label = label + ", fold " + std::to_string(k + 1) + "/" + std::to_string(on.size());
        job.keep_predictions = keep_predictions;
    }
    return jobs;
}

// The portfolio first: round p evaluates the p-th configuration of every family that has
// one (p = 0: the defaults), in portfolio order, each alone on the shared folds. Then the
// draws: each round gives a turn to each of the best half of the families still holding
// candidates (ranked by their best mean; ties keep portfolio order). A portfolio round in
// which no family's next configuration fits the time left ends the portfolio phase early.
void AutoSearchRun::schedule() {
    r_.stopped_by = "space";
    bool portfolio = true;
    for (;;) {
        if (portfolio)
            portfolio = std::any_of(families_.begin(), families_.end(), [](const AutoFamily& f) { return f.in_portfolio(); });
        std::vector<AutoFamily*> turn;
        for (auto& f : families_)
            if (portfolio ? f.in_portfolio() : f.next < f.specs.size()) turn.push_back(&f);
        if (turn.empty()) break;
        if (!portfolio) {
            std::stable_sort(turn.begin(), turn.end(), [&](const AutoFamily* a, const AutoFamily* b) {
                if (a->has_score != b->has_score) return a->has_score;  // never scored: last
                return better(a->best, b->best, r_.greater_is_better);
            });
            turn.resize((turn.size() + 1) / 2);
        }
        bool ran = false, stop = false;
        for (AutoFamily* f : turn) {
            if (opts_.max_evals > 0 && static_cast<int>(r_.evaluations()) >= opts_.max_evals) {
                r_.stopped_by = "max-evals";
                stop = true;
                break;
            }
            if (budget_ > 0) {
                const double used = elapsed();
                if (used >= budget_) {
                    r_.stopped_by = "time-budget";
                    stop = true;
                    break;
                }
                if (waits(*f, used)) continue;
            }
            ran = true;  // a failed candidate spends its turn too, so a failing family cannot loop
            if (take_turn(*f)) report_progress();
        }
        if (stop) break;
        if (!ran) {
            if (portfolio) {
                portfolio = false;  // a cheaper family's draws may still fit
                continue;
            }
            r_.stopped_by = "time-budget";
            break;
        }
    }
}

// A family whose next evaluation would not fit in what is left waits (a cheaper one may
// still run): its last evaluation's time, or for a family not yet measured, the estimate
// from those that were.
bool AutoSearchRun::waits(const AutoFamily& f, double used) {
    std::vector<std::pair<int, double>> measured;
    for (const auto& g : families_)
        if (g.last_seconds > 0) measured.emplace_back(g.cost, g.last_seconds);
    // A screening turn fits 9 candidates on a ninth of the rows, 3 on a third, then one on
    // all: about 3 plain evaluations.
    const bool screens = f.screen_batch(opts_.halving_batch) > 0;
    // Within the portfolio, a configuration with more rounds than the last is expected to
    // take longer in proportion (early stopping may end it sooner).
    const double grow = f.in_portfolio() ? std::max(1.0, detail::auto_rounds_of(f.specs[f.next]) / f.last_rounds) : 1.0;
    const double expected = f.last_seconds > 0 ? f.last_seconds * grow * (screens && !f.last_screened ? 3.0 : 1.0)
                                               : first_evaluation_estimate(f.cost, measured);
    if (used + expected + confirmation_reserve() + final_reserve() <= budget_) return false;
    if (f.last_seconds == 0) waited_[f.model] = expected;
    return true;
}

// A family's turn: within its portfolio, the next configuration alone; after it, successive
// halving over its next halving_batch draws screens them (screen below) and the one left is
// evaluated at all rows. Too few candidates left or rows for the first round: one draw alone.
// A portfolio configuration is evaluated in full because a subsample's ninth of the rows
// could screen out the very corner it was chosen for.
bool AutoSearchRun::take_turn(AutoFamily& f) {
    const Clock::time_point t0 = Clock::now();
    const std::size_t first = f.next;
    const std::size_t batch = f.screen_batch(opts_.halving_batch);
    const std::size_t spent = batch > 0 ? screen(f, first, batch) : 1;  // candidates this turn uses up
    const bool ok = evaluate_at(f, first);
    f.next = first + spent;
    f.last_seconds = since(t0);
    f.last_rounds = detail::auto_rounds_of(f.specs[first]);
    f.last_screened = spent > 1;
    return ok;
}

// The grid search's SearchRun (resource = rows, factor 3) over candidates [first, first +
// batch) of f on subsamples of the same folds, every round but the last; the survivor is
// swapped to `first`. Returns the candidates used up: the batch, or 1 when no round ran.
std::size_t AutoSearchRun::screen(AutoFamily& f, std::size_t first, std::size_t batch) {
    std::size_t spent = 1;
    const auto from = static_cast<std::ptrdiff_t>(first), to = static_cast<std::ptrdiff_t>(first + batch);
    const std::vector<GridPoint> points(f.points.begin() + from, f.points.begin() + to);
    SearchOptions so;
    so.split = opts_.split;
    so.metric = opts_.metric;
    so.halving = true;
    so.factor = detail::kAutoHalvingFactor;
    // Rows too few for the first round, or a point a subsample refuses (k-NN's k above its
    // rows): no screen this turn, the next candidate as in round 0.
    (void)refusal_of([&] {
        detail::SearchRun run(points, std::vector<ModelSpec>(f.specs.begin() + from, f.specs.begin() + to), data_, so,
                              ctx_.seed, -1);
        // Every round but the last, which would fit the survivor on (nearly) all rows: the
        // evaluation after the screen does that, on the folds every candidate shares.
        int rounds = 0;
        while (!run.done() && run.rounds_left() > 1) {
            std::vector<detail::FitJob> jobs;
            run.next_round(jobs);
            for (auto& job : jobs) {
                job.stop_on_test_rows = false;
                job.label = f.model + " " + job.label;  // its warnings name the candidate as the evaluations' do
            }
            auto outcomes = detail::run_fit_jobs(jobs, {opts_.metric}, quiet_, "auto");
            run.take(outcomes);
            ++rounds;
        }
        if (rounds > 0) {
            const GridPoint survivor = run.result().points.front().point;
            const auto at =
                first + static_cast<std::size_t>(std::find(points.begin(), points.end(), survivor) - points.begin());
            std::swap(f.points[first], f.points[at]);
            std::swap(f.specs[first], f.specs[at]);
            spent = batch;
            r_.screened += batch - 1;
            r_.screening_rounds += rounds;
        }
    });
    return spent;
}

// Evaluates candidate c of f on every fold at all rows: a leaderboard entry.
bool AutoSearchRun::evaluate_at(AutoFamily& f, std::size_t c) {
    const Clock::time_point t0 = Clock::now();
    std::vector<detail::FitJob> jobs = fold_jobs(folds_, 0, f.specs[c], f.model + " " + detail::point_text(f.points[c]),
                                                 detail::auto_keeps_predictions(opts_));
    AutoCandidate cand;
    cand.order = static_cast<int>(r_.evaluations() + 1);
    cand.model = f.model;
    cand.point = f.points[c];
    cand.spec = f.specs[c];
    std::vector<detail::FitOutcome> outcomes;
    if (auto refused = refusal_of([&] { outcomes = detail::run_fit_jobs(jobs, {opts_.metric}, quiet_, "auto"); })) {
        r_.failed.push_back({f.model + " " + detail::point_text(f.points[c]), *refused});
        f.last_seconds = since(t0);
        return false;
    }
    double fit = 0;
    for (auto& o : outcomes) {
        cand.fold_scores.push_back(o.scores.at(0));
        if (o.best_iteration >= 0) cand.fold_rounds.push_back(o.best_iteration + 1);
        fit += o.seconds;
        if (detail::auto_keeps_predictions(opts_)) {
            o.predictions.decision.resize(0, 0);  // probabilities are what is averaged
            cand.oof.push_back(std::move(o.predictions));
        }
    }
    set_refit(cand, outcomes.size());
    if (!detail::auto_can_join(cand.oof, cand.spec, opts_)) std::vector<Predictions>().swap(cand.oof);
    cand.score = summarize(cand.fold_scores);
    cand.fit_seconds = fit / static_cast<double>(outcomes.size());
    cand.seconds = since(t0);
    cand.finished_at = opts_.seconds_used + since(start_);
    f.last_seconds = cand.seconds;
    if (!f.has_score || better(cand.score.mean, f.best, r_.greater_is_better)) f.best = cand.score.mean;
    f.has_score = true;
    r_.leaderboard.push_back(std::move(cand));
    if (detail::auto_keeps_predictions(opts_)) detail::trim_auto_pool(r_.leaderboard, opts_, r_.greater_is_better);
    return true;
}

double AutoSearchRun::best_so_far() const {
    double b = r_.leaderboard.front().score.mean;
    for (const auto& c : r_.leaderboard)
        if (better(c.score.mean, b, r_.greater_is_better)) b = c.score.mean;
    return b;
}

void AutoSearchRun::report_progress() const {
    if (!ctx_.progress) return;
    std::string label =
        "auto: " + r_.leaderboard.back().model + ", best " + opts_.metric + " " + format_fixed(best_so_far(), 4);
    if (opts_.max_evals > 0) {
        ctx_.report(label, r_.evaluations(), static_cast<std::uint64_t>(opts_.max_evals));
    } else {
        label += ", " + format_fixed(std::max(0.0, budget_ - elapsed()), 0) + "s left";
        ctx_.report(label, static_cast<std::uint64_t>(std::min(elapsed(), budget_)), static_cast<std::uint64_t>(budget_));
    }
}

// The time the leaders' confirmation would take now: what their evaluations took. A
// candidate starts only when the reserve still fits after it.
double AutoSearchRun::confirmation_reserve() const {
    double seconds = 0;
    if (opts_.confirm_splits < 1) return seconds;
    for (std::size_t i : confirmation_leaders(r_.leaderboard, r_.greater_is_better, opts_.confirm_leaders))
        seconds += r_.leaderboard[i].seconds;
    return seconds;
}

// Confirmation rounds: round q re-scores every leader still in the race on a fresh split
// of the rows (folds from another seed stream, each fit on its own stream after the
// search's), then those clearly behind drop out. Round 1 passes over a leader whose
// evaluation would not fit in the time left; a later round runs only when all of it fits.
void AutoSearchRun::confirm() {
    std::vector<std::size_t> alive = confirmation_leaders(r_.leaderboard, r_.greater_is_better, opts_.confirm_leaders);
    for (int q = 0; q < opts_.confirm_splits && alive.size() >= 2; ++q) {
        if (q > 0 && budget_ > 0) {
            double need = 0;
            for (std::size_t i : alive) need += r_.leaderboard[i].seconds;
            if (elapsed() + need + final_reserve() > budget_) break;
        }
        const std::vector<Fold> split =
            make_splits(data_, opts_.split, derive_seed(ctx_.seed, kConfirmStream + static_cast<std::uint64_t>(q)));
        std::vector<std::size_t> scored;
        std::size_t done = 0;
        for (std::size_t i : alive) {
            AutoCandidate& c = r_.leaderboard[i];
            ++done;
            if (budget_ > 0 && elapsed() + c.seconds + final_reserve() > budget_) {
                ++r_.unconfirmed;
                continue;
            }
            if (!confirm_on(c, split, q)) continue;
            scored.push_back(i);
            if (ctx_.progress)
                ctx_.report("auto: confirming the leaders, split " + std::to_string(q + 2) + ", " + c.model + " " +
                                format_fixed(c.score.mean, 4),
                            done, alive.size());
        }
        if (scored.empty()) break;
        r_.confirmation_rounds = q + 1;
        alive = confirmation_survivors(r_.leaderboard, scored, r_.greater_is_better);
    }
}

// Re-scores leader c on confirmation round q's split; false when the split's folds refuse
// its point, which takes it out of the race.
bool AutoSearchRun::confirm_on(AutoCandidate& c, const std::vector<Fold>& split, int q) {
    std::vector<detail::FitOutcome> outcomes;
    if (refusal_of([&] {
            outcomes = detail::run_fit_jobs(fold_jobs(split, folds_.size() * static_cast<std::size_t>(q + 1), c.spec,
                                                      c.model + " " + detail::point_text(c.point), false),
                                            {opts_.metric}, quiet_, "auto");
        })) {
        if (q == 0) ++r_.unconfirmed;
        return false;
    }
    if (!c.confirmed()) ++r_.confirmed;
    for (const auto& o : outcomes) {
        c.repeat_fold_scores.push_back(o.scores.at(0));
        if (o.best_iteration >= 0) c.fold_rounds.push_back(o.best_iteration + 1);
    }
    c.score = summarize(c.repeat_fold_scores);
    set_refit(c, c.fold_scores.size() + c.repeat_fold_scores.size());
    ++r_.confirmation_fits;
    return true;
}

// The search's closing notes (families that never fitted the budget), the leaderboard in its
// final order, the ensemble and the stack over it, then the warnings of every fit.
void AutoSearchRun::rank() {
    r_.seconds = since(start_);
    for (const auto& f : families_)
        if (f.last_seconds == 0 && waited_.count(f.model))
            r_.skipped.push_back({f.model, "its first evaluation (estimated " + format_duration(waited_[f.model]) +
                                               ") did not fit in the time budget left"});
    if (r_.leaderboard.empty()) {
        report_warnings();
        throw UsageError(option_named("time_budget") + " " + format_number(opts_.time_budget) + "s was spent (" +
                         format_fixed(opts_.seconds_used, 1) + "s reading the data) before any model was evaluated");
    }
    // The confirmed leaders first, those that stayed in the race longest first, each group by
    // its mean over the fresh splits; then the rest by their search mean.
    std::stable_sort(r_.leaderboard.begin(), r_.leaderboard.end(), [&](const AutoCandidate& a, const AutoCandidate& b) {
        if (a.repeat_fold_scores.size() != b.repeat_fold_scores.size())
            return a.repeat_fold_scores.size() > b.repeat_fold_scores.size();
        return better(a.score.mean, b.score.mean, r_.greater_is_better);
    });
    const Clock::time_point ensemble_start = Clock::now();
    if (opts_.ensemble_size > 0) r_.ensemble = detail::build_auto_ensemble(r_, opts_);
    r_.times.ensemble = since(ensemble_start);
    // The fits that save the choice come after the stack: its time is what they leave.
    r_.times.final_fits_reserved = final_reserve();
    if (opts_.stack_members > 0) {
        const Clock::time_point stack_start = Clock::now();
        const double left = opts_.time_budget > 0 ? opts_.time_budget - elapsed() - r_.times.final_fits_reserved
                                                  : std::numeric_limits<double>::infinity();
        r_.stack = build_auto_stack(data_, r_, opts_, quiet_, left);
        r_.times.stack = since(stack_start);
        // A kept stack's second layer is saved as its K fold models: its fits again.
        if (r_.stack->kept && opts_.final_fits != AutoOptions::FinalFits::none && opts_.time_budget > 0)
            r_.times.final_fits_reserved += r_.stack->best().seconds;
    }
    r_.seconds = since(start_);
    report_warnings();
}

// One line per cause of the fits' warnings (the second layer's included), most frequent first.
void AutoSearchRun::report_warnings() {
    std::stable_sort(r_.warnings.begin(), r_.warnings.end(), [](const AutoWarning& a, const AutoWarning& b) {
        return a.count != b.count ? a.count > b.count : a.cause < b.cause;
    });
    for (const auto& w : r_.warnings) {
        const std::string where = w.first.empty() ? "" : " (" + std::string(w.count > 1 ? "the first: " : "") + w.first + ")";
        ctx_.warning(std::to_string(w.count) + " of the search's fits warned: " + w.cause + where);
    }
}

}  // namespace

AutoResult auto_search(const Dataset& data, const AutoOptions& opts, const Context& ctx) {
    AutoSearchRun search(data, opts, ctx);
    return search.run();
}

}  // namespace kestrel
