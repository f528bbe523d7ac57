#include "kestrel/tasks/importance_report.hpp"

#include <algorithm>
#include <numeric>

namespace kestrel {

Vector labelled_targets(const Model& model, const Table& t, const ErrorText& asked_by) {
    if (!t.labels) {
        const LabelColumn& c = model.label_column();
        throw DataError(t.source + ": " + asked_by + " needs a label column" +
                        (!c.name.empty() ? " (the model's is '" + c.name + "', not in the file)" : std::string()) +
                        "; " + option_named("label_col") + " names it");
    }
    if (model.task() != Task::classification) return numeric_targets(*t.labels, t.source);
    std::vector<std::string> classes = model.classes();
    Vector y = encode_with_classes(*t.labels, classes);
    if (classes.size() != model.classes().size())
        throw DataError(t.source + ": class '" + classes.back() + "' is not one the model was trained on");
    return y;
}

std::vector<Index> importance_order(const PermutationImportance& p) {
    std::vector<Index> order(static_cast<std::size_t>(p.mean.size()));
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](Index a, Index b) { return p.mean[a] > p.mean[b]; });
    return order;
}

Json importance_json(const PermutationImportance& p, const std::vector<std::string>& names, const std::string& metric,
                     int repeats) {
    Json j = {{"metric", metric}, {"baseline", p.baseline}, {"repeats", repeats}};
    j["importances"] = Json::array();
    for (Index c : importance_order(p))
        j["importances"].push_back(
            {{"feature", names[static_cast<std::size_t>(c)]}, {"mean", p.mean[c]}, {"std", p.std[c]}});
    return j;
}

}  // namespace kestrel
