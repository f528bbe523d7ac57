#pragma once
// Hyperparameters. Each model declares its parameters once, in a ParamSpec: that one
// table drives `-p` parsing, `--help-params`, grid type checks, validation before
// any work, and the parameter section of docs/models/. Values live in a JSON object.
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace kestrel {

using Json = nlohmann::json;
using Params = nlohmann::json;  // always an object: name -> value

enum class ParamType {
    integer,
    real,
    boolean,     // 0/1, true/false
    choice,      // one of `choices`
    text,        // free string checked by the model (kernel spec, class weights, ...)
    model,       // a nested model: "tree(max_depth=3)" -> {"model": "tree", "params": {...}}
};
const char* to_string(ParamType t);

struct ParamDef {
    std::string name;
    ParamType type = ParamType::real;
    Json default_value;               // null = required... never: every parameter has a default
    std::string help;
    // Range checks for integer/real. Bounds are inclusive unless *_open is set.
    std::optional<double> min, max;
    bool min_open = false, max_open = false;
    std::vector<std::string> choices;  // for choice; for real/integer: extra symbolic values
                                       // (e.g. gamma=scale) accepted verbatim as strings
    std::string anchor;                // matching option of LIBSVM/LIBLINEAR/scikit-learn (docs)
    std::vector<std::string> aliases;  // other accepted names (the formula's symbol, another tool's name)

    // Fluent helpers keep the model tables short and readable.
    ParamDef& range(std::optional<double> lo, std::optional<double> hi) { min = lo; max = hi; return *this; }
    ParamDef& open_below() { min_open = true; return *this; }
    ParamDef& open_above() { max_open = true; return *this; }
    ParamDef& also(std::vector<std::string> symbolic) { choices = std::move(symbolic); return *this; }
    ParamDef& like(std::string anchor_option) { anchor = std::move(anchor_option); return *this; }
    // A default that is one of also()'s words ("auto"): the value is worked out from the data.
    ParamDef& defaults_to(std::string word) {
        default_value = std::move(word);
        return *this;
    }
    ParamDef& alias(std::string other_name) { aliases.push_back(std::move(other_name)); return *this; }
};

ParamDef int_param(std::string name, long long def, std::string help);
ParamDef real_param(std::string name, double def, std::string help);
ParamDef bool_param(std::string name, bool def, std::string help);
ParamDef choice_param(std::string name, std::string def, std::vector<std::string> choices, std::string help);
ParamDef text_param(std::string name, std::string def, std::string help);
ParamDef model_param(std::string name, std::string def, std::string help);

class ParamSpec {
public:
    ParamSpec() = default;
    ParamSpec(std::initializer_list<ParamDef> defs) : defs_(defs) {}
    void add(ParamDef def) { defs_.push_back(std::move(def)); }
    void extend(const ParamSpec& other);
    const std::vector<ParamDef>& defs() const { return defs_; }
    // The parameter called `name` or known by it as an alias.
    const ParamDef* find(const std::string& name) const;

    // Every parameter at its default.
    Params defaults() const;
    // Parses one "-p name=value" text value according to the declared type (numbers,
    // "2^-5", "1e-3", booleans, choices, nested model specs). Throws ParamError.
    Json parse_value(const std::string& name, const std::string& text) const;
    // Checks types, ranges and choices of `given` and fills in defaults. Unknown names
    // are errors that list the valid ones; an alias is stored under the parameter's name,
    // and giving both names is an error. `model` names the model in messages.
    Params resolve(const Params& given, const std::string& model) const;
    // A plain-text table for --help-params and a Markdown table for docs/models/.
    std::string help_text() const;
    std::string markdown_table() const;

private:
    std::vector<ParamDef> defs_;
};

// "name=value" -> (name, value). Throws UsageError if there is no '='.
std::pair<std::string, std::string> split_assignment(const std::string& text);
// "name=value" texts (the -p of a command, the parameters of a C or Python call) as one
// Params object of raw string values, for resolve_params to type and check. UsageError
// for a text without '=' or a name given twice.
Params params_from_assignments(const std::vector<std::string>& texts);

// Parses "name(k=v,k2=v2)" or "name" into {"model": name, "params": {k: "v", ...}}
// with raw string values (the nested model's spec types them).
Json parse_model_spec(const std::string& text);

// Reads typed values back out of resolved params.
double get_real(const Params& p, const std::string& name);
long long get_int(const Params& p, const std::string& name);
bool get_bool(const Params& p, const std::string& name);
std::string get_string(const Params& p, const std::string& name);

}  // namespace kestrel
