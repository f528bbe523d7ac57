#include "kestrel/core/param_binding.hpp"

#include <limits>
#include <stdexcept>

namespace kestrel {

namespace param_detail {

// Values reach the setters already resolved (ParamSpec::resolve checked their types and
// ranges), so a mismatch here is a declaration error in kestrel, not a user's.
void read_value(const Json& v, double& out) { out = v.get<double>(); }
void read_value(const Json& v, long long& out) { out = v.get<long long>(); }
void read_value(const Json& v, int& out) {
    const long long x = v.get<long long>();
    out = x > std::numeric_limits<int>::max() ? std::numeric_limits<int>::max() : static_cast<int>(x);
}
void read_value(const Json& v, bool& out) { out = v.get<bool>(); }
void read_value(const Json& v, std::string& out) { out = v.get<std::string>(); }
void read_value(const Json& v, RealOrWord& out) {
    if (v.is_string()) {
        out.word = v.get<std::string>();
        out.value = 0;
    } else {
        out.word.clear();
        out.value = v.get<double>();
    }
}
void read_value(const Json& v, Json& out) { out = v; }

void check_field_type(const ParamDef& def, const char* kind) {
    const std::string k = kind;
    bool ok = false;
    switch (def.type) {
        case ParamType::integer: ok = k == "integer" || (k == "real-or-word" && !def.choices.empty()) || k == "json"; break;
        case ParamType::real: ok = k == "real" || (k == "real-or-word" && !def.choices.empty()) || k == "json"; break;
        case ParamType::boolean: ok = k == "boolean"; break;
        case ParamType::choice:
        case ParamType::text: ok = k == "string"; break;
        case ParamType::model: ok = k == "json"; break;
    }
    if (!ok)
        throw std::logic_error("parameter " + def.name + " is declared " + to_string(def.type) +
                               " but bound to a " + k + " field");
}

}  // namespace param_detail

Bound<InterceptParams> fit_intercept_param(std::string help, std::string anchor) {
    return bind(&InterceptParams::fit_intercept, bool_param("fit_intercept", true, std::move(help)).like(std::move(anchor)));
}

Bound<IterationParams> max_iter_param(long long def, std::string help, std::string anchor, double min_iter) {
    return bind(&IterationParams::max_iter,
                int_param("max_iter", def, std::move(help)).range(min_iter, std::nullopt).like(std::move(anchor)));
}

Bound<IterationParams> tol_param(double def, std::string help, std::string anchor, bool tol_open) {
    ParamDef d = real_param("tol", def, std::move(help));
    d.range(0.0, std::nullopt).like(std::move(anchor));
    if (tol_open) d.open_below();
    return bind(&IterationParams::tol, std::move(d));
}

Bound<ClassWeightParams> class_weight_param(std::string help, std::string anchor) {
    return bind(&ClassWeightParams::class_weight, text_param("class_weight", "", std::move(help)).like(std::move(anchor)));
}

}  // namespace kestrel
