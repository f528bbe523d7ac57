// dump_tree for a fitted estimator: the one place that knows every tree model.
#include "kestrel/boosting/adaboost.hpp"
#include "kestrel/core/error.hpp"
#include "kestrel/core/number_text.hpp"
#include "kestrel/tree/decision_tree.hpp"
#include "kestrel/tree/random_forest.hpp"

namespace kestrel {

std::string dump_tree(const Estimator& model, const std::vector<std::string>& feature_names,
                      const std::vector<std::string>& classes) {
    if (!model.fitted()) throw UsageError("model " + model.name() + " is not fitted; nothing to dump");
    const std::vector<std::string> no_classes;
    const auto& cls = model.task() == Task::classification ? classes : no_classes;
    if (const auto* t = dynamic_cast<const DecisionTree*>(&model)) return dump_tree(t->tree(), feature_names, cls);
    if (const auto* f = dynamic_cast<const RandomForest*>(&model)) {
        std::string out;
        for (std::size_t i = 0; i < f->trees().size(); ++i)
            out += "tree " + std::to_string(i) + ":\n" + dump_tree(f->trees()[i], feature_names, cls);
        return out;
    }
    if (const auto* a = dynamic_cast<const AdaBoost*>(&model)) {
        std::string out;
        for (std::size_t t = 0; t < a->learners().size(); ++t) {
            const auto* tree = dynamic_cast<const DecisionTree*>(a->learners()[t].get());
            if (!tree) throw UsageError("model adaboost has a base that is not a tree; nothing to dump");
            out += "round " + std::to_string(t) + " (alpha=" + format_number(a->rounds()[t].alpha) + "):\n" +
                   dump_tree(tree->tree(), feature_names, cls);
        }
        return out;
    }
    throw UsageError("model " + model.name() + " is not a tree model; --dump-tree needs tree, forest or adaboost");
}

std::string explain_row(const Estimator& model, const double* row, const std::vector<std::string>& feature_names,
                        const std::vector<std::string>& classes) {
    if (!model.fitted()) throw UsageError("model " + model.name() + " is not fitted; nothing to explain");
    const std::vector<std::string> no_classes;
    const auto& cls = model.task() == Task::classification ? classes : no_classes;
    if (const auto* t = dynamic_cast<const DecisionTree*>(&model))
        return explain_path(t->tree(), row, feature_names, cls, "  ");
    if (const auto* f = dynamic_cast<const RandomForest*>(&model)) {
        std::string out;
        for (std::size_t i = 0; i < f->trees().size(); ++i)
            out += "  tree " + std::to_string(i) + ":\n" + explain_path(f->trees()[i], row, feature_names, cls, "    ");
        return out;
    }
    if (const auto* a = dynamic_cast<const AdaBoost*>(&model)) {
        std::string out;
        for (std::size_t t = 0; t < a->learners().size(); ++t) {
            const auto* tree = dynamic_cast<const DecisionTree*>(a->learners()[t].get());
            if (!tree) throw UsageError("--explain: model adaboost has a base that is not a tree");
            out += "  round " + std::to_string(t) + " (alpha=" + format_number(a->rounds()[t].alpha) + "):\n" +
                   explain_path(tree->tree(), row, feature_names, cls, "    ");
        }
        return out;
    }
    throw UsageError("--explain: model " + model.name() + " is not a tree model (valid: tree, forest, adaboost)");
}

}  // namespace kestrel

namespace kestrel {

// The "tree" report of the three tree-based models is their text rendering.
std::string DecisionTree::do_report(const std::string&, const ReportNames& names) const {
    return dump_tree(*this, names.features, names.classes);
}

std::string RandomForest::do_report(const std::string&, const ReportNames& names) const {
    return dump_tree(*this, names.features, names.classes);
}

std::string AdaBoost::do_report(const std::string& report_name, const ReportNames& names) const {
    if (report_name == "tree") return dump_tree(*this, names.features, names.classes);
    // "trace": one row per boosting round, as the issue's --trace asks.
    std::string csv = "round,weighted_error,alpha,train_error\n";
    for (std::size_t t = 0; t < rounds_.size(); ++t)
        csv += std::to_string(t + 1) + "," + format_number(rounds_[t].error) + "," + format_number(rounds_[t].alpha) +
               "," + format_number(rounds_[t].train_error) + "\n";
    return csv;
}

}  // namespace kestrel
