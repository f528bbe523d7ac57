// Which CSV field is the label and which are features, in which order: at train
// time by the label option, at predict time by the model's feature names
// (feature_columns) or feature count (expected_features).
#include <algorithm>
#include <charconv>
#include <optional>
#include <string_view>
#include <unordered_map>

#include "csv_internal.hpp"
#include "kestrel/core/error.hpp"
#include "kestrel/core/shown_text.hpp"

namespace kestrel::detail {
namespace {

std::string list_columns(const std::vector<std::string>& header) {
    constexpr std::size_t kMaxListed = 20;
    std::string s;
    for (std::size_t j = 0; j < header.size() && j < kMaxListed; ++j) {
        if (j) s += ", ";
        s += shown_text(header[j]);
    }
    if (header.size() > kMaxListed) s += ", ... (" + std::to_string(header.size()) + " columns)";
    return s;
}

std::optional<std::size_t> find_name(const std::vector<std::string>& header, const std::string& name) {
    const auto it = std::find(header.begin(), header.end(), name);
    if (it == header.end()) return std::nullopt;
    return static_cast<std::size_t>(it - header.begin());
}

std::optional<std::size_t> parse_index(const std::string& s) {
    std::size_t v = 0;
    const auto r = std::from_chars(s.data(), s.data() + s.size(), v);
    if (s.empty() || r.ec != std::errc() || r.ptr != s.data() + s.size()) return std::nullopt;
    return v;
}

// The label field named by opts.label_col (a header name, else a 0-based index), or
// the default: the column named "label", else column 0. nullopt when not found.
std::optional<std::size_t> find_label(const std::vector<std::string>& header, std::size_t n_fields,
                                      const ReadOptions& opts, const std::string& source) {
    if (opts.label_col.empty()) {
        if (auto j = find_name(header, "label")) return j;
        return std::size_t{0};
    }
    if (auto j = find_name(header, opts.label_col)) return j;
    if (auto j = parse_index(opts.label_col)) {
        if (*j < n_fields) return j;
        throw DataError(source + ": label column " + opts.label_col + " is out of range: the file has " +
                        std::to_string(n_fields) + " columns (indices from 0)");
    }
    if (header.empty())
        throw DataError(source + ": label column '" + shown_text(opts.label_col) +
                        "' is given by name but the file has no header row");
    return std::nullopt;
}

// Columns are matched by name at predict time: a name used twice would silently
// match the first of them, so it is an error where it matters (every column at train
// time, the model's columns at predict time).
void refuse_duplicate(const std::vector<std::string>& header, std::size_t j, const std::string& source) {
    for (std::size_t k = 0; k < header.size(); ++k)
        if (k != j && header[k] == header[j])
            throw DataError(SourceLocation{source, 1, std::max(j, k) + 1},
                            "column name '" + shown_text(header[j]) + "' appears twice (columns " + std::to_string(std::min(j, k) + 1) +
                                " and " + std::to_string(std::max(j, k) + 1) + "); column names must be unique");
}

[[noreturn]] void label_not_found(const std::vector<std::string>& header, const ReadOptions& opts,
                                  const std::string& source) {
    throw DataError(source + ": label column '" + (opts.label_col.empty() ? "label" : shown_text(opts.label_col)) +
                    "' not found; the columns are: " + list_columns(header));
}

}  // namespace

CsvLayout resolve_csv_layout(std::vector<std::string> header, std::size_t n_fields, const ReadOptions& opts,
                             const std::string& source) {
    CsvLayout L;
    L.n_fields = n_fields;
    L.header = std::move(header);
    L.target.assign(n_fields, kFieldIgnored);
    std::vector<std::size_t> features;  // fields in output order
    std::optional<std::size_t> label;

    if (opts.feature_columns && !L.header.empty()) {
        // By a hash of the names: a model of a million columns is matched in a second, not
        // in the hours that a scan of the header per column took.
        std::unordered_map<std::string_view, std::size_t> first_field, second_field;
        for (std::size_t j = 0; j < L.header.size(); ++j)
            if (!first_field.emplace(L.header[j], j).second) second_field.emplace(L.header[j], j);
        std::vector<char> taken(L.header.size(), 0);
        features.reserve(opts.feature_columns->size());
        for (const auto& name : *opts.feature_columns) {
            const auto it = first_field.find(name);
            if (it == first_field.end())
                throw DataError(source + ": feature column '" + shown_text(name) +
                                "' (used by the model) not found; the columns are: " + list_columns(L.header));
            const std::size_t j = it->second;
            if (taken[j]) throw DataError(source + ": feature column '" + name + "' is listed twice");
            if (second_field.count(name) > 0) refuse_duplicate(L.header, j, source);
            taken[j] = 1;
            features.push_back(j);
        }
        // Without an explicit label, column 0 is the label only when it is not a feature.
        const bool explicit_label = !opts.label_col.empty() || find_name(L.header, "label");
        label = find_label(L.header, n_fields, opts, source);
        const bool label_is_feature =
            label && std::find(features.begin(), features.end(), *label) != features.end();
        if (label_is_feature) {
            if (explicit_label && !opts.labels_optional)
                throw DataError(source + ": label column '" + L.header[*label] + "' is also a feature column");
            label.reset();
        }
        if (!label && !opts.labels_optional) label_not_found(L.header, opts, source);
    } else if (opts.expected_features >= 0) {
        const auto expected = static_cast<std::size_t>(opts.expected_features);
        if (n_fields == expected + 1) {
            label = find_label(L.header, n_fields, opts, source);
            if (!label) label_not_found(L.header, opts, source);
        } else if (n_fields != expected) {
            throw DataError(source + ": the file has " + std::to_string(n_fields) + " columns but the model expects " +
                            std::to_string(expected) + " features (" + std::to_string(expected) + " columns, or " +
                            std::to_string(expected + 1) + " with a label column)");
        }
        for (std::size_t j = 0; j < n_fields; ++j)
            if (!label || j != *label) features.push_back(j);
    } else {
        if (!L.header.empty()) {
            std::vector<std::string> sorted = L.header;
            std::sort(sorted.begin(), sorted.end());
            if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end())
                for (std::size_t j = 0; j < L.header.size(); ++j) refuse_duplicate(L.header, j, source);
        }
        label = find_label(L.header, n_fields, opts, source);
        if (!label && !opts.labels_optional) label_not_found(L.header, opts, source);
        for (std::size_t j = 0; j < n_fields; ++j)
            if (!label || j != *label) features.push_back(j);
    }

    for (std::size_t c = 0; c < features.size(); ++c) {
        L.target[features[c]] = static_cast<int>(c);
        if (!L.header.empty()) L.feature_names.push_back(L.header[features[c]]);
    }
    if (label) {
        L.target[*label] = kFieldLabel;
        L.label_field = static_cast<int>(*label);
    }
    L.n_features = static_cast<Index>(features.size());
    return L;
}

void resolve_kept_columns(CsvLayout& L, const ReadOptions& opts, const std::string& source) {
    if (opts.keep_columns.empty()) return;
    L.keep_slot.assign(L.n_fields, -1);
    for (const auto& name : opts.keep_columns) {
        std::optional<std::size_t> j = find_name(L.header, name);
        if (!j) j = parse_index(name);
        if (!j || *j >= L.n_fields)
            throw DataError(source + ": column '" + name + "' to copy to the output not found; " +
                            (L.header.empty() ? "the file has " + std::to_string(L.n_fields) +
                                                    " columns (indices from 0)"
                                              : "the columns are: " + list_columns(L.header)));
        if (L.keep_slot[*j] >= 0) throw DataError(source + ": column '" + name + "' is copied to the output twice");
        L.keep_slot[*j] = static_cast<int>(L.kept_names.size());
        L.kept_names.push_back(L.header.empty() ? name : L.header[*j]);
    }
}

}  // namespace kestrel::detail

namespace kestrel::detail {

namespace {

// The field a --categorical / --numeric / --ignore-cols entry names: a header name,
// else a 0-based field index.
std::size_t named_field(const CsvLayout& L, const std::string& name, const ErrorText& option,
                        const std::string& source) {
    std::optional<std::size_t> j = find_name(L.header, name);
    if (!j) j = parse_index(name);
    if (!j || *j >= L.n_fields)
        throw DataError(source + ": " + option + " names column '" + name + "', which is not in the file; " +
                        (L.header.empty() ? "the file has " + std::to_string(L.n_fields) + " columns (indices from 0)"
                                          : "the columns are: " + list_columns(L.header)));
    return *j;
}

std::string field_name(const CsvLayout& L, std::size_t j) {
    return L.header.empty() ? "column " + std::to_string(j) : "column '" + L.header[j] + "'";
}

}  // namespace

void resolve_field_types(CsvLayout& L, const ReadOptions& opts, const std::string& source) {
    L.field_type.assign(L.n_fields, FieldType::automatic);
    const ErrorText ignore_option = option_named("ignore_columns");
    const ErrorText categorical_option = option_named("categorical_columns");
    const ErrorText numeric_option = option_named("numeric_columns");
    if (!opts.ignore_columns.empty()) {
        for (const auto& name : opts.ignore_columns) {
            const std::size_t j = named_field(L, name, ignore_option, source);
            if (L.target[j] == kFieldLabel)
                throw DataError(source + ": " + ignore_option + " names the label " + field_name(L, j));
            L.target[j] = kFieldIgnored;
        }
        L.feature_names.clear();
        int c = 0;
        for (std::size_t j = 0; j < L.n_fields; ++j) {
            if (L.target[j] < 0) continue;
            L.target[j] = c++;
            if (!L.header.empty()) L.feature_names.push_back(L.header[j]);
        }
        L.n_features = c;
    }
    const auto set_type = [&](const std::vector<std::string>& names, FieldType type, const ErrorText& option) {
        for (const auto& name : names) {
            const std::size_t j = named_field(L, name, option, source);
            if (L.target[j] == kFieldLabel)
                throw DataError(source + ": " + option + " names the label " + field_name(L, j) +
                                " (the label's type follows the model and " + option_named("task") + ")");
            if (L.target[j] < 0) throw DataError(source + ": " + option + " names the ignored " + field_name(L, j));
            if (L.field_type[j] != FieldType::automatic && L.field_type[j] != type)
                throw DataError(source + ": " + field_name(L, j) + " is named by both " + categorical_option + " and " +
                                numeric_option);
            L.field_type[j] = type;
        }
    };
    set_type(opts.categorical_columns, FieldType::categorical, categorical_option);
    set_type(opts.numeric_columns, FieldType::numeric, numeric_option);
    for (std::size_t j = 0; j < L.n_fields; ++j)
        if (L.target[j] >= 0 && std::find(opts.categorical_features.begin(), opts.categorical_features.end(),
                                          static_cast<Index>(L.target[j])) != opts.categorical_features.end())
            L.field_type[j] = FieldType::categorical;
    if (!opts.feature_categories) return;
    // Predict time: the model's types; an empty list means every column is numeric.
    const CategoryLists& model = *opts.feature_categories;
    if (!model.empty() && static_cast<Index>(model.size()) != L.n_features)
        throw InternalError("the model's category lists do not match its features");
    for (std::size_t j = 0; j < L.n_fields; ++j) {
        const int c = L.target[j];
        if (c < 0) continue;
        const bool categorical = !model.empty() && !model[static_cast<std::size_t>(c)].empty();
        L.field_type[j] = categorical ? FieldType::categorical : FieldType::numeric;
    }
}

}  // namespace kestrel::detail
