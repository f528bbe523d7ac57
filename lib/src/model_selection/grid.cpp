#include "kestrel/model_selection/grid.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <set>

#include "kestrel/core/error.hpp"
#include "kestrel/core/rng.hpp"
#include "kestrel/core/text_pieces.hpp"

namespace kestrel {

namespace {

// A range is refused past this many values: a typo like 0:1e9:1 should fail, not hang.
constexpr double kMaxRangeValues = 1e6;

[[noreturn]] void fail(const std::string& text, const std::string& why) {
    throw UsageError(option_named("grid") + " " + text + ": " + why);
}

// Splits at `sep` outside parentheses, brackets and braces, so that nested model specs
// such as "tree(max_depth=3,min_samples_leaf=2)", constraint lists such as "(1,0,-1)" or
// "[[0,1],[2,3]]" and braced values such as "{price:-1,age:1}" stay one value.
std::vector<std::string> split_top_level(const std::string& s, char sep) {
    std::vector<std::string> parts(1);
    int depth = 0;
    for (char c : s) {
        if (c == '(' || c == '[' || c == '{') ++depth;
        if (c == ')' || c == ']' || c == '}') --depth;
        if (c == sep && depth == 0)
            parts.emplace_back();
        else
            parts.back() += c;
    }
    return parts;
}

bool parse_number(const std::string& s, double& out) {
    const std::string t = trim_blanks(s);
    if (t.empty()) return false;
    const char* first = t.data();
    if (*first == '+') ++first;  // from_chars refuses a leading '+'
    const char* last = t.data() + t.size();
    auto [ptr, ec] = std::from_chars(first, last, out);
    return ec == std::errc() && ptr == last && std::isfinite(out);
}

// Shortest text that reads back as exactly `v` ("0.03125", "1e-05", "32768").
std::string shortest(double v) {
    if (v == 0) v = 0;  // no "-0"
    char buf[64];
    auto [ptr, ec] = std::to_chars(buf, buf + sizeof buf, v);
    (void)ec;
    return std::string(buf, ptr);
}

// Rounds to 15 significant digits, which removes the a + i*step drift
// (0.1 + 2*0.1 = 0.30000000000000004 -> 0.3) without touching exact values.
double tidy(double v) {
    char buf[64];
    // to_chars, not snprintf: under a decimal-comma locale "%.15g" writes "0,3",
    // which from_chars would read back as 0.
    const auto r = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::general, 15);
    double out = v;
    std::from_chars(buf, r.ptr, out);
    return out;
}

// The steps a, a+s, ... up to b, b included when within 1e-9 relative.
std::vector<double> arithmetic(const std::string& text, double a, double b, double step) {
    if (step == 0) fail(text, "the step must not be zero");
    if ((b - a) * step < 0)
        fail(text, "the step " + shortest(step) + " goes away from " + shortest(b) + "; use a " +
                       (step > 0 ? "negative" : "positive") + " step");
    const double span = (b - a) / step;
    if (span + 1 > kMaxRangeValues) fail(text, "the range has more than 1000000 values");
    const double nearest = std::round(span);
    const double last = (std::abs(span - nearest) <= 1e-9 * std::max(1.0, std::abs(span))) ? nearest
                                                                                          : std::floor(span);
    std::vector<double> out;
    for (long long i = 0; i <= static_cast<long long>(last); ++i) out.push_back(tidy(a + static_cast<double>(i) * step));
    return out;
}

struct Power {
    double base, exponent;
};

Power parse_power(const std::string& text, const std::string& bound) {
    const auto caret = bound.find('^');
    Power p{};
    if (caret == std::string::npos || !parse_number(bound.substr(0, caret), p.base) ||
        !parse_number(bound.substr(caret + 1), p.exponent))
        fail(text, "'" + bound + "' is not of the form B^e (as 2^-5)");
    if (!(p.base > 0) || p.base == 1) fail(text, "the base of '" + bound + "' must be positive and not 1");
    return p;
}

std::vector<std::string> parse_range(const std::string& text, const std::vector<std::string>& parts) {
    if (parts.size() != 3) fail(text, "a range is start:stop:step (as 0.1:1:0.1 or 2^-5:2^15:2)");
    for (const auto& p : parts)
        if (trim_blanks(p).empty()) fail(text, "a range is start:stop:step with none of them empty");

    const bool geometric = parts[0].find('^') != std::string::npos || parts[1].find('^') != std::string::npos;
    std::vector<std::string> values;
    if (geometric) {
        const Power lo = parse_power(text, trim_blanks(parts[0]));
        const Power hi = parse_power(text, trim_blanks(parts[1]));
        if (lo.base != hi.base) fail(text, "both bounds of a geometric range need the same base");
        double step = 0;
        if (!parse_number(parts[2], step))
            fail(text, "the step '" + trim_blanks(parts[2]) + "' of a geometric range is an exponent step, a plain number");
        for (double e : arithmetic(text, lo.exponent, hi.exponent, step)) {
            const double v = std::pow(lo.base, e);
            if (!std::isfinite(v) || v == 0) fail(text, shortest(lo.base) + "^" + shortest(e) + " is out of range");
            values.push_back(shortest(v));
        }
    } else {
        double a = 0, b = 0, step = 0;
        // A value that holds ':' itself (monotone_constraints=price:-1) reads as a range.
        const std::string braces = " (a value holding ':' or ',' goes in braces: {price:-1,age:1})";
        if (!parse_number(parts[0], a)) fail(text, "the start '" + trim_blanks(parts[0]) + "' is not a number" + braces);
        if (!parse_number(parts[1], b)) fail(text, "the stop '" + trim_blanks(parts[1]) + "' is not a number" + braces);
        if (!parse_number(parts[2], step)) fail(text, "the step '" + trim_blanks(parts[2]) + "' is not a number");
        for (double v : arithmetic(text, a, b, step)) values.push_back(shortest(v));
    }
    return values;
}

// A list value: trimmed, and a value in braces taken as written inside them, so that a
// value may hold the separators ("{price:-1,age:1}" is the value price:-1,age:1).
std::string list_value(const std::string& v) {
    std::string t = trim_blanks(v);
    if (t.size() >= 2 && t.front() == '{' && t.back() == '}') t = trim_blanks(t.substr(1, t.size() - 2));
    return t;
}

// "uniform(a,b)" and friends: the whole right-hand side is one call of a known name.
bool parse_call(const std::string& rhs, const std::string& fn, std::vector<std::string>& args) {
    const std::string t = trim_blanks(rhs);
    if (t.size() < fn.size() + 2 || t.compare(0, fn.size() + 1, fn + "(") != 0 || t.back() != ')') return false;
    args = split_top_level(t.substr(fn.size() + 1, t.size() - fn.size() - 2), ',');
    return true;
}

void parse_distribution(const std::string& text, const std::string& fn, const std::vector<std::string>& args,
                        GridAxis& axis) {
    if (args.size() != 2) fail(text, fn + "(a,b) takes two numbers");
    if (!parse_number(args[0], axis.low)) fail(text, "'" + trim_blanks(args[0]) + "' is not a number");
    if (!parse_number(args[1], axis.high)) fail(text, "'" + trim_blanks(args[1]) + "' is not a number");
    if (!(axis.low < axis.high)) fail(text, fn + "(a,b) needs a < b");
    if (fn == "loguniform" && !(axis.low > 0)) fail(text, "loguniform(a,b) needs a > 0");
    if (fn == "randint" && (axis.low != std::floor(axis.low) || axis.high != std::floor(axis.high)))
        fail(text, "randint(a,b) takes integers");
    axis.kind = fn == "uniform" ? AxisKind::uniform : fn == "loguniform" ? AxisKind::loguniform : AxisKind::randint;
}

}  // namespace

GridAxis parse_grid_axis(const std::string& text) {
    const auto eq = text.find('=');
    if (eq == std::string::npos) fail(text, "expected name=values (as C=0.1,1,10 or C=2^-5:2^15:2)");
    GridAxis axis;
    axis.name = trim_blanks(text.substr(0, eq));
    if (axis.name.empty()) fail(text, "the parameter name is empty");
    const std::string rhs = text.substr(eq + 1);
    if (trim_blanks(rhs).empty()) fail(text, "no values given");

    std::vector<std::string> args;
    for (const char* fn : {"uniform", "loguniform", "randint"}) {
        if (parse_call(rhs, fn, args)) {
            parse_distribution(text, fn, args, axis);
            return axis;
        }
    }
    if (parse_call(rhs, "choice", args)) {
        for (const auto& v : args) {
            std::string value = list_value(v);
            if (value.empty()) fail(text, "an empty value in choice(...)");
            axis.values.push_back(std::move(value));
        }
        return axis;
    }

    const auto colons = split_top_level(rhs, ':');
    if (colons.size() > 1) {
        axis.values = parse_range(text, colons);
        return axis;
    }
    for (const auto& v : split_top_level(rhs, ',')) {
        std::string value = list_value(v);
        if (value.empty()) fail(text, "an empty value in the list");
        axis.values.push_back(std::move(value));
    }
    return axis;
}

namespace {

void check_axes(const std::vector<GridAxis>& axes) {
    std::set<std::string> seen;
    for (const auto& axis : axes) {
        if (!seen.insert(axis.name).second)
            throw UsageError(option_named("grid") + " " + axis.name + " is given more than once");
        if (axis.kind == AxisKind::list && axis.values.empty())
            throw UsageError(option_named("grid") + " " + axis.name + " has no values");
    }
}

// A drawn value to 6 significant digits, which reads better in tables and files than
// 17 and is still the exact value used (the text is what the model gets); kept as is
// when rounding would leave [low, high).
std::string readable(double v, const GridAxis& axis) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.6g", v);
    double r = v;
    std::from_chars(buf, buf + std::char_traits<char>::length(buf), r);
    return (r >= axis.low && r < axis.high) ? shortest(r) : shortest(v);
}

std::string draw(const GridAxis& axis, Rng& rng) {
    switch (axis.kind) {
        case AxisKind::list: return axis.values[static_cast<std::size_t>(rng.below(axis.values.size()))];
        case AxisKind::uniform: return readable(rng.uniform(axis.low, axis.high), axis);
        case AxisKind::loguniform:
            return readable(std::exp(rng.uniform(std::log(axis.low), std::log(axis.high))), axis);
        case AxisKind::randint:
            return shortest(axis.low + static_cast<double>(rng.below(static_cast<std::uint64_t>(axis.high - axis.low))));
    }
    return {};
}

}  // namespace

std::vector<GridPoint> expand_grid(const std::vector<GridAxis>& axes) {
    check_axes(axes);
    for (const auto& axis : axes)
        if (axis.kind != AxisKind::list)
            throw UsageError(option_named("grid") + " " + axis.name + " is a distribution; sample it with " +
                             option_named("n_iter") + " N (random search)");
    // Each axis may hold up to a million values: their product must be refused before
    // it is built (three such axes are 10^18 points), not exhaust memory.
    constexpr double kMaxPoints = 1e6;
    double n_points = 1;
    for (const auto& axis : axes) n_points *= static_cast<double>(axis.values.size());
    if (n_points > kMaxPoints)
        throw UsageError(option_named("grid") + ": the grid has " + shortest(n_points) +
                         " points, more than 1000000; use fewer values, or " + option_named("n_iter") +
                         " N for a random search");
    // An odometer over the axes; the last axis turns fastest (as sklearn's ParameterGrid).
    std::vector<GridPoint> points;
    std::vector<std::size_t> at(axes.size(), 0);
    while (true) {
        GridPoint point;
        point.reserve(axes.size());
        for (std::size_t a = 0; a < axes.size(); ++a) point.emplace_back(axes[a].name, axes[a].values[at[a]]);
        points.push_back(std::move(point));
        std::size_t a = axes.size();
        while (a > 0) {
            --a;
            if (++at[a] < axes[a].values.size()) break;
            at[a] = 0;
            if (a == 0) return points;
        }
        if (axes.empty()) return points;
    }
}

}  // namespace kestrel

namespace kestrel {

std::vector<GridPoint> sample_points(const std::vector<GridAxis>& axes, int n_iter, std::uint64_t seed) {
    if (n_iter < 1) throw UsageError(option_named("n_iter") + " " + std::to_string(n_iter) + ": must be at least 1");
    check_axes(axes);
    Rng rng(seed);
    const bool all_lists =
        std::all_of(axes.begin(), axes.end(), [](const GridAxis& a) { return a.kind == AxisKind::list; });
    // A grid small enough to list: distinct points, as sklearn samples a grid of lists
    // without replacement.
    double size = 1;
    for (const auto& a : axes) size *= static_cast<double>(std::max<std::size_t>(a.values.size(), 1));
    if (all_lists && size <= 1e6) {
        auto grid = expand_grid(axes);
        if (static_cast<std::size_t>(n_iter) >= grid.size()) return grid;
        for (std::size_t i = 0; i < static_cast<std::size_t>(n_iter); ++i) {  // partial Fisher-Yates
            const auto j = i + static_cast<std::size_t>(rng.below(grid.size() - i));
            std::swap(grid[i], grid[j]);
        }
        grid.resize(static_cast<std::size_t>(n_iter));
        return grid;
    }
    std::vector<GridPoint> points;
    points.reserve(static_cast<std::size_t>(n_iter));
    for (int i = 0; i < n_iter; ++i) {
        GridPoint p;
        for (const auto& a : axes) p.emplace_back(a.name, draw(a, rng));
        points.push_back(std::move(p));
    }
    return points;
}

}  // namespace kestrel
