#include "kestrel/tree/decision_tree.hpp"

#include <cmath>
#include <numeric>

#include "kestrel/core/error.hpp"
#include "kestrel/core/rng.hpp"
#include "kestrel/linear/linear_state.hpp"
#include "kestrel/tree/pruning.hpp"
#include "kestrel/tree/tree_builder.hpp"
#include "kestrel/tree/tree_params.hpp"

namespace kestrel {

void require_finite_features(const DenseMatrix& X, const std::string& model) {
    for (Index i = 0; i < X.rows(); ++i)
        for (Index j = 0; j < X.cols(); ++j)
            if (!std::isfinite(X(i, j)))
                throw DataError(model + ": feature " + std::to_string(j + 1) + " of row " + std::to_string(i + 1) +
                                " is not a finite number (impute missing values first)");
}

Vector normalised(Vector v) {
    const double s = v.sum();
    if (s > 0) v /= s;
    return v;
}

void add_tree_output(const Tree& tree, const double* row, double* out) {
    const Index k = tree.n_outputs();
    const int leaf = tree.apply(row);
    const double* v = tree.value(leaf);
    if (k == 1) {
        out[0] += v[0];
        return;
    }
    // The node's weight is the sum of its class counts, added in class order when grown.
    const double total = tree.node(leaf).weight;
    for (Index c = 0; c < k; ++c) out[c] += v[c] / total;
}

void add_tree_outputs(const Tree& tree, const DenseMatrix& X, Matrix& out) {
    const Index k = tree.n_outputs();
    std::vector<double> rows(static_cast<std::size_t>(X.rows() * k), 0.0);  // row-major, contiguous per row
    for (Index i = 0; i < X.rows(); ++i) add_tree_output(tree, X.row(i).data(), rows.data() + i * k);
    for (Index i = 0; i < X.rows(); ++i)
        for (Index c = 0; c < k; ++c) out(i, c) += rows[static_cast<std::size_t>(i * k + c)];
}

void DecisionTree::do_fit(const Dataset& data, const Context& ctx) {
    const Params& p = params();
    const DenseMatrix& X = data.X.dense_ref();
    require_finite_features(X, "tree");
    const TreeParams tp = tree_params_from(p, data.task, data.cols(), "tree");
    const bool classification = data.task == Task::classification;
    const Index n = data.rows();
    Vector weights = data.has_weights() ? data.weights : Vector::Ones(n);

    // Reduced-error pruning grows on a seeded random part of the rows and prunes on the rest.
    std::vector<Index> holdout;
    if (get_string(p, "prune") == "reduced_error") {
        const auto n_val =
            static_cast<Index>(std::llround(get_real(p, "validation_fraction") * static_cast<double>(n)));
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

    const SortedColumns sorted(X, ctx.resolved_threads());
    TreeBuilder builder(X, data.y, classification ? data.n_classes() : 0, sorted, tp);
    Rng rng(derive_seed(ctx.seed, 0));
    Tree tree = builder.build({grow_weights.data(), static_cast<std::size_t>(n)}, rng);

    if (!holdout.empty()) {
        DenseMatrix Xv(static_cast<Index>(holdout.size()), X.cols());
        Vector yv(Xv.rows()), wv(Xv.rows());
        for (Index r = 0; r < Xv.rows(); ++r) {
            Xv.row(r) = X.row(holdout[static_cast<std::size_t>(r)]);
            yv[r] = data.y[holdout[static_cast<std::size_t>(r)]];
            wv[r] = weights[holdout[static_cast<std::size_t>(r)]];
        }
        prune_reduced_error(tree, Xv, yv, wv, classification);
    }
    prune_cost_complexity(tree, get_real(p, "ccp_alpha"));
    tree_ = std::move(tree);
    importances_ = normalised(tree_.impurity_decrease_by_feature());
}

Vector DecisionTree::do_predict(const Features& X) const {
    const DenseMatrix& Xd = X.dense_ref();
    Vector out(Xd.rows());
    const Index k = tree_.n_outputs();
    for (Index i = 0; i < Xd.rows(); ++i) {
        const double* v = tree_.value(tree_.apply(Xd.row(i).data()));
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
    add_tree_outputs(tree_, X.dense_ref(), out);
    return out;
}

Json DecisionTree::do_save_state() const {
    return Json{{"tree", tree_.to_json()}, {"feature_importances", vector_to_json(importances_)}};
}

void DecisionTree::do_load_state(const Json& state) {
    if (!state.contains("tree") || !state.contains("feature_importances"))
        throw std::runtime_error("tree state needs \"tree\" and \"feature_importances\"");
    const Index outputs = task() == Task::classification ? n_classes() : 1;
    Tree t = Tree::from_json(state.at("tree"), n_features(), outputs);
    Vector imp = vector_from_json(state.at("feature_importances"), "tree feature_importances", n_features());
    tree_ = std::move(t);
    importances_ = std::move(imp);
}

ModelInfo tree_model_info() {
    ModelInfo info;
    info.name = "tree";
    info.summary =
        "CART decision tree (gini/entropy/variance), best-first growth, cost-complexity or reduced-error pruning";
    info.spec = tree_growth_spec("all");
    info.spec.add(real_param("ccp_alpha", 0.0, "minimal cost-complexity pruning strength (0 = none)")
                      .range(0.0, std::nullopt)
                      .like("scikit-learn ccp_alpha"));
    info.spec.add(choice_param("prune", "none", {"none", "reduced_error"},
                               "reduced_error: grow on part of the rows, prune bottom-up on the held-out rest"));
    info.spec.add(real_param("validation_fraction", 0.2, "fraction of rows held out for prune=reduced_error (seeded)")
                      .range(0.0, 1.0)
                      .open_below()
                      .open_above());
    info.tasks = {Task::classification, Task::regression};
    info.multiclass = Multiclass::native;
    info.factory = [] { return std::make_unique<DecisionTree>(); };
    return info;
}

}  // namespace kestrel
