#include "kestrel/tree/decision_tree.hpp"

#include <cmath>
#include <numeric>
#include <optional>

#include "kestrel/common/class_weight.hpp"
#include "kestrel/core/param_binding.hpp"
#include "kestrel/common/coef_json.hpp"
#include "kestrel/common/row_scatter.hpp"
#include "kestrel/core/error.hpp"
#include "kestrel/core/rng.hpp"
#include "kestrel/tree/pruning.hpp"
#include "kestrel/tree/tree_grower.hpp"
#include "kestrel/tree/tree_params.hpp"

namespace kestrel {

void require_finite_features(const Features& X, const std::string& model, bool sparse_nan_is_missing) {
    const bool nan_refused = X.is_sparse() && !sparse_nan_is_missing;
    auto fail = [&](Index i, Index j) {
        throw DataError(model + ": feature " + std::to_string(j + 1) + " of row " + std::to_string(i + 1) +
                        (nan_refused ? " is not a finite number (sparse input has no missing values; impute first)"
                                     : " is infinite (NaN marks a missing value; infinities are not allowed)"));
    };
    if (X.is_sparse()) {
        const SparseMatrix& S = X.sparse_ref();
        for (Index i = 0; i < S.rows(); ++i)
            for (SparseMatrix::InnerIterator it(S, i); it; ++it)
                if (nan_refused ? !std::isfinite(it.value()) : std::isinf(it.value())) fail(i, it.col());
        return;
    }
    const DenseView D = X.dense_ref();
    for (Index i = 0; i < D.rows(); ++i)
        for (Index j = 0; j < D.cols(); ++j)
            if (std::isinf(D(i, j))) fail(i, j);
}

void add_tree_output(const Tree& tree, const double* row, double* out) {
    add_tree_output_at_leaf(tree, tree.apply(row), out);
}

void add_tree_output_at_leaf(const Tree& tree, int leaf, double* out) {
    const Index k = tree.n_outputs();
    const double* v = tree.value(leaf);
    if (k == 1) {
        out[0] += v[0];
        return;
    }
    // The node's weight is the sum of its class counts, added in class order when grown.
    const double total = tree.node(leaf).weight;
    for (Index c = 0; c < k; ++c) out[c] += v[c] / total;
}

TreeExplainer cart_explainer(const Tree& tree, std::vector<double> cover) {
    const Index k = tree.n_outputs();
    std::vector<double> values(static_cast<std::size_t>(tree.size() * k), 0.0);
    for (int i = 0; i < tree.size(); ++i)
        if (tree.node(i).is_leaf()) add_tree_output_at_leaf(tree, i, values.data() + i * k);
    return TreeExplainer(tree, std::move(cover), std::move(values));
}

void add_tree_outputs(const Tree& tree, const Features& X, Matrix& out) {
    const Index k = tree.n_outputs();
    std::vector<double> rows(static_cast<std::size_t>(X.rows() * k), 0.0);  // row-major, contiguous per row
    RowScatter scatter(X);
    for (Index i = 0; i < X.rows(); ++i) add_tree_output(tree, scatter.row(i), rows.data() + i * k);
    for (Index i = 0; i < X.rows(); ++i)
        for (Index c = 0; c < k; ++c) out(i, c) += rows[static_cast<std::size_t>(i * k + c)];
}

void DecisionTree::do_fit(const Dataset& data, const Context& ctx) {
    const DecisionTreeParams& p = p_;
    const Features& X = data.X;
    if (!prepared_) require_finite_features(X, "tree");  // a refitter checked its data once
    const TreeParams tp = tree_params_from(p, data.task, data.cols(), "tree");
    const bool classification = data.task == Task::classification;
    const Index n = data.rows();
    Vector weights = class_weighted_rows(data, p.class_weight, "tree");
    check_tree_memory(tp, n, classification ? data.n_classes() : 1, 1, "tree");

    // Reduced-error pruning grows on a seeded random part of the rows and prunes on the rest.
    std::vector<Index> holdout;
    if (p.prune == "reduced_error") {
        const auto n_val =
            static_cast<Index>(std::llround(p.validation_fraction * static_cast<double>(n)));
        if (n_val < 1 || n - n_val < 1)
            throw DataError("tree: validation_fraction leaves no rows to " +
                            std::string(n_val < 1 ? "prune on" : "grow on") + " (" + std::to_string(n) + " rows)");
        std::vector<Index> perm(static_cast<std::size_t>(n));
        std::iota(perm.begin(), perm.end(), 0);
        Rng split_rng(derive_seed(ctx.seed, 0x7e57));
        split_rng.shuffle(perm);
        holdout.assign(perm.begin(), perm.begin() + n_val);
    }
    Vector grow_weights = weights;
    for (Index i : holdout) grow_weights[i] = 0;

    std::optional<TreeGrower> own;
    if (!prepared_)
        own.emplace(X, data.y, classification ? data.n_classes() : 0, tp, ctx.resolved_threads(), data.category_counts);
    const TreeGrower& grower = prepared_ ? *prepared_ : *own;
    Rng rng(derive_seed(ctx.seed, 0));
    Tree tree = grower.build({grow_weights.data(), static_cast<std::size_t>(n)}, rng);

    if (!holdout.empty()) {
        const Features Xv = X.rows_subset(holdout);
        Vector yv(Xv.rows()), wv(Xv.rows());
        for (Index r = 0; r < Xv.rows(); ++r) {
            yv[r] = data.y[holdout[static_cast<std::size_t>(r)]];
            wv[r] = weights[holdout[static_cast<std::size_t>(r)]];
        }
        prune_reduced_error(tree, Xv, yv, wv, classification);
    }
    prune_cost_complexity(tree, p.ccp_alpha);
    tree.shrink_to_fit();  // adaboost keeps one tree a round
    tree_ = std::move(tree);
    importances_ = normalised(tree_.impurity_decrease_by_feature());
}

// The grower (each column sorted once) of a copy of the data, shared by every fit; a
// fit sets new weights on the copy and fits a fresh tree through the usual path, which
// takes the grower instead of sorting anew.
class TreeRefitter : public Refitter {
public:
    TreeRefitter(const DecisionTree& proto, const Dataset& data, const TreeParams& tp, int threads)
        : proto_(proto.clone_unfitted(proto.params())),
          work_(data),
          grower_(work_.X, work_.y, work_.task == Task::classification ? work_.n_classes() : 0, tp, threads,
                  work_.category_counts) {}

    std::unique_ptr<Estimator> fit(const Vector& weights, const Context& ctx) override {
        work_.weights = weights;
        std::unique_ptr<Estimator> e = proto_->clone_unfitted(proto_->params());
        auto* tree = dynamic_cast<DecisionTree*>(e.get());
        if (!tree) throw InternalError("tree refitter: the model's factory made no DecisionTree");
        tree->prepared_ = &grower_;
        e->fit(work_, ctx);
        tree->prepared_ = nullptr;
        return e;
    }

private:
    std::unique_ptr<Estimator> proto_;
    Dataset work_;
    TreeGrower grower_;  // borrows work_'s targets
};

std::unique_ptr<Refitter> DecisionTree::refitter(const Dataset& data, const Context& ctx) const {
    require_finite_features(data.X, "tree");
    const TreeParams tp = tree_params_from(p_, data.task, data.cols(), "tree");
    return std::make_unique<TreeRefitter>(*this, data, tp, ctx.resolved_threads());
}

Vector DecisionTree::do_predict(const Features& X) const {
    Vector out(X.rows());
    const Index k = tree_.n_outputs();
    RowScatter rows(X);
    for (Index i = 0; i < X.rows(); ++i) {
        const double* v = tree_.value(tree_.apply(rows.row(i)));
        if (task() == Task::regression) {
            out[i] = v[0];
            continue;
        }
        Index best = 0;  // ties to the lowest class index
        for (Index c = 1; c < k; ++c)
            if (v[c] > v[best]) best = c;
        out[i] = static_cast<double>(best);
    }
    return out;
}

Matrix DecisionTree::do_predict_proba(const Features& X) const {
    Matrix out = Matrix::Zero(X.rows(), tree_.n_outputs());
    add_tree_outputs(tree_, X, out);
    return out;
}

Matrix DecisionTree::do_contributions(const Features& X) const {
    // The covers are the nodes' training weights (scikit-learn's weighted_n_node_samples).
    std::vector<double> cover;
    for (int i = 0; i < tree_.size(); ++i) cover.push_back(tree_.node(i).weight);
    const TreeExplainer shap = cart_explainer(tree_, std::move(cover));
    return contributions_by_row(X, tree_.n_outputs() * (n_features() + 1), 0.0,
                                [&](const double* row, double* phi) { shap.add(row, phi); });
}

Json DecisionTree::do_save_state() const {
    return Json{{"tree", tree_.to_json()}, {"feature_importances", vector_to_json(importances_)}};
}

void DecisionTree::do_load_state(const Json& state) {
    if (!state.contains("tree") || !state.contains("feature_importances"))
        throw ModelStateError("tree state needs \"tree\" and \"feature_importances\"");
    const Index outputs = task() == Task::classification ? n_classes() : 1;
    Tree t = Tree::from_json(state.at("tree"), n_features(), outputs, TreeLayout::full, declared_categories());
    Vector imp = vector_from_json(state.at("feature_importances"), "tree feature_importances", n_features());
    tree_ = std::move(t);
    importances_ = std::move(imp);
}

const ParamBinding<DecisionTreeParams>& decision_tree_params() {
    using P = DecisionTreeParams;
    static const ParamBinding<P> binding = [] {
        ParamBinding<P> b;
        b.add(tree_growth_bindings("all"));
        b.add(bind(&P::ccp_alpha, real_param("ccp_alpha", 0.0, "minimal cost-complexity pruning strength (0 = none)")
                                      .range(0.0, std::nullopt)
                                      .like("scikit-learn ccp_alpha")));
        b.add(bind(&P::prune, choice_param("prune", "none", {"none", "reduced_error"},
                                           "reduced_error: grow on part of the rows, prune bottom-up on the held-out "
                                           "rest")));
        b.add(bind(&P::validation_fraction,
                   real_param("validation_fraction", 0.2, "fraction of rows held out for prune=reduced_error (seeded)")
                       .range(0.0, 1.0)
                       .open_below()
                       .open_above()));
        b.add(tree_class_weight_param("scikit-learn DecisionTreeClassifier class_weight"));
        return b;
    }();
    return binding;
}

ModelInfo tree_model_info() {
    ModelInfo info = model_info_of<DecisionTree>(
        "tree",
        "CART decision tree (gini/entropy/variance), best-first growth, cost-complexity or reduced-error pruning",
        decision_tree_params().spec(), {Task::classification, Task::regression}, kTreeCapabilities);
    info.reports = [](const Params&) { return std::vector<std::string>{"tree"}; };
    info.search_space = tree_search_space();
    return info;
}

SearchSpace tree_search_space() {
    // auto-sklearn's decision tree space: depth and leaf size.
    return {.axes = {"max_depth=randint(1,21)", "min_samples_leaf=randint(1,21)"},
            .portfolio = {// R rpart's minbucket (7 rows in a leaf): a grown tree without its noise.
                          "min_samples_leaf=7",
                          // A shallow tree: depth 5, the middle of auto-sklearn's depth range.
                          "max_depth=5"},
            .cost = 1};
}

}  // namespace kestrel
