#include "common/importance_output.hpp"

#include <algorithm>
#include <iomanip>
#include <numeric>
#include <sstream>

#include "kestrel/core/error.hpp"

namespace kestrel::cli {

Vector labelled_targets(const Model& model, const Table& t, const std::string& why) {
    if (!t.labels) {
        const LabelColumn& c = model.label_column();
        throw DataError(t.source + ": " + why + " needs a label column" +
                        (!c.name.empty() ? " (the model's is '" + c.name + "', not in the file)" : std::string()) +
                        "; --label-col names it");
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

std::string fixed_digits(double x, int digits) {
    std::ostringstream os;
    os << std::fixed << std::setprecision(digits) << x;
    return os.str();
}

std::string importance_table(const PermutationImportance& p, const std::vector<std::string>& names) {
    std::size_t w = 7;
    for (const auto& n : names) w = std::max(w, n.size());
    std::ostringstream os;
    os << std::left << std::setw(static_cast<int>(w) + 2) << "feature" << std::right << std::setw(10) << "mean"
       << std::setw(10) << "std"
       << "\n";
    for (Index c : importance_order(p))
        os << std::left << std::setw(static_cast<int>(w) + 2) << names[static_cast<std::size_t>(c)] << std::right
           << std::setw(10) << fixed_digits(p.mean[c]) << std::setw(10) << fixed_digits(p.std[c]) << "\n";
    return os.str();
}

}  // namespace kestrel::cli
