#include "kestrel/common/tree.hpp"

#include <charconv>
#include <cmath>

#include "kestrel/core/error.hpp"

namespace kestrel {

int Tree::add_node(const TreeNode& node, const double* value) {
    if (!leaf_row_.empty()) throw InternalError("tree: a node added after its internal values were dropped");
    nodes_.push_back(node);
    values_.insert(values_.end(), value, value + n_outputs_);
    if (has_categories()) cat_offset_.push_back(-1);
    return static_cast<int>(nodes_.size()) - 1;
}

bool Tree::goes_left(int i, double x) const {
    const TreeNode& n = nodes_[static_cast<std::size_t>(i)];
    if (is_categorical(i)) {
        const std::uint32_t* w = cat_words_.data() + cat_offset_[static_cast<std::size_t>(i)];
        return category_goes_left(w + 1, static_cast<Index>(w[0]), x, n.missing_left);
    }
    return n.sends_left(x);
}

int Tree::apply(const double* row) const {
    int i = 0;
    if (has_categories()) {
        while (!nodes_[static_cast<std::size_t>(i)].is_leaf()) {
            const TreeNode& n = nodes_[static_cast<std::size_t>(i)];
            i = goes_left(i, row[n.feature]) ? n.left : n.right;
        }
        return i;
    }
    // The numeric loop alone: a forest's prediction is this loop.
    while (!nodes_[static_cast<std::size_t>(i)].is_leaf()) {
        const TreeNode& n = nodes_[static_cast<std::size_t>(i)];
        i = n.sends_left(row[n.feature]) ? n.left : n.right;
    }
    return i;
}

void Tree::set_categories(int i, Index k, std::span<const int> left) {
    if (k < 1 || k > (Index{1} << 30)) throw InternalError("tree: a categorical split needs 1 to 2^30 categories");
    if (!has_categories()) cat_offset_.assign(nodes_.size(), -1);
    const std::size_t off = cat_words_.size();
    cat_offset_[static_cast<std::size_t>(i)] = static_cast<int>(off);
    cat_words_.push_back(static_cast<std::uint32_t>(k));
    cat_words_.resize(off + 1 + static_cast<std::size_t>((k + 31) / 32), 0u);
    for (int c : left) {
        if (c < 0 || c >= k) throw InternalError("tree: a category code out of range");
        cat_words_[off + 1 + static_cast<std::size_t>(c >> 5)] |= 1u << (c & 31);
    }
}

Index Tree::category_count(int i) const {
    return is_categorical(i) ? static_cast<Index>(cat_words_[static_cast<std::size_t>(cat_offset_[static_cast<std::size_t>(i)])]) : 0;
}

std::vector<int> Tree::left_categories(int i) const {
    std::vector<int> out;
    const Index k = category_count(i);
    const std::uint32_t* w = k > 0 ? cat_words_.data() + cat_offset_[static_cast<std::size_t>(i)] + 1 : nullptr;
    for (int c = 0; c < k; ++c)
        if ((w[c >> 5] >> (c & 31)) & 1u) out.push_back(c);
    return out;
}

int Tree::n_leaves() const {
    int k = 0;
    for (const auto& n : nodes_) k += n.is_leaf() ? 1 : 0;
    return k;
}

int Tree::depth() const {
    if (nodes_.empty()) return 0;
    std::vector<std::pair<int, int>> stack{{0, 0}};
    int best = 0;
    while (!stack.empty()) {
        const auto [i, d] = stack.back();
        stack.pop_back();
        best = std::max(best, d);
        const TreeNode& n = node(i);
        if (!n.is_leaf()) {
            stack.emplace_back(n.left, d + 1);
            stack.emplace_back(n.right, d + 1);
        }
    }
    return best;
}

Vector Tree::impurity_decrease_by_feature() const {
    Vector out = Vector::Zero(n_features_);
    for (const auto& n : nodes_) {
        if (n.is_leaf()) continue;
        const TreeNode& l = node(n.left);
        const TreeNode& r = node(n.right);
        out[n.feature] += n.weight * n.impurity - l.weight * l.impurity - r.weight * r.impurity;
    }
    return out;
}

void Tree::compact() {
    if (!has_internal_values()) throw InternalError("tree: compact() needs every node's value");
    Tree out(n_features_, n_outputs_);
    if (nodes_.empty()) {
        *this = out;
        return;
    }
    // Depth-first, left first, children numbered when their parent is copied.
    struct Item {
        int old_index, parent, side;  // side 0 = left, 1 = right
    };
    std::vector<Item> stack{{0, -1, 0}};
    while (!stack.empty()) {
        const Item it = stack.back();
        stack.pop_back();
        TreeNode n = node(it.old_index);
        const int old_left = n.left, old_right = n.right;
        n.left = n.right = -1;
        const int k = out.add_node(n, value(it.old_index));
        if (is_categorical(it.old_index)) {
            const std::vector<int> codes = left_categories(it.old_index);
            out.set_categories(k, category_count(it.old_index), codes);
        }
        if (it.parent >= 0) (it.side == 0 ? out.node(it.parent).left : out.node(it.parent).right) = k;
        if (old_left >= 0) {
            out.node(k).left = out.node(k).right = -2;  // placeholder: internal node
            stack.push_back({old_right, k, 1});
            stack.push_back({old_left, k, 0});
        }
    }
    *this = std::move(out);
}

void Tree::reset(Index n_features, Index n_outputs) {
    n_features_ = n_features;
    n_outputs_ = n_outputs;
    nodes_.clear();
    values_.clear();
    leaf_row_.clear();
    cat_offset_.clear();
    cat_words_.clear();
}

Tree Tree::leaf_values_only() const {
    if (!has_internal_values()) return *this;
    Tree out(n_features_, n_outputs_);
    out.nodes_ = nodes_;  // copied to their size: no spare capacity
    out.cat_offset_ = cat_offset_;
    out.cat_words_ = cat_words_;
    out.values_.reserve(static_cast<std::size_t>(n_leaves() * n_outputs_));
    out.leaf_row_.assign(nodes_.size(), -1);
    int next = 0;
    for (int i = 0; i < size(); ++i) {
        if (!node(i).is_leaf()) continue;
        out.leaf_row_[static_cast<std::size_t>(i)] = next++;
        out.values_.insert(out.values_.end(), value(i), value(i) + n_outputs_);
    }
    return out;
}

std::string short_number(double x) {
    char buf[64];
    auto r = std::to_chars(buf, buf + sizeof buf, x, std::chars_format::general, 6);
    return std::string(buf, r.ptr);
}

std::string feature_label(const std::vector<std::string>& names, int f) {
    if (f >= 0 && static_cast<std::size_t>(f) < names.size() && !names[static_cast<std::size_t>(f)].empty())
        return names[static_cast<std::size_t>(f)];
    std::string label = "x";
    label += std::to_string(f);
    return label;
}

namespace {

// Category c of feature f by name, or its code when `categories` does not name it (no
// names given, or a code past the list: report names from another table fall back
// rather than guess).
std::string category_name(const CategoryLists* categories, int f, int c) {
    if (categories && f >= 0 && static_cast<std::size_t>(f) < categories->size()) {
        const auto& names = (*categories)[static_cast<std::size_t>(f)];
        if (c >= 0 && static_cast<std::size_t>(c) < names.size()) return names[static_cast<std::size_t>(c)];
    }
    return std::to_string(c);
}

}  // namespace

std::string category_set_text(const std::vector<int>& codes, const CategoryLists* categories, int f) {
    std::string out = "{";
    for (std::size_t i = 0; i < codes.size(); ++i) out += (i ? ", " : "") + category_name(categories, f, codes[i]);
    return out + "}";
}

std::string cell_text(double x, Index k, const CategoryLists* categories, int f) {
    if (std::isnan(x)) return "missing";
    if (k <= 0) return short_number(x);
    const int c = category_code(x, k);
    return c < 0 ? "unknown" : category_name(categories, f, c);
}

namespace {

void dump_leaf(const Tree& t, int i, const std::vector<std::string>& classes, std::string& out) {
    const double* v = t.value(i);
    const TreeNode& n = t.node(i);
    if (t.n_outputs() == 1 && classes.empty()) {
        out += "value: " + short_number(v[0]);
    } else {
        int best = 0;
        for (int c = 1; c < t.n_outputs(); ++c)
            if (v[c] > v[best]) best = c;
        out += "class: " + (static_cast<std::size_t>(best) < classes.size() ? classes[static_cast<std::size_t>(best)]
                                                                            : std::to_string(best));
        out += " [";
        for (int c = 0; c < t.n_outputs(); ++c) out += (c ? ", " : "") + short_number(v[c]);
        out += "]";
    }
    out += " (samples=" + std::to_string(n.samples) + ", impurity=" + short_number(n.impurity) + ")\n";
}

// The test of split i for one side: " <= 2.5" / " >  2.5", or " in {Biscoe, Dream}" /
// " not in {Biscoe, Dream}" (codes when no names are given).
std::string condition(const Tree& t, int i, bool left, const CategoryLists* categories) {
    if (!t.is_categorical(i)) return (left ? " <= " : " >  ") + short_number(t.node(i).threshold);
    return (left ? " in " : " not in ") + category_set_text(t.left_categories(i), categories, t.node(i).feature);
}

void dump_node(const Tree& t, int i, int depth, const std::vector<std::string>& names,
               const std::vector<std::string>& classes, const CategoryLists* categories, std::string& out) {
    std::string indent;
    for (int d = 0; d < depth; ++d) indent += "|   ";
    const TreeNode& n = t.node(i);
    if (n.is_leaf()) {
        out += indent + "|--- ";
        dump_leaf(t, i, classes, out);
        return;
    }
    const std::string f = feature_label(names, n.feature);
    out += indent + "|--- " + f + condition(t, i, true, categories) + (n.missing_left ? " or missing" : "") + "\n";
    dump_node(t, n.left, depth + 1, names, classes, categories, out);
    out += indent + "|--- " + f + condition(t, i, false, categories) + "\n";
    dump_node(t, n.right, depth + 1, names, classes, categories, out);
}

}  // namespace

std::string dump_tree(const Tree& tree, const std::vector<std::string>& feature_names,
                      const std::vector<std::string>& classes, const CategoryLists* categories) {
    std::string out;
    if (tree.size() == 0) return out;
    if (tree.node(0).is_leaf()) {
        dump_leaf(tree, 0, classes, out);
        return out;
    }
    dump_node(tree, 0, 0, feature_names, classes, categories, out);
    return out;
}

std::string explain_path(const Tree& tree, const double* row, const std::vector<std::string>& feature_names,
                         const std::vector<std::string>& classes, const std::string& indent,
                         const CategoryLists* categories) {
    std::string out;
    if (tree.size() == 0) return out;
    int i = 0;
    while (!tree.node(i).is_leaf()) {
        const TreeNode& n = tree.node(i);
        const double x = row[n.feature];
        const bool left = tree.goes_left(i, x);
        const Index k = tree.is_categorical(i) ? tree.category_count(i) : 0;
        const bool by_missing = k > 0 ? category_code(x, k) < 0 : std::isnan(x);
        out += indent + feature_label(feature_names, n.feature) + " = " + cell_text(x, k, categories, n.feature);
        out += by_missing ? std::string(" (missing goes ") + (left ? "left)" : "right)")
                          : condition(tree, i, left, categories);
        out += std::string(" -> ") + (left ? "left" : "right") + "\n";
        i = left ? n.left : n.right;
    }
    out += indent + "leaf " + std::to_string(i) + ": ";
    dump_leaf(tree, i, classes, out);
    return out;
}

Vector normalised(Vector v) {
    const double s = v.sum();
    if (s > 0) v /= s;
    return v;
}

}  // namespace kestrel
