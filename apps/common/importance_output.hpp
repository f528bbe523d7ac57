#pragma once
// Permutation importance of a saved model on labelled data, as kestrel-select --method
// permutation and kestrel-explain --importance both report it: the targets read from the
// file's label column, the JSON object and the aligned text table.
#include <string>

#include "kestrel/io/read_options.hpp"
#include "kestrel/model_selection/permutation_importance.hpp"

namespace kestrel::cli {

// The label column of `t` as class indices into model.classes() or numeric targets;
// DataError naming the file when it has no label column, or a class the model never saw.
Vector labelled_targets(const Model& model, const Table& t, const std::string& why);

// {"metric", "baseline", "repeats", "importances": [{"feature", "mean", "std"}...]},
// the features by decreasing mean (ties: input order).
Json importance_json(const PermutationImportance& p, const std::vector<std::string>& names, const std::string& metric,
                     int repeats);

// The features in that order.
std::vector<Index> importance_order(const PermutationImportance& p);

// "feature  mean  std" lines, in that order, the names column as wide as the longest.
std::string importance_table(const PermutationImportance& p, const std::vector<std::string>& names);

// A number with a fixed count of decimals, as the reports print them.
std::string fixed_digits(double x, int digits = 4);

}  // namespace kestrel::cli
