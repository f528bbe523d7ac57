#include "kestrel/tasks/prediction_text.hpp"

#include <cmath>

#include "kestrel/core/number_text.hpp"

namespace kestrel {
namespace {

// JSON string literal.
std::string prediction_json_string(const std::string& s) {
    std::string q = "\"";
    for (const char c : s) {
        const auto u = static_cast<unsigned char>(c);
        if (c == '"' || c == '\\') {
            q += '\\';
            q += c;
        } else if (u < 0x20) {
            static const char hex[] = "0123456789abcdef";
            q += "\\u00";
            q += hex[u >> 4];
            q += hex[u & 15];
        } else {
            q += c;
        }
    }
    return q + "\"";
}

// A number as JSON: NaN and infinities have no JSON form and are written null.
std::string prediction_json_number(double v) { return std::isfinite(v) ? format_number(v) : "null"; }

std::string prediction_field(const std::string& s, PredictionFormat format) {
    if (format == PredictionFormat::tsv && s.find_first_of("\t\"\r\n") == std::string::npos) return s;
    return csv_field(s);
}

}  // namespace

std::string csv_field(const std::string& s) {
    if (s.find_first_of(",\"\r\n;\t") == std::string::npos) return s;
    std::string q = "\"";
    for (char c : s) {
        if (c == '"') q += '"';
        q += c;
    }
    return q + "\"";
}

std::vector<std::string> prediction_column_names(const Model& model, const ScoredRows& cols,
                                                 const PredictionLayout& layout) {
    const auto& classes = model.classes();
    std::vector<std::string> names = layout.passthrough;
    names.emplace_back("prediction");
    for (Index c = 0; c < cols.proba.cols(); ++c) names.push_back("proba_" + classes[static_cast<std::size_t>(c)]);
    if (cols.decision.cols() == 1) names.emplace_back("decision");
    else
        for (Index c = 0; c < cols.decision.cols(); ++c)
            names.push_back("decision_" + classes[static_cast<std::size_t>(c)]);
    if (cols.contrib.cols() > 0)
        for (auto& n : model.contribution_names(cols.contrib.cols() / (model.n_features() + 1)))
            names.push_back(std::move(n));
    return names;
}

std::string prediction_header(const Model& model, const ScoredRows& cols, const PredictionLayout& layout) {
    if (!layout.header || layout.format == PredictionFormat::jsonl) return "";
    const char sep = layout.format == PredictionFormat::tsv ? '\t' : ',';
    std::string out;
    bool first = true;
    for (const auto& name : prediction_column_names(model, cols, layout)) {
        if (!first) out += sep;
        out += prediction_field(name, layout.format);
        first = false;
    }
    return out + '\n';
}

std::string prediction_rows(const Model& model, const ScoredRows& cols, const PredictionLayout& layout,
                            const std::vector<std::vector<std::string>>& passthrough) {
    const bool classify = model.task() == Task::classification;
    const auto& classes = model.classes();
    std::string out;
    out.reserve(static_cast<std::size_t>(cols.predicted.size()) * 24);
    if (layout.format == PredictionFormat::jsonl) {
        const auto names = prediction_column_names(model, cols, layout);
        std::vector<std::string> keys;
        for (const auto& n : names) keys.push_back(prediction_json_string(n) + ":");
        for (Index i = 0; i < cols.predicted.size(); ++i) {
            std::size_t k = 0;
            out += '{';
            for (const auto& column : passthrough) {
                out += keys[k++];
                out += prediction_json_string(column[static_cast<std::size_t>(i)]);
                out += ',';
            }
            out += keys[k++];
            out += classify ? prediction_json_string(classes[static_cast<std::size_t>(cols.predicted[i])])
                            : prediction_json_number(cols.predicted[i]);
            for (Index c = 0; c < cols.proba.cols(); ++c) out += "," + keys[k++] + prediction_json_number(cols.proba(i, c));
            for (Index c = 0; c < cols.decision.cols(); ++c) out += "," + keys[k++] + prediction_json_number(cols.decision(i, c));
            for (Index c = 0; c < cols.contrib.cols(); ++c) out += "," + keys[k++] + prediction_json_number(cols.contrib(i, c));
            out += "}\n";
        }
        return out;
    }
    const char sep = layout.format == PredictionFormat::tsv ? '\t' : ',';
    for (Index i = 0; i < cols.predicted.size(); ++i) {
        for (const auto& column : passthrough) {
            out += prediction_field(column[static_cast<std::size_t>(i)], layout.format);
            out += sep;
        }
        out += classify ? prediction_field(classes[static_cast<std::size_t>(cols.predicted[i])], layout.format)
                        : format_number(cols.predicted[i]);
        for (Index c = 0; c < cols.proba.cols(); ++c) {
            out += sep;
            out += format_number(cols.proba(i, c));
        }
        for (Index c = 0; c < cols.decision.cols(); ++c) {
            out += sep;
            out += format_number(cols.decision(i, c));
        }
        for (Index c = 0; c < cols.contrib.cols(); ++c) {
            out += sep;
            out += format_number(cols.contrib(i, c));
        }
        out += '\n';
    }
    return out;
}

std::string prediction_csv(const Model& model, const ScoredRows& cols) {
    const PredictionLayout layout;
    return prediction_header(model, cols, layout) + prediction_rows(model, cols, layout);
}

}  // namespace kestrel
