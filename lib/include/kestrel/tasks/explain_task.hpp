#pragma once
// What a saved model's predictions depend on, on a table of rows, as every front end asks
// for it (kestrel-explain; docs/explanations.md): permutation importance of each input
// column on the rows' labels, the SHAP summary (mean |contribution| per column), and
// partial dependence with ICE curves of chosen columns, with their JSON.
#include <optional>
#include <string>
#include <vector>

#include "kestrel/core/context.hpp"
#include "kestrel/io/read_options.hpp"
#include "kestrel/model_selection/permutation_importance.hpp"
#include "kestrel/model_selection/shap_summary.hpp"
#include "kestrel/pipeline/model.hpp"
#include "kestrel/tasks/explanation_plots.hpp"

namespace kestrel {

struct ExplainRequest {
    bool importance = false;       // permutation importance (scikit-learn's permutation_importance)
    std::string metric;            // its score; "" = accuracy / r2 (an error metric is negated)
    int repeats = 5;               // shuffles per column (scikit-learn's n_repeats)
    bool shap_summary = false;     // mean |contribution| per input column
    std::vector<std::string> pdp;  // partial dependence of these input columns
    std::string ice;               // partial dependence with ICE curves of this column ("" = none)
    int grid_resolution = 100;     // a numeric column's grid between its 5th and 95th percentiles
    int ice_rows = 100;            // ICE curves kept for at most this many rows (a seeded sample)
};

// Before the model is read: UsageError naming the options when nothing is asked, or a
// metric is given without importance or is unknown.
void check_explain_request(const ExplainRequest& request);

// Before the rows are read: UsageError naming the option for a pdp or ice column that is
// not among the model's input columns, or a SHAP summary of a model that gives no
// contributions.
void check_explainable(const Model& model, const ExplainRequest& request);

// The options to read the rows with: `read` aligned to the model. Only importance scores
// the rows, so without it a CSV with a header leaves the model's label column unread
// unless `read` names one (the rows explained often leave it empty).
ReadOptions explain_read_options(const Model& model, const ReadOptions& read, const ExplainRequest& request);

struct Explanations {
    std::optional<PermutationImportance> importance;
    std::string importance_metric;
    std::optional<ShapSummary> shap;
    std::vector<ExplanationCurve> curves;  // pdp columns in order, the ice column among or after them
};

// What `request` asks, of `model` on the rows of `t` (ctx.seed seeds the shuffles and the
// ICE sample; ctx.threads). DataError naming the file when it has no rows, or no labels
// for importance.
Explanations explain_table(const Model& model, const Table& t, const ExplainRequest& request, const Context& ctx);

// {"importance", "shap_summary", "partial_dependence"}: what was explained.
Json explanations_json(const Explanations& e, const std::vector<std::string>& names, int repeats);

// {"outputs", "features": [{"feature", "mean_abs": {OUTPUT: v...}, "total"}...]} by decreasing total.
Json shap_summary_json(const ShapSummary& s);
// {"feature", "kind", "response", "grid", "labels", "average": {OUTPUT: [...]}, and with
// ICE curves "ice": {"rows": [1-based data rows], OUTPUT: [[per grid point]...]}}.
Json partial_dependence_json(const PartialDependence& p, const std::string& name, bool categorical, bool with_ice);

}  // namespace kestrel
