#include "kestrel/pipeline/registry.hpp"

#include <algorithm>

#include "kestrel/core/error.hpp"
#include "kestrel/core/shown_text.hpp"
#include "kestrel/multiclass/multiclass_wrapper.hpp"

namespace kestrel {

void Registry::add(std::string name, std::function<ModelInfo()> make) {
    if (contains(name)) throw InternalError("model " + name + " registered twice");
    auto e = std::make_unique<Entry>();
    e->name = std::move(name);
    e->make = std::move(make);
    entries_.push_back(std::move(e));
}

const ModelInfo& Registry::built(const Entry& e) const {
    std::call_once(e.made, [&] {
        ModelInfo info = e.make();
        if (info.name != e.name) throw InternalError("model " + e.name + " built as " + info.name);
        if (!info.factory || info.tasks.empty()) throw InternalError("model " + info.name + " lacks a factory or tasks");
        e.own_spec = std::make_unique<const ParamSpec>(info.spec);
        if (info.is_classifier() && !info.spec.find("multiclass")) {
            std::vector<std::string> strategies{"auto", "ovr", "ovo", "ecoc"};
            strategies.insert(strategies.end(), info.native_strategies.begin(), info.native_strategies.end());
            info.spec.add(choice_param("multiclass", "auto", strategies,
                                       info.multiclass == Multiclass::native
                                           ? "multiclass strategy: auto = the model's own multiclass; ovr / ovo / ecoc = "
                                             "generic wrappers"
                                           : "multiclass strategy for k > 2 classes: auto = " + info.default_strategy +
                                                 "; ovr = one-vs-rest, ovo = one-vs-one, ecoc = output codes")
                              .like("sklearn OneVsRestClassifier / OneVsOneClassifier / OutputCodeClassifier"));
            info.spec.add(real_param("code_size", 1.5, "multiclass=ecoc: code bits per class (floor(code_size*k) members)")
                              .range(0.0, std::nullopt)
                              .open_below()
                              .like("sklearn OutputCodeClassifier code_size"));
            info.spec.add(choice_param("decoding", "loss", {"loss", "hamming"},
                                       "multiclass=ecoc: nearest codeword by summed logistic loss of the member margins, "
                                       "or by Hamming distance of their signs")
                              .like("Allwein, Schapire & Singer 2000 loss-based / Hamming decoding"));
        }
        e.info = std::make_unique<const ModelInfo>(std::move(info));
    });
    return *e.info;
}

namespace {

bool binary_by_model_params(const ModelInfo& mi, const Params& resolved) {
    return mi.multiclass == Multiclass::native && mi.binary_only_when && mi.binary_only_when(resolved);
}

// The multiclass wrapper ("ovr", "ovo", "ecoc") create() puts around the model with these
// resolved parameters, or "" when the model is made as it is (multiclass=auto on a natively
// multiclass model, or a strategy the model implements itself).
std::string multiclass_wrapper_strategy(const ModelInfo& mi, const Params& resolved) {
    std::string strategy = resolved.contains("multiclass") ? resolved["multiclass"].get<std::string>() : "auto";
    if (strategy == "auto" && (mi.multiclass == Multiclass::binary_only || binary_by_model_params(mi, resolved)))
        strategy = mi.default_strategy;
    if (strategy == "auto" ||
        std::find(mi.native_strategies.begin(), mi.native_strategies.end(), strategy) != mi.native_strategies.end())
        return "";
    return strategy;
}

}  // namespace

bool Registry::contains(const std::string& name) const {
    return std::any_of(entries_.begin(), entries_.end(), [&](const auto& e) { return e->name == name; });
}

const Registry::Entry& Registry::entry(const std::string& name) const {
    for (const auto& e : entries_)
        if (e->name == name) return *e;
    std::string valid;
    for (const auto& n : names()) valid += (valid.empty() ? "" : ", ") + n;
    throw UsageError("unknown model '" + shown_text(name) + "' (valid: " + valid + ")");
}

const ModelInfo& Registry::info(const std::string& name) const { return built(entry(name)); }

std::vector<std::string> Registry::names() const {
    std::vector<std::string> out;
    for (const auto& e : entries_) out.push_back(e->name);
    std::sort(out.begin(), out.end());
    return out;
}

std::shared_ptr<const ResolvedParams> Registry::resolve(const std::string& name, const Params& given) const {
    const ModelInfo& mi = info(name);
    return std::shared_ptr<const ResolvedParams>(new ResolvedParams(name, given, mi.spec.resolve(given, name)));
}

std::unique_ptr<Estimator> Registry::create(const std::string& name, const Params& given) const {
    return create(*resolve(name, given));
}

std::unique_ptr<Estimator> Registry::create(const ResolvedParams& params) const {
    const std::string& name = params.model();
    const ModelInfo& mi = info(name);
    const Params& resolved = params.values();
    auto make_member = [info = std::make_shared<const ModelInfo>(mi), resolved]() {
        auto e = info->factory();
        e->set_identity(*info, resolved);
        return e;
    };
    const std::string strategy = multiclass_wrapper_strategy(mi, resolved);
    if (strategy.empty()) return make_member();
    // A native model whose parameters make it binary wraps itself, transparently: its
    // two-class state stays the member's own, as before it was wrapped.
    const bool transparent = binary_by_model_params(mi, resolved) &&
                             !(resolved.contains("multiclass") && resolved["multiclass"] != "auto");
    auto wrapper = make_multiclass_wrapper(strategy, make_member, transparent);
    wrapper->set_identity(name, resolved);
    return wrapper;
}

std::unique_ptr<Estimator> Registry::create_unwrapped(const std::string& name, const Params& given) const {
    const Entry& en = entry(name);
    const ModelInfo& mi = built(en);
    auto e = mi.factory();
    e->set_identity(mi, en.own_spec->resolve(given, name));
    return e;
}

Capabilities Registry::capabilities(const ResolvedParams& params) const {
    const ModelInfo& mi = info(params.model());
    const Capabilities own = mi.capabilities_for(params.values());
    // A wrapped model answers as create()'s wrapper does (ecoc: no probabilities).
    const std::string strategy = multiclass_wrapper_strategy(mi, params.values());
    return strategy.empty() ? own : wrapped_capabilities(strategy, own);
}

std::vector<std::string> Registry::reports(const ResolvedParams& params) const {
    return info(params.model()).reports_for(params.values());
}

std::string Registry::task_label(const ResolvedParams& params, Task task) const {
    const ModelInfo& mi = info(params.model());
    if (task == Task::regression && mi.ranks_when && mi.ranks_when(params.values())) return "ranking";
    return to_string(task);
}

std::vector<std::string> Registry::names_with(bool Capabilities::*has) const {
    std::vector<std::string> out;
    for (const std::string& name : names())
        if (capabilities(name, Params::object()).*has) out.push_back(name);
    return out;
}

Json Registry::models_json() const {
    Json list = Json::array();
    for (const auto& name : names()) {
        const ModelInfo& m = info(name);
        Json tasks = Json::array();
        for (Task t : m.tasks) tasks.push_back(to_string(t));
        list.push_back({{"name", name}, {"summary", m.summary}, {"tasks", tasks}});
    }
    return list;
}

Capabilities Registry::capabilities(const std::string& name, const Params& given) const {
    return capabilities(*resolve(name, given));
}

std::vector<std::string> Registry::reports(const std::string& name, const Params& given) const {
    return reports(*resolve(name, given));
}

namespace {
struct BuiltinRegistry : Registry {
    BuiltinRegistry() { register_builtin_models(*this); }
};
}  // namespace

const Registry& registry() {
    static const BuiltinRegistry r;
    return r;
}

}  // namespace kestrel
