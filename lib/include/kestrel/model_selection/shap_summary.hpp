#pragma once
// The SHAP summary (shap's summary_plot(plot_type="bar")): the mean absolute contribution
// of each input column over the rows, from Model::contributions (docs/explanations.md).
#include <string>
#include <vector>

#include "kestrel/pipeline/model.hpp"

namespace kestrel {

struct ShapSummary {
    std::vector<std::string> features;  // the model's input columns
    std::vector<std::string> outputs;   // one per explained output (the classes when there are several)
    Matrix mean_abs;                    // features x outputs: mean over the rows of |φ_j|
    Vector total;                       // per feature: the sum over the outputs (what the order follows)
    std::vector<Index> order;           // features by decreasing total (ties: input order)
};

// UsageError (Model::contributions') for a model without contributions; DataError on no rows.
ShapSummary shap_summary(const Model& model, const Features& X);

}  // namespace kestrel
