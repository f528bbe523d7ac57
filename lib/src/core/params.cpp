#include "kestrel/core/params.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>

#include "kestrel/core/error.hpp"
#include "kestrel/core/number_text.hpp"
#include "kestrel/core/shown_text.hpp"
#include "kestrel/core/text_pieces.hpp"

namespace kestrel {

const char* to_string(ParamType t) {
    switch (t) {
        case ParamType::integer: return "int";
        case ParamType::real: return "real";
        case ParamType::boolean: return "bool";
        case ParamType::choice: return "choice";
        case ParamType::text: return "text";
        case ParamType::model: return "model";
    }
    return "?";
}

namespace {

// What every kind of parameter declares; the kinds differ in their type and default's JSON.
ParamDef param_def(std::string name, ParamType type, Json def, std::string help) {
    ParamDef d;
    d.name = std::move(name);
    d.type = type;
    d.default_value = std::move(def);
    d.help = std::move(help);
    return d;
}

}  // namespace

ParamDef int_param(std::string name, long long def, std::string help) {
    return param_def(std::move(name), ParamType::integer, def, std::move(help));
}

ParamDef real_param(std::string name, double def, std::string help) {
    return param_def(std::move(name), ParamType::real, def, std::move(help));
}

ParamDef bool_param(std::string name, bool def, std::string help) {
    return param_def(std::move(name), ParamType::boolean, def, std::move(help));
}

ParamDef choice_param(std::string name, std::string def, std::vector<std::string> choices, std::string help) {
    ParamDef d = param_def(std::move(name), ParamType::choice, std::move(def), std::move(help));
    d.choices = std::move(choices);
    return d;
}

ParamDef text_param(std::string name, std::string def, std::string help) {
    return param_def(std::move(name), ParamType::text, std::move(def), std::move(help));
}

ParamDef model_param(std::string name, std::string def, std::string help) {
    return param_def(std::move(name), ParamType::model, parse_model_spec(def), std::move(help));
}

void ParamSpec::extend(const ParamSpec& other) {
    for (const auto& d : other.defs_)
        if (!find(d.name)) defs_.push_back(d);
}

const ParamDef* ParamSpec::find(const std::string& name) const {
    auto it = std::find_if(defs_.begin(), defs_.end(), [&](const ParamDef& d) {
        return d.name == name || std::find(d.aliases.begin(), d.aliases.end(), name) != d.aliases.end();
    });
    return it == defs_.end() ? nullptr : &*it;
}

Params ParamSpec::defaults() const {
    Params p = Params::object();
    for (const auto& d : defs_) p[d.name] = d.default_value;
    return p;
}

namespace {

std::string valid_names(const std::vector<ParamDef>& defs) {
    std::string s;
    for (const auto& d : defs) s += (s.empty() ? "" : ", ") + d.name;
    return s.empty() ? "(none)" : s;
}

// Bounds read best as plain integers where they are integers ("1000000", not "1e+06").
std::string bound_text(double x) {
    if (x == std::floor(x) && std::fabs(x) < 1e15) return std::to_string(static_cast<long long>(x));
    return format_number(x);
}

std::string range_text(const ParamDef& d) {
    std::string s;
    if (d.min && d.max) {
        s = (d.min_open ? "(" : "[") + bound_text(*d.min) + ", " + bound_text(*d.max) + (d.max_open ? ")" : "]");
    } else if (d.min) {
        s = (d.min_open ? "> " : ">= ") + bound_text(*d.min);
    } else if (d.max) {
        s = (d.max_open ? "< " : "<= ") + bound_text(*d.max);
    }
    if (!d.choices.empty()) s += (s.empty() ? "" : " or ") + join_text(d.choices, ", ");
    return s;
}

std::string value_text(const Json& v) {
    if (v.is_string()) return shown_text(v.get<std::string>());
    if (v.is_number_float()) return format_number(v.get<double>());
    if (v.is_object() && v.contains("model")) {
        std::string s = v["model"].get<std::string>();
        if (v.contains("params") && !v["params"].empty()) {
            s += '(';
            bool first = true;
            for (auto& [k, x] : v["params"].items()) {
                s += (first ? "" : ",") + k + "=" + value_text(x);
                first = false;
            }
            s += ')';
        }
        return s;
    }
    return v.dump();
}

void check_range(const ParamDef& d, double x, const std::string& model) {
    const bool low = d.min && (d.min_open ? x <= *d.min : x < *d.min);
    const bool high = d.max && (d.max_open ? x >= *d.max : x > *d.max);
    if (low || high || std::isnan(x))
        throw ParamError("parameter " + d.name + "=" + (d.type == ParamType::integer ? bound_text(x) : format_number(x)) +
                         " of model " + model +
                         " is out of range (valid: " + range_text(d) + ")");
}

// Checks one value already in its JSON form and returns its canonical form.
Json check_value(const ParamDef& d, const Json& v, const std::string& model) {
    auto bad = [&](const std::string& why) {
        return ParamError("parameter " + d.name + "=" + value_text(v) + " of model " + model + ": " + why);
    };
    switch (d.type) {
        case ParamType::integer:
        case ParamType::real: {
            if (v.is_string()) {
                const auto s = v.get<std::string>();
                if (std::find(d.choices.begin(), d.choices.end(), s) != d.choices.end()) return v;
                throw bad("expected a number" + (d.choices.empty() ? std::string() : " or one of " + join_text(d.choices, ", ")));
            }
            if (!v.is_number()) throw bad("expected a number");
            const double x = v.get<double>();
            check_range(d, x, model);
            if (d.type == ParamType::integer) {
                // Integer parameters are held as int by the models (counts, sizes, depths):
                // a value past int's range would wrap, so it is refused with the range as int
                // bounds it (max_iter=1000000000000 is "valid: [1, 2147483647]").
                constexpr double kIntLo = std::numeric_limits<int>::min(), kIntHi = std::numeric_limits<int>::max();
                if (x < kIntLo || x > kIntHi) {
                    ParamDef bounded = d;
                    if (!bounded.min || *bounded.min < kIntLo) bounded.min = kIntLo, bounded.min_open = false;
                    if (!bounded.max || *bounded.max > kIntHi) bounded.max = kIntHi, bounded.max_open = false;
                    check_range(bounded, x, model);
                }
                if (x != std::floor(x) || std::fabs(x) > 9.0e15) throw bad("expected an integer");
                return static_cast<long long>(x);
            }
            return x;
        }
        case ParamType::boolean:
            if (v.is_boolean()) return v;
            if (v.is_number_integer() && (v.get<long long>() == 0 || v.get<long long>() == 1)) return v.get<long long>() == 1;
            throw bad("expected 0 or 1");
        case ParamType::choice: {
            if (!v.is_string()) throw bad("expected one of " + join_text(d.choices, ", "));
            const auto s = v.get<std::string>();
            if (std::find(d.choices.begin(), d.choices.end(), s) == d.choices.end())
                throw bad("expected one of " + join_text(d.choices, ", "));
            return v;
        }
        case ParamType::text:
            if (!v.is_string()) throw bad("expected text");
            return v;
        case ParamType::model:
            if (!v.is_object() || !v.contains("model")) throw bad("expected a model such as name(k=v,...)");
            return v;
    }
    return v;
}

}  // namespace

Json ParamSpec::parse_value(const std::string& name, const std::string& text) const {
    const ParamDef* d = find(name);
    if (!d) throw ParamError("unknown parameter '" + shown_text(name) + "' (valid: " + valid_names(defs_) + ")");
    switch (d->type) {
        case ParamType::integer:
        case ParamType::real: {
            if (std::find(d->choices.begin(), d->choices.end(), text) != d->choices.end()) return text;
            auto x = parse_number_text(text);
            if (!x)
                throw ParamError("parameter " + name + "='" + shown_text(text) + "' is not a number" +
                                 (d->choices.empty() ? std::string() : " nor one of " + join_text(d->choices, ", ")));
            return *x;
        }
        case ParamType::boolean: {
            std::string t = text;
            std::transform(t.begin(), t.end(), t.begin(), [](unsigned char c) { return std::tolower(c); });
            if (t == "1" || t == "true" || t == "yes" || t == "on") return true;
            if (t == "0" || t == "false" || t == "no" || t == "off") return false;
            throw ParamError("parameter " + name + "='" + shown_text(text) + "' is not a boolean (valid: 0, 1, true, false)");
        }
        case ParamType::choice:
        case ParamType::text: return text;
        case ParamType::model: return parse_model_spec(text);
    }
    return text;
}

Params ParamSpec::resolve(const Params& given, const std::string& model) const {
    if (!given.is_null() && !given.is_object()) throw ParamError("parameters of model " + model + " must be an object");
    Params out = defaults();
    Params nested = Params::object();  // "base.C" style keys, merged after the direct ones
    if (given.is_object()) {
        for (auto& [key, raw] : given.items()) {
            const auto dot = key.find('.');
            if (dot != std::string::npos) {
                const std::string head = key.substr(0, dot);
                const ParamDef* d = find(head);
                if (!d || d->type != ParamType::model)
                    throw ParamError("unknown parameter '" + shown_text(key) + "' of model " + model + ": '" + shown_text(head) +
                                     "' is not a nested model parameter (valid: " + valid_names(defs_) + ")");
                nested[head][key.substr(dot + 1)] = raw;
                continue;
            }
            const ParamDef* d = find(key);
            if (!d)
                throw ParamError("unknown parameter '" + shown_text(key) + "' for model " + model + " (valid: " +
                                 valid_names(defs_) + ")");
            if (key != d->name && given.contains(d->name))
                throw ParamError("parameters '" + d->name + "' and '" + key + "' of model " + model +
                                 " are the same parameter: give one");
            Json v = raw;
            if (raw.is_string() && d->type != ParamType::text && d->type != ParamType::choice)
                v = parse_value(key, raw.get<std::string>());
            out[d->name] = check_value(*d, v, model);
        }
    }
    for (auto& [head, kv] : nested.items()) {
        Json& m = out[head];
        if (!m.contains("params")) m["params"] = Params::object();
        for (auto& [k, v] : kv.items()) m["params"][k] = v;
    }
    return out;
}

std::string ParamSpec::help_text() const {
    std::ostringstream os;
    std::size_t w = 4;
    for (const auto& d : defs_) w = std::max(w, d.name.size());
    for (const auto& d : defs_) {
        os << "  " << d.name << std::string(w - d.name.size() + 2, ' ') << d.help << "\n";
        os << "  " << std::string(w + 2, ' ') << "[" << to_string(d.type) << ", default "
           << value_text(d.default_value);
        const auto r = range_text(d);
        if (!r.empty()) os << ", " << (d.type == ParamType::choice ? "one of " : "valid ") << r;
        if (!d.anchor.empty()) os << "; like " << d.anchor;
        if (!d.aliases.empty()) os << "; also called " << join_text(d.aliases, ", ");
        os << "]\n";
    }
    return os.str();
}

std::string ParamSpec::markdown_table() const {
    std::ostringstream os;
    os << "| parameter | type | default | valid | meaning | anchor |\n|---|---|---|---|---|---|\n";
    for (const auto& d : defs_) {
        auto def = value_text(d.default_value);
        os << "| `" << d.name << "`";
        for (const auto& a : d.aliases) os << " (`" << a << "`)";
        os << " | " << to_string(d.type) << " | `" << (def.empty() ? "\"\"" : def) << "` | "
           << range_text(d) << " | " << d.help << " | " << d.anchor << " |\n";
    }
    return os.str();
}

std::pair<std::string, std::string> split_assignment(const std::string& text) {
    const auto eq = text.find('=');
    if (eq == std::string::npos || eq == 0)
        throw UsageError("expected name=value, got '" + shown_text(text) + "'");
    return {text.substr(0, eq), text.substr(eq + 1)};
}

Params params_from_assignments(const std::vector<std::string>& texts) {
    Params params = Params::object();
    for (const auto& text : texts) {
        auto [name, value] = split_assignment(text);
        if (params.contains(name)) throw UsageError("parameter " + name + " given twice");
        params[name] = value;
    }
    return params;
}

Json parse_model_spec(const std::string& text) {
    Json out = Json::object();
    const auto open = text.find('(');
    std::string name = text.substr(0, open);
    auto trim = [](std::string s) {
        const auto b = s.find_first_not_of(" \t");
        const auto e = s.find_last_not_of(" \t");
        return b == std::string::npos ? std::string() : s.substr(b, e - b + 1);
    };
    name = trim(name);
    if (name.empty()) throw ParamError("model spec '" + text + "' has no model name");
    out["model"] = name;
    out["params"] = Json::object();
    if (open == std::string::npos) return out;
    if (text.back() != ')') throw ParamError("model spec '" + text + "' is missing its closing ')'");
    const std::string inner = text.substr(open + 1, text.size() - open - 2);
    // Split on commas at depth 0 so nested specs like base=tree(max_depth=3) survive.
    int depth = 0;
    std::string cur;
    auto flush = [&]() {
        const auto item = trim(cur);
        cur.clear();
        if (item.empty()) return;
        auto [k, v] = split_assignment(item);
        out["params"][trim(k)] = trim(v);
    };
    for (char c : inner) {
        if (c == '(') ++depth;
        if (c == ')') --depth;
        if (c == ',' && depth == 0) {
            flush();
            continue;
        }
        cur += c;
    }
    flush();
    return out;
}

double get_real(const Params& p, const std::string& name) { return p.at(name).get<double>(); }
long long get_int(const Params& p, const std::string& name) { return p.at(name).get<long long>(); }
bool get_bool(const Params& p, const std::string& name) { return p.at(name).get<bool>(); }
std::string get_string(const Params& p, const std::string& name) { return p.at(name).get<std::string>(); }

}  // namespace kestrel
