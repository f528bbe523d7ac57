#include "kestrel/tasks/option_assignments.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

#include "kestrel/core/memory.hpp"
#include "kestrel/core/number_text.hpp"
#include "kestrel/core/shown_text.hpp"
#include "kestrel/core/text_pieces.hpp"
#include "kestrel/pipeline/missing_option.hpp"
#include "kestrel/pipeline/model_spec_checks.hpp"
#include "kestrel/preprocess/polynomial_features.hpp"
#include "kestrel/preprocess/resample.hpp"

namespace kestrel {
namespace {

// The texts as name -> value, every name one of `known` and given once.
std::map<std::string, std::string> option_values(const std::vector<std::string>& texts,
                                                 const std::vector<std::string>& known, const std::string& kind) {
    std::map<std::string, std::string> values;
    for (const std::string& text : texts) {
        auto [name, value] = split_assignment(text);
        if (std::find(known.begin(), known.end(), name) == known.end()) {
            throw UsageError("unknown " + kind + " option '" + shown_text(name) + "' (known: " + join_text(known, ", ") +
                             ")");
        }
        if (!values.emplace(name, value).second) throw UsageError(option_named(name) + " given twice");
    }
    return values;
}

bool bool_option(const std::string& name, const std::string& value) {
    if (value == "true" || value == "1") return true;
    if (value == "false" || value == "0") return false;
    throw UsageError(option_named(name) + " must be true or false, got '" + shown_text(value) + "'");
}

long long whole_option(const std::string& name, const std::string& value, long long lo, long long hi) {
    const std::optional<double> x = parse_number_text(value);
    if (!x || *x != std::floor(*x) || *x < static_cast<double>(lo) || *x > static_cast<double>(hi))
        throw UsageError(option_named(name) + " " + shown_text(value) + ": not a whole number from " +
                         std::to_string(lo) + " to " + std::to_string(hi));
    return static_cast<long long>(*x);
}

double real_option(const std::string& name, const std::string& value, double lo, double hi) {
    const std::optional<double> x = parse_number_text(value);
    if (!x || *x < lo || *x > hi)
        throw UsageError(option_named(name) + " " + shown_text(value) + ": not a number from " + format_number(lo) +
                         " to " + format_number(hi));
    return *x;
}

std::vector<std::string> list_option(const std::string& value) {
    std::vector<std::string> items;
    std::size_t start = 0;
    while (start <= value.size()) {
        const std::size_t comma = std::min(value.find(',', start), value.size());
        if (comma > start) items.push_back(value.substr(start, comma - start));
        start = comma + 1;
    }
    return items;
}

constexpr long long kMaxOptionCount = std::numeric_limits<long long>::max();

void apply_read_option(ReadOptions& o, const std::string& name, const std::string& value) {
    if (name == "format") o.format = file_format_from_string(value);
    else if (name == "header") o.header = bool_option(name, value);
    else if (name == "label_col") o.label_col = value;
    else if (name == "delimiter") o.delimiter = delimiter_from_string(value);
    else if (name == "missing") o.missing = split_missing_option(value).read;
    else if (name == "categorical_columns") o.categorical_columns = list_option(value);
    else if (name == "numeric_columns") o.numeric_columns = list_option(value);
    else if (name == "ignore_columns") o.ignore_columns = list_option(value);
    else if (name == "unknown_category_error") o.unknown_category_error = bool_option(name, value);
    else if (name == "max_categories") o.max_categories = whole_option("read.max_categories", value, 1, kMaxOptionCount);
    else if (name == "max_rows") o.max_rows = whole_option(name, value, 0, kMaxOptionCount);
    else if (name == "max_memory") o.max_memory = parse_byte_size(value, "max_memory");
    else if (name == "threads") o.threads = static_cast<int>(whole_option(name, value, 0, 1024));
}

}  // namespace

TrainingDataOptions training_options_from_assignments(const std::string& path, const std::vector<std::string>& texts) {
    static const std::vector<std::string> read_option_names = {
        "format",         "header",          "label_col",      "delimiter",      "missing",
        "categorical_columns", "numeric_columns", "ignore_columns", "unknown_category_error",
        "max_categories", "max_rows",        "max_memory",     "threads",        "weights_col",
        "group_col"};
    TrainingDataOptions o;
    o.path = path;
    o.read.missing = split_missing_option("auto").read;  // the commands' default: cells kept for the model
    for (const auto& [name, value] : option_values(texts, read_option_names, "read")) {
        if (name == "weights_col") o.weights_column = value;
        else if (name == "group_col") o.group_column = value;
        else apply_read_option(o.read, name, value);
    }
    return o;
}

namespace {

void apply_poly_options(ModelSpec& spec, const std::map<std::string, std::string>& values) {
    const auto given = [&](const char* name) { return values.find(name) != values.end(); };
    if (!given("poly") && !given("poly.interaction_only") && !given("poly.max_width")) return;
    if (!given("poly"))
        throw UsageError(option_named(given("poly.max_width") ? "poly.max_width" : "poly.interaction_only") +
                         " applies to " + option_named("poly") + ", which is not given");
    PolyOptions o;
    o.degree = static_cast<int>(whole_option("poly", values.at("poly"), 1, 2147483647));
    if (given("poly.interaction_only")) o.interaction_only = bool_option("poly.interaction_only", values.at("poly.interaction_only"));
    if (given("poly.max_width"))
        o.max_width = static_cast<std::uint64_t>(std::floor(real_option("poly.max_width", values.at("poly.max_width"), 1.0, 4.0e18)));
    set_poly_step(spec.preprocessing, o);
}

void apply_model_option(ModelSpec& spec, const std::string& name, const std::string& value) {
    if (name == "scale") {
        if (value != "none" && value != "standard" && value != "minmax")
            throw UsageError(option_named("scale") + " must be none, standard or minmax, got '" + shown_text(value) + "'");
        if (value != "none") spec.preprocessing.push_back(value);
    } else if (name == "task") {
        if (value != "auto") spec.task = task_from_string(value);
    } else if (name == "missing") {
        spec.missing = split_missing_option(value).model;
    } else if (name == "missing_indicator") {
        spec.missing_indicator = bool_option(name, value);
    } else if (name == "encode") {
        if (value != "auto" && value != "onehot" && value != "ordinal")
            throw UsageError(option_named("encode") + " must be auto, onehot or ordinal, got '" + shown_text(value) + "'");
        spec.encode = value;
    } else if (name == "max_categories") {
        spec.max_categories = whole_option(name, value, 0, kMaxOptionCount);
    } else if (name == "min_frequency") {
        spec.min_frequency = real_option(name, value, 0, HUGE_VAL);
    } else if (name == "resample") {
        (void)parse_resample(value);  // a bad method fails before any data is read
        spec.resample = value;
    } else if (name == "calibrate") {
        if (value != "sigmoid" && value != "isotonic")
            throw UsageError(option_named("calibrate") + " must be sigmoid or isotonic, got '" + shown_text(value) + "'");
        spec.calibrate = value;
    } else if (name == "calibrate_folds") {
        spec.calibrate_folds = static_cast<int>(whole_option(name, value, 2, 1000));
    }
}

}  // namespace

ModelSpec model_spec_from_assignments(const std::string& model, const std::vector<std::string>& params,
                                      const std::vector<std::string>& options) {
    static const std::vector<std::string> model_option_names = {
        "scale",    "task",     "missing", "missing_indicator",     "encode",         "max_categories", "min_frequency",
        "resample", "poly",     "poly.interaction_only", "poly.max_width", "calibrate", "calibrate_folds"};
    ModelSpec spec;
    spec.model = model;
    spec.params = params_from_assignments(params);
    resolve_params(spec);  // every value checked before any work, as a command does
    const auto values = option_values(options, model_option_names, "model");
    for (const auto& [name, value] : values) apply_model_option(spec, name, value);
    apply_poly_options(spec, values);
    check_model_spec(spec);
    return spec;
}

}  // namespace kestrel
