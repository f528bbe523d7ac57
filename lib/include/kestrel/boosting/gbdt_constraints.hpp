#pragma once
// gbdt's monotone and interaction constraints (docs/models/gbdt.md, "Constraints"): the
// text of the `monotone_constraints` and `interaction_constraints` parameters, read in two
// steps. The syntax is checked when the parameters are set (before any data is read); the
// feature names and indices are resolved against the training columns at fit time.
//
//   monotone_constraints    (1,0,-1)            one sign per feature in input order (XGBoost's
//                                               tuple); missing trailing entries are 0
//                           price:-1,age:1      by column name (header of the training file)
//   interaction_constraints [[0,1],[2,3,4]]     sets of 0-based feature indices (XGBoost's)
//                           [[price,age],[x,y]] or column names (a token of digits is an index)
#include <string>
#include <utility>
#include <vector>

#include "kestrel/core/dataset.hpp"

namespace kestrel {

struct MonotoneSpec {
    std::vector<int> by_index;                         // the tuple form
    std::vector<std::pair<std::string, int>> by_name;  // the name:sign form
    bool empty() const { return by_index.empty() && by_name.empty(); }
};

// Syntax only; ParamError naming the parameter and the offending entry.
MonotoneSpec parse_monotone_constraints(const std::string& text);

// Per feature +1 / 0 / −1, or empty when no feature is constrained. ParamError for an
// unknown name, more entries than features, or a constraint on a categorical feature
// (category_counts: as Dataset's, empty = every feature numeric).
std::vector<int> resolve_monotone_constraints(const MonotoneSpec& spec, const std::vector<std::string>& names,
                                              Index n_features, const std::vector<Index>& category_counts);

// Each set's entries as written: an index (digits) or a column name.
using InteractionSpec = std::vector<std::vector<std::string>>;
InteractionSpec parse_interaction_constraints(const std::string& text);

// The sets as ascending, distinct feature indices (empty sets dropped), or empty when
// none is given. ParamError for an unknown name or an index out of range.
std::vector<std::vector<int>> resolve_interaction_constraints(const InteractionSpec& spec,
                                                              const std::vector<std::string>& names,
                                                              Index n_features);

// XGBoost's rule for the features a node may split on, given the features used on its
// path from the root (`path`, ascending): every feature at the root; below it, the path's
// features and every feature of a set that holds all of them. allowed[f] != 0 if f may.
void allowed_features(const std::vector<std::vector<int>>& sets, const std::vector<int>& path, Index n_features,
                      std::vector<char>& allowed);

}  // namespace kestrel
