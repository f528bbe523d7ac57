// Greedy forward / backward feature selection scored by cross-validated error.
#include "kestrel/model_selection/feature_selection.hpp"

#include <algorithm>
#include <limits>

#include "kestrel/core/error.hpp"
#include "kestrel/metrics/metric_registry.hpp"
#include "kestrel/preprocess/column_selector.hpp"

namespace kestrel {
namespace {

// An error must fall by more than this to count as a decrease, so that rounding
// noise between equal models never keeps the search going.
constexpr double kMinDecrease = 1e-12;

double cv_score(const ModelSpec& spec, const Dataset& data, const std::vector<Index>& features,
                const SelectionOptions& opts, const std::string& metric, const Context& ctx) {
    CvOptions o = opts.cv;
    o.metrics = {metric};
    return cross_validate(spec, with_features(data, features), o, ctx).mean(metric);
}

}  // namespace

double metric_error(const std::string& metric, double score) {
    return metric_info(metric).greater_is_better ? 1.0 - score : score;
}

Dataset with_features(const Dataset& data, const std::vector<Index>& features) {
    Dataset d = data.with_features(select_columns(data.X, features));
    if (!data.feature_names.empty())
        for (Index f : features) d.feature_names.push_back(data.feature_names[static_cast<std::size_t>(f)]);
    if (!data.category_counts.empty()) {
        for (Index f : features) {
            d.category_counts.push_back(data.category_counts[static_cast<std::size_t>(f)]);
            d.categories.push_back(data.categories[static_cast<std::size_t>(f)]);
        }
        if (std::all_of(d.category_counts.begin(), d.category_counts.end(), [](Index k) { return k == 0; })) {
            d.category_counts.clear();
            d.categories.clear();
        }
    }
    return d;
}

SelectionResult sequential_selection(const ModelSpec& spec, const Dataset& data, const SelectionOptions& opts,
                                     const Context& ctx) {
    SelectionResult r;
    r.metric = opts.metric.empty() ? (data.task == Task::classification ? "accuracy" : "rmse") : opts.metric;
    check_metrics(spec, data.task, {r.metric});
    if (opts.max_features < 0) throw UsageError(option_named("max_features") + " must be >= 0");
    const Index d = data.cols();
    const auto limit = opts.max_features > 0 ? std::min<Index>(opts.max_features, d) : d;

    std::vector<Index> current;
    double current_error = std::numeric_limits<double>::infinity();
    if (!opts.forward) {
        for (Index j = 0; j < d; ++j) current.push_back(j);
        const double s = cv_score(spec, data, current, opts, r.metric, ctx);
        current_error = metric_error(r.metric, s);
        r.trajectory.push_back({current, -1, s, current_error});
    }
    while (true) {
        const auto size = static_cast<Index>(current.size());
        if (opts.forward && size >= limit) {
            r.stop = opts.max_features > 0 && size == opts.max_features ? "reached " + option_named("max_features")
                                                                        : ErrorText("every feature selected");
            break;
        }
        if (!opts.forward && size <= 1) {
            r.stop = ErrorText("one feature left");
            break;
        }
        // Each candidate: the current set with one feature added (forward) or removed.
        SelectionStep best;
        best.error = std::numeric_limits<double>::infinity();
        for (Index j = 0; j < d; ++j) {
            const bool in = std::find(current.begin(), current.end(), j) != current.end();
            if (in == opts.forward) continue;
            std::vector<Index> candidate;
            if (opts.forward) {
                candidate = current;
                candidate.insert(std::upper_bound(candidate.begin(), candidate.end(), j), j);
            } else {
                for (Index c : current)
                    if (c != j) candidate.push_back(c);
            }
            const double s = cv_score(spec, data, candidate, opts, r.metric, ctx);
            const double e = metric_error(r.metric, s);
            if (e < best.error) best = {candidate, j, s, e};
        }
        const bool forced = !opts.forward && opts.max_features > 0 && size > opts.max_features;
        if (!(best.error < current_error - kMinDecrease) && !forced) {
            r.stop = ErrorText("the cross-validated error no longer decreases");
            break;
        }
        current = best.features;
        current_error = best.error;
        r.trajectory.push_back(std::move(best));
    }
    r.selected = current;
    if (r.selected.empty()) throw DataError("feature selection kept no feature");
    return r;
}

}  // namespace kestrel
