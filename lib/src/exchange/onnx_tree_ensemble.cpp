#include <charconv>
#include <cmath>
#include <limits>

#include "kestrel/common/tree.hpp"
#include "kestrel/exchange/export.hpp"
#include "onnx_parts.hpp"

namespace kestrel {
namespace {

OnnxTensor double_tensor(std::vector<double> v) {
    OnnxTensor t{.type = OnnxType::float64, .dims = {static_cast<std::int64_t>(v.size())}};
    t.doubles = std::move(v);
    return t;
}

// The float threshold for float32 inputs that kestrel, reading the same cells as doubles,
// splits alike: the float nearest t, or the one below it when that float's shortest decimal
// (what a file most likely held: "4.7" for 4.69999981f) read as a double lies above t.
// Then a float input goes left exactly when the decimal it was written from does, but for a
// decimal longer than a float holds within a float's step of t.
double float_threshold(double t) {
    if (!(std::abs(t) <= std::numeric_limits<float>::max())) return t;
    const auto f = static_cast<float>(t);
    char text[64];
    const auto written = std::to_chars(text, text + sizeof text, f);
    double decimal = 0;
    std::from_chars(text, written.ptr, decimal);
    return decimal <= t ? static_cast<double>(f)
                        : static_cast<double>(std::nextafter(f, -std::numeric_limits<float>::infinity()));
}

}  // namespace

std::string onnx_to_float(OnnxGraphBuilder& g, const std::string& x) {
    return g.add("Cast", {x}, {OnnxAttribute::of_int("to", static_cast<int>(OnnxType::float32))});
}

void TreeEnsembleNodes::add_node(std::int64_t tree, const Split& s) {
    tree_ids_.push_back(tree);
    node_ids_.push_back(s.id);
    features_.push_back(s.feature);
    modes_.push_back(s.mode);
    values_.push_back(s.value);
    true_ids_.push_back(s.true_id);
    false_ids_.push_back(s.false_id);
    missing_true_.push_back(s.missing_true ? 1 : 0);
}

void TreeEnsembleNodes::add_tree(const Tree& tree, const CategoryRoute& route, const LeafOutputs& leaf) {
    const std::int64_t t = trees_++;
    // Kestrel's node i keeps id i; the extra links of the BRANCH_EQ chains come after.
    std::int64_t next_id = tree.size();
    for (int i = 0; i < tree.size(); ++i) {
        const TreeNode& n = tree.node(i);
        if (n.is_leaf()) {
            add_node(t, {.id = i, .feature = 0, .true_id = 0, .false_id = 0, .mode = "LEAF", .value = 0,
                         .missing_true = false});
            target_tree_ids_.push_back(t);
            target_node_ids_.push_back(i);
            const std::size_t row = leaf_table_.size();
            leaf_table_.resize(row + static_cast<std::size_t>(outputs_), 0.0);
            for (const auto& [output, value] : leaf(tree, i)) leaf_table_[row + static_cast<std::size_t>(output)] += value;
            continue;
        }
        const std::optional<std::vector<int>> codes = route(tree, i);
        if (!codes) {
            const double threshold = float_thresholds_ ? float_threshold(n.threshold) : n.threshold;
            add_node(t, {.id = i, .feature = n.feature, .true_id = n.left, .false_id = n.right, .mode = "BRANCH_LEQ",
                         .value = threshold, .missing_true = n.missing_left});
            continue;
        }
        // x == c1 → left; else x == c2 → left; ... else right. NaN takes the first link's
        // missing direction: left when the split sends missing left, else on to the right.
        if (codes->empty()) {
            add_node(t, {.id = i, .feature = n.feature, .true_id = n.left, .false_id = n.right, .mode = "BRANCH_EQ",
                         .value = -2, .missing_true = n.missing_left});
            continue;
        }
        std::int64_t id = i;
        for (std::size_t c = 0; c < codes->size(); ++c) {
            const bool last = c + 1 == codes->size();
            const std::int64_t false_id = last ? n.right : next_id++;
            add_node(t, {.id = id, .feature = n.feature, .true_id = n.left, .false_id = false_id, .mode = "BRANCH_EQ",
                         .value = static_cast<double>((*codes)[c]), .missing_true = c == 0 && n.missing_left});
            id = false_id;
        }
    }
}

std::string TreeEnsembleNodes::emit(OnnxGraphBuilder& g, const std::string& X,
                                    const std::vector<double>& base_values) const {
    using A = OnnxAttribute;
    const auto leaves = static_cast<std::int64_t>(target_tree_ids_.size());
    if (leaves > (std::int64_t{1} << 24))
        throw ExportRefused("ONNX export: the trees have " + std::to_string(leaves) +
                            " leaves, more than the 2^24 the export numbers exactly");
    std::vector<std::int64_t> target_ids;
    std::vector<double> weights;
    for (std::int64_t l = 0; l < leaves; ++l) {
        target_ids.push_back(target_tree_ids_[static_cast<std::size_t>(l)]);
        weights.push_back(static_cast<double>(l));
    }
    std::vector<OnnxAttribute> attrs{
        A::of_int("n_targets", trees_),
        A::of_ints("nodes_treeids", tree_ids_),
        A::of_ints("nodes_nodeids", node_ids_),
        A::of_ints("nodes_featureids", features_),
        A::of_strings("nodes_modes", modes_),
        A::of_tensor("nodes_values_as_tensor", double_tensor(values_)),
        A::of_ints("nodes_truenodeids", true_ids_),
        A::of_ints("nodes_falsenodeids", false_ids_),
        A::of_ints("nodes_missing_value_tracks_true", missing_true_),
        A::of_ints("target_treeids", target_tree_ids_),
        A::of_ints("target_nodeids", target_node_ids_),
        A::of_ints("target_ids", std::move(target_ids)),
        A::of_tensor("target_weights_as_tensor", double_tensor(std::move(weights))),
        A::of_string("aggregate_function", "SUM"),
        A::of_string("post_transform", "NONE"),
    };
    const std::string leaf_ids = g.add("TreeEnsembleRegressor", {X}, std::move(attrs), kOnnxMlDomain, "leaf_ids");
    const std::string ids = g.add("Cast", {leaf_ids}, {A::of_int("to", static_cast<int>(OnnxType::int64))});
    const std::string table = g.doubles(leaf_table_, {leaves, outputs_});
    const std::string per_tree = g.add("Gather", {table, ids}, {A::of_int("axis", 0)});  // [N, trees, outputs]
    const std::string sums =
        g.add("ReduceSum", {per_tree, g.int64s({1}, {1})}, {A::of_int("keepdims", 0)});  // [N, outputs]
    if (base_values.empty()) return sums;
    return g.add("Add", {g.double_row(base_values), sums});
}

}  // namespace kestrel
