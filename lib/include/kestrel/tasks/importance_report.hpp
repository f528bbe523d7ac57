#pragma once
// Permutation importance of a saved model on labelled rows, as every front end reports it
// (kestrel-select --method permutation, kestrel-explain --importance): the targets taken
// from the table's label column, the features in the order reported and the JSON object.
#include <string>
#include <vector>

#include "kestrel/core/error.hpp"
#include "kestrel/io/read_options.hpp"
#include "kestrel/model_selection/permutation_importance.hpp"
#include "kestrel/pipeline/model.hpp"

namespace kestrel {

// The label column of `t` as class indices into model.classes() or numeric targets.
// DataError naming the file and `asked_by` (what needs the labels) when `t` has no label
// column, or naming a class the model never saw.
Vector labelled_targets(const Model& model, const Table& t, const ErrorText& asked_by);

// The features by decreasing mean decrease (ties: input order).
std::vector<Index> importance_order(const PermutationImportance& p);

// {"metric", "baseline", "repeats", "importances": [{"feature", "mean", "std"}...]}, the
// features in importance_order.
Json importance_json(const PermutationImportance& p, const std::vector<std::string>& names, const std::string& metric,
                     int repeats);

}  // namespace kestrel
