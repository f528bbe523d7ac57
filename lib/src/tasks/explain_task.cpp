#include "kestrel/tasks/explain_task.hpp"

#include <algorithm>

#include "kestrel/core/error.hpp"
#include "kestrel/metrics/metric_registry.hpp"
#include "kestrel/model_selection/partial_dependence.hpp"
#include "kestrel/tasks/importance_report.hpp"

namespace kestrel {
namespace {

// Input column `name` of the model (its header name, or x1..xd when the file had none).
Index column_of(const Model& model, const std::string& name, const std::string& option) {
    const auto names = model.input_names();
    const auto it = std::find(names.begin(), names.end(), name);
    if (it != names.end()) return static_cast<Index>(it - names.begin());
    std::string list;
    for (std::size_t i = 0; i < names.size() && i < 12; ++i) list += (i ? ", " : "") + names[i];
    if (names.size() > 12) list += ", ...";
    throw UsageError(option_named(option) + ": no column '" + name + "' among the model's input columns (" + list + ")");
}

bool is_categorical(const Model& model, Index c) {
    const auto& cats = model.categories();
    return static_cast<std::size_t>(c) < cats.size() && !cats[static_cast<std::size_t>(c)].empty();
}

struct CurveColumn {
    Index column = 0;
    bool ice = false;
};

// The pdp columns in order, the ice column marked among them or added after them.
std::vector<CurveColumn> curve_columns(const Model& model, const ExplainRequest& request) {
    std::vector<CurveColumn> curves;
    for (const auto& name : request.pdp) curves.push_back({column_of(model, name, "pdp"), false});
    if (request.ice.empty()) return curves;
    const Index c = column_of(model, request.ice, "ice");
    auto it = std::find_if(curves.begin(), curves.end(), [&](const CurveColumn& k) { return k.column == c; });
    if (it != curves.end()) it->ice = true;
    else curves.push_back({c, true});
    return curves;
}

void check_contributions(const Model& model) {
    try {
        (void)model.contribution_sources();
    } catch (const UsageError& e) {
        const std::string why = e.what();
        if (why.find("retrain") != std::string::npos)
            throw UsageError(option_named("shap_summary") + ": " + why.substr(why.find(':') + 2) + "; or use " +
                             option_named("importance"));
        throw UsageError(option_named("shap_summary") + ": model " + model.model_name() +
                         " gives no feature contributions (tree, forest, gbdt and the linear models do); use " +
                         option_named("importance") + ", which works for every model");
    }
}

std::vector<double> row_values(const Matrix& m, Index r) {
    std::vector<double> v(static_cast<std::size_t>(m.cols()));
    for (Index c = 0; c < m.cols(); ++c) v[static_cast<std::size_t>(c)] = m(r, c);
    return v;
}

std::vector<double> col_values(const Matrix& m, Index c) {
    std::vector<double> v(static_cast<std::size_t>(m.rows()));
    for (Index r = 0; r < m.rows(); ++r) v[static_cast<std::size_t>(r)] = m(r, c);
    return v;
}

}  // namespace

void check_explain_request(const ExplainRequest& request) {
    if (!request.importance && !request.shap_summary && request.pdp.empty() && request.ice.empty())
        throw UsageError("nothing to explain: give " + option_named("importance") + ", " + option_named("pdp") +
                         " COL, " + option_named("ice") + " COL or " + option_named("shap_summary"));
    if (!request.metric.empty() && !request.importance)
        throw UsageError(option_named("metric") + " applies to " + option_named("importance") + ", which is not given");
    if (!request.metric.empty()) metric_info(request.metric);  // an unknown name fails before any work
}

void check_explainable(const Model& model, const ExplainRequest& request) {
    (void)curve_columns(model, request);
    if (request.shap_summary) check_contributions(model);
}

ReadOptions explain_read_options(const Model& model, const ReadOptions& read, const ExplainRequest& request) {
    ReadOptions aligned = model.align_options(read);
    if (!request.importance && read.label_col.empty() && aligned.header) aligned.label_col.clear();
    return aligned;
}

Explanations explain_table(const Model& model, const Table& t, const ExplainRequest& request, const Context& ctx) {
    if (t.X.rows() == 0) throw DataError(t.source + ": no data rows");
    Explanations e;
    if (request.importance) {
        const Vector y = labelled_targets(model, t, option_named("importance"));
        e.importance_metric = request.metric.empty() ? default_metric(model.task()) : request.metric;
        e.importance = permutation_importance(model, t.X, y, e.importance_metric, request.repeats, ctx.seed, ctx.threads);
    }
    if (request.shap_summary) e.shap = shap_summary(model, t.X);
    const auto names = model.input_names();
    for (const CurveColumn& c : curve_columns(model, request)) {
        const auto grid = column_grid(model, t.X, c.column, request.grid_resolution);
        e.curves.push_back({partial_dependence(model, t.X, c.column, grid, c.ice ? request.ice_rows : 0, ctx.seed,
                                               ctx.threads),
                            names[static_cast<std::size_t>(c.column)], is_categorical(model, c.column), c.ice});
    }
    return e;
}

Json explanations_json(const Explanations& e, const std::vector<std::string>& names, int repeats) {
    Json j = Json::object();
    if (e.importance) j["importance"] = importance_json(*e.importance, names, e.importance_metric, repeats);
    if (e.shap) j["shap_summary"] = shap_summary_json(*e.shap);
    if (!e.curves.empty()) {
        j["partial_dependence"] = Json::array();
        for (const auto& c : e.curves)
            j["partial_dependence"].push_back(partial_dependence_json(c.pd, c.name, c.categorical, c.ice));
    }
    return j;
}

Json shap_summary_json(const ShapSummary& s) {
    Json j = {{"outputs", s.outputs}, {"features", Json::array()}};
    for (Index f : s.order) {
        Json per = Json::object();
        for (std::size_t o = 0; o < s.outputs.size(); ++o) per[s.outputs[o]] = s.mean_abs(f, static_cast<Index>(o));
        j["features"].push_back(
            {{"feature", s.features[static_cast<std::size_t>(f)]}, {"mean_abs", per}, {"total", s.total[f]}});
    }
    return j;
}

Json partial_dependence_json(const PartialDependence& p, const std::string& name, bool categorical, bool with_ice) {
    Json j = {{"feature", name},    {"kind", categorical ? "categorical" : "numeric"},
              {"response", p.response}, {"grid", p.grid},
              {"labels", p.labels}, {"outputs", p.outputs}};
    Json avg = Json::object();
    for (std::size_t o = 0; o < p.outputs.size(); ++o) avg[p.outputs[o]] = col_values(p.average, static_cast<Index>(o));
    j["average"] = avg;
    if (!with_ice) return j;
    Json ice = Json::object();
    Json rows = Json::array();
    for (Index r : p.ice_rows) rows.push_back(r + 1);
    ice["rows"] = rows;
    for (std::size_t o = 0; o < p.outputs.size(); ++o) {
        Json curves = Json::array();
        for (Index r = 0; r < p.ice[o].rows(); ++r) curves.push_back(row_values(p.ice[o], r));
        ice[p.outputs[o]] = curves;
    }
    j["ice"] = ice;
    return j;
}

}  // namespace kestrel
