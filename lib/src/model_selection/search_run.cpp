#include "search_run.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "kestrel/core/error.hpp"
#include "kestrel/core/rng.hpp"
#include "kestrel/metrics/metric_registry.hpp"

namespace kestrel::detail {

namespace {

constexpr std::uint64_t kHalvingStream = 0x4a1f'0000'0000ULL;

// The largest p with factor^p <= x (x >= 1), in integers: no log() rounding.
int floor_log(Index x, int factor) {
    int p = 0;
    for (Index v = factor; v <= x; v *= factor) ++p;
    return p;
}

Index distinct_classes(const Dataset& d) {
    std::vector<char> seen(static_cast<std::size_t>(std::max<Index>(d.n_classes(), 1)), 0);
    for (Index i = 0; i < d.y.size(); ++i) seen[static_cast<std::size_t>(d.y[i])] = 1;
    return static_cast<Index>(std::count(seen.begin(), seen.end(), 1));
}

// `count` of `rows` drawn without replacement, sorted (folds keep sorted rows).
std::vector<Index> draw_rows(const std::vector<Index>& rows, Index count, Rng& rng) {
    std::vector<Index> out = rows;
    count = std::clamp<Index>(count, 1, static_cast<Index>(rows.size()));
    for (std::size_t i = 0; i < static_cast<std::size_t>(count); ++i)
        std::swap(out[i], out[i + static_cast<std::size_t>(rng.below(out.size() - i))]);
    out.resize(static_cast<std::size_t>(count));
    std::sort(out.begin(), out.end());
    return out;
}

}  // namespace

std::string point_text(const GridPoint& point) {
    std::string s;
    for (const auto& [name, value] : point) s += (s.empty() ? "" : " ") + name + "=" + value;
    return s.empty() ? "(base parameters)" : s;
}

bool better_score(double a, double b, bool greater_is_better) {
    if (std::isnan(a)) return false;
    if (std::isnan(b)) return true;
    return greater_is_better ? a > b : a < b;
}

SearchRun::SearchRun(std::vector<GridPoint> candidates, std::vector<ModelSpec> specs, const Dataset& data,
                     const SearchOptions& opts, std::uint64_t seed, int outer, int n_outer)
    : candidates_(std::move(candidates)), specs_(std::move(specs)), data_(data), opts_(opts), seed_(seed),
      outer_(outer), n_outer_(n_outer) {
    greater_is_better_ = metric_info(opts.metric).greater_is_better;
    folds_ = make_splits(data, opts.split, seed);
    const auto& sp = opts.split;
    pooled_ = sp.scheme == CvScheme::leave_one_out ||
              (sp.scheme == CvScheme::kfold && sp.repeats == 1 && sp.k == data.rows());
    scored_.resize(candidates_.size());
    for (std::size_t c = 0; c < candidates_.size(); ++c) {
        const auto it = std::find_if(opts.known.begin(), opts.known.end(),
                                     [&](const GridPointResult& k) { return k.point == candidates_[c]; });
        if (it == opts.known.end()) {
            active_.push_back(c);
            continue;
        }
        Scored& s = scored_[c];
        s.fold_scores = it->fold_scores;
        s.score = it->score;
        s.fit_seconds = it->fit_seconds;
        s.n_resources = data.rows();
        s.resumed = s.has = true;
    }
    if (opts.halving) plan_halving();
    done_ = active_.empty();
}

void SearchRun::plan_halving() {
    if (opts_.factor < 2) throw UsageError(option_named("halving") + ": the factor must be at least 2");
    // sklearn's HalvingGridSearchCV with min_resources='exhaust': start from the
    // largest row count that still lets the last required round use all the rows.
    const Index n = data_.rows();
    const auto splits = static_cast<Index>(folds_.size());
    const Index smallest = 2 * splits * (data_.task == Task::classification ? distinct_classes(data_) : 1);
    if (smallest > n)
        throw UsageError(option_named("halving") + ": the first round needs at least " + std::to_string(smallest) +
                         " rows (2 x splits x classes) but the data has " + std::to_string(n));
    const int required = 1 + floor_log(static_cast<Index>(std::max<std::size_t>(active_.size(), 1)), opts_.factor);
    Index power = 1;
    for (int i = 0; i < required - 1; ++i) power *= opts_.factor;
    min_resources_ = std::max(smallest, n / power);
    const int possible = 1 + floor_log(n / min_resources_, opts_.factor);
    n_iterations_ = std::min(possible, required);
}

void SearchRun::subsample_folds(int iteration, Index n_resources) {
    const Index n = data_.rows();
    round_folds_ = folds_;
    if (n_resources >= n) return;
    const double fraction = static_cast<double>(n_resources) / static_cast<double>(n);
    for (std::size_t f = 0; f < folds_.size(); ++f) {
        // As sklearn's _SubsampleMetaSplitter: each fold's train and test rows are
        // subsampled to the round's fraction, freshly for each round.
        Rng rng(derive_seed(seed_, kHalvingStream + static_cast<std::uint64_t>(iteration) * 100003 + f));
        auto& rf = round_folds_[f];
        rf.train = draw_rows(folds_[f].train, static_cast<Index>(fraction * static_cast<double>(folds_[f].train.size())), rng);
        rf.test = draw_rows(folds_[f].test, static_cast<Index>(fraction * static_cast<double>(folds_[f].test.size())), rng);
    }
}

void SearchRun::next_round(std::vector<FitJob>& jobs) {
    Index n_resources = data_.rows();
    if (opts_.halving) {
        Index power = 1;
        for (int i = 0; i < iteration_; ++i) power *= opts_.factor;
        n_resources = std::min(power * min_resources_, data_.rows());
        rounds_.push_back({iteration_, n_resources, active_.size()});
        subsample_folds(iteration_, n_resources);
    } else {
        round_folds_ = folds_;
    }
    const std::string prefix =
        outer_ >= 0 ? "outer fold " + std::to_string(outer_ + 1) + (n_outer_ > 0 ? "/" + std::to_string(n_outer_) : "") + ": "
                    : "";
    for (std::size_t c : active_) {
        for (std::size_t f = 0; f < round_folds_.size(); ++f) {
            FitJob job;
            job.data = &data_;
            job.fold = &round_folds_[f];
            job.spec = &specs_[c];
            job.seed = seed_;
            job.stream = f;
            job.label = prefix + point_text(candidates_[c]) + ", fold " + std::to_string(f + 1) + "/" +
                        std::to_string(round_folds_.size());
            job.outer = outer_;
            job.keep_predictions = pooled_;
            jobs.push_back(std::move(job));
        }
        scored_[c].n_resources = n_resources;
    }
}

void SearchRun::take(std::span<FitOutcome> outcomes) {
    const std::size_t nf = round_folds_.size();
    for (std::size_t a = 0; a < active_.size(); ++a) {
        Scored& s = scored_[active_[a]];
        s.fold_scores.clear();
        s.fold_rounds.clear();
        double seconds = 0;
        for (std::size_t f = 0; f < nf; ++f) {
            s.fold_scores.push_back(outcomes[a * nf + f].scores.at(0));
            seconds += outcomes[a * nf + f].seconds;
            if (outcomes[a * nf + f].best_iteration >= 0)
                s.fold_rounds.push_back(outcomes[a * nf + f].best_iteration + 1);
        }
        s.score = summarize(s.fold_scores);
        if (pooled_) {
            Predictions all = outcomes[a * nf].predictions;
            for (std::size_t f = 1; f < nf; ++f) all.append(outcomes[a * nf + f].predictions);
            s.score.mean = compute_metric(opts_.metric, all);
        }
        s.fit_seconds = seconds / static_cast<double>(nf);
        s.iteration = iteration_;
        s.has = true;
    }
    ++iteration_;
    if (!opts_.halving || iteration_ >= n_iterations_) {
        done_ = true;
        return;
    }
    // Keep the best ceil(n / factor), in candidate order.
    const std::size_t keep = (active_.size() + static_cast<std::size_t>(opts_.factor) - 1) / static_cast<std::size_t>(opts_.factor);
    std::stable_sort(active_.begin(), active_.end(), [&](std::size_t a, std::size_t b) {
        return better_score(scored_[a].score.mean, scored_[b].score.mean, greater_is_better_);
    });
    active_.resize(keep);
    std::sort(active_.begin(), active_.end());
}

GridSearchResult SearchRun::result() const {
    GridSearchResult r;
    r.metric = opts_.metric;
    r.greater_is_better = greater_is_better_;
    r.kind = opts_.halving ? "halving" : opts_.n_iter > 0 ? "random" : "grid";
    r.rounds = rounds_;
    for (std::size_t c = 0; c < candidates_.size(); ++c) {
        const Scored& s = scored_[c];
        if (!s.has) continue;
        GridPointResult p;
        p.point = candidates_[c];
        p.spec = specs_[c];
        p.params = specs_[c].params;
        p.score = s.score;
        p.fold_scores = s.fold_scores;
        p.fold_rounds = s.fold_rounds;
        p.fit_seconds = s.fit_seconds;
        p.iteration = s.iteration;
        p.n_resources = s.n_resources;
        p.resumed = s.resumed;
        if (!s.resumed) ++r.fitted_points;
        r.points.push_back(std::move(p));
    }
    const bool gib = greater_is_better_;
    // Halving: a point that reached a later round beat those dropped before it.
    auto before = [gib](const GridPointResult& a, const GridPointResult& b) {
        if (a.iteration != b.iteration) return a.iteration > b.iteration;
        return better_score(a.score.mean, b.score.mean, gib);
    };
    std::stable_sort(r.points.begin(), r.points.end(), before);
    // Equal means share the best rank among them (as sklearn's rank_test_score).
    for (std::size_t i = 0; i < r.points.size(); ++i) {
        const bool tied = i > 0 && !before(r.points[i - 1], r.points[i]);
        r.points[i].rank = tied ? r.points[i - 1].rank : static_cast<int>(i) + 1;
    }
    return r;
}

}  // namespace kestrel::detail
