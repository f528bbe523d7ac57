#pragma once
// Permutation importance as kestrel-select --method permutation and kestrel-explain
// --importance print it: the aligned text table (the targets, the order and the JSON are
// the library's, kestrel/tasks/importance_report.hpp).
#include <string>
#include <vector>

#include "kestrel/model_selection/permutation_importance.hpp"

namespace kestrel::cli {

// "feature  mean  std" lines, in importance_order, the names column as wide as the longest.
std::string importance_table(const PermutationImportance& p, const std::vector<std::string>& names);

// A number with a fixed count of decimals, as the reports print them.
std::string fixed_digits(double x, int digits = 4);

}  // namespace kestrel::cli
