#include "kestrel/tree/random_forest.hpp"

#include <omp.h>

#include <algorithm>
#include <cmath>
#include <exception>
#include <limits>
#include <mutex>
#include <numeric>
#include <optional>

#include "kestrel/common/class_weight.hpp"
#include "kestrel/core/interrupt.hpp"
#include "kestrel/core/param_binding.hpp"
#include "kestrel/common/coef_json.hpp"
#include "kestrel/common/quantized_table.hpp"
#include "kestrel/common/row_scatter.hpp"
#include "kestrel/common/row_shards.hpp"
#include "kestrel/core/error.hpp"
#include "kestrel/core/json_read.hpp"
#include "kestrel/core/process_group.hpp"
#include "kestrel/core/rng.hpp"
#include "kestrel/tree/decision_tree.hpp"
#include "kestrel/tree/forest_permutation_importance.hpp"
#include "kestrel/tree/hist_forest.hpp"
#include "kestrel/tree/tree_grower.hpp"
#include "kestrel/tree/tree_params.hpp"

namespace kestrel {
namespace {

// Row weights of one tree's sample: the bootstrap count (or 0/1 without replacement)
// times the sample weight. Draws come first from the tree's generator.
std::vector<double> sample_rows(Rng& rng, const Vector& weights, Index n_draw, bool bootstrap) {
    const Index n = weights.size();
    std::vector<double> w(static_cast<std::size_t>(n), 0.0);
    if (bootstrap) {
        for (Index d = 0; d < n_draw; ++d) w[rng.below(static_cast<std::uint64_t>(n))] += 1.0;
    } else if (n_draw >= n) {
        std::fill(w.begin(), w.end(), 1.0);
    } else {
        std::vector<Index> perm(static_cast<std::size_t>(n));
        std::iota(perm.begin(), perm.end(), 0);
        for (Index i = 0; i < n_draw; ++i) {  // partial Fisher–Yates
            const Index j = i + static_cast<Index>(rng.below(static_cast<std::uint64_t>(n - i)));
            std::swap(perm[static_cast<std::size_t>(i)], perm[static_cast<std::size_t>(j)]);
            w[static_cast<std::size_t>(perm[static_cast<std::size_t>(i)])] = 1.0;
        }
    }
    for (Index i = 0; i < n; ++i) w[static_cast<std::size_t>(i)] *= weights[i];
    return w;
}

struct Sampling {
    Index n_trees, n_draw;
    bool bootstrap, keep_in_bag;
};

struct GrownTrees {
    std::vector<Tree> trees;
    std::vector<Vector> importance;         // per tree, its normalised impurity importances
    std::vector<std::vector<char>> in_bag;  // per tree, per row (when asked for)
};

// Trees first..last − 1 of the forest. Tree t grows on its own sample from its own seed,
// whichever thread (or rank) grows it; each thread grows its trees one after another in
// the same scratch memory.
GrownTrees grow_trees(const TreeGrower& grower, const Vector& weights, const Sampling& s, std::uint64_t seed,
                      int threads, Index first, Index last) {
    const Index n = weights.size();
    const auto count = static_cast<std::size_t>(last - first);
    GrownTrees out{std::vector<Tree>(count), std::vector<Vector>(count),
                   std::vector<std::vector<char>>(s.keep_in_bag ? count : 0)};
    std::exception_ptr failure;
    std::mutex failure_mutex;
#pragma omp parallel num_threads(threads)
    {
        std::optional<TreeGrower::Builder> builder;  // made in the first tree's try
#pragma omp for schedule(dynamic)
        for (Index t = first; t < last; ++t) {
            const auto slot = static_cast<std::size_t>(t - first);
            try {
                interruption_point();
                if (!builder) builder = grower.builder();
                Rng rng(derive_seed(seed, static_cast<std::uint64_t>(t)));
                const std::vector<double> w = sample_rows(rng, weights, s.n_draw, s.bootstrap);
                // Leaf values only: prediction, OOB and the dump read no others, the
                // importances only the nodes' statistics.
                out.trees[slot] = builder->grow(w, rng).leaf_values_only();
                out.importance[slot] = normalised(out.trees[slot].impurity_decrease_by_feature());
                if (s.keep_in_bag) {
                    auto& bag = out.in_bag[slot];
                    bag.resize(static_cast<std::size_t>(n));
                    for (Index i = 0; i < n; ++i) bag[static_cast<std::size_t>(i)] = w[static_cast<std::size_t>(i)] > 0;
                }
            } catch (...) {
                const std::lock_guard<std::mutex> lock(failure_mutex);
                if (!failure) failure = std::current_exception();
            }
        }
    }
    if (failure) std::rethrow_exception(failure);
    return out;
}

// The trees spread over the ranks of an MPI run (docs/distributed.md): rank r grows the
// r-th contiguous block from the same per-tree seeds, and every rank gets all the trees
// back in tree order, so the forest is the one-process forest. A tree travels in the
// compact layout of the model file (what prediction reads, numbers in their shortest
// exact form); its importance vector and in-bag rows travel beside it, as that layout
// keeps no statistics of the internal nodes.
GrownTrees grow_trees_across_ranks(const TreeGrower& grower, const Vector& weights, const Sampling& s,
                                   std::uint64_t seed, int threads, Index n_features, Index n_outputs) {
    ProcessGroup& group = *process_group();
    const Index ranks = group.size(), rank = group.rank();
    const Index first = s.n_trees * rank / ranks, last = s.n_trees * (rank + 1) / ranks;
    const GrownTrees mine = grow_trees(grower, weights, s, seed, threads, first, last);
    Json part = Json::array();
    for (std::size_t t = 0; t < mine.trees.size(); ++t) {
        Json entry{{"tree", mine.trees[t].to_json(TreeLayout::compact)},
                   {"importance", std::vector<double>(mine.importance[t].data(),
                                                      mine.importance[t].data() + mine.importance[t].size())}};
        if (s.keep_in_bag) entry["in_bag"] = std::string(mine.in_bag[t].begin(), mine.in_bag[t].end());
        part.push_back(std::move(entry));
    }
    const std::string text = part.dump();
    const auto* bytes = reinterpret_cast<const std::byte*>(text.data());
    GrownTrees all;
    for (const auto& received : share_with_all(group, std::vector<std::byte>(bytes, bytes + text.size()))) {
        const Json trees = Json::parse(std::string(reinterpret_cast<const char*>(received.data()), received.size()));
        for (const Json& entry : trees) {
            all.trees.push_back(Tree::from_json(entry.at("tree"), n_features, n_outputs, TreeLayout::compact));
            const auto v = entry.at("importance").get<std::vector<double>>();
            all.importance.push_back(Eigen::Map<const Vector>(v.data(), static_cast<Index>(v.size())));
            if (s.keep_in_bag) {
                const auto bag = entry.at("in_bag").get<std::string>();
                all.in_bag.emplace_back(bag.begin(), bag.end());
            }
        }
    }
    if (static_cast<Index>(all.trees.size()) != s.n_trees)
        throw InternalError("forest: the ranks sent " + std::to_string(all.trees.size()) + " trees, not " +
                            std::to_string(s.n_trees));
    return all;
}

// oob=1 and importance=permutation need rows that some tree's sample left out.
void require_out_of_bag_rows(const RandomForestParams& p, bool some_left_out) {
    if ((p.oob || p.importance == "permutation") && !some_left_out)
        throw ParamError(std::string("parameter ") + (p.oob ? "oob=1" : "importance=permutation") +
                         " of model forest needs bootstrap=1 or max_samples < 1 (no row is out of bag)");
}

// Out-of-bag accuracy or R² over the rows that some tree left out of its sample; on rows
// spread over ranks, of every rank's rows (the counts and sums added over the ranks).
double oob_score_of(const Matrix& sums, const std::vector<int>& votes, const Vector& y, bool classification,
                    const Context& ctx) {
    double hits = 0, ss_res = 0, y_sum = 0, count = 0;
    std::vector<Index> rows;
    for (Index i = 0; i < y.size(); ++i) {
        if (votes[static_cast<std::size_t>(i)] == 0) continue;
        rows.push_back(i);
        ++count;
        if (classification) {
            Index best = 0;
            for (Index c = 1; c < sums.cols(); ++c)
                if (sums(i, c) > sums(i, best)) best = c;
            hits += best == static_cast<Index>(y[i]) ? 1.0 : 0.0;
        } else {
            const double r = y[i] - sums(i, 0) / votes[static_cast<std::size_t>(i)];
            ss_res += r * r;
            y_sum += y[i];
        }
    }
    double totals[] = {count, hits, ss_res, y_sum, static_cast<double>(y.size())};
    sum_over_ranks(ctx, totals);
    count = totals[0];
    hits = totals[1];
    ss_res = totals[2];
    y_sum = totals[3];
    if (count < totals[4])
        ctx.warning("forest: " + std::to_string(static_cast<Index>(totals[4] - count)) +
                    " rows were in every tree's sample; the out-of-bag score leaves them out (use more trees)");
    if (count == 0) return 0.0;
    if (classification) return hits / count;
    const double mean = y_sum / count;
    double ss_tot = 0;
    for (Index i : rows) ss_tot += (y[i] - mean) * (y[i] - mean);
    sum_over_ranks(ctx, std::span<double>(&ss_tot, 1));
    return ss_tot > 0 ? 1.0 - ss_res / ss_tot : 0.0;
}

// The store of rows held quantized (docs/large-data.md) the histogram forest reads, or null:
// cut as the forest cuts its doubles (its max_bins, the fit's seed, absent sparse entries as
// zeros), on one process.
const QuantizedTable* forest_store_of(const Dataset& data, const RandomForestParams& p, const Context& ctx) {
    const QuantizedTable* store = quantized_rows_of(data);
    if (store == nullptr) return nullptr;
    if (ctx.rows_sharded) throw InternalError("forest: rows held quantized on rows spread over ranks");
    if (store->max_bins() != p.max_bins || store->seed() != ctx.seed)
        throw UsageError("forest: the rows were quantized with max_bins=" + std::to_string(store->max_bins()) +
                         " and seed " + std::to_string(store->seed()) + ", the fit asks max_bins=" +
                         std::to_string(p.max_bins) + " and seed " + std::to_string(ctx.seed));
    if (store->absent_is_missing())
        throw InternalError("forest: the rows were quantized with absent sparse entries missing, not zeros");
    return store;
}

// Row i of the store as values that every tree walks as the row's own: a code's bin's
// upper edge (a split "x <= upper(f, b)" sends it where it sends every value of its bin),
// the missing code NaN.
void decode_stored_row(const QuantizedTable& store, Index i, double* row) {
    const BinCuts& cuts = store.cuts();
    const BinnedMatrix& bins = store.bins();
    for (Index f = 0; f < bins.cols(); ++f) {
        const int b = bins.bin(f, i);
        row[f] = b == cuts.missing_bin(f) ? std::numeric_limits<double>::quiet_NaN() : cuts.upper(f, b);
    }
}

}  // namespace

void RandomForest::do_fit(const Dataset& data, const Context& ctx) {
    const RandomForestParams& p = p_;
    const Features& X = data.X;
    const bool hist = p.tree_method == "hist" || (p.tree_method == "auto" && ctx.rows_sharded);
    // The histogram trees bin sparse rows dense (one-hot encoded tables arrive sparse), where
    // a stored NaN is a missing value as in dense rows.
    require_finite_features(X, "forest", hist);
    const TreeParams tp = tree_params_from(p, data.task, data.cols(), "forest");
    if (hist) {
        fit_hist(data, ctx, tp);
        build_prediction_tables();
        return;
    }
    const bool classification = data.task == Task::classification;
    const Index n = data.rows(), n_trees = static_cast<Index>(p.n_estimators);
    const bool bootstrap = p.bootstrap, want_score = p.oob;
    const bool want_permutation = p.importance == "permutation";
    const bool want_oob = want_score || want_permutation;
    const Index n_draw =
        std::max<Index>(1, static_cast<Index>(std::llround(p.max_samples * static_cast<double>(n))));
    require_out_of_bag_rows(p, bootstrap || n_draw < n);
    const Vector weights = class_weighted_rows(data, p.class_weight, "forest");
    const int threads = ctx.resolved_threads();

    check_tree_memory(tp, n_draw, classification ? data.n_classes() : 1, n_trees, "forest");
    const TreeGrower grower(X, data.y, classification ? data.n_classes() : 0, tp, threads, data.category_counts);
    const Sampling sampling{n_trees, n_draw, bootstrap, want_oob};
    GrownTrees grown =
        group_shares_here()
            ? grow_trees_across_ranks(grower, weights, sampling, ctx.seed, threads, data.cols(),
                                      classification ? data.n_classes() : 1)
            : grow_trees(grower, weights, sampling, ctx.seed, threads, 0, n_trees);
    std::vector<Tree>& trees = grown.trees;
    const std::vector<std::vector<char>>& in_bag = grown.in_bag;

    Vector importance = Vector::Zero(data.cols());
    for (const Vector& v : grown.importance) importance += v;
    importances_ = normalised(importance);

    set_out_of_bag(trees, in_bag, data, ctx);
    trees_ = std::move(trees);
    build_prediction_tables();
}

void RandomForest::build_prediction_tables() {
    walk_ = TreeWalk(trees_);
    leaf_outputs_ = LeafOutputs(trees_, walk_);
}

void RandomForest::set_out_of_bag(const std::vector<Tree>& trees, const std::vector<std::vector<char>>& in_bag,
                                  const Dataset& data, const Context& ctx) {
    const Features& X = data.X;
    const bool classification = data.task == Task::classification;
    const Index n = data.rows(), n_trees = static_cast<Index>(trees.size());
    const int threads = ctx.resolved_threads();
    oob_score_.reset();
    permutation_importances_.reset();
    // Rows held quantized are walked as their codes' values (decode_stored_row).
    const QuantizedTable* store = quantized_rows_of(data);
    if (p_.importance == "permutation")
        permutation_importances_ =
            store ? oob_permutation_importance(trees, in_bag, *store, data.y, classification, ctx.seed, threads)
                  : oob_permutation_importance(trees, in_bag, X, data.y, classification, ctx.seed, threads,
                                               ctx.rows_sharded);
    if (p_.oob) {
        // Summed over the trees in tree order, one row at a time: the same for any thread count.
        const Index k = classification ? data.n_classes() : 1;
        Matrix sums = Matrix::Zero(n, k);
        std::vector<int> votes(static_cast<std::size_t>(n), 0);
#pragma omp parallel num_threads(threads)
        {
            RowScatter scatter(X);
            std::vector<double> decoded(store ? static_cast<std::size_t>(X.cols()) : 0);
#pragma omp for schedule(static)
            for (Index i = 0; i < n; ++i) {
                std::vector<double> row(static_cast<std::size_t>(k), 0.0);
                if (store) decode_stored_row(*store, i, decoded.data());
                const double* x = store ? decoded.data() : scatter.row(i);
                for (Index t = 0; t < n_trees; ++t) {
                    if (in_bag[static_cast<std::size_t>(t)][static_cast<std::size_t>(i)]) continue;
                    add_tree_output(trees[static_cast<std::size_t>(t)], x, row.data());
                    ++votes[static_cast<std::size_t>(i)];
                }
                for (Index c = 0; c < k; ++c) sums(i, c) = row[static_cast<std::size_t>(c)];
            }
        }
        oob_score_ = oob_score_of(sums, votes, data.y, classification, ctx);
    }
}

void RandomForest::fit_hist(const Dataset& data, const Context& ctx, const TreeParams& tp) {
    const RandomForestParams& p = p_;
    const auto refuse = [](const std::string& what) {
        throw ParamError("parameter " + what + " of model forest needs tree_method=exact (the histogram forest " +
                         "grows its trees level by level over rows that may be spread over ranks)");
    };
    const bool want_oob = p.oob || p.importance == "permutation";
    require_out_of_bag_rows(p, p.bootstrap || p.max_samples < 1);
    if (tp.max_leaf_nodes > 0) refuse("max_leaf_nodes=" + std::to_string(tp.max_leaf_nodes));
    if (std::any_of(data.category_counts.begin(), data.category_counts.end(), [](Index k) { return k > 0; }))
        throw DataError(ctx.rows_sharded
                            ? "forest: on rows spread over ranks tree_method=auto is the histogram forest, which "
                              "takes text columns one-hot encoded: give " +
                                  option_named("params") + " tree_method=hist"
                            : ErrorText("forest: tree_method=hist does not split categorical features natively "
                                        "(tree_method=exact does; or one-hot encode them)"));
    if (ctx.rows_sharded && p.class_weight == "balanced")
        throw ParamError("parameter class_weight=balanced of model forest cannot be computed on one rank's rows");
    const bool classification = data.task == Task::classification;
    HistForestSetup s;
    s.n_classes = classification ? data.n_classes() : 0;
    s.tree = tp;
    s.n_trees = static_cast<Index>(p.n_estimators);
    s.bootstrap = p.bootstrap;
    s.max_samples = p.max_samples;
    s.max_bins = static_cast<int>(p.max_bins);
    s.seed = ctx.seed;
    s.threads = ctx.resolved_threads();
    s.rows_sharded = ctx.rows_sharded;
    check_tree_memory(tp, data.rows(), classification ? data.n_classes() : 1, s.n_trees, "forest");
    const Vector weights = class_weighted_rows(data, p.class_weight, "forest");
    const QuantizedTable* store = forest_store_of(data, p, ctx);
    HistForest grown = store ? grow_hist_forest(*store, data.y, weights, s) : grow_hist_forest(data.X, data.y, weights, s);
    Vector importance = Vector::Zero(data.cols());
    for (const Vector& v : grown.importance) importance += v;
    importances_ = normalised(importance);
    set_out_of_bag(grown.trees, want_oob ? hist_in_bag(grown, weights, s) : std::vector<std::vector<char>>{}, data,
                   ctx);
    trees_ = std::move(grown.trees);
}

Matrix RandomForest::mean_outputs(const Features& X) const {
    const Index k = trees_.front().n_outputs(), d = X.cols();
    Matrix out = Matrix::Zero(X.rows(), k);
    // Blocks of rows in parallel, the trees in order within a block: each row's sum is
    // the same whatever the blocks, so the result is thread-count independent. Large
    // blocks keep each tree's nodes in cache across many rows; sparse rows are walked
    // in dense parts of at most 32768 cells.
    const Index threads = std::max(1, omp_get_max_threads());
    const Index block = std::clamp<Index>((X.rows() + threads - 1) / threads, 256, 4096);
    const Index blocks = (X.rows() + block - 1) / block;
    const Index part = X.is_sparse() ? std::clamp<Index>(32768 / std::max<Index>(d, 1), 1, block) : block;
#pragma omp parallel for schedule(dynamic)
    for (Index b = 0; b < blocks; ++b) {
        const Index begin = b * block, rows = std::min(block, X.rows() - begin);
        std::vector<double> sums(static_cast<std::size_t>(rows * k), 0.0);  // row-major block
        std::vector<std::int32_t> at(static_cast<std::size_t>(std::min(part, rows)));
        RowScatter scatter(X, 0.0, part);
        for (Index p = 0; p < rows; p += part) {
            const Index m = std::min(part, rows - p);
            const double* x = scatter.rows(begin + p, m);
            double* s = sums.data() + p * k;
            for (std::size_t t = 0; t < trees_.size(); ++t) {
                if (walk_.numeric(t)) walk_.leaves(t, x, d, m, at.data());
                else
                    for (Index i = 0; i < m; ++i) at[static_cast<std::size_t>(i)] = walk_.index(t, trees_[t].apply(x + i * d));
                for (Index i = 0; i < m; ++i) leaf_outputs_.add(at[static_cast<std::size_t>(i)], s + i * k);
            }
        }
        for (Index i = 0; i < rows; ++i)
            for (Index c = 0; c < k; ++c) out(begin + i, c) = sums[static_cast<std::size_t>(i * k + c)];
    }
    return out / static_cast<double>(trees_.size());
}

Vector RandomForest::do_predict(const Features& X) const {
    const Matrix m = mean_outputs(X);
    if (task() == Task::regression) return m.col(0);
    return scores_to_classes(m);
}

Matrix RandomForest::do_predict_proba(const Features& X) const {
    return mean_outputs(X);
}

Matrix RandomForest::do_contributions(const Features& X) const {
    // A forest's file keeps its leaves' statistics only: the covers are summed up from
    // the leaves, whose cover is their weight (the sum of their bootstrap-weighted class
    // counts) for classification and their training rows for regression (whose leaves
    // keep no weight).
    const bool classification = task() == Task::classification;
    std::vector<TreeExplainer> shap;
    shap.reserve(trees_.size());
    for (const Tree& t : trees_)
        shap.push_back(cart_explainer(t, covers_from_leaves(t, [&](int leaf) {
                                          return classification ? t.node(leaf).weight
                                                                : static_cast<double>(t.node(leaf).samples);
                                      })));
    const double scale = 1.0 / static_cast<double>(trees_.size());
    const Index width = trees_.front().n_outputs() * (n_features() + 1);
    return contributions_by_row(X, width, 0.0, [&](const double* row, double* phi) {
        for (const TreeExplainer& e : shap) e.add(row, phi);
        for (Index j = 0; j < width; ++j) phi[j] *= scale;
    });
}

Json RandomForest::do_save_state() const {
    Json trees = Json::array();
    for (const Tree& t : trees_) trees.push_back(t.to_json(TreeLayout::compact));
    return state_with(std::move(trees));
}

Json RandomForest::do_save_state_for_file(JsonTextSlots& slots) const {
    std::optional<Json> trees = trees_text_slot(trees_, slots, TreeLayout::compact);
    return trees ? state_with(std::move(*trees)) : do_save_state();
}

Json RandomForest::state_with(Json trees) const {
    Json s{{"trees", std::move(trees)}, {"feature_importances", vector_to_json(importances_)}};
    if (oob_score_) s["oob_score"] = *oob_score_;
    if (permutation_importances_) s["permutation_importances"] = vector_to_json(*permutation_importances_);
    return s;
}

void RandomForest::do_load_state(const Json& state) {
    if (!state.contains("trees") || !state.at("trees").is_array() || state.at("trees").empty() ||
        !state.contains("feature_importances"))
        throw ModelStateError("forest state needs a non-empty \"trees\" array and \"feature_importances\"");
    const Index outputs = task() == Task::classification ? n_classes() : 1;
    const TreeLayout layout =
        json_integer<int>(state.at("state_version")) >= 2 ? TreeLayout::compact : TreeLayout::full;
    std::vector<Tree> trees;
    for (const Json& t : state.at("trees")) {
        Tree tree = Tree::from_json(t, n_features(), outputs, layout, declared_categories());
        if (tree.has_internal_values()) tree = tree.leaf_values_only();  // version 1: as fitted
        trees.push_back(std::move(tree));
    }
    Vector imp = vector_from_json(state.at("feature_importances"), "forest feature_importances", n_features());
    std::optional<double> oob;
    if (state.contains("oob_score")) {
        if (!state.at("oob_score").is_number()) throw ModelStateError("forest oob_score is not a number");
        oob = state.at("oob_score").get<double>();
    }
    std::optional<Vector> perm;
    if (state.contains("permutation_importances"))
        perm = vector_from_json(state.at("permutation_importances"), "forest permutation_importances", n_features());
    trees_ = std::move(trees);
    build_prediction_tables();
    importances_ = std::move(imp);
    oob_score_ = oob;
    permutation_importances_ = std::move(perm);
}

const ParamBinding<RandomForestParams>& forest_params() {
    using P = RandomForestParams;
    static const ParamBinding<P> binding = [] {
        ParamBinding<P> b{
            bind(&P::n_estimators, int_param("n_estimators", 100, "number of trees")
                                       .range(1, std::nullopt)
                                       .like("scikit-learn n_estimators; ranger num.trees")),
            bind(&P::bootstrap, bool_param("bootstrap", true, "draw each tree's rows with replacement (0: without)")
                                    .like("scikit-learn bootstrap; ranger replace")),
            bind(&P::max_samples,
                 real_param("max_samples", 1.0, "rows drawn per tree, as a fraction of the training rows")
                     .range(0.0, 1.0)
                     .open_below()
                     .like("scikit-learn max_samples (a float); ranger sample.fraction")),
            bind(&P::oob,
                 bool_param("oob", false, "compute the out-of-bag accuracy (classification) or R² (regression)")
                     .like("scikit-learn oob_score; ranger prediction.error")),
            bind(&P::importance, choice_param("importance", "impurity", {"impurity", "permutation"},
                                              "impurity: mean decrease in impurity only; permutation: also the "
                                              "out-of-bag permutation importance (saved as permutation_importances)")
                                     .like("ranger importance='impurity'|'permutation'")),
            bind(&P::tree_method,
                 choice_param("tree_method", "auto", {"auto", "exact", "hist"},
                              "exact: CART on sorted values, each tree on a draw of m rows; hist: binned "
                              "thresholds, trees grown level by level, each row's bootstrap count drawn "
                              "alone (the forest that trains on shards); auto: hist on rows spread over "
                              "MPI ranks, else exact")
                     .like("XGBoost tree_method='exact'|'hist'")),
            bind(&P::max_bins,
                 int_param("max_bins", 255, "tree_method=hist: bins per feature (plus one for missing values)")
                     .range(2, 65535)
                     .like("XGBoost max_bin; LightGBM max_bin")),
        };
        b.add(tree_growth_bindings("auto"));
        b.add(tree_class_weight_param("scikit-learn RandomForestClassifier class_weight"));
        return b;
    }();
    return binding;
}

ModelInfo forest_model_info() {
    ModelInfo info = model_info_of<RandomForest>(
        "forest", "random forest: bootstrap-sampled CART trees with random feature subsets, parallel and reproducible",
        forest_params().spec(), {Task::classification, Task::regression}, kTreeCapabilities);
    info.refine = [](const Capabilities& declared, const Params& resolved) {
        Capabilities c = declared;
        const RandomForestParams p = forest_params().read(resolved);
        // Histogram trees on rows spread over ranks (docs/distributed.md): level-wise growth,
        // class weights that one rank's rows can give.
        c.sharded_rows = p.tree_method != "exact" && p.max_leaf_nodes == 0 && p.class_weight != "balanced";
        // The histogram trees split numeric features only: text columns are one-hot encoded.
        if (p.tree_method == "hist") c.native_categories = false;
        // On one process, from rows held quantized (docs/large-data.md).
        c.quantized_rows = p.tree_method == "hist" && p.max_leaf_nodes == 0;
        return c;
    };
    info.reports = [](const Params&) { return std::vector<std::string>{"tree"}; };
    info.search_space = forest_search_space();
    return info;
}

SearchSpace forest_search_space() {
    // auto-sklearn's random forest space (max_features as a fraction, min_samples_leaf
    // 1..20), with the √d choice of ranger and scikit-learn's classifier default added.
    return {.axes = {"max_features=choice(sqrt,0.2,0.4,0.6,all)", "min_samples_leaf=randint(1,21)",
                     "bootstrap=choice(1,0)", "n_estimators=100"},
            .portfolio = {// Half the features and leaves of 3 rows: TabRepo's random forest
                          // configurations draw max_features over 0.5..1 and leaves of 1..5 rows.
                          "max_features=0.5 min_samples_leaf=3",
                          // TabRepo's RandomForest_r configurations' max_features 0.75, leaves of 1.
                          "max_features=0.75",
                          // Every feature at each split (bagged trees): scikit-learn
                          // RandomForestRegressor's max_features=1.0, smoothed by leaves of 5 rows.
                          "max_features=all min_samples_leaf=5"},
            .cost = 3};
}

}  // namespace kestrel
