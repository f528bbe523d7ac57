// An XGBoost model file (Booster.save_model's JSON or UBJSON) read into gbdt's state.
#include "kestrel/boosting/xgboost_model.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <map>

#include "kestrel/boosting/losses.hpp"
#include "kestrel/common/tree.hpp"
#include "kestrel/core/error.hpp"

namespace kestrel {
namespace {

enum class Link { identity, logit, log };

struct Objective {
    const char* name;  // XGBoost's
    LossKind loss;
    Link link;
};

// The objectives whose prediction gbdt makes the same way (the loss fixes the link; the
// training differences, pseudo-Huber's smooth loss against gbdt's huber, do not matter to
// a model that is only read).
constexpr Objective kObjectives[] = {
    {"reg:squarederror", LossKind::squared, Link::identity},
    {"reg:linear", LossKind::squared, Link::identity},
    {"reg:absoluteerror", LossKind::absolute, Link::identity},
    {"reg:pseudohubererror", LossKind::huber, Link::identity},
    {"reg:logistic", LossKind::logistic, Link::logit},
    {"binary:logistic", LossKind::logistic, Link::logit},
    {"binary:logitraw", LossKind::logistic, Link::identity},  // 1.7 keeps its base_score as a margin
    {"multi:softprob", LossKind::softmax, Link::identity},
    {"multi:softmax", LossKind::softmax, Link::identity},
    {"count:poisson", LossKind::poisson, Link::log},
    {"reg:gamma", LossKind::gamma, Link::log},
    {"reg:tweedie", LossKind::tweedie, Link::log},
    {"rank:pairwise", LossKind::rank_pairwise, Link::identity},
    {"rank:ndcg", LossKind::lambdarank, Link::identity},
};

// XGBoost 1.7 writes NaN (a categorical split's condition) and Infinity as bare words,
// which JSON has not: outside strings they become null (a numeric split whose condition
// is null is then refused by name).
std::string json_without_nan(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    bool in_string = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (in_string) {
            out += c;
            if (c == '\\' && i + 1 < text.size()) out += text[++i];
            else if (c == '"') in_string = false;
            continue;
        }
        if (c == '"') in_string = true;
        const std::string_view rest = text.substr(i);
        const std::size_t sign = c == '-' ? 1 : 0;
        std::size_t word = 0;
        for (const std::string_view w : {std::string_view("NaN"), std::string_view("Infinity")})
            if (rest.substr(sign, w.size()) == w) word = w.size();
        if (word == 0) {
            out += c;
            continue;
        }
        out += "null";
        i += sign + word - 1;
    }
    return out;
}

Json parse_document(std::string_view text, const std::string& source) {
    const bool ubjson = !text.empty() && text[0] == '{' && text.size() > 1 && std::string_view("iUIlL").find(text[1]) != std::string_view::npos;
    try {
        if (ubjson) return Json::from_ubjson(text.begin(), text.end());
        return Json::parse(json_without_nan(text));
    } catch (const Json::parse_error& e) {
        throw ModelFileError(source, std::string("XGBoost model is truncated or not valid ") +
                                         (ubjson ? "UBJSON" : "JSON") + " (at byte " + std::to_string(e.byte) + ")");
    } catch (const Json::exception& e) {
        throw ModelFileError(source, std::string("XGBoost model is not valid JSON: ") + e.what());
    }
}

// The reading context: the file's name for every message, and its fields by path.
struct Reader {
    const std::string& source;

    [[noreturn]] void fail(const std::string& why) const { throw ModelFileError(source, "XGBoost model: " + why); }

    const Json& field(const Json& parent, const char* key, const std::string& path) const {
        if (!parent.is_object() || !parent.contains(key)) fail("lacks " + path);
        return parent.at(key);
    }
    // XGBoost keeps its parameters as text ("5E-1", "3").
    double number(const Json& parent, const char* key, const std::string& path) const {
        const Json& v = field(parent, key, path);
        if (v.is_number()) return v.get<double>();
        if (!v.is_string()) fail(path + " is not a number");
        const std::string s = v.get<std::string>();
        double x = 0;
        const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), x);
        if (ec != std::errc() || end != s.data() + s.size() || !std::isfinite(x)) fail(path + " is not a number: " + s);
        return x;
    }
    long long integer(const Json& parent, const char* key, const std::string& path, long long lo, long long hi) const {
        const double x = number(parent, key, path);
        if (!(x >= static_cast<double>(lo) && x <= static_cast<double>(hi)) || std::floor(x) != x)
            fail(path + " must be a whole number in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]");
        return static_cast<long long>(x);
    }
    const Json& array(const Json& parent, const char* key, const std::string& path, std::size_t length) const {
        const Json& a = field(parent, key, path);
        if (!a.is_array() || a.size() != length)
            fail(path + " must be an array of " + std::to_string(length) + " entries");
        return a;
    }
};

// One XGBoost tree's categorical split, kept until every tree is read (the feature's
// category count is the largest code any split names, plus one).
struct PendingCategorical {
    std::size_t tree = 0;  // the tree's place in the file
    int node = 0;          // the kestrel node
    int feature = 0;
    std::vector<long long> right;  // XGBoost's set: these codes go right
};

struct ReadTree {
    Tree tree;
    std::vector<PendingCategorical> categorical;
};

// Tree `t` of the file, its nodes renumbered depth-first from the root.
ReadTree read_tree(const Reader& r, const Json& j, std::size_t t, Index d, Vector& gain_by_feature) {
    const std::string at = "tree " + std::to_string(t) + " ";
    const Json& lefts = r.field(j, "left_children", at + "left_children");
    if (!lefts.is_array() || lefts.empty()) r.fail(at + "left_children must be a non-empty array");
    const std::size_t n = lefts.size();
    const Json& rights = r.array(j, "right_children", at + "right_children", n);
    const Json& features = r.array(j, "split_indices", at + "split_indices", n);
    const Json& conditions = r.array(j, "split_conditions", at + "split_conditions", n);
    const Json& defaults = r.array(j, "default_left", at + "default_left", n);
    const Json& hessians = r.array(j, "sum_hessian", at + "sum_hessian", n);
    const Json& gains = r.array(j, "loss_changes", at + "loss_changes", n);
    const Json no_types = Json::array();
    const Json& types = j.contains("split_type") ? r.array(j, "split_type", at + "split_type", n) : no_types;
    // The category sets, by XGBoost node.
    std::map<long long, std::vector<long long>> sets;
    if (j.contains("categories_nodes")) {
        const Json& nodes = r.field(j, "categories_nodes", at + "categories_nodes");
        if (!nodes.is_array()) r.fail(at + "categories_nodes is not an array");
        const Json& segments = r.array(j, "categories_segments", at + "categories_segments", nodes.size());
        const Json& sizes = r.array(j, "categories_sizes", at + "categories_sizes", nodes.size());
        const Json& cats = r.field(j, "categories", at + "categories");
        if (!cats.is_array()) r.fail(at + "categories is not an array");
        for (std::size_t s = 0; s < nodes.size(); ++s) {
            if (!nodes[s].is_number_integer() || !segments[s].is_number_integer() || !sizes[s].is_number_integer())
                r.fail(at + "categories_nodes, _segments and _sizes must be integers");
            const auto begin = segments[s].get<long long>(), size = sizes[s].get<long long>();
            if (begin < 0 || size < 0 || static_cast<std::size_t>(begin + size) > cats.size())
                r.fail(at + "categories_segments and categories_sizes run past categories");
            std::vector<long long>& set = sets[nodes[s].get<long long>()];
            for (long long c = begin; c < begin + size; ++c) {
                const Json& code = cats[static_cast<std::size_t>(c)];
                if (!code.is_number_integer() || code.get<long long>() < 0 || code.get<long long>() >= (1LL << 24))
                    r.fail(at + "categories must be codes in [0, 2^24)");
                set.push_back(code.get<long long>());
            }
        }
    }
    ReadTree out{Tree(d, 1), {}};
    std::vector<char> seen(n, 0);
    // (XGBoost node, kestrel parent, whether it is the parent's left child)
    std::vector<std::tuple<long long, int, bool>> stack{{0, -1, false}};
    while (!stack.empty()) {
        const auto [x, parent, is_left] = stack.back();
        stack.pop_back();
        if (x < 0 || static_cast<std::size_t>(x) >= n || seen[static_cast<std::size_t>(x)])
            r.fail(at + "has a child out of range or reached twice (node " + std::to_string(x) + ")");
        const auto i = static_cast<std::size_t>(x);
        seen[i] = 1;
        // XGBoost's numbers are float32, written in their shortest decimal form: read back
        // through float, they are XGBoost's values exactly.
        // A structured binding cannot be captured before C++20's P1091 (clang 14): name a copy.
        const auto node_id = x;
        const auto number_at = [&](const Json& a, const char* what) {
            if (!a[i].is_number()) r.fail(at + what + " of node " + std::to_string(node_id) + " is not a number");
            const double v = a[i].get<double>();
            if (!(std::abs(v) <= std::numeric_limits<float>::max()))
                r.fail(at + what + " of node " + std::to_string(node_id) + " is not a finite float32");
            return static_cast<double>(static_cast<float>(v));
        };
        if (!lefts[i].is_number_integer() || !rights[i].is_number_integer())
            r.fail(at + "children of node " + std::to_string(x) + " are not integers");
        const long long left = lefts[i].get<long long>(), right = rights[i].get<long long>();
        TreeNode node;
        node.weight = number_at(hessians, "sum_hessian");
        if (!(node.weight >= 0)) r.fail(at + "sum_hessian of node " + std::to_string(x) + " is negative");
        double value = 0;
        if (left == -1) {
            if (right != -1) r.fail(at + "node " + std::to_string(x) + " has one child");
            value = number_at(conditions, "leaf value (split_conditions)");
        } else {
            if (!features[i].is_number_integer() || features[i].get<long long>() < 0 || features[i].get<long long>() >= d)
                r.fail(at + "split_indices of node " + std::to_string(x) + " is not a feature below " + std::to_string(d));
            node.feature = features[i].get<int>();
            node.missing_left = defaults[i].is_boolean() ? defaults[i].get<bool>() : number_at(defaults, "default_left") != 0;
            node.impurity = number_at(gains, "loss_changes");
            gain_by_feature[node.feature] += node.impurity;
            const bool categorical = !types.empty() && types[i].is_number() && types[i].get<double>() == 1;
            if (categorical != (sets.count(x) > 0))
                r.fail(at + "node " + std::to_string(x) + ": split_type and categories_nodes disagree");
            if (!categorical) {
                node.threshold = xgboost_threshold(static_cast<float>(number_at(conditions, "split_conditions")));
            }
        }
        const int k = out.tree.add_node(node, &value);
        if (parent >= 0) (is_left ? out.tree.node(parent).left : out.tree.node(parent).right) = k;
        if (left != -1) {
            if (sets.count(x)) out.categorical.push_back({t, k, node.feature, sets[x]});
            stack.emplace_back(right, k, false);
            stack.emplace_back(left, k, true);
        }
    }
    return out;
}

const Objective& objective_of(const Reader& r, const Json& learner) {
    const Json& obj = r.field(learner, "objective", "learner.objective");
    const Json& name = r.field(obj, "name", "learner.objective.name");
    if (!name.is_string()) r.fail("learner.objective.name is not text");
    const std::string s = name.get<std::string>();
    for (const Objective& o : kObjectives)
        if (s == o.name) return o;
    std::string known;
    for (const Objective& o : kObjectives) known += (known.empty() ? "" : ", ") + std::string(o.name);
    r.fail("learner.objective.name " + s + " has no gbdt equivalent (read: " + known + ")");
}

// The trees of a gbtree model (a dart one whose weights are all 1 is one).
const Json& gbtree_model(const Reader& r, const Json& learner) {
    const Json& booster = r.field(learner, "gradient_booster", "learner.gradient_booster");
    const Json& name = r.field(booster, "name", "learner.gradient_booster.name");
    const std::string s = name.is_string() ? name.get<std::string>() : std::string("?");
    if (s == "gbtree") return r.field(booster, "model", "learner.gradient_booster.model");
    if (s == "dart") {
        const Json& weights = r.field(booster, "weight_drop", "learner.gradient_booster.weight_drop");
        if (!weights.is_array()) r.fail("learner.gradient_booster.weight_drop is not an array");
        for (const Json& w : weights)
            if (!w.is_number() || w.get<double>() != 1.0)
                r.fail("learner.gradient_booster.weight_drop: a dart model with dropped trees' weights other than 1 "
                       "has no gbdt equivalent");
        const Json& inner = r.field(booster, "gbtree", "learner.gradient_booster.gbtree");
        return r.field(inner, "model", "learner.gradient_booster.gbtree.model");
    }
    r.fail("learner.gradient_booster.name is " + s + ": only tree boosters (gbtree, dart) are read");
}

// The base margin of XGBoost 1.7's base_score, computed in float as XGBoost does.
double base_margin(const Reader& r, Link link, double base_score) {
    if (!(std::abs(base_score) <= std::numeric_limits<float>::max()))
        r.fail("learner_model_param.base_score is not a finite float32");
    const auto b = static_cast<float>(base_score);
    if (link == Link::logit) {
        if (!(b > 0 && b < 1)) r.fail("learner_model_param.base_score must be in (0, 1) for a logistic objective");
        return -std::log(1.0F / b - 1.0F);
    }
    if (link == Link::log) {
        if (!(b > 0)) r.fail("learner_model_param.base_score must be positive for a log-link objective");
        return std::log(b);
    }
    return b;
}

// gbdt's parameters that the objective's own parameters carry (training ones; prediction
// reads none of them).
Params params_of(const Json& learner, LossKind loss) {
    Params p{{"loss", to_string(loss)}};
    const Json& obj = learner.at("objective");
    const auto number = [&](const char* group, const char* key) -> double {
        if (!obj.contains(group) || !obj[group].is_object() || !obj[group].contains(key)) return NAN;
        const Json& v = obj[group][key];
        if (v.is_number()) return v.get<double>();
        if (!v.is_string()) return NAN;
        double x = NAN;
        const std::string s = v.get<std::string>();
        std::from_chars(s.data(), s.data() + s.size(), x);
        return x;
    };
    if (loss == LossKind::tweedie) {
        const double rho = number("tweedie_regression_param", "tweedie_variance_power");
        if (rho > 1 && rho < 2) p["tweedie_variance_power"] = rho;
    }
    if (loss == LossKind::huber) {
        const double slope = number("pseudo_huber_param", "huber_slope");
        if (slope > 0) p["huber_delta"] = slope;
    }
    if (loss == LossKind::logistic) {
        const double w = number("reg_loss_param", "scale_pos_weight");
        if (w > 0 && std::isfinite(w)) p["scale_pos_weight"] = w;
    }
    return p;
}

}  // namespace

bool looks_like_xgboost_model(std::string_view text) {
    if (text.empty() || text[0] != '{') return false;
    if (text.size() > 1 && std::string_view("iUIlL").find(text[1]) != std::string_view::npos)
        return text.substr(0, 32).find("learner") != std::string_view::npos;  // UBJSON
    const std::size_t key = text.find_first_not_of(" \t\r\n", 1);
    return key != std::string_view::npos && text.substr(key, 9) == "\"learner\"";
}

double xgboost_threshold(float t) {
    // float(x) < t exactly when float(x) <= p, p the float below t: when x is below the
    // midpoint of p and t, or at it when the tie rounds to p (p's mantissa even).
    const float p = std::nextafter(t, -std::numeric_limits<float>::infinity());
    const double pd = std::isinf(p) ? -0x1p128 : static_cast<double>(p);
    const double mid = (pd + static_cast<double>(t)) / 2;  // exact: doubles have the bits
    return static_cast<float>(mid) == p ? mid : std::nextafter(mid, -std::numeric_limits<double>::infinity());
}

namespace {

// XGBoost sends a code in no split's set left (the side of the codes outside the set),
// gbdt any code past its k categories the missing way: every categorical feature gets at
// least this many codes, so that codes up to 255 go where XGBoost sends them.
constexpr long long kMinCategories = 256;

// The categorical part of gbdt's state, and the features' category names: a feature's
// categories are the codes 0..k-1 as text, k the largest code its splits name plus one
// (kMinCategories at least);
// kestrel numbers them in the names' byte order ("10" before "2"), so each code is mapped.
void add_categorical(const std::vector<PendingCategorical>& splits, const std::vector<std::size_t>& place, Index d,
                     XgboostModelFile& f) {
    if (splits.empty()) return;
    std::vector<long long> k(static_cast<std::size_t>(d), 0);
    for (const PendingCategorical& s : splits)
        for (long long c : s.right) k[static_cast<std::size_t>(s.feature)] = std::max(k[static_cast<std::size_t>(s.feature)], c + 1);
    for (const PendingCategorical& s : splits)
        k[static_cast<std::size_t>(s.feature)] = std::max(k[static_cast<std::size_t>(s.feature)], kMinCategories);
    f.categories.assign(static_cast<std::size_t>(d), {});
    std::vector<std::vector<int>> kestrel_code(static_cast<std::size_t>(d));
    Json features = Json::array(), out = Json::array();
    for (std::size_t j = 0; j < k.size(); ++j) {
        if (k[j] == 0) continue;
        std::vector<std::string>& names = f.categories[j];
        for (long long c = 0; c < k[j]; ++c) names.push_back(std::to_string(c));
        std::sort(names.begin(), names.end());
        kestrel_code[j].assign(static_cast<std::size_t>(k[j]), 0);
        for (std::size_t i = 0; i < names.size(); ++i) kestrel_code[j][std::stoul(names[i])] = static_cast<int>(i);
        features.push_back(Json{{"feature", j}, {"categories", k[j]}, {"unseen", Json::array()}});
    }
    for (const PendingCategorical& s : splits) {
        const auto j = static_cast<std::size_t>(s.feature);
        std::vector<char> right(static_cast<std::size_t>(k[j]), 0);
        for (long long c : s.right) right[static_cast<std::size_t>(c)] = 1;
        std::vector<int> left;
        for (std::size_t c = 0; c < right.size(); ++c)
            if (!right[c]) left.push_back(kestrel_code[j][c]);
        std::sort(left.begin(), left.end());
        out.push_back(Json{{"tree", place[s.tree]}, {"node", s.node}, {"left", left}});
    }
    f.state["categorical_features"] = std::move(features);
    f.state["categorical_splits"] = std::move(out);
}

// Round-major order for gbdt (tree t adds to class t % K): XGBoost lists each round's
// trees class by class, num_parallel_tree of each; the j-th tree of every class makes
// gbdt's j-th round. place[i] is file tree i's place in that order.
std::vector<std::size_t> round_major(const Reader& r, const Json& info, std::size_t n_trees, Index K) {
    if (!info.is_array() || info.size() != n_trees) r.fail("gradient_booster.model.tree_info must list every tree's output");
    std::vector<std::vector<std::size_t>> by_class(static_cast<std::size_t>(K));
    for (std::size_t i = 0; i < n_trees; ++i) {
        if (!info[i].is_number_integer() || info[i].get<long long>() < 0 || info[i].get<long long>() >= K)
            r.fail("gradient_booster.model.tree_info holds an output outside 0.." + std::to_string(K - 1));
        by_class[info[i].get<std::size_t>()].push_back(i);
    }
    for (const auto& c : by_class)
        if (c.size() != by_class[0].size() || c.empty())
            r.fail("gradient_booster.model.tree_info: every output needs the same positive number of trees");
    std::vector<std::size_t> place(n_trees);
    for (std::size_t j = 0; j < by_class[0].size(); ++j)
        for (std::size_t c = 0; c < by_class.size(); ++c) place[by_class[c][j]] = j * by_class.size() + c;
    return place;
}

}  // namespace

XgboostModelFile read_xgboost_model(std::string_view text, const std::string& source) {
    const Reader r{source};
    const Json doc = parse_document(text, source);
    const Json& learner = r.field(doc, "learner", "learner");
    const Json& mp = r.field(learner, "learner_model_param", "learner.learner_model_param");
    if (mp.contains("num_target") && r.integer(mp, "num_target", "learner_model_param.num_target", 1, 1 << 20) != 1)
        r.fail("learner_model_param.num_target: a model of several targets has no gbdt equivalent");
    const Objective& obj = objective_of(r, learner);
    const Json& model = gbtree_model(r, learner);
    XgboostModelFile f;
    f.objective = obj.name;
    f.n_features = r.integer(mp, "num_feature", "learner_model_param.num_feature", 1, Index{1} << 31);
    const long long num_class = r.integer(mp, "num_class", "learner_model_param.num_class", 0, 1 << 20);
    Index K = 1;
    if (obj.loss == LossKind::softmax) {
        if (num_class < 2) r.fail("learner_model_param.num_class must be 2 or more for " + f.objective);
        K = num_class;
    } else if (num_class > 1) {
        r.fail("learner_model_param.num_class is " + std::to_string(num_class) + " for " + f.objective);
    }
    f.task = is_classification_loss(obj.loss) ? Task::classification : Task::regression;
    if (f.task == Task::classification)
        for (Index c = 0; c < std::max<Index>(K, 2); ++c) f.classes.push_back(std::to_string(c));
    if (learner.contains("feature_names") && learner["feature_names"].is_array() && !learner["feature_names"].empty()) {
        const Json& names = r.array(learner, "feature_names", "learner.feature_names", static_cast<std::size_t>(f.n_features));
        for (const Json& n : names) {
            if (!n.is_string()) r.fail("learner.feature_names holds a name that is not text");
            f.feature_names.push_back(n.get<std::string>());
        }
    }
    const Json& trees = r.field(model, "trees", "gradient_booster.model.trees");
    if (!trees.is_array() || trees.empty()) r.fail("gradient_booster.model.trees must be a non-empty array");
    const std::vector<std::size_t> place = round_major(r, r.field(model, "tree_info", "gradient_booster.model.tree_info"), trees.size(), K);
    std::vector<Tree> ordered(trees.size());
    std::vector<PendingCategorical> categorical;
    Vector gain = Vector::Zero(f.n_features);
    for (std::size_t t = 0; t < trees.size(); ++t) {
        ReadTree rt = read_tree(r, trees[t], t, f.n_features, gain);
        ordered[place[t]] = std::move(rt.tree);
        categorical.insert(categorical.end(), rt.categorical.begin(), rt.categorical.end());
    }
    const double margin = base_margin(r, obj.link, r.number(mp, "base_score", "learner_model_param.base_score"));
    Json json_trees = Json::array();
    for (const Tree& t : ordered) json_trees.push_back(t.to_json(TreeLayout::boosted));
    const double total = gain.sum();
    Json importances = Json::array();
    for (Index j = 0; j < f.n_features; ++j) importances.push_back(total > 0 ? gain[j] / total : 0.0);
    f.state = Json{{"loss", to_string(obj.loss)},
                   {"base_score", std::vector<double>(static_cast<std::size_t>(K), margin)},
                   {"trees", std::move(json_trees)},
                   {"feature_importances", std::move(importances)},
                   {"train_loss", Json::array()},
                   {"validation_loss", Json::array()},
                   {"xgboost_float32", true}};  // predicted in float32 as XGBoost does (Gbdt::xgboost_float32)
    add_categorical(categorical, place, f.n_features, f);
    f.params = params_of(learner, obj.loss);
    return f;
}

}  // namespace kestrel
