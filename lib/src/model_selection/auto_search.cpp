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
#include <set>
#include <sstream>
#include <stdexcept>

#include "fit_jobs.hpp"
#include "kestrel/core/error.hpp"
#include "kestrel/core/number_text.hpp"
#include "kestrel/core/rng.hpp"
#include "kestrel/metrics/metric_registry.hpp"
#include "kestrel/model_selection/ensemble_selection.hpp"
#include "kestrel/pipeline/registry.hpp"
#include "kestrel/pipeline/search_spaces.hpp"
#include "search_run.hpp"

namespace kestrel {

namespace {

constexpr std::uint64_t kAutoStream = 0xa070'0000'0000ULL;
// Points drawn per family up front; a family evaluates them in this order. Far more
// than any budget reaches, and cheap: drawing is text, nothing is fitted.
constexpr int kDrawn = 500;
// The second K-fold split the leaders are re-scored on (docs/auto.md, "Confirming the
// leaders"): its folds' seed, apart from every family's draws.
constexpr std::uint64_t kConfirmStream = 0xa071'0000'0000ULL;
// Successive halving's factor inside a family's turn: scikit-learn's HalvingRandomSearchCV
// default (and kestrel-gridsearch --halving's).
constexpr int kHalvingFactor = 3;

// FNV-1a: a family's draws depend on the seed and its name only, so `--models gbdt`
// tries the same gbdt candidates as the whole portfolio does.
std::uint64_t name_stream(const std::string& name) {
    std::uint64_t h = 1469598103934665603ULL;
    for (unsigned char c : name) h = (h ^ c) * 1099511628211ULL;
    return kAutoStream ^ (h & 0xffff'ffffULL);
}

using Clock = std::chrono::steady_clock;
double since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

// One family of the portfolio: its candidates, in the order they are evaluated.
struct Family {
    std::string model;
    std::vector<GridPoint> points;  // [0] = the defaults with the space's fixed settings, then its portfolio
    std::vector<ModelSpec> specs;
    std::size_t next = 0;
    std::size_t portfolio = 1;  // points [0, portfolio): the defaults and the portfolio, each evaluated alone
    std::set<std::string> seen;  // resolved candidates already queued (a one-point space repeats its defaults)
    int cost = 0;  // the space's cost class
    bool has_score = false;
    double best = 0;
    double last_seconds = 0;  // 0 until its first evaluation has run
    double last_rounds = 1;   // rounds_of its last evaluated candidate
    bool last_screened = false;  // its last turn screened a batch (about 3 evaluations' time)

    bool in_portfolio() const { return next < portfolio; }
    // The halving batch its next turn after the portfolio screens: none within the
    // portfolio, nor with fewer than the halving factor's candidates left.
    std::size_t screen_batch(int halving_batch) const {
        const std::size_t batch =
            std::min<std::size_t>(static_cast<std::size_t>(std::max(halving_batch, 1)), specs.size() - next);
        return next >= portfolio && batch >= static_cast<std::size_t>(kHalvingFactor) ? batch : 0;
    }
};

// An ensemble's rounds (n_estimators), else 1: a portfolio configuration of 600 rounds is
// expected to take six times what its family's 100-round defaults took.
double rounds_of(const ModelSpec& s) {
    const Json& v = resolved_params(s)->values();
    const auto at = v.find("n_estimators");
    return at != v.end() && at->is_number() && at->get<double>() > 0 ? at->get<double>() : 1.0;
}

std::string candidate_key(const ModelSpec& s) {
    std::string key = resolved_params(s)->values().dump();
    for (const auto& step : s.preprocessing) key += "|" + step;
    return key;
}

// The space's one-value axes (scale=standard, n_estimators=100): the settings every
// candidate of the family shares, so the defaults candidate gets them too.
GridPoint fixed_settings(const std::vector<GridAxis>& axes) {
    GridPoint p;
    for (const auto& a : axes)
        if (a.kind == AxisKind::list && a.values.size() == 1) p.emplace_back(a.name, a.values[0]);
    return p;
}

// Sets name to value in the point, replacing the value it has.
void set_setting(GridPoint& point, const std::string& name, const std::string& value) {
    auto at = std::find_if(point.begin(), point.end(), [&](const auto& nv) { return nv.first == name; });
    if (at != point.end()) at->second = value;
    else point.emplace_back(name, value);
}

// A portfolio entry ("a=1 b=2") over the space's fixed settings, its value replacing a fixed one.
GridPoint portfolio_point(GridPoint point, const std::string& text) {
    std::istringstream words(text);
    for (std::string word; words >> word;) {
        const auto eq = word.find('=');
        if (eq == std::string::npos || eq == 0)
            throw std::logic_error("search space portfolio entry \"" + text + "\": expected name=value settings");
        set_setting(point, word.substr(0, eq), word.substr(eq + 1));
    }
    return point;
}

Family make_family(const std::string& model, const std::vector<GridAxis>& axes, const AutoOptions& opts,
                   std::uint64_t seed) {
    Family f;
    f.model = model;
    f.cost = search_space(model).cost;
    ModelSpec base = opts.base;
    base.model = model;
    base.params = Params::object();
    base.resolved.reset();
    auto add = [&](GridPoint point) {
        ModelSpec s = apply_point(base, point);
        resolve_params(s);
        if (!f.seen.insert(candidate_key(s)).second) return;
        f.points.push_back(std::move(point));
        f.specs.push_back(std::move(s));
    };
    add(fixed_settings(axes));
    for (auto& p : declared_portfolio(model)) add(std::move(p));
    f.portfolio = f.points.size();
    for (auto& p : sample_points(axes, kDrawn, derive_seed(seed, name_stream(model)))) add(std::move(p));
    return f;
}

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
    for (const auto& [name, value] : refit) set_setting(c.refit_point, name, value);
    c.refit_spec = apply_point(c.spec, refit);
    c.refit_spec.resolved.reset();
    resolve_params(c.refit_spec);
}

// Better first; a NaN mean (a metric undefined on some fold) ranks last.
bool better(double a, double b, bool greater) { return detail::better_score(a, b, greater); }

// Whether a candidate's out-of-fold predictions can join an ensemble: a classifier's
// must hold probabilities (averaging decision values of different scales means nothing).
bool can_join(const std::vector<Predictions>& oof, const ModelSpec& spec, const AutoOptions& opts) {
    if (opts.ensemble_excludes_absent_missing && registry().capabilities(*resolved_params(spec)).absent_is_missing)
        return false;
    for (const auto& p : oof)
        if (p.task == Task::classification && p.proba.size() == 0) return false;
    return !oof.empty();
}

// Keeps the out-of-fold predictions of the ensemble_nbest best candidates only (the
// worst holder, the later on ties, lets go), so memory stays bounded by the pool.
void trim_pool(std::vector<AutoCandidate>& leaderboard, const AutoOptions& opts, bool greater) {
    std::vector<AutoCandidate*> holders;
    for (auto& c : leaderboard)
        if (!c.oof.empty()) holders.push_back(&c);
    if (holders.size() <= static_cast<std::size_t>(opts.ensemble_nbest)) return;
    AutoCandidate* worst = holders.front();
    for (AutoCandidate* c : holders)
        if (!better(c->score.mean, worst->score.mean, greater)) worst = c;
    std::vector<Predictions>().swap(worst->oof);
}

AutoEnsemble build_ensemble(const AutoResult& r, const AutoOptions& opts) {
    AutoEnsemble e;
    e.rounds = opts.ensemble_size;
    e.best_single = summarize(r.leaderboard.front().fold_scores).mean;  // on the folds the ensemble is scored on
    std::vector<std::size_t> pool;
    std::vector<std::vector<Predictions>> oof;
    for (std::size_t i = 0; i < r.leaderboard.size() && pool.size() < static_cast<std::size_t>(opts.ensemble_nbest); ++i) {
        if (r.leaderboard[i].oof.empty()) continue;
        pool.push_back(i);
        oof.push_back(r.leaderboard[i].oof);
    }
    e.pool = pool.size();
    if (pool.empty()) {
        e.note = "no candidate can join an ensemble (a classifier's must give probabilities)";
        return e;
    }
    const EnsembleSelection s = select_ensemble(oof, opts.metric, opts.ensemble_size);
    for (std::size_t m : s.members) e.members.push_back(pool[m]);
    e.weights = s.weights;
    e.fold_scores = s.fold_scores;
    e.score = s.score;
    // The score above was made on the predictions the weights were chosen on, so it flatters
    // the ensemble; the best single model is flattered too (the best of many draws). Each is
    // checked on folds its choice did not see, and the ensemble must win there.
    if (s.fold_scores.size() >= 2) {
        e.held_out_scores = held_out_ensemble_scores(oof, opts.metric, opts.ensemble_size);
        std::vector<std::vector<double>> single;
        for (const auto& c : r.leaderboard) single.push_back(c.fold_scores);
        e.held_out_single_scores = held_out_best_scores(single, r.greater_is_better);
        e.held_out = summarize(e.held_out_scores);
        e.held_out_single = summarize(e.held_out_single_scores);
        e.kept = better(e.held_out.mean, e.held_out_single.mean, r.greater_is_better);
        const AutoCandidate& winner = r.leaderboard.front();
        if (winner.confirmed()) {
            e.against_confirmed = true;
            e.confirmed_single = winner.score.mean;
            e.kept = e.kept && better(e.held_out.mean, e.confirmed_single, r.greater_is_better);
        }
    } else {
        e.kept = better(e.score.mean, e.best_single, r.greater_is_better);
    }
    return e;
}

}  // namespace

std::vector<std::size_t> confirmation_leaders(const std::vector<AutoCandidate>& candidates, bool greater, int at_most) {
    if (at_most < 2) return {};
    std::vector<std::size_t> order;
    for (std::size_t i = 0; i < candidates.size(); ++i)
        if (std::isfinite(candidates[i].score.mean)) order.push_back(i);
    if (order.size() < 2) return {};
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        return better(candidates[a].score.mean, candidates[b].score.mean, greater);
    });
    const AutoCandidate& top = candidates[order.front()];
    const std::size_t k = top.fold_scores.size();
    const double se = k > 1 ? top.score.std / std::sqrt(static_cast<double>(k - 1)) : 0.0;
    const double bound = greater ? top.score.mean - se : top.score.mean + se;
    std::vector<std::size_t> tied;
    for (std::size_t i : order) {
        const double m = candidates[i].score.mean;
        if (greater ? m >= bound : m <= bound) tied.push_back(i);
    }
    std::vector<std::size_t> leaders;
    std::vector<bool> taken(tied.size(), false);
    std::set<std::string> families;
    for (int pass = 0; pass < 2; ++pass)
        for (std::size_t t = 0; t < tied.size(); ++t) {
            if (leaders.size() >= static_cast<std::size_t>(at_most)) break;
            if (taken[t] || (pass == 0 && !families.insert(candidates[tied[t]].model).second)) continue;
            taken[t] = true;
            leaders.push_back(tied[t]);
        }
    if (leaders.size() < 2) return {};
    return leaders;
}

std::vector<std::size_t> confirmation_survivors(const std::vector<AutoCandidate>& candidates,
                                                const std::vector<std::size_t>& alive, bool greater) {
    const AutoCandidate* top = nullptr;
    for (std::size_t i : alive)
        if (std::isfinite(candidates[i].score.mean) &&
            (top == nullptr || better(candidates[i].score.mean, top->score.mean, greater)))
            top = &candidates[i];
    if (top == nullptr) return alive;
    const std::size_t n = top->repeat_fold_scores.size();
    const double se = n > 1 ? top->score.std / std::sqrt(static_cast<double>(n - 1)) : 0.0;
    const double bound = greater ? top->score.mean - se : top->score.mean + se;
    std::vector<std::size_t> survivors;
    for (std::size_t i : alive) {
        const double m = candidates[i].score.mean;
        if (greater ? m >= bound : m <= bound) survivors.push_back(i);
    }
    return survivors;
}

double first_evaluation_estimate(int cost, const std::vector<std::pair<int, double>>& measured) {
    double estimate = 0;
    for (const auto& [measured_cost, seconds] : measured)
        estimate = std::max(estimate, std::ldexp(seconds, std::max(0, cost - measured_cost)));
    return estimate;
}

std::vector<GridAxis> declared_axes(const std::string& model) {
    const SearchSpace& space = search_space(model);
    if (!space.declared())
        throw UsageError("model " + model + " declares no search space; give the axes with -g");
    std::vector<GridAxis> axes;
    for (const auto& text : space.axes) axes.push_back(parse_grid_axis(text));
    return axes;
}

std::vector<GridPoint> declared_portfolio(const std::string& model) {
    const GridPoint fixed = fixed_settings(declared_axes(model));
    std::vector<GridPoint> points;
    for (const auto& text : search_space(model).portfolio) points.push_back(portfolio_point(fixed, text));
    return points;
}

std::vector<std::string> default_portfolio(Task task) {
    std::vector<std::string> names;
    for (const auto& name : registry().names()) {
        if (search_space(name).declared() && registry().info(name).supports(task)) names.push_back(name);
    }
    std::stable_sort(names.begin(), names.end(), [](const std::string& a, const std::string& b) {
        return search_space(a).cost < search_space(b).cost;
    });
    return names;
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
    bool waits(const Family& f, double used);
    bool take_turn(Family& f);
    std::size_t screen(Family& f, std::size_t first, std::size_t batch);
    bool evaluate_at(Family& f, std::size_t c);
    void confirm();
    bool confirm_on(AutoCandidate& c, const std::vector<Fold>& split, int q);
    void rank();

    std::vector<detail::FitJob> fold_jobs(const std::vector<Fold>& on, std::size_t first_stream, const ModelSpec& spec,
                                          const std::string& label, bool keep_predictions) const;
    double elapsed() const { return opts_.seconds_used + since(start_); }
    double best_so_far() const;
    void report_progress() const;
    double confirmation_reserve() const;

    const Clock::time_point start_;
    const Dataset& data_;
    const AutoOptions& opts_;
    const Context& ctx_;
    AutoResult r_;
    std::vector<Family> families_;
    std::vector<Fold> folds_;
    Context quiet_;
    std::map<std::string, double> waited_;  // families never evaluated: the estimate that did not fit
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
    r_.metric = opts.metric;
    r_.greater_is_better = metric.greater_is_better;
}

AutoResult AutoSearchRun::run() {
    choose_portfolio();
    folds_ = make_splits(data_, opts_.split, ctx_.seed);
    r_.n_splits = folds_.size();
    r_.folds = folds_;
    quiet_fits();
    schedule();
    if (!r_.leaderboard.empty()) confirm();
    rank();
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
        if (std::any_of(families_.begin(), families_.end(), [&](const Family& f) { return f.model == model; }))
            throw UsageError(option_named("models") + " " + model + ": given twice");
        const SearchSpace& space = search_space(model);
        if (space.max_rows > 0 && static_cast<std::size_t>(data_.rows()) > space.max_rows) {
            r_.skipped.push_back({model, space.too_large + " (this table has " + std::to_string(data_.rows()) + ")"});
            continue;
        }
        Family f = make_family(model, declared_axes(model), opts_, ctx_.seed);
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
            portfolio = std::any_of(families_.begin(), families_.end(), [](const Family& f) { return f.in_portfolio(); });
        std::vector<Family*> turn;
        for (auto& f : families_)
            if (portfolio ? f.in_portfolio() : f.next < f.specs.size()) turn.push_back(&f);
        if (turn.empty()) break;
        if (!portfolio) {
            std::stable_sort(turn.begin(), turn.end(), [&](const Family* a, const Family* b) {
                if (a->has_score != b->has_score) return a->has_score;  // never scored: last
                return better(a->best, b->best, r_.greater_is_better);
            });
            turn.resize((turn.size() + 1) / 2);
        }
        bool ran = false, stop = false;
        for (Family* f : turn) {
            if (opts_.max_evals > 0 && static_cast<int>(r_.evaluations()) >= opts_.max_evals) {
                r_.stopped_by = "max-evals";
                stop = true;
                break;
            }
            if (opts_.time_budget > 0) {
                const double used = elapsed();
                if (used >= opts_.time_budget) {
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
bool AutoSearchRun::waits(const Family& f, double used) {
    std::vector<std::pair<int, double>> measured;
    for (const auto& g : families_)
        if (g.last_seconds > 0) measured.emplace_back(g.cost, g.last_seconds);
    // A screening turn fits 9 candidates on a ninth of the rows, 3 on a third, then one on
    // all: about 3 plain evaluations.
    const bool screens = f.screen_batch(opts_.halving_batch) > 0;
    // Within the portfolio, a configuration with more rounds than the last is expected to
    // take longer in proportion (early stopping may end it sooner).
    const double grow = f.in_portfolio() ? std::max(1.0, rounds_of(f.specs[f.next]) / f.last_rounds) : 1.0;
    const double expected = f.last_seconds > 0 ? f.last_seconds * grow * (screens && !f.last_screened ? 3.0 : 1.0)
                                               : first_evaluation_estimate(f.cost, measured);
    if (used + expected + confirmation_reserve() <= opts_.time_budget) return false;
    if (f.last_seconds == 0) waited_[f.model] = expected;
    return true;
}

// A family's turn: within its portfolio, the next configuration alone; after it, successive
// halving over its next halving_batch draws screens them (screen below) and the one left is
// evaluated at all rows. Too few candidates left or rows for the first round: one draw alone.
// A portfolio configuration is evaluated in full because a subsample's ninth of the rows
// could screen out the very corner it was chosen for.
bool AutoSearchRun::take_turn(Family& f) {
    const Clock::time_point t0 = Clock::now();
    const std::size_t first = f.next;
    const std::size_t batch = f.screen_batch(opts_.halving_batch);
    const std::size_t spent = batch > 0 ? screen(f, first, batch) : 1;  // candidates this turn uses up
    const bool ok = evaluate_at(f, first);
    f.next = first + spent;
    f.last_seconds = since(t0);
    f.last_rounds = rounds_of(f.specs[first]);
    f.last_screened = spent > 1;
    return ok;
}

// The grid search's SearchRun (resource = rows, factor 3) over candidates [first, first +
// batch) of f on subsamples of the same folds, every round but the last; the survivor is
// swapped to `first`. Returns the candidates used up: the batch, or 1 when no round ran.
std::size_t AutoSearchRun::screen(Family& f, std::size_t first, std::size_t batch) {
    std::size_t spent = 1;
    const auto from = static_cast<std::ptrdiff_t>(first), to = static_cast<std::ptrdiff_t>(first + batch);
    const std::vector<GridPoint> points(f.points.begin() + from, f.points.begin() + to);
    SearchOptions so;
    so.split = opts_.split;
    so.metric = opts_.metric;
    so.halving = true;
    so.factor = kHalvingFactor;
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
bool AutoSearchRun::evaluate_at(Family& f, std::size_t c) {
    const Clock::time_point t0 = Clock::now();
    std::vector<detail::FitJob> jobs =
        fold_jobs(folds_, 0, f.specs[c], f.model + " " + detail::point_text(f.points[c]), opts_.ensemble_size > 0);
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
        if (opts_.ensemble_size > 0) {
            o.predictions.decision.resize(0, 0);  // probabilities are what is averaged
            cand.oof.push_back(std::move(o.predictions));
        }
    }
    set_refit(cand, outcomes.size());
    if (!can_join(cand.oof, cand.spec, opts_)) std::vector<Predictions>().swap(cand.oof);
    cand.score = summarize(cand.fold_scores);
    cand.fit_seconds = fit / static_cast<double>(outcomes.size());
    cand.seconds = since(t0);
    cand.finished_at = opts_.seconds_used + since(start_);
    f.last_seconds = cand.seconds;
    if (!f.has_score || better(cand.score.mean, f.best, r_.greater_is_better)) f.best = cand.score.mean;
    f.has_score = true;
    r_.leaderboard.push_back(std::move(cand));
    if (opts_.ensemble_size > 0) trim_pool(r_.leaderboard, opts_, r_.greater_is_better);
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
        label += ", " + format_fixed(std::max(0.0, opts_.time_budget - elapsed()), 0) + "s left";
        ctx_.report(label, static_cast<std::uint64_t>(std::min(elapsed(), opts_.time_budget)),
                    static_cast<std::uint64_t>(opts_.time_budget));
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
        if (q > 0 && opts_.time_budget > 0) {
            double need = 0;
            for (std::size_t i : alive) need += r_.leaderboard[i].seconds;
            if (elapsed() + need > opts_.time_budget) break;
        }
        const std::vector<Fold> split =
            make_splits(data_, opts_.split, derive_seed(ctx_.seed, kConfirmStream + static_cast<std::uint64_t>(q)));
        std::vector<std::size_t> scored;
        std::size_t done = 0;
        for (std::size_t i : alive) {
            AutoCandidate& c = r_.leaderboard[i];
            ++done;
            if (opts_.time_budget > 0 && elapsed() + c.seconds > opts_.time_budget) {
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

// The search's closing notes (warnings, families that never fitted the budget), then the
// leaderboard in its final order and the ensemble over it.
void AutoSearchRun::rank() {
    r_.seconds = since(start_);
    std::stable_sort(r_.warnings.begin(), r_.warnings.end(), [](const AutoWarning& a, const AutoWarning& b) {
        return a.count != b.count ? a.count > b.count : a.cause < b.cause;
    });
    for (const auto& w : r_.warnings) {
        const std::string where = w.first.empty() ? "" : " (" + std::string(w.count > 1 ? "the first: " : "") + w.first + ")";
        ctx_.warning(std::to_string(w.count) + " of the search's fits warned: " + w.cause + where);
    }
    for (const auto& f : families_)
        if (f.last_seconds == 0 && waited_.count(f.model))
            r_.skipped.push_back({f.model, "its first evaluation (estimated " + format_duration(waited_[f.model]) +
                                               ") did not fit in the time budget left"});
    if (r_.leaderboard.empty())
        throw UsageError(option_named("time_budget") + " " + format_number(opts_.time_budget) + "s was spent (" +
                         format_fixed(opts_.seconds_used, 1) + "s reading the data) before any model was evaluated");
    // The confirmed leaders first, those that stayed in the race longest first, each group by
    // its mean over the fresh splits; then the rest by their search mean.
    std::stable_sort(r_.leaderboard.begin(), r_.leaderboard.end(), [&](const AutoCandidate& a, const AutoCandidate& b) {
        if (a.repeat_fold_scores.size() != b.repeat_fold_scores.size())
            return a.repeat_fold_scores.size() > b.repeat_fold_scores.size();
        return better(a.score.mean, b.score.mean, r_.greater_is_better);
    });
    if (opts_.ensemble_size > 0) r_.ensemble = build_ensemble(r_, opts_);
}

}  // namespace

AutoResult auto_search(const Dataset& data, const AutoOptions& opts, const Context& ctx) {
    AutoSearchRun search(data, opts, ctx);
    return search.run();
}

}  // namespace kestrel
