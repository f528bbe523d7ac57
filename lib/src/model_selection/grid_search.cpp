#include "kestrel/model_selection/grid_search.hpp"

#include <algorithm>
#include <charconv>
#include <memory>

#include "fit_jobs.hpp"
#include "kestrel/core/error.hpp"
#include "kestrel/core/rng.hpp"
#include "kestrel/metrics/metric_registry.hpp"
#include "kestrel/pipeline/registry.hpp"
#include "kestrel/preprocess/polynomial_features.hpp"
#include "search_run.hpp"

namespace kestrel {

namespace {

constexpr std::uint64_t kSampleStream = 0x5a3d'0000'0000ULL;
constexpr std::uint64_t kNestedStream = 0x7e57'0000'0000ULL;

bool is_scale_step(const std::string& kind) { return kind == "standard" || kind == "minmax"; }

void set_poly_degree(std::vector<std::string>& steps, const std::string& value) {
    int degree = 0;
    const auto [ptr, ec] = std::from_chars(value.data(), value.data() + value.size(), degree);
    if (value.empty() || ec != std::errc() || ptr != value.data() + value.size() || degree < 1)
        throw UsageError(option_named("grid") + " poly=" + value + ": the degree must be an integer >= 1");
    PolyOptions o;
    const auto old = std::find_if(steps.begin(), steps.end(), is_poly_step);
    if (old != steps.end()) o = parse_poly_step(*old);
    o.degree = degree;
    set_poly_step(steps, o);
}

// The base spec with a grid point applied, checked as the fits will see it, so a
// bad value fails with a UsageError before any work is done.
ModelSpec point_spec(const ModelSpec& base, const GridPoint& point, const std::string& metric, Task task) {
    ModelSpec s = apply_point(base, point);
    try {
        resolve_params(s);  // once per point: every fold of it builds from this
    } catch (const ParamError& e) {
        throw ParamError("grid point " + detail::point_text(point) + ": " + e.text());
    }
    check_metrics(s, task, {metric});
    return s;
}

struct Candidates {
    std::vector<GridPoint> points;
    std::vector<ModelSpec> specs;
};

Candidates make_candidates(const ModelSpec& base, const std::vector<GridAxis>& axes, const Dataset& data,
                           const SearchOptions& opts, std::uint64_t seed) {
    if (opts.metric.empty()) throw UsageError(option_named("metric") + ": no metric to optimize");
    (void)metric_info(opts.metric);
    if (opts.halving && !opts.known.empty())
        throw UsageError(option_named("known") + " cannot be combined with " + option_named("halving"));
    Candidates c;
    c.points = opts.n_iter > 0 ? sample_points(axes, opts.n_iter, derive_seed(seed, kSampleStream)) : expand_grid(axes);
    c.specs.reserve(c.points.size());
    for (const auto& point : c.points) c.specs.push_back(point_spec(base, point, opts.metric, data.task));
    return c;
}

// Runs the searches round by round, all of a round's fits in one parallel loop.
void drive(std::vector<detail::SearchRun*> runs, const SearchOptions& opts, const Context& ctx) {
    while (true) {
        std::vector<detail::FitJob> jobs;
        std::vector<std::pair<detail::SearchRun*, std::size_t>> owner;  // run, its first job
        for (auto* run : runs) {
            if (run->done()) continue;
            owner.emplace_back(run, jobs.size());
            run->next_round(jobs);
        }
        if (owner.empty()) return;
        auto outcomes = detail::run_fit_jobs(jobs, {opts.metric}, ctx, "gridsearch", opts.observe);
        for (std::size_t i = 0; i < owner.size(); ++i) {
            const std::size_t first = owner[i].second;
            const std::size_t last = i + 1 < owner.size() ? owner[i + 1].second : jobs.size();
            owner[i].first->take(std::span<detail::FitOutcome>(outcomes.data() + first, last - first));
        }
    }
}

}  // namespace

ModelSpec apply_point(const ModelSpec& base, const GridPoint& point) {
    const ParamSpec& spec = registry().spec(base.model);
    ModelSpec s = base;
    if (!s.params.is_object()) s.params = Params::object();
    for (const auto& [name, value] : point) {
        // `scale` is the --scale preprocessing step unless the model has a parameter of that name.
        if (name == "scale" && !spec.find(name)) {
            if (value != "standard" && value != "minmax" && value != "none")
                throw UsageError(option_named("grid") + " scale=" + value +
                                 ": valid values are standard, minmax, none");
            if (std::any_of(base.preprocessing.begin(), base.preprocessing.end(), is_scale_step))
                throw UsageError(option_named("grid") + " scale: " + option_named("scale") +
                                 " is also given; keep one of them");
            if (value != "none") s.preprocessing.push_back(value);
            continue;
        }
        // `poly` is the --poly degree, with the options of a --poly step already there.
        if (name == "poly" && !spec.find(name)) {
            set_poly_degree(s.preprocessing, value);
            continue;
        }
        // Dotted names (base.C) belong to a nested model; create() checks those.
        if (spec.find(name)) {
            try {
                (void)spec.parse_value(name, value);
            } catch (const ParamError& e) {
                throw ParamError(option_named("grid") + " " + name + "=" + value + ": " + e.text());
            }
        }
        s.params[name] = value;
    }
    return s;
}

GridSearchResult search(const ModelSpec& base, const std::vector<GridAxis>& axes, const Dataset& data,
                        const SearchOptions& opts, const Context& ctx) {
    Candidates c = make_candidates(base, axes, data, opts, ctx.seed);
    // One set of folds for every point: points differ only in their parameters, and
    // each fold's seed depends on the fold alone (as a plain cross_validate's would).
    detail::SearchRun run(std::move(c.points), std::move(c.specs), data, opts, ctx.seed, -1);
    drive({&run}, opts, ctx);
    return run.result();
}

GridSearchResult grid_search(const ModelSpec& base, const std::vector<GridAxis>& axes, const Dataset& data,
                             int k, const std::string& metric, const Context& ctx) {
    SearchOptions opts;
    opts.split.k = k;
    opts.metric = metric;
    return search(base, axes, data, opts, ctx);
}

NestedSearchResult nested_search(const ModelSpec& base, const std::vector<GridAxis>& axes, const Dataset& data,
                                 const SearchOptions& inner, const SplitOptions& outer, const Context& ctx) {
    if (!inner.known.empty())
        throw UsageError(option_named("known") + " cannot be combined with " + option_named("outer"));
    if (outer.scheme == CvScheme::fixed)
        throw UsageError(option_named("outer") + " cannot be combined with " + option_named("validation"));
    Candidates c = make_candidates(base, axes, data, inner, ctx.seed);
    const std::vector<Fold> outer_folds = make_splits(data, outer, ctx.seed);

    // The inner search of outer fold o sees only o's training rows: it works on their
    // subset, never on row numbers into the whole data.
    std::vector<Dataset> inner_data;
    inner_data.reserve(outer_folds.size());
    for (const auto& f : outer_folds) inner_data.push_back(data.subset(f.train));
    if (inner.split.scheme == CvScheme::fixed)
        throw UsageError(option_named("validation") + " cannot be combined with " + option_named("outer"));
    // Group ids follow the rows into each outer fold's training subset.
    std::vector<SearchOptions> inner_opts(outer_folds.size(), inner);
    if (inner.split.scheme == CvScheme::group_kfold) {
        for (std::size_t o = 0; o < outer_folds.size(); ++o) {
            auto& g = inner_opts[o].split.groups;
            g.clear();
            for (Index row : outer_folds[o].train) g.push_back(inner.split.groups[static_cast<std::size_t>(row)]);
        }
    }
    std::vector<std::unique_ptr<detail::SearchRun>> runs;
    std::vector<detail::SearchRun*> ptrs;
    for (std::size_t o = 0; o < outer_folds.size(); ++o) {
        runs.push_back(std::make_unique<detail::SearchRun>(c.points, c.specs, inner_data[o], inner_opts[o],
                                                           derive_seed(ctx.seed, kNestedStream + o), static_cast<int>(o),
                                                           static_cast<int>(outer_folds.size())));
        ptrs.push_back(runs.back().get());
    }
    drive(ptrs, inner, ctx);

    NestedSearchResult r;
    r.metric = inner.metric;
    r.greater_is_better = metric_info(inner.metric).greater_is_better;
    std::vector<ModelSpec> best_specs;
    for (std::size_t o = 0; o < runs.size(); ++o) {
        const GridSearchResult g = runs[o]->result();
        OuterFoldResult of;
        of.index = static_cast<int>(o);
        of.best_point = g.best().point;
        of.params = g.best().params;
        of.inner_score = g.best().score.mean;
        r.outer.push_back(std::move(of));
        best_specs.push_back(g.best().spec);
    }
    // Each outer fold's best point, refit on its training rows, scored on its test rows.
    std::vector<detail::FitJob> jobs(outer_folds.size());
    for (std::size_t o = 0; o < outer_folds.size(); ++o) {
        auto& job = jobs[o];
        job.data = &data;
        job.fold = &outer_folds[o];
        job.spec = &best_specs[o];
        job.seed = ctx.seed;
        job.stream = o;
        job.label = "outer fold " + std::to_string(o + 1) + "/" + std::to_string(outer_folds.size()) + " refit";
        job.outer = static_cast<int>(o);
        job.phase = FitPhase::refit;
    }
    const auto outcomes = detail::run_fit_jobs(jobs, {inner.metric}, ctx, "nested cv", inner.observe);
    std::vector<double> scores;
    for (std::size_t o = 0; o < outcomes.size(); ++o) {
        r.outer[o].test_score = outcomes[o].scores.at(0);
        scores.push_back(r.outer[o].test_score);
    }
    r.score = summarize(scores);
    return r;
}

}  // namespace kestrel
