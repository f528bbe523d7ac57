// The preprocessing steps of an exported model folded into its splits' columns.
#include "xgboost_json_columns.hpp"

#include <algorithm>
#include <cmath>

#include "kestrel/core/error.hpp"
#include "kestrel/core/json_read.hpp"

namespace kestrel {
void refuse_xgboost_json(const std::string& why) {
    throw ModelStateError("XGBoost JSON cannot hold this model: " + why);
}

namespace {

std::vector<double> step_numbers(const Json& step, const char* key, std::size_t width) {
    const auto v = step.at(key).get<std::vector<double>>();
    if (v.size() != width) refuse_xgboost_json(std::string("preprocessing step ") + step.value("type", "?") + " has the wrong width");
    return v;
}

}  // namespace

ColumnMap::ColumnMap(const Json& envelope) {
    width_ = json_integer<Index>(envelope.at("features").at("count"));
    names_ = envelope.at("features").at("names").get<std::vector<std::string>>();
    if (envelope.at("features").contains("categories"))
        categories_ = envelope["features"]["categories"].get<CategoryLists>();
    for (Index j = 0; j < width_; ++j) columns_.push_back(Column{static_cast<int>(j), 1, 0, false, 0, {}});
    for (const Json& step : envelope.at("preprocessing")) {
        const std::string type = step.value("type", "?");
        const std::size_t w = columns_.size();
        if (type == "standard" || type == "minmax") {
            const auto shift = step_numbers(step, type == "standard" ? "mean" : "shift", w), scale = step_numbers(step, "scale", w);
            for (std::size_t j = 0; j < w; ++j) {
                Column& c = columns_[j];
                if (!(scale[j] > 0) && c.scaled_by.empty()) c.scaled_by = type;
                c.a *= scale[j];
                c.b = (c.b - shift[j]) * scale[j];
                c.fill = (c.fill - shift[j]) * scale[j];
            }
        } else if (type == "impute_mean" || (type == "impute" && !step.contains("indicator"))) {
            const auto fill = step_numbers(step, "fill", w);
            for (std::size_t j = 0; j < w; ++j)
                if (!columns_[j].has_fill) {
                    columns_[j].has_fill = true;
                    columns_[j].fill = fill[j];
                }
        } else if (type == "select_columns") {
            std::vector<Column> kept;
            for (Index j : json_integers<Index>(step.at("columns"))) {
                if (j < 0 || static_cast<std::size_t>(j) >= w) refuse_xgboost_json("select_columns names a column out of range");
                kept.push_back(columns_[static_cast<std::size_t>(j)]);
            }
            columns_ = std::move(kept);
        } else {
            refuse_xgboost_json("preprocessing step " + type + (type == "impute" ? " with a missing indicator" : "") +
                   " does not keep each input column as one column (XGBoost reads the input columns only)");
        }
    }
}

const ColumnMap::Column& ColumnMap::column(int feature) const {
    if (feature < 0 || static_cast<std::size_t>(feature) >= columns_.size())
        refuse_xgboost_json("a split on feature " + std::to_string(feature) + " past the preprocessing's output");
    const Column& c = columns_[static_cast<std::size_t>(feature)];
    if (!c.scaled_by.empty())
        refuse_xgboost_json("preprocessing step " + c.scaled_by + " gives column " + name(c.source) + " a scale that is not positive");
    return c;
}

ColumnMap::Split ColumnMap::split(int feature, double threshold, bool missing_left) const {
    const Column& c = column(feature);
    return {c.source, (threshold - c.b) / c.a, c.has_fill ? c.fill <= threshold : missing_left};
}

ColumnMap::Split ColumnMap::categorical_split(int feature, bool missing_left, const std::vector<int>& right) const {
    const Column& c = column(feature);
    if (c.a != 1 || c.b != 0) refuse_xgboost_json("a categorical split on a scaled column");
    const bool fill_left = !std::binary_search(right.begin(), right.end(), static_cast<int>(c.fill));
    return {c.source, 0, c.has_fill ? fill_left : missing_left};
}

std::string ColumnMap::name(Index column) const {
    if (static_cast<std::size_t>(column) < names_.size()) return names_[static_cast<std::size_t>(column)];
    std::string name = "f";  // XGBoost's own name of an unnamed feature
    name += std::to_string(column);
    return name;
}

bool ColumnMap::categorical(Index column) const {
    return static_cast<std::size_t>(column) < categories_.size() && !categories_[static_cast<std::size_t>(column)].empty();
}

bool ColumnMap::any_categorical() const {
    return std::any_of(categories_.begin(), categories_.end(), [](const auto& l) { return !l.empty(); });
}

}  // namespace kestrel
