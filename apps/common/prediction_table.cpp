#include "common/prediction_table.hpp"

#include "kestrel/core/number_text.hpp"

namespace kestrel::cli {

std::string csv_field(const std::string& s) {
    if (s.find_first_of(",\"\r\n;\t") == std::string::npos) return s;
    std::string q = "\"";
    for (char c : s) {
        if (c == '"') q += '"';
        q += c;
    }
    return q + "\"";
}

std::string prediction_csv(const Model& model, const PredictionColumns& cols) {
    const bool classify = model.task() == Task::classification;
    const auto& classes = model.classes();
    std::string out = "prediction";
    for (Index c = 0; c < cols.proba.cols(); ++c) out += "," + csv_field("proba_" + classes[static_cast<std::size_t>(c)]);
    if (cols.decision.cols() == 1) out += ",decision";
    else
        for (Index c = 0; c < cols.decision.cols(); ++c)
            out += "," + csv_field("decision_" + classes[static_cast<std::size_t>(c)]);
    out += '\n';
    out.reserve(out.size() + static_cast<std::size_t>(cols.predicted.size()) * 24);
    for (Index i = 0; i < cols.predicted.size(); ++i) {
        out += classify ? csv_field(classes[static_cast<std::size_t>(cols.predicted[i])]) : format_number(cols.predicted[i]);
        for (Index c = 0; c < cols.proba.cols(); ++c) out += "," + format_number(cols.proba(i, c));
        for (Index c = 0; c < cols.decision.cols(); ++c) out += "," + format_number(cols.decision(i, c));
        out += '\n';
    }
    return out;
}

}  // namespace kestrel::cli
