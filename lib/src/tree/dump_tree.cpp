// The text renderings of the tree family's fitted models: `--dump-tree` (the "tree"
// report) and `--explain` (one row's decision path).
#include "kestrel/core/number_text.hpp"
#include "kestrel/tree/decision_tree.hpp"
#include "kestrel/tree/random_forest.hpp"

namespace kestrel {
namespace {

const std::vector<std::string>& shown_classes(const Estimator& model, const std::vector<std::string>& classes) {
    static const std::vector<std::string> none;
    return model.task() == Task::classification ? classes : none;
}

}  // namespace

std::string DecisionTree::do_report(const std::string&, const ReportNames& names) const {
    return dump_tree(tree(), names.features, shown_classes(*this, names.classes), names.categories);
}

std::string RandomForest::do_report(const std::string&, const ReportNames& names) const {
    std::string out;
    for (std::size_t i = 0; i < trees().size(); ++i)
        out += "tree " + std::to_string(i) + ":\n" +
               dump_tree(trees()[i], names.features, shown_classes(*this, names.classes), names.categories);
    return out;
}

std::string DecisionTree::do_explain_row(const double* row, const ReportNames& names, const std::string& indent) const {
    return explain_path(tree(), row, names.features, names.classes, indent, names.categories);
}

std::string RandomForest::do_explain_row(const double* row, const ReportNames& names, const std::string& indent) const {
    std::string out;
    for (std::size_t i = 0; i < trees().size(); ++i)
        out += indent + "tree " + std::to_string(i) + ":\n" +
               explain_path(trees()[i], row, names.features, names.classes, indent + "  ", names.categories);
    return out;
}

}  // namespace kestrel
