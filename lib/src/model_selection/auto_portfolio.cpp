#include "auto_portfolio.hpp"

#include <algorithm>
#include <sstream>
#include <stdexcept>

#include "kestrel/core/error.hpp"
#include "kestrel/core/rng.hpp"
#include "kestrel/pipeline/registry.hpp"
#include "kestrel/pipeline/search_spaces.hpp"

namespace kestrel {

namespace {

constexpr std::uint64_t kAutoStream = 0xa070'0000'0000ULL;
// Points drawn per family up front; a family evaluates them in this order. Far more
// than any budget reaches, and cheap: drawing is text, nothing is fitted.
constexpr int kAutoDrawnPoints = 500;

// FNV-1a: a family's draws depend on the seed and its name only, so `--models gbdt`
// tries the same gbdt candidates as the whole portfolio does.
std::uint64_t name_stream(const std::string& name) {
    std::uint64_t h = 1469598103934665603ULL;
    for (unsigned char c : name) h = (h ^ c) * 1099511628211ULL;
    return kAutoStream ^ (h & 0xffff'ffffULL);
}

std::string candidate_key(const ModelSpec& s) {
    std::string key = resolved_params(s)->values().dump();
    for (const auto& step : s.preprocessing) key += "|" + step;
    return key;
}

// The space's one-value axes (scale=standard, n_estimators=100): the settings every
// candidate of the family shares, so the defaults candidate gets them too.
GridPoint fixed_settings(const std::vector<GridAxis>& axes) {
    GridPoint p;
    for (const auto& a : axes)
        if (a.kind == AxisKind::list && a.values.size() == 1) p.emplace_back(a.name, a.values[0]);
    return p;
}

// A portfolio entry ("a=1 b=2") over the space's fixed settings, its value replacing a fixed one.
GridPoint portfolio_point(GridPoint point, const std::string& text) {
    std::istringstream words(text);
    for (std::string word; words >> word;) {
        const auto eq = word.find('=');
        if (eq == std::string::npos || eq == 0)
            throw std::logic_error("search space portfolio entry \"" + text + "\": expected name=value settings");
        detail::set_point_setting(point, word.substr(0, eq), word.substr(eq + 1));
    }
    return point;
}

}  // namespace

namespace detail {

std::size_t AutoFamily::screen_batch(int halving_batch) const {
    const std::size_t batch =
        std::min<std::size_t>(static_cast<std::size_t>(std::max(halving_batch, 1)), specs.size() - next);
    return next >= portfolio && batch >= static_cast<std::size_t>(kAutoHalvingFactor) ? batch : 0;
}

AutoFamily make_auto_family(const std::string& model, const AutoOptions& opts, std::uint64_t seed) {
    const std::vector<GridAxis> axes = declared_axes(model);
    AutoFamily f;
    f.model = model;
    f.cost = search_space(model).cost;
    ModelSpec base = opts.base;
    base.model = model;
    base.params = Params::object();
    base.resolved.reset();
    auto add = [&](GridPoint point) {
        ModelSpec s = apply_point(base, point);
        resolve_params(s);
        if (!f.seen.insert(candidate_key(s)).second) return;
        f.points.push_back(std::move(point));
        f.specs.push_back(std::move(s));
    };
    add(fixed_settings(axes));
    for (auto& p : declared_portfolio(model)) add(std::move(p));
    f.portfolio = f.points.size();
    for (auto& p : sample_points(axes, kAutoDrawnPoints, derive_seed(seed, name_stream(model)))) add(std::move(p));
    return f;
}

double auto_rounds_of(const ModelSpec& s) {
    const Json& v = resolved_params(s)->values();
    const auto at = v.find("n_estimators");
    return at != v.end() && at->is_number() && at->get<double>() > 0 ? at->get<double>() : 1.0;
}

void set_point_setting(GridPoint& point, const std::string& name, const std::string& value) {
    auto at = std::find_if(point.begin(), point.end(), [&](const auto& nv) { return nv.first == name; });
    if (at != point.end()) at->second = value;
    else point.emplace_back(name, value);
}

}  // namespace detail

std::vector<GridAxis> declared_axes(const std::string& model) {
    const SearchSpace& space = search_space(model);
    if (!space.declared())
        throw UsageError("model " + model + " declares no search space; give the axes with -g");
    std::vector<GridAxis> axes;
    for (const auto& text : space.axes) axes.push_back(parse_grid_axis(text));
    return axes;
}

std::vector<GridPoint> declared_portfolio(const std::string& model) {
    const GridPoint fixed = fixed_settings(declared_axes(model));
    std::vector<GridPoint> points;
    for (const auto& text : search_space(model).portfolio) points.push_back(portfolio_point(fixed, text));
    return points;
}

std::vector<std::string> default_portfolio(Task task) {
    std::vector<std::string> names;
    for (const auto& name : registry().names()) {
        if (search_space(name).declared() && registry().info(name).supports(task)) names.push_back(name);
    }
    std::stable_sort(names.begin(), names.end(), [](const std::string& a, const std::string& b) {
        return search_space(a).cost < search_space(b).cost;
    });
    return names;
}

}  // namespace kestrel
