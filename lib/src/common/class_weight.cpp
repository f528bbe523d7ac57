#include "kestrel/common/class_weight.hpp"

#include <charconv>
#include <cmath>
#include <string_view>

#include "kestrel/core/error.hpp"

namespace kestrel {
namespace {

std::string_view trim(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
    return s;
}

std::string class_list(const std::vector<std::string>& classes) {
    std::string out;
    for (const auto& c : classes) out += (out.empty() ? "" : ", ") + c;
    return out;
}

// std::from_chars: locale-independent, and rejects trailing garbage when we check ptr.
double parse_weight(std::string_view text, const std::string& param, std::string_view item) {
    double w = 0;
    const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), w);
    if (text.empty() || ec != std::errc() || ptr != text.data() + text.size() || !std::isfinite(w) || w < 0)
        throw ParamError(param + ": weight in '" + std::string(item) + "' must be a finite number >= 0");
    return w;
}

}  // namespace

Vector parse_class_weights(const std::string& text, const std::vector<std::string>& classes, const Vector& y,
                           const std::string& param) {
    const auto k = static_cast<Index>(classes.size());
    Vector weights = Vector::Ones(k);
    const std::string_view spec = trim(text);
    if (spec.empty()) return weights;

    if (spec == "balanced") {
        Vector counts = Vector::Zero(k);
        for (Index i = 0; i < y.size(); ++i) counts[static_cast<Index>(y[i])] += 1;
        for (Index c = 0; c < k; ++c)
            if (counts[c] > 0) weights[c] = static_cast<double>(y.size()) / (static_cast<double>(k) * counts[c]);
        return weights;
    }

    std::vector<bool> seen(classes.size(), false);
    std::string_view rest = spec;
    while (true) {
        const auto comma = rest.find(',');
        const std::string_view item = trim(rest.substr(0, comma));
        // The last ':' separates, so a label may itself contain ':'.
        const auto colon = item.rfind(':');
        if (colon == std::string_view::npos)
            throw ParamError(param + ": expected \"balanced\" or label:weight pairs separated by commas, got '" +
                             std::string(item) + "'");
        const std::string label(trim(item.substr(0, colon)));
        const double w = parse_weight(trim(item.substr(colon + 1)), param, item);
        std::size_t c = 0;
        while (c < classes.size() && classes[c] != label) ++c;
        if (c == classes.size())
            throw ParamError(param + ": unknown class label '" + label + "' (classes: " + class_list(classes) + ")");
        if (seen[c]) throw ParamError(param + ": class label '" + label + "' given twice");
        seen[c] = true;
        weights[static_cast<Index>(c)] = w;
        if (comma == std::string_view::npos) break;
        rest.remove_prefix(comma + 1);
    }
    return weights;
}

Vector sample_costs(const Dataset& data, const Vector& class_weights) {
    Vector cost(data.rows());
    for (Index i = 0; i < data.rows(); ++i) cost[i] = class_weights[static_cast<Index>(data.y[i])] * data.weight(i);
    return cost;
}

Vector row_costs(const Dataset& data, const std::string& class_weight, double C) {
    return C * sample_costs(data, parse_class_weights(class_weight, data.classes, data.y));
}

Vector plus_minus(const Dataset& data) {
    return (data.y.array() > 0.5).select(Vector::Ones(data.rows()), -Vector::Ones(data.rows()));
}

Vector class_weighted_rows(const Dataset& data, const std::string& text, const std::string& model) {
    if (data.task != Task::classification) {
        if (text.find_first_not_of(" \t") != std::string::npos)
            throw ParamError("parameter class_weight of model " + model + " applies to classification only");
        return data.has_weights() ? data.weights : Vector::Ones(data.rows());
    }
    return sample_costs(data, parse_class_weights(text, data.classes, data.y));
}

}  // namespace kestrel
