// A kestrel gbdt or forest written as XGBoost 1.7's JSON model.
#include "kestrel/exchange/xgboost_json.hpp"

#include <cmath>
#include <limits>
#include <optional>

#include "kestrel/boosting/gbdt.hpp"
#include "kestrel/common/tree.hpp"
#include "kestrel/core/error.hpp"
#include "kestrel/core/number_text.hpp"
#include "kestrel/tree/random_forest.hpp"
#include "xgboost_json_columns.hpp"

namespace kestrel {
namespace {

constexpr double kFloat32Max = std::numeric_limits<float>::max();

// XGBoost's float(x) < t for kestrel's x <= T: the float after float(T) (see the header).
// JSON has no infinity: a T past float32's range becomes its largest float.
float threshold_above(double t) {
    if (!(std::abs(t) < kFloat32Max)) return t > 0 ? std::numeric_limits<float>::max() : -std::numeric_limits<float>::max();
    return std::nextafter(static_cast<float>(t), std::numeric_limits<float>::infinity());
}

// A leaf value as XGBoost's float32.
double leaf_float(double v) {
    if (!(std::abs(v) <= kFloat32Max)) refuse_xgboost_json("a leaf value " + format_number(v) + " is past float32's range");
    return static_cast<double>(static_cast<float>(v));
}

// XGBoost's text of a parameter ("0.5").
std::string param_text(double x) {
    return format_number(x);
}

struct ExportObjective {
    const char* name;
    Json body;        // the objective's object, name included
    double base = 0;  // base_score: the link's inverse at margin 0
};

ExportObjective export_objective(const Gbdt& g, const Params& params) {
    const auto param = [&](const char* key, double fallback) {
        return params.contains(key) && params[key].is_number() ? params[key].get<double>() : fallback;
    };
    const auto named = [](const char* name, Json extra, double base) {
        Json body = std::move(extra);
        body["name"] = name;
        return ExportObjective{name, std::move(body), base};
    };
    const Json reg_loss{{"reg_loss_param", {{"scale_pos_weight", param_text(param("scale_pos_weight", 1))}}}};
    const Json rank{{"lambda_rank_param", {{"fix_list_weight", "0"}, {"num_pairsample", "1"}}}};
    switch (g.loss()) {
        case LossKind::squared: return named("reg:squarederror", reg_loss, 0);
        case LossKind::absolute: return named("reg:absoluteerror", Json::object(), 0);
        case LossKind::logistic: return named("binary:logistic", reg_loss, 0.5);
        case LossKind::softmax:
            return named("multi:softprob",
                         Json{{"softmax_multiclass_param", {{"num_class", std::to_string(g.n_outputs())}}}}, 0);
        case LossKind::poisson: {
            const double m = params.contains("max_delta_step") && params["max_delta_step"].is_number()
                                 ? params["max_delta_step"].get<double>()
                                 : 0.7;
            return named("count:poisson", Json{{"poisson_regression_param", {{"max_delta_step", param_text(m)}}}}, 1);
        }
        case LossKind::gamma: return named("reg:gamma", Json::object(), 1);
        case LossKind::tweedie:
            return named("reg:tweedie",
                         Json{{"tweedie_regression_param",
                               {{"tweedie_variance_power", param_text(param("tweedie_variance_power", 1.5))}}}},
                         1);
        case LossKind::rank_pairwise: return named("rank:pairwise", rank, 0);
        case LossKind::lambdarank: return named("rank:ndcg", rank, 0);
        default: refuse_xgboost_json(std::string("gbdt loss=") + to_string(g.loss()) + " has no XGBoost 1.7 objective");
    }
}

// One tree in XGBoost's arrays, nodes renumbered depth-first (root 0). `leaf(i)` gives a
// leaf's value, `set(i)` a categorical split's codes that go right (nullopt: numeric).
template <class Leaf, class RightSet>
Json tree_json(const Tree& tree, int id, const ColumnMap& columns, Leaf&& leaf, RightSet&& right_set) {
    Json left = Json::array(), right = Json::array(), parents = Json::array(), feature = Json::array(),
         cond = Json::array(), dleft = Json::array(), gain = Json::array(), hess = Json::array(),
         base = Json::array(), type = Json::array(), cats = Json::array(), cat_nodes = Json::array(),
         cat_segments = Json::array(), cat_sizes = Json::array();
    // Breadth first: XGBoost's predictor takes a node's right child to be its left child + 1,
    // so the two children of a split are numbered one after the other.
    std::vector<std::pair<int, int>> queue{{0, std::numeric_limits<int>::max()}};  // (kestrel node, parent)
    for (std::size_t head = 0; head < queue.size(); ++head) {
        const auto [i, parent] = queue[head];
        const int me = static_cast<int>(head);
        const TreeNode& n = tree.node(i);
        parents.push_back(parent);
        hess.push_back(n.weight);
        gain.push_back(n.is_leaf() ? 0.0 : n.impurity);
        if (n.is_leaf()) {
            const double v = leaf(i);
            for (Json* a : {&left, &right}) a->push_back(-1);
            feature.push_back(0);
            cond.push_back(leaf_float(v));
            base.push_back(leaf_float(v));
            dleft.push_back(0);
            type.push_back(0);
            continue;
        }
        const std::optional<std::vector<int>> set = right_set(i);
        const ColumnMap::Split s = set ? columns.categorical_split(n.feature, n.missing_left, *set)
                                       : columns.split(n.feature, n.threshold, n.missing_left);
        feature.push_back(s.column);
        dleft.push_back(s.missing_left ? 1 : 0);
        base.push_back(0.0);
        if (set) {
            cond.push_back(0.0);
            type.push_back(1);
            cat_nodes.push_back(me);
            cat_segments.push_back(cats.size());
            cat_sizes.push_back(set->size());
            for (int c : *set) cats.push_back(c);
        } else {
            cond.push_back(static_cast<double>(threshold_above(s.threshold)));
            type.push_back(0);
        }
        left.push_back(-1);
        right.push_back(-1);
        queue.emplace_back(n.left, me);
        queue.emplace_back(n.right, me);
    }
    // Each child's number is its place in the queue; the parents' arrays are filled from
    // the parents array (the left child comes first).
    for (std::size_t c = 1; c < parents.size(); ++c) {
        const auto p = parents[c].get<std::size_t>();
        if (left[p] == -1) left[p] = c;
        else right[p] = c;
    }
    const auto n = static_cast<long long>(parents.size());
    return Json{{"base_weights", base}, {"categories", cats}, {"categories_nodes", cat_nodes},
                {"categories_segments", cat_segments}, {"categories_sizes", cat_sizes}, {"default_left", dleft},
                {"id", id}, {"left_children", left}, {"loss_changes", gain}, {"parents", parents},
                {"right_children", right}, {"split_conditions", cond}, {"split_indices", feature},
                {"split_type", type}, {"sum_hessian", hess},
                {"tree_param", {{"num_deleted", "0"}, {"num_feature", std::to_string(columns.width())},
                                {"num_nodes", std::to_string(n)}, {"size_leaf_vector", "0"}}}};
}

struct ExportBooster {
    Json trees = Json::array();
    Json tree_info = Json::array();
    int parallel = 1;
    ExportObjective objective;
    long long num_class = 0;
};

ExportBooster gbdt_booster(const Gbdt& g, const Params& params, const ColumnMap& columns) {
    ExportBooster b{Json::array(), Json::array(), 1, export_objective(g, params), 0};
    const auto K = static_cast<std::size_t>(g.n_outputs());
    if (g.loss() == LossKind::softmax) b.num_class = static_cast<long long>(K);
    const auto& cat_splits = g.categorical_splits();
    for (std::size_t t = 0; t < g.trees().size(); ++t) {
        const Tree& tree = g.trees()[t];
        const std::size_t c = t % K;
        // The base score joins the first tree of each output (XGBoost's base_score is then
        // the margin 0): the same sum, without XGBoost's float link round trip.
        const double base = t < K ? g.base_score()[c] : 0.0;
        const auto leaf = [&](int i) { return tree.value(i)[0] + base; };
        const auto right_set = [&](int i) -> std::optional<std::vector<int>> {
            if (cat_splits.empty()) return std::nullopt;
            for (const Gbdt::CategoricalSplit& s : cat_splits[t]) {
                if (s.node != i) continue;
                const auto f = static_cast<std::size_t>(tree.node(i).feature);
                const Index k = g.category_counts()[f];
                std::vector<char> goes_left(static_cast<std::size_t>(k), 0);
                for (int code : s.left) goes_left[static_cast<std::size_t>(code)] = 1;
                if (tree.node(i).missing_left)
                    for (int code : g.unseen_categories()[f]) goes_left[static_cast<std::size_t>(code)] = 1;
                std::vector<int> right;
                for (Index code = 0; code < k; ++code)
                    if (!goes_left[static_cast<std::size_t>(code)]) right.push_back(static_cast<int>(code));
                return right;
            }
            return std::nullopt;
        };
        b.trees.push_back(tree_json(tree, static_cast<int>(t), columns, leaf, right_set));
        b.tree_info.push_back(c);
    }
    return b;
}

ExportBooster forest_booster(const RandomForest& f, const ColumnMap& columns) {
    const std::vector<Tree>& trees = f.trees();
    const bool classification = f.task() == Task::classification;
    if (classification && f.n_classes() != 2)
        refuse_xgboost_json("a forest of " + std::to_string(f.n_classes()) +
               " classes averages probabilities, which XGBoost's softmax cannot (two classes export)");
    ExportBooster b{Json::array(), Json::array(), static_cast<int>(trees.size()),
              classification ? ExportObjective{"binary:logitraw",
                                         Json{{"name", "binary:logitraw"}, {"reg_loss_param", {{"scale_pos_weight", "1"}}}},
                                         0}  // binary:logitraw keeps base_score as a margin
                             : ExportObjective{"reg:squarederror",
                                         Json{{"name", "reg:squarederror"}, {"reg_loss_param", {{"scale_pos_weight", "1"}}}},
                                         0},
              0};
    const double n = static_cast<double>(trees.size());
    for (std::size_t t = 0; t < trees.size(); ++t) {
        const Tree& tree = trees[t];
        const auto leaf = [&](int i) {
            const double* v = tree.value(i);
            return (classification ? v[1] / (v[0] + v[1]) : v[0]) / n;
        };
        const auto right_set = [&](int i) -> std::optional<std::vector<int>> {
            if (!tree.is_categorical(i)) return std::nullopt;
            const Index k = tree.category_count(i);
            std::vector<char> goes_left(static_cast<std::size_t>(k), 0);
            for (int code : tree.left_categories(i)) goes_left[static_cast<std::size_t>(code)] = 1;
            std::vector<int> right;
            for (Index code = 0; code < k; ++code)
                if (!goes_left[static_cast<std::size_t>(code)]) right.push_back(static_cast<int>(code));
            return right;
        };
        b.trees.push_back(tree_json(tree, static_cast<int>(t), columns, leaf, right_set));
        b.tree_info.push_back(0);
    }
    return b;
}

}  // namespace

std::string model_to_xgboost_json(const Model& model) {
    const Json envelope = model.to_json();
    const ColumnMap columns(envelope);
    ExportBooster b;
    if (const auto* g = dynamic_cast<const Gbdt*>(&model.estimator())) {
        b = gbdt_booster(*g, envelope.at("params"), columns);
    } else if (const auto* f = dynamic_cast<const RandomForest*>(&model.estimator())) {
        b = forest_booster(*f, columns);
    } else {
        refuse_xgboost_json("model " + model.model_name() + " is not gbdt or forest");
    }
    if (b.trees.empty()) refuse_xgboost_json("the model has no trees");
    Json names = Json::array(), types = Json::array();
    for (Index j = 0; j < columns.width(); ++j) {
        names.push_back(columns.name(j));
        types.push_back(columns.categorical(j) ? "c" : "float");
    }
    const bool named = !model.feature_names().empty();
    Json learner{
        {"attributes", Json::object()},
        {"feature_names", named ? names : Json::array()},
        {"feature_types", columns.any_categorical() || named ? types : Json::array()},
        {"gradient_booster",
         {{"model",
           {{"gbtree_model_param",
             {{"num_parallel_tree", std::to_string(b.parallel)},
              {"num_trees", std::to_string(b.trees.size())},
              {"size_leaf_vector", "0"}}},
            {"tree_info", b.tree_info},
            {"trees", b.trees}}},
          {"name", "gbtree"}}},
        {"learner_model_param",
         {{"base_score", param_text(b.objective.base)},
          {"boost_from_average", "1"},
          {"num_class", std::to_string(b.num_class)},
          {"num_feature", std::to_string(columns.width())},
          {"num_target", "1"}}},
        {"objective", b.objective.body}};
    return Json{{"learner", learner}, {"version", {1, 7, 4}}}.dump();
}

}  // namespace kestrel
