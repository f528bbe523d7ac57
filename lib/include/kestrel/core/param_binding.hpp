#pragma once
// A model's hyperparameters as a typed struct, bound once to its ParamSpec (as
// LightGBM's Config and XGBoost's declared parameters are): the spec still drives `-p`
// parsing, --help-params, validation and docs/models/; the binding reads the resolved
// values into the struct's fields, so model code reads `p.max_iter`, never a name.
//
//   struct LogisticParams : InterceptParams, IterationParams { RealOrWord C; std::string penalty; };
//   const ParamBinding<LogisticParams>& logistic_params() {
//       static const ParamBinding<LogisticParams> b{
//           bind(&LogisticParams::C, c_param(...)), tol_param(1e-4, ...), ...};
//       return b;
//   }
//
// A parameter shared by many models (fit_intercept, max_iter, tol, class_weight) is a
// field of a small group struct that the model's struct derives from, declared once by
// a function returning a Bound<Group>; a Bound<Group> binds into any struct derived
// from the group. The order of the bindings is the order of the spec (help, docs).
#include <concepts>
#include <functional>
#include <initializer_list>
#include <string>
#include <type_traits>
#include <vector>

#include "kestrel/core/params.hpp"

namespace kestrel {

// A real parameter that also takes words (C=auto, gamma=scale): `word` is the word
// given, empty when a number was.
struct RealOrWord {
    double value = 0;
    std::string word;
    bool is(const char* w) const { return word == w; }
};

namespace param_detail {
void read_value(const Json& v, double& out);
void read_value(const Json& v, long long& out);
void read_value(const Json& v, int& out);
void read_value(const Json& v, bool& out);
void read_value(const Json& v, std::string& out);
void read_value(const Json& v, RealOrWord& out);
void read_value(const Json& v, Json& out);  // as resolved (nested model specs)
// The declared type can hold the field's values (a programming error otherwise).
void check_field_type(const ParamDef& def, const char* field_kind);
template <class T>
const char* field_kind() {
    if constexpr (std::is_same_v<T, double>) return "real";
    else if constexpr (std::is_same_v<T, long long> || std::is_same_v<T, int>) return "integer";
    else if constexpr (std::is_same_v<T, bool>) return "boolean";
    else if constexpr (std::is_same_v<T, std::string>) return "string";
    else if constexpr (std::is_same_v<T, RealOrWord>) return "real-or-word";
    else return "json";
}
}  // namespace param_detail

// One declared parameter and the field of S it fills.
template <class S>
struct Bound {
    ParamDef def;
    std::function<void(S&, const Json&)> set;

    Bound(ParamDef d, std::function<void(S&, const Json&)> s) : def(std::move(d)), set(std::move(s)) {}
    // A group's parameter binds into any struct derived from the group.
    template <class Group>
        requires(std::derived_from<S, Group> && !std::same_as<S, Group>)
    Bound(Bound<Group> g) : def(std::move(g.def)), set([f = std::move(g.set)](S& s, const Json& v) { f(s, v); }) {}
};

// Declares `def` as the parameter that fills `member` (a field of S or of a base of S).
template <class S, class T>
Bound<S> bind(T S::*member, ParamDef def) {
    param_detail::check_field_type(def, param_detail::field_kind<T>());
    return Bound<S>(std::move(def), [member](S& s, const Json& v) { param_detail::read_value(v, s.*member); });
}

template <class S>
class ParamBinding {
public:
    ParamBinding() = default;
    ParamBinding(std::initializer_list<Bound<S>> bound) {
        for (const Bound<S>& b : bound) add(b);
    }
    void add(Bound<S> b) {
        setters_.emplace_back(b.def.name, std::move(b.set));
        spec_.add(std::move(b.def));
    }
    // A group's (or a list's) declarations, in order.
    template <class G>
    void add(std::vector<Bound<G>> group) {
        for (Bound<G>& b : group) add(Bound<S>(std::move(b)));
    }
    const ParamSpec& spec() const { return spec_; }
    // The struct from parameters resolved against spec() (every name present).
    S read(const Params& resolved) const {
        S s{};
        for (const auto& [name, set] : setters_) set(s, resolved.at(name));
        return s;
    }

private:
    ParamSpec spec_;
    std::vector<std::pair<std::string, std::function<void(S&, const Json&)>>> setters_;
};

// --- groups shared across families, each declared here once ---

struct InterceptParams {
    bool fit_intercept = true;
};
// `fit_intercept` (default true); `help` says what the intercept is in this model.
Bound<InterceptParams> fit_intercept_param(std::string help, std::string anchor);

struct IterationParams {
    double tol = 0;
    long long max_iter = 0;
};
// `max_iter` (>= min_iter; some models take 0 for "their own rule") and `tol` (>= 0,
// or > 0 when tol_open), with this model's default and meaning.
Bound<IterationParams> max_iter_param(long long def, std::string help, std::string anchor, double min_iter = 1);
Bound<IterationParams> tol_param(double def, std::string help, std::string anchor, bool tol_open = false);

struct ClassWeightParams {
    std::string class_weight;
};
// `class_weight`: "" (all 1), "balanced" or label:weight,... (kestrel/common/class_weight.hpp reads it).
Bound<ClassWeightParams> class_weight_param(std::string help, std::string anchor);

}  // namespace kestrel
