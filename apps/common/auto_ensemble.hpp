#pragma once
// kestrel-auto --ensemble's outputs: the ensemble beside the leaderboard (JSON, Markdown,
// text) and the saved model (its members refit on all rows, as the single winner is).
#include <string>

#include "common/cli.hpp"
#include "kestrel/model_selection/auto_search.hpp"

namespace kestrel::cli {

// "C=1 scale=standard", or "defaults" for the empty point.
std::string auto_point_text(const GridPoint& point);
// The point's values as a JSON object.
Json auto_point_json(const GridPoint& point);

Json ensemble_json(const AutoResult& r);
std::string ensemble_markdown(const AutoResult& r);
std::string ensemble_text(const AutoResult& r);

// Whether the training file is LIBSVM (its format forced or detected from the name and
// head): gbdt candidates then cannot join, since gbdt is refit on another reading of it.
bool auto_input_is_libsvm(const std::string& path, const DataFlags& data);

// The kept ensemble refit on all rows of `data`: each member by Model::train with its
// candidate's spec and `ctx` (the same model kestrel-train gives with those parameters
// and seed), then weighted as selected.
Model refit_ensemble(const AutoResult& r, const Dataset& data, const Context& ctx);

}  // namespace kestrel::cli
