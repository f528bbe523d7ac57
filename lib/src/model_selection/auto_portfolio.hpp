#pragma once
// kestrel-auto's families (docs/auto.md, "Which candidate runs next"): each family's
// candidates in the order the search evaluates them (its defaults with the space's fixed
// settings, its declared portfolio, then points drawn from its space), and what the
// schedule knows of it (its cost class, best mean, last turn's time). auto_search.cpp
// schedules the turns; this file only builds the lists.
#include <cstddef>
#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "kestrel/model_selection/auto_search.hpp"

namespace kestrel::detail {

// Successive halving's factor inside a family's turn: scikit-learn's HalvingRandomSearchCV
// default (and kestrel-gridsearch --halving's).
inline constexpr int kAutoHalvingFactor = 3;

// One family of the portfolio: its candidates, in the order they are evaluated.
struct AutoFamily {
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
    double last_rounds = 1;   // auto_rounds_of its last evaluated candidate
    bool last_screened = false;  // its last turn screened a batch (about 3 evaluations' time)

    bool in_portfolio() const { return next < portfolio; }
    // The halving batch its next turn after the portfolio screens: none within the
    // portfolio, nor with fewer than the halving factor's candidates left.
    std::size_t screen_batch(int halving_batch) const;
};

// The family of `model` over opts.base: its defaults, its portfolio, then points drawn
// with a seed derived from `seed` and the model's name; duplicates (same resolved
// parameters and steps) dropped.
AutoFamily make_auto_family(const std::string& model, const AutoOptions& opts, std::uint64_t seed);

// An ensemble's rounds (n_estimators), else 1: a portfolio configuration of 600 rounds is
// expected to take six times what its family's 100-round defaults took.
double auto_rounds_of(const ModelSpec& s);

// Sets name to value in the point, replacing the value it has.
void set_point_setting(GridPoint& point, const std::string& name, const std::string& value);

}  // namespace kestrel::detail
