#pragma once
// The pictures of a model's explanations, as every front end draws them (kestrel-explain
// --plot): the permutation importance and SHAP summary bar charts, and the partial
// dependence line chart with its ICE curves as faint lines underneath. SVG text.
#include <string>
#include <vector>

#include "kestrel/model_selection/partial_dependence.hpp"
#include "kestrel/model_selection/permutation_importance.hpp"
#include "kestrel/model_selection/shap_summary.hpp"

namespace kestrel {

// One column's partial dependence, with what its picture says of the column.
struct ExplanationCurve {
    PartialDependence pd;
    std::string name;
    bool categorical = false;  // the axis shows category codes, with their names under it
    bool ice = false;          // draw each sampled row's curve too
};

// `about` goes under each title ("gbdt on test.csv"); `metric` names what the importance
// is a decrease in.
std::string importance_svg(const PermutationImportance& p, const std::vector<std::string>& names,
                           const std::string& metric, const std::string& about);
std::string shap_summary_svg(const ShapSummary& s, const std::string& about);
std::string partial_dependence_svg(const ExplanationCurve& c, const std::string& about);

}  // namespace kestrel
