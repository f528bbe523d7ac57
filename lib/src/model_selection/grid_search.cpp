#include "kestrel/model_selection/grid_search.hpp"

#include <algorithm>
#include <cmath>
#include <mutex>
#include <numeric>

#include "fold_runner.hpp"
#include "kestrel/core/error.hpp"
#include "kestrel/core/registry.hpp"
#include "kestrel/metrics/metric_registry.hpp"

namespace kestrel {

namespace {

using GridPoint = std::vector<std::pair<std::string, std::string>>;

std::string point_text(const GridPoint& point) {
    std::string s;
    for (const auto& [name, value] : point) s += (s.empty() ? "" : " ") + name + "=" + value;
    return s.empty() ? "(base parameters)" : s;
}

// The base spec with a grid point applied, checked as the fits will see it, so a
// bad value fails with a UsageError before any work is done.
ModelSpec point_spec(const ModelSpec& base, const GridPoint& point, const std::string& metric, Task task) {
    const ParamSpec& spec = registry().spec(base.model);
    ModelSpec s = base;
    if (!s.params.is_object()) s.params = Params::object();
    for (const auto& [name, value] : point) {
        // Dotted names (base.C) belong to a nested model; create() below checks those.
        if (spec.find(name)) {
            try {
                (void)spec.parse_value(name, value);
            } catch (const ParamError& e) {
                throw ParamError("-g " + name + "=" + value + ": " + e.what());
            }
        }
        s.params[name] = value;
    }
    try {
        (void)registry().create(s.model, s.params);
    } catch (const ParamError& e) {
        throw ParamError("grid point " + point_text(point) + ": " + e.what());
    }
    check_metrics(s, task, {metric});
    return s;
}

// Better first; a NaN score (a metric undefined on some fold) ranks last.
bool better(double a, double b, bool greater_is_better) {
    if (std::isnan(a)) return false;
    if (std::isnan(b)) return true;
    return greater_is_better ? a > b : a < b;
}

}  // namespace

GridSearchResult grid_search(const ModelSpec& base, const std::vector<GridAxis>& axes, const Dataset& data,
                             int k, const std::string& metric, const Context& ctx) {
    GridSearchResult result;
    result.metric = metric;
    result.greater_is_better = metric_info(metric).greater_is_better;

    const auto grid = expand_grid(axes);
    std::vector<ModelSpec> specs;
    specs.reserve(grid.size());
    for (const auto& point : grid) specs.push_back(point_spec(base, point, metric, data.task));
    // One set of folds for every point: points differ only in their parameters, and
    // each fold's seed depends on the fold alone (as a plain cross_validate's would).
    const auto folds = make_folds(data, k, 1, ctx.seed);

    const std::size_t n_folds = folds.size();
    std::vector<double> scores(grid.size() * n_folds), seconds(grid.size() * n_folds);
    const auto warn_mutex = std::make_shared<std::mutex>();
    detail::run_parallel(scores.size(), ctx, "gridsearch", [&](std::size_t t) {
        const std::size_t p = t / n_folds, f = t % n_folds;
        const std::string label = point_text(grid[p]) + ", fold " + std::to_string(f + 1) + "/" + std::to_string(k);
        const Context fold_ctx = detail::fold_context(ctx, f, label, warn_mutex);
        const Predictions pred = fit_and_predict(specs[p], data, folds[f], fold_ctx, &seconds[t]);
        scores[t] = compute_metric(metric, pred);
    });

    std::vector<GridPointResult> points(grid.size());
    for (std::size_t p = 0; p < grid.size(); ++p) {
        auto& r = points[p];
        r.point = grid[p];
        r.params = specs[p].params;
        r.fold_scores.assign(scores.begin() + static_cast<std::ptrdiff_t>(p * n_folds),
                             scores.begin() + static_cast<std::ptrdiff_t>((p + 1) * n_folds));
        r.score = summarize(r.fold_scores);
        double total = 0;
        for (std::size_t f = 0; f < n_folds; ++f) total += seconds[p * n_folds + f];
        r.fit_seconds = total / static_cast<double>(n_folds);
    }

    const bool gib = result.greater_is_better;
    std::stable_sort(points.begin(), points.end(), [gib](const GridPointResult& a, const GridPointResult& b) {
        return better(a.score.mean, b.score.mean, gib);
    });
    // Equal means share the best rank among them (as sklearn's rank_test_score).
    for (std::size_t i = 0; i < points.size(); ++i) {
        const bool tied = i > 0 && !better(points[i - 1].score.mean, points[i].score.mean, gib);
        points[i].rank = tied ? points[i - 1].rank : static_cast<int>(i) + 1;
    }
    result.points = std::move(points);
    return result;
}

}  // namespace kestrel
