#include "kestrel/tasks/train_summary.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "kestrel/pipeline/registry.hpp"
#include "kestrel/tasks/train_task.hpp"

namespace kestrel {

Index categorical_feature_count(const Model& m) {
    Index n = 0;
    for (const auto& c : m.categories()) n += !c.empty();
    return n;
}

std::string table_summary(const Model& m) {
    const auto kinds = m.step_kinds();
    const auto has = [&](const char* k) { return std::find(kinds.begin(), kinds.end(), k) != kinds.end(); };
    std::string s;
    if (const Index n = categorical_feature_count(m); n > 0)
        s = std::to_string(n) + (n == 1 ? " categorical column" : " categorical columns") +
            (has("onehot")                                                     ? " one-hot encoded"
             : m.encoding() != "ordinal" && m.estimator().native_categories() ? " split natively"
                                                                                : " given as codes");
    if (has("impute") || has("impute_mean")) s += (s.empty() ? "" : "; ") + std::string("missing cells imputed");
    return s;
}

ErrorText inferred_regression_note(const ModelSpec& spec, const Dataset& d) {
    if (spec.task || d.task != Task::regression || d.has_queries() ||
        !registry().info(spec.model).supports(Task::classification))
        return {};
    std::vector<double> values(d.y.data(), d.y.data() + d.y.size());
    if (std::any_of(values.begin(), values.end(), [](double v) { return v != std::floor(v); })) return {};
    std::sort(values.begin(), values.end());
    const auto distinct = std::unique(values.begin(), values.end()) - values.begin();
    return "the label's " + std::to_string(distinct) + " distinct whole numbers (more than " +
           std::to_string(kMaxIntegerClasses) + ") were read as a regression target; " + option_named("task") +
           " classification trains one class per value";
}

Json c_search_report(const Model& m) {
    const auto names = m.estimator().report_names();
    if (std::find(names.begin(), names.end(), "c_search") == names.end()) return Json();
    return Json::parse(m.report("c_search"));
}

Json train_summary_json(const TrainResult& r, const std::string& output) {
    Json j = {{"model", r.model_name}, {"task", r.task_label},     {"rows", r.rows},     {"features", r.cols},
              {"classes", r.classes},  {"fit_seconds", r.seconds}, {"output", output}};
    if (!r.c_search.is_null()) j["c_search"] = r.c_search;
    if (r.quantized) j["rows_read"] = r.store_on_disk ? "quantized store on disk" : "quantized store";
    if (r.streamed) {
        j["rows_read"] = "stream";
        j["stream_passes"] = r.stream_passes;
    }
    j["categorical_features"] = r.categorical_features;
    if (const Index best = r.model.estimator().best_iteration(); best >= 0) j["best_iteration"] = best;
    j["preprocessing"] = r.model.step_kinds();
    return j;
}

}  // namespace kestrel
