#pragma once
// kestrel-predict --explain: the decision path of each predicted row through a tree,
// forest or adaboost model, in the rendering of kestrel-train --dump-tree.
#include <string>

#include "kestrel/pipeline/model.hpp"

namespace kestrel::cli {

// Before any data is read: UsageError when the model is not tree-based, or when the
// predictions would share stdout with the explanation.
void check_explain(const Model& model, bool predictions_on_stdout);

// Per row: "row N: predicted LABEL", then each path (the split lines and the leaf).
std::string explain_text(const Model& model, const Features& X, const Vector& predicted);

}  // namespace kestrel::cli
