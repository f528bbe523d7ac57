#pragma once
// What a parameter search (kestrel-gridsearch) answers besides its table: the search and a
// nested estimate as JSON, and the best point refit on every row to save, the search
// recorded in the model's provenance.
#include <optional>
#include <string>

#include "kestrel/core/context.hpp"
#include "kestrel/model_selection/grid_search.hpp"
#include "kestrel/pipeline/model.hpp"

namespace kestrel {

// The nested estimate: {"metric", "mean", "std", "outer": [{"fold", "params",
// "inner_score", "test_score"}]}.
Json nested_search_json(const NestedSearchResult& r);

// The search: {"search", "fitted_points", "rounds" (halving), "points" (each with its
// rank, params, mean, std, fold scores, fit seconds, iteration, resources, whether it was
// resumed, and its folds' early-stopping rounds), "best"}.
Json search_json(const GridSearchResult& r);

// What the refit model records of the search that chose it.
struct SearchRecord {
    std::string data_file;  // as the user named it; "-" is recorded as "<stdin>"
    std::string metric;     // the metric searched on
    std::string cv;         // the splits, described (describe(SplitOptions))
    const NestedSearchResult* nested = nullptr;  // the nested estimate, when one was made
};

// r's best point fitted on every row of `data`, its provenance stamped (stamp_provenance:
// record.data_file, ctx.seed) with the search: {"metric", "search", "cv", "cv_mean",
// "cv_std", "nested"}.
Model refit_best_point(const GridSearchResult& r, const Dataset& data, const SearchRecord& record, const Context& ctx);

}  // namespace kestrel
