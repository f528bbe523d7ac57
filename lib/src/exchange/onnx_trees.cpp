// tree, forest, gbdt and adaboost over trees through ai.onnx.ml's TreeEnsembleRegressor
// (TreeEnsembleNodes): the leaves' outputs summed per output in double, then (gbdt) the loss's
// link as standard operators. Not TreeEnsembleClassifier: its scores are float, and its post
// transforms differ from kestrel's in the binary case; here the probabilities and their argmax
// are computed as kestrel computes them.
#include <algorithm>

#include "kestrel/boosting/adaboost.hpp"
#include "kestrel/boosting/gbdt.hpp"
#include "kestrel/core/error.hpp"
#include "kestrel/exchange/export.hpp"
#include "kestrel/pipeline/model.hpp"
#include "kestrel/tree/decision_tree.hpp"
#include "kestrel/tree/random_forest.hpp"
#include "onnx_parts.hpp"

namespace kestrel {
namespace {

using LeafOutputs = TreeEnsembleNodes::LeafOutputs;

// A tree model's categorical split: its left codes, and where it sends missing values left,
// the codes Tree::goes_left reads as missing (-1, and those beyond the split's k of the
// column's `column_categories`).
TreeEnsembleNodes::CategoryRoute tree_route(const CategoryLists& prepared) {
    return [&prepared](const Tree& tree, int i) -> std::optional<std::vector<int>> {
        if (!tree.is_categorical(i)) return std::nullopt;
        std::vector<int> codes = tree.left_categories(i);
        const TreeNode& n = tree.node(i);
        if (n.missing_left) {
            codes.insert(codes.begin(), -1);
            const auto f = static_cast<std::size_t>(n.feature);
            const auto all = f < prepared.size() ? static_cast<Index>(prepared[f].size()) : 0;
            for (Index c = tree.category_count(i); c < all; ++c) codes.push_back(static_cast<int>(c));
        }
        return codes;
    };
}

// add_tree_output_at_leaf's values.
LeafOutputs cart_leaf() {
    return [](const Tree& tree, int leaf) {
        std::vector<double> out(static_cast<std::size_t>(tree.n_outputs()), 0.0);
        add_tree_output_at_leaf(tree, leaf, out.data());
        std::vector<std::pair<std::int64_t, double>> pairs;
        for (std::size_t c = 0; c < out.size(); ++c) pairs.emplace_back(static_cast<std::int64_t>(c), out[c]);
        return pairs;
    };
}

std::string tree_models(const Model& model, const std::vector<Tree>& trees, bool float_thresholds, const std::string& X,
                        OnnxGraphBuilder& g) {
    const CategoryLists prepared = model.prepared_categories();
    TreeEnsembleNodes nodes(trees.front().n_outputs(), float_thresholds);
    const LeafOutputs leaf = cart_leaf();
    for (const Tree& t : trees) nodes.add_tree(t, tree_route(prepared), leaf);
    const std::string sums = nodes.emit(g, X, {});
    // The mean as the forest takes it: the sum over the trees, divided once.
    if (trees.size() == 1) return sums;
    return g.add("Div", {sums, g.doubles({static_cast<double>(trees.size())}, {1, 1})});
}

// gbdt's raw scores [N, K]: tree t adds to score t % K; a categorical split sends its left
// codes left, and when it sends missing left, also -1 and the codes no training row had.
std::string gbdt_raw_scores(const Gbdt& gbdt, bool float_thresholds, const std::string& X, OnnxGraphBuilder& g) {
    const Index K = gbdt.n_outputs();
    const auto& trees = gbdt.trees();
    const auto& splits = gbdt.categorical_splits();
    TreeEnsembleNodes nodes(K, float_thresholds);
    for (std::size_t t = 0; t < trees.size(); ++t) {
        const auto target = static_cast<std::int64_t>(t % static_cast<std::size_t>(K));
        const auto route = [&, t](const Tree& tree, int i) -> std::optional<std::vector<int>> {
            if (splits.empty()) return std::nullopt;
            for (const auto& s : splits[t]) {
                if (s.node != i) continue;
                std::vector<int> codes = s.left;
                const TreeNode& n = tree.node(i);
                if (n.missing_left) {
                    codes.insert(codes.begin(), -1);
                    const auto& unseen = gbdt.unseen_categories();
                    const auto f = static_cast<std::size_t>(n.feature);
                    if (f < unseen.size()) codes.insert(codes.end(), unseen[f].begin(), unseen[f].end());
                }
                return codes;
            }
            return std::nullopt;
        };
        const auto leaf = [target](const Tree& tree, int i) {
            return std::vector<std::pair<std::int64_t, double>>{{target, tree.value(i)[0]}};
        };
        nodes.add_tree(trees[t], route, leaf);
    }
    return nodes.emit(g, X, gbdt.base_score());
}

// gbdt's link of the raw scores; a classifier's decision values too (decision_function: the
// raw scores, or for two classes learned with softmax classes[1]'s minus classes[0]'s).
OnnxScores gbdt_scores(const OnnxEstimator& e, const Gbdt& gbdt, bool float_thresholds, const std::string& X,
                       OnnxGraphBuilder& g) {
    const std::string raw = gbdt_raw_scores(gbdt, float_thresholds, X, g);
    const bool classifier = e.classifier();
    OnnxScores out{raw, classifier};
    switch (gbdt.loss()) {
        case LossKind::logistic: {
            // [1 − p, p] with p = σ(F), as Loss::probabilities.
            const std::string p = g.add("Sigmoid", {raw});
            const std::string q = g.add("Sub", {g.doubles({1.0}, {1, 1}), p});
            out.tensor = g.add("Concat", {q, p}, {OnnxAttribute::of_int("axis", 1)});
            break;
        }
        case LossKind::softmax: out.tensor = g.add("Softmax", {raw}, {OnnxAttribute::of_int("axis", 1)}); break;
        default: out.tensor = has_log_link(gbdt.loss()) ? g.add("Exp", {raw}) : raw;
    }
    if (classifier && e.wants_decision)  // the nodes only where they are used
        out.decision = gbdt.n_outputs() == 2 ? g.add("Sub", {onnx_column(g, raw, 1), onnx_column(g, raw, 0)}) : raw;
    return out;
}

// adaboost over trees, its decision_function: each tree's leaf gives the tree's α to the class
// the tree predicts there (its largest value, the lowest class on ties, as DecisionTree
// predicts): with more than two classes (SAMME) to that class's column, with two as +α
// (classes[1]) or −α to the one column. (Linear weak learners: onnx_linear.cpp.)
std::string adaboost_scores(const OnnxEstimator& e, const AdaBoost& ada, bool float_thresholds, const std::string& X,
                            OnnxGraphBuilder& g) {
    const Index k = e.classes;
    const bool samme = k > 2;
    const CategoryLists prepared = e.model.prepared_categories();
    TreeEnsembleNodes nodes(samme ? k : 1, float_thresholds);
    for (std::size_t t = 0; t < ada.learners().size(); ++t) {
        const auto* learner = dynamic_cast<const DecisionTree*>(ada.learners()[t].get());
        if (!learner) throw InternalError("adaboost_scores: a weak learner is not a tree");
        const double alpha = ada.rounds()[t].alpha;
        const auto leaf = [alpha, k, samme](const Tree& tree, int i) {
            const double* v = tree.value(i);
            Index best = 0;
            for (Index c = 1; c < k; ++c)
                if (v[c] > v[best]) best = c;
            if (samme) return std::vector<std::pair<std::int64_t, double>>{{best, alpha}};
            return std::vector<std::pair<std::int64_t, double>>{{0, best == 1 ? alpha : -alpha}};
        };
        nodes.add_tree(learner->tree(), tree_route(prepared), leaf);
    }
    return nodes.emit(g, X, {});
}

}  // namespace

std::optional<OnnxScores> onnx_tree_scores(const OnnxEstimator& est, const std::string& X, bool float_inputs,
                                           OnnxGraphBuilder& g) {
    const Estimator& e = est.estimator;
    const Model& model = est.model;
    const bool classifier = est.classifier();
    // Thresholds chosen for float32 inputs only where the trees see them unchanged.
    const bool float_thresholds = float_inputs && steps_keep_input_values(model);
    if (const auto* tree = dynamic_cast<const DecisionTree*>(&e))
        return OnnxScores{tree_models(model, {tree->tree()}, float_thresholds, X, g), classifier};
    if (const auto* forest = dynamic_cast<const RandomForest*>(&e))
        return OnnxScores{tree_models(model, forest->trees(), float_thresholds, X, g), classifier};
    if (const auto* gbdt = dynamic_cast<const Gbdt*>(&e)) return gbdt_scores(est, *gbdt, float_thresholds, X, g);
    if (const auto* ada = dynamic_cast<const AdaBoost*>(&e);
        ada && !ada->learners().empty() && dynamic_cast<const DecisionTree*>(ada->learners().front().get()))
        return OnnxScores{adaboost_scores(est, *ada, float_thresholds, X, g), false};
    return std::nullopt;
}

}  // namespace kestrel
