#include "kestrel/tree/tree.hpp"

#include <charconv>
#include <cmath>
#include <limits>
#include <optional>
#include <stdexcept>

#include "kestrel/core/json_packed.hpp"
#include "kestrel/core/json_read.hpp"
#include "kestrel/core/json_text.hpp"

namespace kestrel {

int Tree::add_node(const TreeNode& node, const double* value) {
    nodes_.push_back(node);
    values_.insert(values_.end(), value, value + n_outputs_);
    return static_cast<int>(nodes_.size()) - 1;
}

int Tree::apply(const double* row) const {
    int i = 0;
    while (!nodes_[static_cast<std::size_t>(i)].is_leaf()) {
        const TreeNode& n = nodes_[static_cast<std::size_t>(i)];
        const double x = row[n.feature];
        i = x <= n.threshold || (n.missing_left && std::isnan(x)) ? n.left : n.right;
    }
    return i;
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
        if (it.parent >= 0) (it.side == 0 ? out.node(it.parent).left : out.node(it.parent).right) = k;
        if (old_left >= 0) {
            out.node(k).left = out.node(k).right = -2;  // placeholder: internal node
            stack.push_back({old_right, k, 1});
            stack.push_back({old_left, k, 0});
        }
    }
    *this = std::move(out);
}

Json Tree::to_json() const {
    Json feature = Json::array(), threshold = Json::array(), left = Json::array(), right = Json::array(),
         impurity = Json::array(), weight = Json::array(), samples = Json::array(), value = Json::array(),
         missing_left = Json::array();
    bool any_missing_left = false;
    for (int i = 0; i < size(); ++i) {
        const TreeNode& n = node(i);
        feature.push_back(n.feature);
        threshold.push_back(n.threshold);
        left.push_back(n.left);
        right.push_back(n.right);
        impurity.push_back(n.impurity);
        weight.push_back(n.weight);
        samples.push_back(n.samples);
        missing_left.push_back(n.missing_left ? 1 : 0);
        any_missing_left = any_missing_left || n.missing_left;
        Json v = Json::array();
        for (Index c = 0; c < n_outputs_; ++c) v.push_back(this->value(i)[c]);
        value.push_back(std::move(v));
    }
    Json out{{"feature", feature},   {"threshold", threshold}, {"left", left},       {"right", right},
             {"impurity", impurity}, {"weight", weight},       {"samples", samples}, {"value", value}};
    // Only trees that route missing values left carry the array: CART files stay as they were.
    if (any_missing_left) out["missing_left"] = std::move(missing_left);
    return out;
}

void Tree::write_json_text(std::string& out, int depth) const {
    // The keys in the DOM's (sorted) order, each array on one line: model_json_text(to_json()).
    bool any_missing_left = false;
    for (const TreeNode& n : nodes_) any_missing_left = any_missing_left || n.missing_left;
    out += '{';
    bool first = true;
    auto key = [&](const char* name) {
        if (!first) out += ',';
        first = false;
        append_json_newline(out, depth + 1);
        out += '"';
        out += name;
        out += "\": [";
    };
    auto integers = [&](const char* name, auto field) {
        key(name);
        for (std::size_t i = 0; i < nodes_.size(); ++i) {
            if (i) out += ',';
            append_json_number(out, static_cast<std::int64_t>(field(nodes_[i])));
        }
        out += ']';
    };
    auto reals = [&](const char* name, auto field) {
        key(name);
        for (std::size_t i = 0; i < nodes_.size(); ++i) {
            if (i) out += ',';
            append_json_number(out, static_cast<double>(field(nodes_[i])));
        }
        out += ']';
    };
    integers("feature", [](const TreeNode& n) { return n.feature; });
    reals("impurity", [](const TreeNode& n) { return n.impurity; });
    integers("left", [](const TreeNode& n) { return n.left; });
    if (any_missing_left) integers("missing_left", [](const TreeNode& n) { return n.missing_left ? 1 : 0; });
    integers("right", [](const TreeNode& n) { return n.right; });
    integers("samples", [](const TreeNode& n) { return n.samples; });
    reals("threshold", [](const TreeNode& n) { return n.threshold; });
    key("value");
    for (int i = 0; i < size(); ++i) {
        out += i ? ",[" : "[";
        for (Index c = 0; c < n_outputs_; ++c) {
            if (c) out += ',';
            append_json_number(out, value(i)[c]);
        }
        out += ']';
    }
    out += ']';
    reals("weight", [](const TreeNode& n) { return n.weight; });
    append_json_newline(out, depth);
    out += '}';
}

bool Tree::all_finite() const {
    for (const TreeNode& n : nodes_)
        if (!std::isfinite(n.threshold) || !std::isfinite(n.impurity) || !std::isfinite(n.weight)) return false;
    for (double v : values_)
        if (!std::isfinite(v)) return false;
    return true;
}

std::optional<Json> trees_text_slot(const std::vector<Tree>& trees, JsonTextSlots& slots) {
    for (const Tree& t : trees)
        if (!t.all_finite()) return std::nullopt;
    return slots.add([&trees, &slots](std::string& out, int depth) {
        if (trees.empty()) {
            out += "[]";
            return;
        }
        out += '[';
        for (std::size_t i = 0; i < trees.size(); ++i) {
            if (i) out += ',';
            append_json_newline(out, depth + 1);
            trees[i].write_json_text(out, depth + 1);
            slots.flush(out);
        }
        append_json_newline(out, depth);
        out += ']';
    });
}

namespace {

// One node array of a tree's JSON: a Json array, or packed by parse_model_json. Read
// with the checks (and messages) of json_integer and Json::get<double>.
class NodeArray {
public:
    explicit NodeArray(const Json& j) : json_(j), packed_(packed_array(j)) {}
    bool is_array() const { return packed_ || json_.is_array(); }
    std::size_t size() const { return packed_ ? packed_->size : json_.size(); }

    template <class T>
    T integer(std::size_t i) const {
        if (!packed_) return json_integer<T>(json_[i]);
        if (packed_->kind != PackedKind::integers) throw std::runtime_error("expected an integer, found a real number");
        const std::int64_t v = packed_->integer(i);
        if (v < static_cast<std::int64_t>(std::numeric_limits<T>::min()) ||
            v > static_cast<std::int64_t>(std::numeric_limits<T>::max()))
            throw std::runtime_error("integer " + std::to_string(v) + " is out of range");
        return static_cast<T>(v);
    }

    double real(std::size_t i) const {
        if (!packed_) return json_[i].get<double>();
        if (packed_->kind == PackedKind::reals) return packed_->real(i);
        if (packed_->kind == PackedKind::integers) return static_cast<double>(packed_->integer(i));
        throw std::runtime_error("expected a number, found an array");
    }

    // Row i of the value array into v (v.size() numbers); false when it is not such a row.
    bool row(std::size_t i, std::vector<double>& v) const {
        if (packed_) {
            if (packed_->kind != PackedKind::real_rows || packed_->width != v.size()) return false;
            for (std::size_t c = 0; c < v.size(); ++c) v[c] = packed_->real(i * packed_->width + c);
            return true;
        }
        const Json& val = json_[i];
        if (!val.is_array() || val.size() != v.size()) return false;
        for (std::size_t c = 0; c < v.size(); ++c) v[c] = val[c].get<double>();
        return true;
    }

private:
    const Json& json_;
    std::optional<PackedArray> packed_;
};

}  // namespace

Tree Tree::from_json(const Json& j, Index n_features, Index n_outputs) {
    if (!j.is_object()) throw std::runtime_error("tree is not an object");
    for (const char* key : {"feature", "threshold", "left", "right", "impurity", "weight", "samples", "value"})
        if (!j.contains(key) || !NodeArray(j.at(key)).is_array())
            throw std::runtime_error(std::string("tree lacks the array \"") + key + "\"");
    const NodeArray feature(j.at("feature")), threshold(j.at("threshold")), left(j.at("left")), right(j.at("right")),
        impurity(j.at("impurity")), weight(j.at("weight")), samples(j.at("samples")), value(j.at("value"));
    const std::size_t m = feature.size();
    if (m == 0) throw std::runtime_error("tree has no nodes");
    for (const auto& [key, a] : {std::pair<const char*, const NodeArray*>{"threshold", &threshold}, {"left", &left},
                                 {"right", &right}, {"impurity", &impurity}, {"weight", &weight},
                                 {"samples", &samples}, {"value", &value}})
        if (a->size() != m) throw std::runtime_error(std::string("tree array \"") + key + "\" has the wrong length");
    std::optional<NodeArray> missing_left;
    if (j.contains("missing_left")) {
        missing_left.emplace(j.at("missing_left"));
        if (!missing_left->is_array() || missing_left->size() != m)
            throw std::runtime_error("tree array \"missing_left\" has the wrong length");
    }
    Tree t(n_features, n_outputs);
    t.nodes_.reserve(m);
    t.values_.reserve(m * static_cast<std::size_t>(n_outputs));
    const int nodes = static_cast<int>(m);
    std::vector<double> v(static_cast<std::size_t>(n_outputs));
    std::vector<int> parents(m, 0);
    for (std::size_t i = 0; i < m; ++i) {
        TreeNode n;
        n.feature = feature.integer<int>(i);
        n.threshold = threshold.real(i);
        n.left = left.integer<int>(i);
        n.right = right.integer<int>(i);
        n.impurity = impurity.real(i);
        n.weight = weight.real(i);
        n.samples = samples.integer<Index>(i);
        if (missing_left) n.missing_left = missing_left->integer<int>(i) != 0;
        const bool leaf = n.left < 0 && n.right < 0 && n.feature == -1;
        const bool split = n.left > static_cast<int>(i) && n.right > static_cast<int>(i) && n.left < nodes &&
                           n.right < nodes && n.feature >= 0 && n.feature < n_features && std::isfinite(n.threshold);
        if (!leaf && !split) throw std::runtime_error("tree node " + std::to_string(i) + " is malformed");
        if (split) {
            // Children after their parent and each with one parent: no cycles, no sharing.
            if (++parents[static_cast<std::size_t>(n.left)] > 1 || ++parents[static_cast<std::size_t>(n.right)] > 1)
                throw std::runtime_error("tree node " + std::to_string(i) + " shares a child");
        }
        if (!value.row(i, v))
            throw std::runtime_error("tree node " + std::to_string(i) + " has a value of the wrong length");
        t.add_node(n, v.data());
    }
    return t;
}

namespace {

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

void dump_node(const Tree& t, int i, int depth, const std::vector<std::string>& names,
               const std::vector<std::string>& classes, std::string& out) {
    std::string indent;
    for (int d = 0; d < depth; ++d) indent += "|   ";
    const TreeNode& n = t.node(i);
    if (n.is_leaf()) {
        out += indent + "|--- ";
        dump_leaf(t, i, classes, out);
        return;
    }
    const std::string f = feature_label(names, n.feature), thr = short_number(n.threshold);
    out += indent + "|--- " + f + " <= " + thr + (n.missing_left ? " or missing" : "") + "\n";
    dump_node(t, n.left, depth + 1, names, classes, out);
    out += indent + "|--- " + f + " >  " + thr + "\n";
    dump_node(t, n.right, depth + 1, names, classes, out);
}

}  // namespace

std::string dump_tree(const Tree& tree, const std::vector<std::string>& feature_names,
                      const std::vector<std::string>& classes) {
    std::string out;
    if (tree.size() == 0) return out;
    if (tree.node(0).is_leaf()) {
        dump_leaf(tree, 0, classes, out);
        return out;
    }
    dump_node(tree, 0, 0, feature_names, classes, out);
    return out;
}

std::string explain_path(const Tree& tree, const double* row, const std::vector<std::string>& feature_names,
                         const std::vector<std::string>& classes, const std::string& indent) {
    std::string out;
    if (tree.size() == 0) return out;
    int i = 0;
    while (!tree.node(i).is_leaf()) {
        const TreeNode& n = tree.node(i);
        const double x = row[n.feature];
        const bool left = std::isnan(x) ? n.missing_left : x <= n.threshold;
        out += indent + feature_label(feature_names, n.feature) + " = " + short_number(x) + (left ? " <= " : " >  ") +
               short_number(n.threshold) + " -> " + (left ? "left" : "right") + "\n";
        i = left ? n.left : n.right;
    }
    out += indent + "leaf " + std::to_string(i) + ": ";
    dump_leaf(tree, i, classes, out);
    return out;
}

}  // namespace kestrel
