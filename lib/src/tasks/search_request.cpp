#include "kestrel/tasks/search_request.hpp"

#include <filesystem>

#include "kestrel/core/error.hpp"
#include "kestrel/metrics/metric_registry.hpp"
#include "kestrel/model_selection/grid.hpp"
#include "kestrel/tasks/search_axes.hpp"
#include "kestrel/tasks/search_results_csv.hpp"

namespace kestrel {

void check_search_request(const SearchRequest& r) {
    if (!r.metric.empty()) metric_info(r.metric);
    if (r.n_iter < 0) throw UsageError(option_named("n_iter") + " " + std::to_string(r.n_iter) + ": must be at least 1");
    if (r.outer_k == 1 || r.outer_k < 0)
        throw UsageError(option_named("outer") + " " + std::to_string(r.outer_k) +
                         ": nested cross-validation needs at least 2 outer folds");
    if (!r.known_file.empty() && r.halving)
        throw UsageError(option_named("known") + " cannot be combined with " + option_named("halving"));
    if (!r.known_file.empty() && r.nested())
        throw UsageError(option_named("known") + " cannot be combined with " + option_named("outer"));
}

std::vector<GridAxis> search_axes_for(SearchRequest& request, const ModelSpec& spec) {
    if (request.grid.empty()) {
        if (request.n_iter == 0) request.n_iter = kDefaultSearchPoints;
        return default_search_axes(spec);
    }
    std::vector<GridAxis> axes;
    for (const auto& text : request.grid) {
        axes.push_back(parse_grid_axis(text));
        if (spec.params.contains(axes.back().name))
            throw UsageError(option_named("grid") + " " + text + ": parameter " + axes.back().name +
                             " is also fixed with " + option_named("params"));
    }
    return axes;
}

std::string search_metric_for(const SearchRequest& request, const Dataset& data) {
    if (request.metric.empty())
        return data.has_queries() && data.task == Task::regression ? kDefaultRankingMetric : default_metric(data.task);
    check_metric_task(request.metric, data.task);
    return request.metric;
}

SearchOptions search_options_for(const SearchRequest& request, const std::vector<GridAxis>& axes,
                                 const SplitOptions& split, const std::string& metric, std::size_t n_splits) {
    SearchOptions o;
    o.split = split;
    o.metric = metric;
    o.n_iter = request.n_iter;
    o.halving = request.halving;
    if (!request.known_file.empty() && std::filesystem::exists(request.known_file))
        o.known = read_results_csv(request.known_file, axes, metric, n_splits);
    return o;
}

SplitOptions outer_split_for(const SearchRequest& request, const SplitOptions& inner) {
    SplitOptions outer;
    outer.k = request.outer_k;
    if (inner.scheme == CvScheme::group_kfold) {
        outer.scheme = CvScheme::group_kfold;
        outer.groups = inner.groups;
    }
    return outer;
}

}  // namespace kestrel
