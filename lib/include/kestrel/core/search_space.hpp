#pragma once
// Where kestrel-gridsearch (without -g) and kestrel-auto search a model: axes in -g's
// syntax (model_selection/grid.hpp), kept as text because core knows no grid and the
// model's ParamSpec types every drawn value. A family declares its models' spaces in
// their ModelInfo (`gbdt_model_info()` sets `search_space` from `gbdt_search_space()`);
// pipeline/search_spaces.hpp answers by model name.
#include <cstddef>
#include <string>
#include <vector>

namespace kestrel {

// Every member has an initializer: a model declares its space with designated
// initializers naming only what it sets ({.axes = ..., .cost = 1}).
struct SearchSpace {
    std::vector<std::string> axes{};  // empty: the model declares no space
    // kestrel-auto's portfolio of the model (docs/auto.md, "The portfolio"): fixed
    // configurations it evaluates in this order right after the defaults (the portfolio's
    // first entry, with the space's fixed settings), before any point drawn from the axes.
    // Each is -p settings separated by spaces ("max_depth=3 n_estimators=300") over the
    // space's fixed settings, a setting here replacing a fixed one: robust alternatives to
    // the defaults (AutoGluon's and TabRepo's zero-shot portfolios, FLAML's
    // points_to_evaluate), each with a comment naming its source.
    std::vector<std::string> portfolio{};
    // kestrel-auto skips the model on a table with more training rows than this (0 = no
    // limit), giving `too_large` as the reason in its report.
    std::size_t max_rows = 0;
    std::string too_large{};
    // kestrel-auto's portfolio order, cheapest first: 1 linear models and single trees,
    // 2 neighbours, 3 ensembles of trees, 4 kernel machines.
    int cost = 0;
    bool declared() const { return !axes.empty(); }
};

}  // namespace kestrel
