// A tree's JSON in its two layouts (TreeLayout). Each layout is one function listing its
// arrays in the DOM's (sorted) key order, rendered through a sink that builds either the
// DOM (to_json) or the text model_json_text writes for that DOM (write_json_text): the
// two cannot drift apart.
#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "kestrel/common/tree.hpp"
#include "kestrel/core/error.hpp"
#include "kestrel/core/json_packed.hpp"
#include "kestrel/core/json_read.hpp"
#include "kestrel/core/json_text.hpp"

namespace kestrel {
namespace {

// Builds the tree's JSON object. Each array's elements append their numbers through
// integer() and real(); rows() wraps each element's numbers in an array of their own.
class DomSink {
public:
    template <class Element>
    void array(const char* name, std::size_t n, Element element) {
        Json a = Json::array();
        current_ = &a;
        for (std::size_t i = 0; i < n; ++i) element(i, *this);
        out_[name] = std::move(a);
    }

    template <class Row>
    void rows(const char* name, std::size_t n, Row row) {
        Json a = Json::array();
        for (std::size_t i = 0; i < n; ++i) {
            Json r = Json::array();
            current_ = &r;
            row(i, *this);
            a.push_back(std::move(r));
        }
        out_[name] = std::move(a);
    }

    void integer(std::int64_t v) { current_->push_back(v); }
    void real(double v) { current_->push_back(v); }
    Json take() { return std::move(out_); }

private:
    Json out_ = Json::object();
    Json* current_ = nullptr;
};

// Appends the text model_json_text writes for DomSink's object: one member a line,
// each array on one line.
class TextSink {
public:
    TextSink(std::string& out, int depth) : out_(out), depth_(depth) { out_ += '{'; }

    template <class Element>
    void array(const char* name, std::size_t n, Element element) {
        key(name);
        first_ = true;
        for (std::size_t i = 0; i < n; ++i) element(i, *this);
        out_ += ']';
    }

    template <class Row>
    void rows(const char* name, std::size_t n, Row row) {
        key(name);
        for (std::size_t i = 0; i < n; ++i) {
            out_ += i ? ",[" : "[";
            first_ = true;
            row(i, *this);
            out_ += ']';
        }
        out_ += ']';
    }

    void integer(std::int64_t v) {
        separate();
        append_json_number(out_, v);
    }
    void real(double v) {
        separate();
        append_json_number(out_, v);
    }
    void finish() {
        append_json_newline(out_, depth_);
        out_ += '}';
    }

private:
    void key(const char* name) {
        if (members_++ > 0) out_ += ',';
        append_json_newline(out_, depth_ + 1);
        out_ += '"';
        out_ += name;
        out_ += "\": [";
    }
    void separate() {
        if (!first_) out_ += ',';
        first_ = false;
    }

    std::string& out_;
    int depth_;
    int members_ = 0;
    bool first_ = true;
};

// Whole numbers (counts, a pure leaf's impurity 0) as integers: "3" rather than "3.0".
// Below 2^53 every such double is exactly an int64, and back; -0.0 keeps its sign.
template <class Sink>
void shortest(Sink& w, double x) {
    constexpr double kExact = 9007199254740992.0;  // 2^53
    if (x == std::trunc(x) && std::abs(x) < kExact && !(x == 0 && std::signbit(x)))
        w.integer(static_cast<std::int64_t>(x));
    else
        w.real(x);
}

bool any_missing_left(const Tree& t) {
    for (int i = 0; i < t.size(); ++i)
        if (t.node(i).missing_left) return true;
    return false;
}

// The categorical splits, in both layouts (only trees that have them carry the arrays):
// each one's node, its category count k and its left codes. Keys sort before "feature".
template <class Sink>
void category_arrays(const Tree& t, Sink& w) {
    if (!t.has_categories()) return;
    std::vector<int> nodes;
    for (int i = 0; i < t.size(); ++i)
        if (t.is_categorical(i)) nodes.push_back(i);
    w.array("category_count", nodes.size(), [&](std::size_t i, Sink& s) { s.integer(t.category_count(nodes[i])); });
    w.rows("category_left", nodes.size(), [&](std::size_t i, Sink& s) {
        for (int c : t.left_categories(nodes[i])) s.integer(c);
    });
    w.array("category_node", nodes.size(), [&](std::size_t i, Sink& s) { s.integer(nodes[i]); });
}

template <class Sink>
void full_layout(const Tree& t, Sink& w) {
    category_arrays(t, w);
    const auto m = static_cast<std::size_t>(t.size());
    auto integers = [&](const char* name, auto field) {
        w.array(name, m, [&](std::size_t i, Sink& s) { s.integer(field(t.node(static_cast<int>(i)))); });
    };
    auto reals = [&](const char* name, auto field) {
        w.array(name, m, [&](std::size_t i, Sink& s) { s.real(field(t.node(static_cast<int>(i)))); });
    };
    integers("feature", [](const TreeNode& n) { return n.feature; });
    reals("impurity", [](const TreeNode& n) { return n.impurity; });
    integers("left", [](const TreeNode& n) { return n.left; });
    // Only trees that route missing values left carry the array: CART files stay as they were.
    if (any_missing_left(t)) integers("missing_left", [](const TreeNode& n) { return n.missing_left ? 1 : 0; });
    integers("right", [](const TreeNode& n) { return n.right; });
    integers("samples", [](const TreeNode& n) { return n.samples; });
    reals("threshold", [](const TreeNode& n) { return n.threshold; });
    w.rows("value", m, [&](std::size_t i, Sink& s) {
        const double* v = t.value(static_cast<int>(i));
        for (Index c = 0; c < t.n_outputs(); ++c) s.real(v[c]);
    });
    reals("weight", [](const TreeNode& n) { return n.weight; });
}

template <class Sink>
void compact_layout(const Tree& t, bool boosted, Sink& w) {
    std::vector<int> splits, leaves;
    for (int i = 0; i < t.size(); ++i) (t.node(i).is_leaf() ? leaves : splits).push_back(i);
    auto over = [&](const std::vector<int>& nodes, auto number) {
        return [&nodes, number](std::size_t i, Sink& s) { number(nodes[i], s); };
    };
    category_arrays(t, w);
    if (boosted)
        w.array("cover", static_cast<std::size_t>(t.size()),
                [&](std::size_t i, Sink& s) { shortest(s, t.node(static_cast<int>(i)).weight); });
    w.array("feature", static_cast<std::size_t>(t.size()),
            [&](std::size_t i, Sink& s) { s.integer(t.node(static_cast<int>(i)).feature); });
    const Index k = t.n_outputs();
    if (boosted && k != 1) throw InternalError("tree: the boosted layout holds one-output trees");
    if (k > 1) {
        // Class counts sparse: a leaf of a fully grown forest mostly holds one class.
        w.rows("leaf_class", leaves.size(), over(leaves, [&](int i, Sink& s) {
                   for (Index c = 0; c < k; ++c)
                       if (t.value(i)[c] != 0) s.integer(c);
               }));
        w.rows("leaf_count", leaves.size(), over(leaves, [&](int i, Sink& s) {
                   for (Index c = 0; c < k; ++c)
                       if (t.value(i)[c] != 0) shortest(s, t.value(i)[c]);
               }));
    }
    if (!boosted)
        w.array("leaf_impurity", leaves.size(), over(leaves, [&](int i, Sink& s) { shortest(s, t.node(i).impurity); }));
    w.array("leaf_samples", leaves.size(), over(leaves, [&](int i, Sink& s) { s.integer(t.node(i).samples); }));
    if (k == 1) w.array("leaf_value", leaves.size(), over(leaves, [&](int i, Sink& s) { shortest(s, t.value(i)[0]); }));
    w.array("left", splits.size(), over(splits, [&](int i, Sink& s) { s.integer(t.node(i).left); }));
    if (any_missing_left(t))
        w.array("missing_left", splits.size(),
                over(splits, [&](int i, Sink& s) { s.integer(t.node(i).missing_left ? 1 : 0); }));
    w.array("right", splits.size(), over(splits, [&](int i, Sink& s) { s.integer(t.node(i).right); }));
    if (boosted)
        w.array("split_gain", splits.size(), over(splits, [&](int i, Sink& s) { shortest(s, t.node(i).impurity); }));
    w.array("threshold", splits.size(), over(splits, [&](int i, Sink& s) { shortest(s, t.node(i).threshold); }));
}

template <class Sink>
void render(const Tree& t, TreeLayout layout, Sink& w) {
    if (layout != TreeLayout::full) {
        compact_layout(t, layout == TreeLayout::boosted, w);
        return;
    }
    if (!t.has_internal_values()) throw InternalError("tree: the full layout needs every node's value");
    full_layout(t, w);
}

}  // namespace

Json Tree::to_json(TreeLayout layout) const {
    DomSink w;
    render(*this, layout, w);
    return w.take();
}

void Tree::write_json_text(std::string& out, int depth, TreeLayout layout) const {
    TextSink w(out, depth);
    render(*this, layout, w);
    w.finish();
}

bool Tree::all_finite() const {
    for (const TreeNode& n : nodes_)
        if (!std::isfinite(n.threshold) || !std::isfinite(n.impurity) || !std::isfinite(n.weight)) return false;
    for (double v : values_)
        if (!std::isfinite(v)) return false;
    return true;
}

std::optional<Json> trees_text_slot(const std::vector<Tree>& trees, JsonTextSlots& slots, TreeLayout layout) {
    for (const Tree& t : trees)
        if (!t.all_finite()) return std::nullopt;
    return slots.add([&trees, &slots, layout](std::string& out, int depth) {
        if (trees.empty()) {
            out += "[]";
            return;
        }
        out += '[';
        // A batch of trees rendered in parallel, each into its own text, then appended in
        // tree order: the same bytes as one after another, and at most a batch's text in
        // memory beside what the sink has not taken (the write was a serial tenth of a
        // forest's fit on two threads).
        constexpr std::size_t kBatch = 64;
        std::vector<std::string> texts(std::min(kBatch, trees.size()));
        for (std::size_t first = 0; first < trees.size(); first += kBatch) {
            const auto count = static_cast<std::ptrdiff_t>(std::min(kBatch, trees.size() - first));
#pragma omp parallel for schedule(dynamic)
            for (std::ptrdiff_t k = 0; k < count; ++k) {
                std::string& text = texts[static_cast<std::size_t>(k)];
                text.clear();
                trees[first + static_cast<std::size_t>(k)].write_json_text(text, depth + 1, layout);
            }
            for (std::ptrdiff_t k = 0; k < count; ++k) {
                if (first + static_cast<std::size_t>(k) > 0) out += ',';
                append_json_newline(out, depth + 1);
                out += texts[static_cast<std::size_t>(k)];
                slots.flush(out);
            }
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
        if (packed_->kind != PackedKind::integers) throw ModelStateError("expected an integer, found a real number");
        return in_range<T>(packed_->integer(i));
    }

    double real(std::size_t i) const {
        if (!packed_) return json_[i].get<double>();
        if (packed_->kind == PackedKind::reals) return packed_->real(i);
        if (packed_->kind == PackedKind::integers) return static_cast<double>(packed_->integer(i));
        throw ModelStateError("expected a number, found an array");
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

    // The length of row 0 of the value array (0 when it is not an array of number rows).
    std::size_t first_row_width() const {
        if (packed_) return packed_->kind == PackedKind::real_rows ? packed_->width : 0;
        return json_.size() > 0 && json_[0].is_array() ? json_[0].size() : 0;
    }

    // Ragged rows (compact leaf classes and counts): the length of row i, then its numbers.
    std::size_t row_size(std::size_t i) const {
        if (packed_) {
            if (packed_->kind != PackedKind::ragged_integers && packed_->kind != PackedKind::ragged_reals)
                throw ModelStateError("expected an array of rows");
            return packed_->row_start(i + 1) - packed_->row_start(i);
        }
        if (!json_[i].is_array()) throw ModelStateError("expected an array of rows");
        return json_[i].size();
    }
    Index row_integer(std::size_t i, std::size_t c) const {
        if (!packed_) return json_integer<Index>(json_[i][c]);
        if (packed_->kind != PackedKind::ragged_integers)
            throw ModelStateError("expected an integer, found a real number");
        return in_range<Index>(packed_->integer(packed_->row_start(i) + c));
    }
    double row_real(std::size_t i, std::size_t c) const {
        if (!packed_) return json_[i][c].get<double>();
        const std::size_t k = packed_->row_start(i) + c;
        return packed_->kind == PackedKind::ragged_reals ? packed_->real(k) : static_cast<double>(packed_->integer(k));
    }

private:
    template <class T>
    static T in_range(std::int64_t v) {
        if (v < static_cast<std::int64_t>(std::numeric_limits<T>::min()) ||
            v > static_cast<std::int64_t>(std::numeric_limits<T>::max()))
            throw ModelStateError("integer " + std::to_string(v) + " is out of range");
        return static_cast<T>(v);
    }

    const Json& json_;
    std::optional<PackedArray> packed_;
};

NodeArray required_array(const Json& j, const char* key, std::size_t length) {
    if (!j.contains(key) || !NodeArray(j.at(key)).is_array())
        throw ModelStateError(std::string("tree lacks the array \"") + key + "\"");
    NodeArray a(j.at(key));
    if (a.size() != length) throw ModelStateError(std::string("tree array \"") + key + "\" has the wrong length");
    return a;
}

std::optional<NodeArray> optional_array(const Json& j, const char* key, std::size_t length) {
    if (!j.contains(key)) return std::nullopt;
    NodeArray a(j.at(key));
    if (!a.is_array() || a.size() != length)
        throw ModelStateError(std::string("tree array \"") + key + "\" has the wrong length");
    return a;
}

std::string node_text(std::size_t i) {
    return "tree node " + std::to_string(i);
}

// The checks every read node passes: a leaf, or a split on a known feature whose children
// come after it, each with one parent (no cycles, no sharing).
void check_node(const TreeNode& n, std::size_t i, Index n_features, std::vector<int>& parents) {
    const auto nodes = static_cast<int>(parents.size());
    const bool leaf = n.left < 0 && n.right < 0 && n.feature == -1;
    const bool split = n.left > static_cast<int>(i) && n.right > static_cast<int>(i) && n.left < nodes &&
                       n.right < nodes && n.feature >= 0 && n.feature < n_features && std::isfinite(n.threshold);
    if (!leaf && !split) throw ModelStateError(node_text(i) + " is malformed");
    // A node's weight (gbdt's cover: its Hessian sum; a CART node's sample weight) is a sum
    // of weights >= 0; TreeSHAP divides by it. 0 is kept: a split whose children both have
    // cover 0 sends each half (docs/model-format.md).
    if (!(n.weight >= 0) || !std::isfinite(n.weight))
        throw ModelStateError(node_text(i) + " has a weight (cover) that is not a finite number >= 0");
    if (n.samples < 0) throw ModelStateError(node_text(i) + " has a negative sample count");
    if (split && (++parents[static_cast<std::size_t>(n.left)] > 1 || ++parents[static_cast<std::size_t>(n.right)] > 1))
        throw ModelStateError(node_text(i) + " shares a child");
}

// A compact leaf's class counts into v (zeros elsewhere). Returns their sum in class
// order: the weight the builder gave the leaf, to the bit.
double read_counts(const NodeArray& classes, const NodeArray& counts, std::size_t leaf, Index k, double* v,
                   std::size_t node) {
    const std::size_t n = classes.row_size(leaf);
    if (n == 0 || counts.row_size(leaf) != n)
        throw ModelStateError(node_text(node) + " has leaf classes and counts of different lengths");
    Index last = -1;
    for (std::size_t c = 0; c < n; ++c) {
        const Index cls = classes.row_integer(leaf, c);
        const double x = counts.row_real(leaf, c);
        if (cls <= last || cls >= k)
            throw ModelStateError(node_text(node) + " has a leaf class out of range or out of order");
        if (!(x > 0) || !std::isfinite(x))
            throw ModelStateError(node_text(node) + " has a leaf count that is not a positive number");
        v[cls] = x;
        last = cls;
    }
    double w = 0;
    for (Index c = 0; c < k; ++c) w += v[c];
    return w;
}

// A classification leaf of the full layout: class counts, and the weight its
// probabilities divide them by. The compact layout keeps only the counts and
// recomputes the weight as their sum, so a file where the two disagree would predict
// differently once saved again (found by the model_json fuzzer): refuse it.
void check_leaf_counts(const std::vector<double>& counts, double weight, std::size_t node) {
    double sum = 0;
    for (const double x : counts) {
        if (!(x >= 0) || !std::isfinite(x))
            throw ModelStateError(node_text(node) + " has a leaf count that is not a number >= 0");
        sum += x;
    }
    if (!(sum > 0) || sum != weight)
        throw ModelStateError(node_text(node) + " has a leaf weight that is not the sum of its class counts");
}

}  // namespace

Tree Tree::from_full_json(const Json& j, Index n_features, Index n_outputs) {
    for (const char* key : {"feature", "threshold", "left", "right", "impurity", "weight", "samples", "value"})
        if (!j.contains(key) || !NodeArray(j.at(key)).is_array())
            throw ModelStateError(std::string("tree lacks the array \"") + key + "\"");
    const std::size_t m = NodeArray(j.at("feature")).size();
    if (m == 0) throw ModelStateError("tree has no nodes");
    const NodeArray feature = required_array(j, "feature", m), threshold = required_array(j, "threshold", m),
                    left = required_array(j, "left", m), right = required_array(j, "right", m),
                    impurity = required_array(j, "impurity", m), weight = required_array(j, "weight", m),
                    samples = required_array(j, "samples", m), value = required_array(j, "value", m);
    const std::optional<NodeArray> missing_left = optional_array(j, "missing_left", m);
    // Every value row holds n_outputs numbers: compared with the first before anything is
    // sized by n_outputs (a state's class count).
    if (value.first_row_width() != static_cast<std::size_t>(n_outputs))
        throw ModelStateError(node_text(0) + " has a value of the wrong length");
    Tree t(n_features, n_outputs);
    t.nodes_.reserve(m);
    t.values_.reserve(m * static_cast<std::size_t>(n_outputs));
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
        check_node(n, i, n_features, parents);
        if (!value.row(i, v)) throw ModelStateError(node_text(i) + " has a value of the wrong length");
        if (n_outputs > 1 && n.left < 0) check_leaf_counts(v, n.weight, i);
        t.add_node(n, v.data());
    }
    return t;
}

Tree Tree::from_compact_json(const Json& j, Index n_features, Index n_outputs, bool boosted) {
    if (!j.contains("feature") || !NodeArray(j.at("feature")).is_array())
        throw ModelStateError("tree lacks the array \"feature\"");
    const NodeArray feature(j.at("feature"));
    const std::size_t m = feature.size();
    if (m == 0) throw ModelStateError("tree has no nodes");
    std::size_t n_leaves = 0;
    for (std::size_t i = 0; i < m; ++i) n_leaves += feature.integer<int>(i) == -1 ? 1 : 0;
    const std::size_t n_splits = m - n_leaves;
    const bool counts = n_outputs > 1;
    if (boosted && counts) throw ModelStateError("a boosted tree has one output");
    // boosted: the gains of the splits and the weights of all nodes instead of the leaves' impurity.
    const NodeArray left = required_array(j, "left", n_splits), right = required_array(j, "right", n_splits),
                    threshold = required_array(j, "threshold", n_splits),
                    impurity = boosted ? required_array(j, "split_gain", n_splits)
                                       : required_array(j, "leaf_impurity", n_leaves),
                    samples = required_array(j, "leaf_samples", n_leaves),
                    values = required_array(j, counts ? "leaf_count" : "leaf_value", n_leaves);
    const std::optional<NodeArray> classes =
        counts ? std::optional<NodeArray>(required_array(j, "leaf_class", n_leaves)) : std::nullopt;
    const std::optional<NodeArray> missing_left = optional_array(j, "missing_left", n_splits);
    const std::optional<NodeArray> cover =
        boosted ? std::optional<NodeArray>(required_array(j, "cover", m)) : std::nullopt;

    Tree t(n_features, n_outputs);
    t.nodes_.reserve(m);
    t.leaf_row_.assign(m, -1);
    t.values_.assign(n_leaves * static_cast<std::size_t>(n_outputs), 0.0);
    std::vector<int> parents(m, 0);
    std::size_t s = 0, l = 0;  // the split and leaf arrays' positions
    for (std::size_t i = 0; i < m; ++i) {
        TreeNode n;
        n.feature = feature.integer<int>(i);
        if (n.feature == -1) {
            if (!boosted) n.impurity = impurity.real(l);
            n.samples = samples.integer<Index>(l);
            double* v = t.values_.data() + l * static_cast<std::size_t>(n_outputs);
            if (counts)
                n.weight = read_counts(*classes, values, l, n_outputs, v, i);
            else
                v[0] = values.real(l);
            t.leaf_row_[i] = static_cast<int>(l++);
        } else {
            n.threshold = threshold.real(s);
            if (boosted) n.impurity = impurity.real(s);
            n.left = left.integer<int>(s);
            n.right = right.integer<int>(s);
            if (missing_left) n.missing_left = missing_left->integer<int>(s) != 0;
            ++s;
        }
        if (cover) n.weight = cover->real(i);
        check_node(n, i, n_features, parents);
        t.nodes_.push_back(n);
    }
    return t;
}

void Tree::read_categories(const Json& j, const std::vector<Index>* category_limits) {
    if (!j.contains("category_node")) return;
    const NodeArray nodes(j.at("category_node"));
    if (!nodes.is_array()) throw ModelStateError("tree array \"category_node\" is not an array");
    const std::size_t n = nodes.size();
    const NodeArray count = required_array(j, "category_count", n), left = required_array(j, "category_left", n);
    for (std::size_t s = 0; s < n; ++s) {
        const int i = nodes.integer<int>(s);
        const Index k = count.integer<Index>(s);
        if (i < 0 || i >= size() || node(i).is_leaf() || is_categorical(i))
            throw ModelStateError("tree categorical split " + std::to_string(s) + " is not on one split node");
        if (k < 1 || k > (Index{1} << 30))
            throw ModelStateError(node_text(static_cast<std::size_t>(i)) + " has " + std::to_string(k) + " categories");
        // A split's set takes k bits: no more categories than its feature declares (a
        // crafted 10^9 took 4 GB per tree before this check).
        if (category_limits) {
            const auto f = static_cast<std::size_t>(node(i).feature);
            const Index declared = f < category_limits->size() ? (*category_limits)[f] : 0;
            if (k > declared)
                throw ModelStateError(node_text(static_cast<std::size_t>(i)) + ": category_count " + std::to_string(k) +
                                      " on feature " + std::to_string(f) +
                                      (declared > 0 ? ", which declares " + std::to_string(declared) + " categories"
                                                    : ", which declares no categories"));
        }
        std::vector<int> codes(left.row_size(s));
        for (std::size_t c = 0; c < codes.size(); ++c) {
            codes[c] = static_cast<int>(left.row_integer(s, c));
            if (codes[c] < 0 || codes[c] >= k || (c > 0 && codes[c] <= codes[c - 1]))
                throw ModelStateError(node_text(static_cast<std::size_t>(i)) +
                                      " has category codes out of range or out of order");
        }
        set_categories(i, k, codes);
    }
}

Tree Tree::from_json(const Json& j, Index n_features, Index n_outputs, TreeLayout layout,
                     const std::vector<Index>* category_limits) {
    if (!j.is_object()) throw ModelStateError("tree is not an object");
    Tree t = layout == TreeLayout::full ? from_full_json(j, n_features, n_outputs)
                                        : from_compact_json(j, n_features, n_outputs, layout == TreeLayout::boosted);
    t.read_categories(j, category_limits);
    return t;
}

}  // namespace kestrel
