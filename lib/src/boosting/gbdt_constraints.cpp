#include "kestrel/boosting/gbdt_constraints.hpp"

#include <algorithm>
#include <cctype>

#include "kestrel/core/error.hpp"

namespace kestrel {
namespace {

constexpr const char* kMonotone = "monotone_constraints";
constexpr const char* kInteraction = "interaction_constraints";

[[noreturn]] void fail(const char* param, const std::string& text, const std::string& why) {
    throw ParamError("parameter " + std::string(param) + "=" + text + " of model gbdt: " + why);
}

std::string trim(const std::string& s) {
    std::size_t b = 0, e = s.size();
    while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
    while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
    return s.substr(b, e - b);
}

// Splits on commas; an empty text gives no parts.
std::vector<std::string> split_commas(const std::string& s) {
    std::vector<std::string> out;
    if (trim(s).empty()) return out;
    std::size_t start = 0;
    for (;;) {
        const std::size_t comma = s.find(',', start);
        out.push_back(trim(s.substr(start, comma == std::string::npos ? std::string::npos : comma - start)));
        if (comma == std::string::npos) return out;
        start = comma + 1;
    }
}

bool is_digits(const std::string& s) {
    return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// "1", "+1", "0", "-1".
bool parse_sign(const std::string& s, int& sign) {
    if (s == "1" || s == "+1") sign = 1;
    else if (s == "0") sign = 0;
    else if (s == "-1") sign = -1;
    else return false;
    return true;
}

// A quoted name ('price' or "price", as XGBoost's Python lists are written) unquoted.
std::string unquote(const std::string& s) {
    if (s.size() >= 2 && (s.front() == '"' || s.front() == '\'') && s.back() == s.front())
        return s.substr(1, s.size() - 2);
    return s;
}

Index column_of(const char* param, const std::string& text, const std::string& name,
                const std::vector<std::string>& names, Index n_features) {
    if (names.empty())
        fail(param, text, "feature name '" + name + "' needs a header row naming the columns (or give indices)");
    if (static_cast<Index>(names.size()) != n_features)
        fail(param, text, "feature names need the columns as read (" + std::to_string(names.size()) +
                              " names, " + std::to_string(n_features) + " features after preprocessing); give indices");
    const auto it = std::find(names.begin(), names.end(), name);
    if (it == names.end()) fail(param, text, "no feature column is named '" + name + "'");
    return static_cast<Index>(it - names.begin());
}

std::string feature_label(Index j, const std::vector<std::string>& names) {
    std::string s = "feature " + std::to_string(j);
    if (static_cast<std::size_t>(j) < names.size()) s += " (" + names[static_cast<std::size_t>(j)] + ")";
    return s;
}

}  // namespace

MonotoneSpec parse_monotone_constraints(const std::string& raw) {
    const std::string text = trim(raw);
    MonotoneSpec spec;
    if (text.empty()) return spec;
    const char open = text.front();
    if (open == '(' || open == '[') {
        const char close = open == '(' ? ')' : ']';
        if (text.back() != close) fail(kMonotone, raw, std::string("no closing '") + close + "'");
        for (const std::string& part : split_commas(text.substr(1, text.size() - 2))) {
            int sign = 0;
            if (!parse_sign(part, sign)) fail(kMonotone, raw, "entry '" + part + "' is not 1, 0 or -1");
            spec.by_index.push_back(sign);
        }
        return spec;
    }
    for (const std::string& part : split_commas(text)) {
        const std::size_t colon = part.rfind(':');
        if (colon == std::string::npos)
            fail(kMonotone, raw, "entry '" + part + "' is not name:sign (write (1,0,-1) for one sign per feature)");
        const std::string name = unquote(trim(part.substr(0, colon)));
        int sign = 0;
        if (name.empty()) fail(kMonotone, raw, "entry '" + part + "' has no feature name");
        if (!parse_sign(trim(part.substr(colon + 1)), sign))
            fail(kMonotone, raw, "entry '" + part + "': the sign is not 1, 0 or -1");
        for (const auto& [seen, s] : spec.by_name)
            if (seen == name) fail(kMonotone, raw, "feature '" + name + "' is given twice");
        spec.by_name.emplace_back(name, sign);
    }
    return spec;
}

std::vector<int> resolve_monotone_constraints(const MonotoneSpec& spec, const std::vector<std::string>& names,
                                              Index n_features, const std::vector<Index>& category_counts) {
    std::vector<int> out(static_cast<std::size_t>(n_features), 0);
    const std::string text = [&] {
        if (spec.by_name.empty()) {
            std::string t = "(";
            for (std::size_t i = 0; i < spec.by_index.size(); ++i) {
                if (i) t += ',';
                t += std::to_string(spec.by_index[i]);
            }
            return t + ")";
        }
        std::string t;
        for (std::size_t i = 0; i < spec.by_name.size(); ++i) {
            if (i) t += ',';
            t += spec.by_name[i].first;
            t += ':';
            t += std::to_string(spec.by_name[i].second);
        }
        return t;
    }();
    if (static_cast<Index>(spec.by_index.size()) > n_features)
        fail(kMonotone, text, std::to_string(spec.by_index.size()) + " entries for " + std::to_string(n_features) +
                                  " features");
    std::copy(spec.by_index.begin(), spec.by_index.end(), out.begin());
    for (const auto& [name, sign] : spec.by_name)
        out[static_cast<std::size_t>(column_of(kMonotone, text, name, names, n_features))] = sign;
    for (Index j = 0; j < n_features; ++j) {
        const auto uj = static_cast<std::size_t>(j);
        if (out[uj] != 0 && uj < category_counts.size() && category_counts[uj] > 0)
            fail(kMonotone, text, feature_label(j, names) + " is categorical: its categories have no order to follow");
    }
    if (std::all_of(out.begin(), out.end(), [](int s) { return s == 0; })) out.clear();
    return out;
}

InteractionSpec parse_interaction_constraints(const std::string& raw) {
    const std::string text = trim(raw);
    InteractionSpec spec;
    if (text.empty()) return spec;
    if (text.front() != '[' || text.back() != ']')
        fail(kInteraction, raw, "not a list of lists such as [[0,1],[2,3,4]]");
    std::size_t i = 1;
    const std::size_t end = text.size() - 1;
    const auto skip_space = [&] {
        while (i < end && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
    };
    skip_space();
    while (i < end) {
        if (text[i] != '[') fail(kInteraction, raw, "expected '[' at character " + std::to_string(i + 1));
        const std::size_t close = text.find(']', i);
        if (close == std::string::npos || close >= end)
            fail(kInteraction, raw, "no closing ']' for the set at character " + std::to_string(i + 1));
        const std::string inner = text.substr(i + 1, close - i - 1);
        if (inner.find('[') != std::string::npos) fail(kInteraction, raw, "sets are lists of features, not of lists");
        std::vector<std::string> set;
        for (const std::string& part : split_commas(inner)) {
            const std::string name = unquote(part);
            if (name.empty()) fail(kInteraction, raw, "an empty feature in [" + inner + "]");
            set.push_back(name);
        }
        spec.push_back(std::move(set));
        i = close + 1;
        skip_space();
        if (i < end) {
            if (text[i] != ',') fail(kInteraction, raw, "expected ',' between sets at character " + std::to_string(i + 1));
            ++i;
            skip_space();
            if (i >= end) fail(kInteraction, raw, "a ',' with no set after it");
        }
    }
    return spec;
}

std::vector<std::vector<int>> resolve_interaction_constraints(const InteractionSpec& spec,
                                                              const std::vector<std::string>& names,
                                                              Index n_features) {
    std::string text = "[";
    for (std::size_t s = 0; s < spec.size(); ++s) {
        text += s ? ",[" : "[";
        for (std::size_t k = 0; k < spec[s].size(); ++k) text += (k ? "," : "") + spec[s][k];
        text += "]";
    }
    text += "]";
    std::vector<std::vector<int>> out;
    for (const auto& set : spec) {
        std::vector<int> ids;
        for (const std::string& entry : set) {
            Index j = 0;
            if (is_digits(entry)) {
                if (entry.size() > 9 || std::stoll(entry) >= n_features)
                    fail(kInteraction, text, "feature index " + entry + " is out of range (0.." +
                                                 std::to_string(n_features - 1) + ")");
                j = static_cast<Index>(std::stoll(entry));
            } else {
                j = column_of(kInteraction, text, entry, names, n_features);
            }
            ids.push_back(static_cast<int>(j));
        }
        std::sort(ids.begin(), ids.end());
        ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
        if (!ids.empty()) out.push_back(std::move(ids));
    }
    return out;
}

void allowed_features(const std::vector<std::vector<int>>& sets, const std::vector<int>& path, Index n_features,
                      std::vector<char>& allowed) {
    allowed.assign(static_cast<std::size_t>(n_features), path.empty() ? 1 : 0);
    if (path.empty()) return;
    for (int f : path) allowed[static_cast<std::size_t>(f)] = 1;
    for (const auto& set : sets)
        if (std::includes(set.begin(), set.end(), path.begin(), path.end()))
            for (int f : set) allowed[static_cast<std::size_t>(f)] = 1;
}

}  // namespace kestrel
