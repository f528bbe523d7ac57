// The boosting loop of `gbdt`: gradients, one histogram tree per raw score and round,
// leaf renewal, early stopping. Prediction, state and parameters: gbdt_model.cpp.
#include "kestrel/boosting/gbdt.hpp"

#include <omp.h>

#include <algorithm>
#include <climits>
#include <cstdio>
#include <cmath>
#include <limits>
#include <numeric>
#include <utility>

#include "kestrel/boosting/eval_metrics.hpp"
#include "kestrel/boosting/gbdt_constraints.hpp"
#include "kestrel/boosting/gbdt_tree_learner.hpp"
#include "kestrel/boosting/histogram.hpp"
#include "kestrel/boosting/leaf_values.hpp"
#include "kestrel/common/quantized_table.hpp"
#include "kestrel/common/row_shards.hpp"
#include "kestrel/core/error.hpp"
#include "kestrel/core/interrupt.hpp"
#include "kestrel/core/memory.hpp"
#include "kestrel/core/rng.hpp"

namespace kestrel {
namespace {

// What the fit holds per raw score: scores of the training and validation rows,
// gradient pairs, and K trees a round at their largest; and its learners' rows. Softmax on thousands of
// classes (a label column of ids) is refused by check_memory before it is allocated,
// rather than found by the kernel's out-of-memory killer.
std::uint64_t fit_bytes(const HistTreeParams& tp, Index n, Index nv, Index K, Index rounds, Index learners,
                        bool sampled) {
    const double k = static_cast<double>(K);
    double leaves = static_cast<double>(std::max<Index>(n, 1));
    if (tp.max_leaves > 0) leaves = std::min(leaves, static_cast<double>(tp.max_leaves));
    if (tp.max_depth > 0) leaves = std::min(leaves, std::ldexp(1.0, std::min(tp.max_depth, 62)));
    const double per_tree = (2 * leaves - 1) * static_cast<double>(sizeof(TreeNode) + sizeof(double));
    // Each learner's rows by node and gradient pairs in node order (whose bytes the
    // partition's scratch rows share); a subsample's row list and membership flags.
    const double learner_row = sizeof(int) + sizeof(GradPair);
    const double sample_row = sampled ? sizeof(int) + sizeof(char) : 0;
    const double bytes = k * (static_cast<double>(n + nv) * sizeof(double) + static_cast<double>(n) * sizeof(GradPair) +
                              static_cast<double>(rounds) * per_tree) +
                         static_cast<double>(n) * (static_cast<double>(learners) * learner_row + sample_row);
    return bytes >= 1.8e19 ? std::numeric_limits<std::uint64_t>::max() : static_cast<std::uint64_t>(bytes);
}

// The learners a fit of K raw scores runs on `threads` threads: one, or, with at least two
// trees per thread, one per thread (the trees of a round in parallel) and one more for the
// trees past a multiple of them. Not on rows spread over ranks: each tree's sums over ranks
// must come in one order.
Index learner_count(Index K, int threads, bool rows_sharded) {
    if (rows_sharded || threads <= 1 || K < Index{2} * threads) return 1;
    return threads + (K % threads != 0 ? 1 : 0);
}

// Below this many rows a loop over rows runs on one thread: a fork-join costs more.
constexpr Index kParallelRows = 1 << 15;

// NaN is a missing value; an infinity has no bin.
void require_no_infinity(const Features& X) {
    const auto fail = [](Index i, Index j) {
        throw DataError("gbdt: feature " + std::to_string(j + 1) + " of row " + std::to_string(i + 1) +
                        " is infinite (NaN marks a missing value; infinities are not allowed)");
    };
    if (X.is_sparse()) {
        const SparseMatrix& S = X.sparse_ref();
        for (Index i = 0; i < S.rows(); ++i)
            for (SparseMatrix::InnerIterator it(S, i); it; ++it)
                if (std::isinf(it.value())) fail(i, it.col());
        return;
    }
    const DenseView M = X.dense_ref();
    for (Index i = 0; i < M.rows(); ++i)
        for (Index j = 0; j < M.cols(); ++j)
            if (std::isinf(M(i, j))) fail(i, j);
}

// A seeded hold-out for early stopping, stratified by class for classification.
void holdout_split(const Dataset& d, double fraction, std::uint64_t seed, std::vector<Index>& train,
                   std::vector<Index>& valid) {
    std::vector<std::vector<Index>> groups(d.task == Task::classification ? static_cast<std::size_t>(d.n_classes())
                                                                          : std::size_t{1});
    for (Index i = 0; i < d.rows(); ++i)
        groups[d.task == Task::classification ? static_cast<std::size_t>(d.y[i]) : 0].push_back(i);
    Rng rng(derive_seed(seed, 0x5e1ec7));
    for (auto& g : groups) {
        rng.shuffle(g);
        const auto n_valid = static_cast<std::size_t>(std::llround(fraction * static_cast<double>(g.size())));
        valid.insert(valid.end(), g.begin(), g.begin() + static_cast<std::ptrdiff_t>(n_valid));
        train.insert(train.end(), g.begin() + static_cast<std::ptrdiff_t>(n_valid), g.end());
    }
    std::sort(train.begin(), train.end());
    std::sort(valid.begin(), valid.end());
    if (train.empty() || valid.empty())
        throw DataError("gbdt: validation_fraction=" + std::to_string(fraction) + " leaves no rows to " +
                        (valid.empty() ? "validate on" : "train on") + " (" + std::to_string(d.rows()) + " rows)");
}

// The ranking losses' hold-out: whole queries (a seeded share of them), the rows
// ascending, so that each query's rows stay contiguous on both sides.
void holdout_queries(const Dataset& d, double fraction, std::uint64_t seed, std::vector<Index>& train,
                     std::vector<Index>& valid) {
    const std::vector<Index> starts = query_starts(d.qid);
    std::vector<Index> queries(starts.size() - 1);
    std::iota(queries.begin(), queries.end(), Index{0});
    Rng rng(derive_seed(seed, 0x5e1ec7));
    rng.shuffle(queries);
    const auto n_valid = static_cast<std::size_t>(std::llround(fraction * static_cast<double>(queries.size())));
    std::vector<char> held(queries.size(), 0);
    for (std::size_t k = 0; k < n_valid; ++k) held[static_cast<std::size_t>(queries[k])] = 1;
    for (std::size_t q = 0; q + 1 < starts.size(); ++q)
        for (Index i = starts[q]; i < starts[q + 1]; ++i) (held[q] ? valid : train).push_back(i);
    if (train.empty() || valid.empty())
        throw DataError("gbdt: validation_fraction=" + std::to_string(fraction) + " leaves no query to " +
                        (valid.empty() ? "validate on" : "train on") + " (" + std::to_string(queries.size()) +
                        " queries)");
}

std::string format_metric(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.6g", v);
    return buf;
}

Vector gather(const Vector& v, const std::vector<Index>& rows) {
    if (v.size() == 0 || rows.empty()) return v;
    Vector out(static_cast<Index>(rows.size()));
    for (std::size_t i = 0; i < rows.size(); ++i) out[static_cast<Index>(i)] = v[rows[i]];
    return out;
}

// Bernoulli(subsample) rows of the round, ascending; never empty.
void draw_rows(Index n, double subsample, Rng& rng, std::vector<int>& rows, std::vector<char>& in_sample) {
    rows.clear();
    std::fill(in_sample.begin(), in_sample.end(), 0);
    for (Index i = 0; i < n; ++i)
        if (rng.uniform() < subsample) rows.push_back(static_cast<int>(i));
    if (rows.empty()) rows.push_back(static_cast<int>(rng.below(static_cast<std::uint64_t>(n))));
    for (int r : rows) in_sample[static_cast<std::size_t>(r)] = 1;
}

// max(1, ⌊colsample · d⌋) features of the round, ascending.
std::vector<int> draw_features(Index d, double colsample, Rng& rng) {
    std::vector<int> f(static_cast<std::size_t>(d));
    std::iota(f.begin(), f.end(), 0);
    if (colsample >= 1) return f;
    const auto k = std::max<std::size_t>(1, static_cast<std::size_t>(colsample * static_cast<double>(d)));
    for (std::size_t i = 0; i < k; ++i) std::swap(f[i], f[i + rng.below(f.size() - i)]);
    f.resize(k);
    std::sort(f.begin(), f.end());
    return f;
}

// A set the fit evaluates every round: the internal hold-out, or one of Context::eval_sets.
struct Watched {
    std::string name;
    BinnedMatrix bins;
    Vector y, w;
    std::vector<double> F;  // raw scores, row-major rows x K
    std::vector<Index> queries;  // query_starts, with a ranking loss
};

// A ranking loss's query groups of `qid` (the rows given, or all), checked.
std::vector<Index> ranked_queries(const Loss& loss, const Vector& qid, const std::vector<Index>& rows,
                                  const std::string& what) {
    if (!is_ranking_loss(loss.kind)) return {};
    if (qid.size() == 0)
        throw DataError(std::string("gbdt: loss=") + to_string(loss.kind) + " ranks the documents of each query, and " +
                        what + " has no query groups (qid:N in a LIBSVM file, " + option_named("group_col") +
                        " COLUMN in a CSV file)");
    const Vector ids = gather(qid, rows);
    check_query_ids(ids, {}, what);
    return query_starts(ids);
}

// An eval set checked against the training data: same features, labels the fit knows.
void check_eval_set(const EvalSet& e, const Dataset& data, bool classification) {
    if (e.data == nullptr) throw DataError("gbdt: eval set " + e.name + " has no data");
    const Dataset& v = *e.data;
    if (v.cols() != data.cols())
        throw DataError("gbdt: " + e.name + " has " + std::to_string(v.cols()) + " features, the training data " +
                        std::to_string(data.cols()));
    if (v.rows() == 0) throw DataError("gbdt: " + e.name + " has no rows");
    if (v.y.size() != v.rows()) throw DataError("gbdt: " + e.name + " has no labels");
    if (v.weights.size() != 0 && v.weights.size() != v.rows())
        throw DataError("gbdt: " + e.name + " has " + std::to_string(v.weights.size()) + " weights for " +
                        std::to_string(v.rows()) + " rows");
    for (Index i = 0; i < v.rows(); ++i) {
        const double y = v.y[i];
        if (classification ? !(y >= 0 && y < static_cast<double>(data.n_classes()) && y == std::floor(y))
                           : !std::isfinite(y))
            throw DataError("gbdt: label of row " + std::to_string(i + 1) + " of " + e.name +
                            (classification ? " is not a class of the training data" : " is not a finite number"));
    }
    require_no_infinity(v.X);
}

std::vector<double> initial_scores(const GbdtParams& p, const Loss& loss, const Vector& y, const Vector& w, Index K,
                                   bool rows_sharded) {
    // Softmax under XGBoost's Hessian starts as XGBoost 1.7 does: one constant for every
    // class (its 0.5), i.e. uniform probabilities; under scikit-learn's, from the log priors.
    if (p.base_score.is("auto") && loss.kind == LossKind::softmax && p.hessian == "xgboost")
        return std::vector<double>(static_cast<std::size_t>(K), 0.0);
    if (p.base_score.is("auto")) return loss.initial_scores(y, w, K, rows_sharded);
    double s = p.base_score.value;
    if (loss.kind == LossKind::logistic) {
        if (!(s > 0 && s < 1))
            throw ParamError("parameter base_score=" + std::to_string(s) +
                             " of model gbdt: with loss=logistic it is a probability in (0, 1)");
        s = std::log(s / (1 - s));
    }
    // As XGBoost: a log-link base score is a mean in output space (its 0.5 is the margin log 0.5).
    if (has_log_link(loss.kind)) {
        if (!(s > 0))
            throw ParamError("parameter base_score=" + std::to_string(s) + " of model gbdt: with loss=" +
                             to_string(loss.kind) + " it is a mean of y, > 0");
        s = std::log(s);
    }
    return std::vector<double>(static_cast<std::size_t>(K), s);
}

// max_delta_step=auto: XGBoost's defaults, 0.7 with count:poisson and 0 (no clipping) otherwise.
double max_delta_step(const GbdtParams& p, LossKind kind) {
    if (p.max_delta_step.is("auto")) return kind == LossKind::poisson ? 0.7 : 0.0;
    return p.max_delta_step.value;
}

// learning_rate=auto: scikit-learn's step 0.1. XGBoost's softmax Hessian 2p(1-p) halves every
// leaf value, so under hessian=xgboost the same step needs eta 0.2 (measured on hpc_data, letter
// and digits: docs/models/gbdt.md, "The default learning rate"). A number is XGBoost's eta as given.
// min_data_in_leaf=auto: LightGBM's and scikit-learn's 20 rows, but at most a twentieth of the
// training rows, so that a table of a few dozen rows still grows trees (docs/models/gbdt.md,
// "Growing a tree"). A count above an int's range forbids every split, as any count above n does.
int min_data_in_leaf(const GbdtParams& p, Index training_rows) {
    if (!p.min_data_in_leaf.is("auto"))
        return static_cast<int>(std::min(p.min_data_in_leaf.value, static_cast<double>(std::numeric_limits<int>::max())));
    return static_cast<int>(std::min<Index>(20, training_rows / 20));
}

double learning_rate(const GbdtParams& p, const Loss& loss) {
    if (!p.learning_rate.is("auto")) return p.learning_rate.value;
    return loss.kind == LossKind::softmax ? 0.1 * loss.softmax_hessian_scale : 0.1;
}

Loss make_loss(const GbdtParams& p, const Dataset& data) {
    Loss loss;
    loss.kind = resolve_loss(p.loss, data);
    loss.delta = p.huber_delta;
    loss.softmax_hessian_scale = p.hessian == "xgboost" ? 2.0 : 1.0;
    loss.alpha = p.alpha;
    loss.tweedie_power = p.tweedie_variance_power;
    loss.max_delta_step = max_delta_step(p, loss.kind);
    loss.scale_pos_weight = p.scale_pos_weight;
    loss.rank_sigma = p.sigmoid;
    loss.truncation_level = static_cast<Index>(p.lambdarank_truncation_level);
    if (is_ranking_loss(loss.kind) && data.has_weights())
        throw DataError(std::string("gbdt: loss=") + to_string(loss.kind) +
                        " takes no sample weights (XGBoost weighs whole queries, not rows)");
    if (p.scale_pos_weight != 1 && loss.kind != LossKind::logistic)
        throw ParamError("parameter scale_pos_weight of model gbdt applies to loss=logistic only (the loss is " +
                         std::string(to_string(loss.kind)) + ")");
    return loss;
}

// The categorical splits of a grown tree, as category codes: a bin's codes go left when
// the bin does (the shared bin of rare categories holds several).
std::vector<Gbdt::CategoricalSplit> categorical_splits_of(const GrownTree& g, const BinCuts& cuts) {
    std::vector<Gbdt::CategoricalSplit> out;
    for (std::size_t i = 0; i < g.left_bins.size(); ++i) {
        const std::vector<std::uint32_t>& words = g.left_bins[i];
        if (words.empty()) continue;
        Gbdt::CategoricalSplit s;
        s.node = static_cast<int>(i);
        const std::vector<int>& bins = cuts.code_bins(g.tree.node(static_cast<int>(i)).feature);
        for (std::size_t c = 0; c < bins.size(); ++c) {
            const int b = bins[c];
            if (b >= 0 && ((words[static_cast<std::size_t>(b >> 5)] >> (b & 31)) & 1u)) s.left.push_back(static_cast<int>(c));
        }
        out.push_back(std::move(s));
    }
    return out;
}

// The raw scores S (all rows of a set, from Gbdt::raw_scores) of `rows` (all when empty)
// into F, rows x K row-major. raw_scores adds the trees to the base score in the model's
// order, as the boosting loop does: the sums a fit of all the rounds would have made.
void take_rows(const Matrix& S, const std::vector<Index>& rows, std::vector<double>& F) {
    const Index n = rows.empty() ? S.rows() : static_cast<Index>(rows.size()), K = S.cols();
    for (Index i = 0; i < n; ++i)
        for (Index c = 0; c < K; ++c)
            F[static_cast<std::size_t>(i * K + c)] = S(rows.empty() ? i : rows[static_cast<std::size_t>(i)], c);
}

// The model a fit continues (Context::init_model), checked against this fit: the same
// loss and categorical features. Estimator::fit has checked its kind, task and shape.
const Gbdt* continued_model(const Context& ctx, LossKind loss, const std::vector<Index>& category_counts) {
    if (ctx.init_model == nullptr) return nullptr;
    const auto* old = dynamic_cast<const Gbdt*>(ctx.init_model);
    if (old == nullptr) throw InternalError("gbdt: the model to continue is not a gbdt");
    if (old->loss() != loss)
        throw UsageError(std::string("gbdt: the model to continue was trained with loss=") + to_string(old->loss()) +
                         ", this fit has loss=" + to_string(loss));
    if (old->category_counts() != category_counts)
        throw DataError("gbdt: the categorical features or their category counts differ from the model to continue's");
    return old;
}

// The first `kept` entries of a per-round history.
std::vector<double> first_rounds(const std::vector<double>& v, Index kept) {
    return {v.begin(), v.begin() + std::min<std::ptrdiff_t>(static_cast<std::ptrdiff_t>(v.size()), kept)};
}

// Absolute, Huber and quantile losses re-fit each leaf to its rows' residuals y - F
// (F: this tree's raw score column, stride K). Leaves are independent, so each thread
// renews whole leaves with its own scratch and the result does not depend on threads.
void renew_leaf_values(const Loss& loss, GrownTree& g, std::span<const int> grouped, const Vector& y, const Vector& w,
                       const double* F, Index K, double learning_rate, int threads) {
    const auto n_leaves = static_cast<Index>(g.leaves.size());
#pragma omp parallel num_threads(threads) if (threads > 1 && n_leaves > 1)
    {
        std::vector<double> residuals, leaf_weights;
#pragma omp for schedule(dynamic)
        for (Index l = 0; l < n_leaves; ++l) {
            const auto leaf = static_cast<std::size_t>(l);
            residuals.clear();
            leaf_weights.clear();
            for (Index k = g.leaf_begin[leaf]; k < g.leaf_end[leaf]; ++k) {
                const int r = grouped[static_cast<std::size_t>(k)];
                residuals.push_back(y[r] - F[static_cast<std::size_t>(r) * static_cast<std::size_t>(K)]);
                if (w.size()) leaf_weights.push_back(w[r]);
            }
            if (residuals.empty()) continue;
            double v = loss.renewed_leaf(residuals, leaf_weights);
            // A renewed value stays within the leaf's monotone bounds (XGBoost 1.7's
            // adaptive leaves ignore them, which can break the constraint).
            if (!g.leaf_lower.empty()) v = std::clamp(v, g.leaf_lower[leaf], g.leaf_upper[leaf]);
            g.tree.value(g.leaves[leaf])[0] = learning_rate * v;
        }
    }
}

// One gbdt fit, in the order it runs. prepare (the constructor): the parameters, the checks
// of the data and the eval sets, the hold-out, the bins and the watched sets. continue
// (start_scores): the raw scores, trees and histories the rounds start from, the base
// score's or those of the model continued. boost: the rounds. finish: the last training
// loss and the early-stopping cut. Gbdt::do_fit moves the result into the model.
struct GbdtFit {
    GbdtFit(const GbdtParams& params, const Dataset& training, const Context& context);
    GbdtFit(const GbdtFit&) = delete;  // the learners hold the bins and cuts
    GbdtFit& operator=(const GbdtFit&) = delete;

    void start_scores();
    void boost();
    void finish();

    const GbdtParams& p;
    const Dataset& data;
    const Context& ctx;
    const Loss loss;
    const int threads;
    HistTreeParams tp;
    double subsample = 1, colsample = 1;
    Index rounds = 0, patience = 0;
    std::vector<Index> category_counts;  // none when every count is 0 (the numeric path, unchanged)
    const Gbdt* old = nullptr;           // the model continued
    Index start = 0;                     // rounds already made (XGBoost's xgb_model)
    std::vector<EvalMetric> metrics;
    std::vector<Index> train_rows, valid_rows;
    // The training rows' labels and weights: the data's own, or their copies for the rows
    // kept from a hold-out (a copy of every row would be 16 bytes a row for nothing).
    const Vector* y = nullptr;
    const Vector* w = nullptr;
    std::vector<Index> queries;
    const QuantizedTable* store = nullptr;  // the rows' codes when they came quantized
    BinCuts cuts;
    BinnedMatrix own_bins;            // the training rows' codes, unless they are store->bins()
    const BinnedMatrix* bins = &own_bins;
    std::vector<std::vector<int>> unseen;
    std::vector<Watched> watched;
    Index K = 0, n = 0;
    std::vector<std::string> eval_columns;
    std::vector<std::vector<double>> eval_history;

    std::vector<double> base;
    std::vector<double> F;  // raw scores of the training rows, row-major n x K
    std::vector<Tree> trees;
    std::vector<std::vector<Gbdt::CategoricalSplit>> cats;  // per tree, with categorical features
    std::vector<double> train_loss, valid_loss;
    Index best_rounds = 0;

private:
    void resolve_tree_params();
    void check_training_data();
    void check_eval_sets() const;
    void hold_out();
    void bin_rows();
    void take_store();
    void watch_sets();
    void check_fit_memory();
    // `rows`: the round's sample when subsample < 1; unread otherwise (every row).
    void grow_round(std::span<const int> rows, const std::vector<int>& features);
    void grow_tree(Index c, HistTreeLearner& learner, int inner, std::span<const int> rows,
                   const std::vector<int>& features);
    bool watch_round(Index t);

    // The boosting state: gradient pairs, weight sum, learners and a round's trees.
    std::vector<GradPair> gh_;
    double local_wsum_ = 0, wsum_ = 0;
    bool per_tree_threads_ = false;
    std::vector<HistTreeLearner> learners_;
    std::vector<Tree> round_trees_;
    std::vector<std::vector<Gbdt::CategoricalSplit>> round_cats_;
    std::vector<char> in_sample_;
    bool maximize_ = false;
    double best_ = 0;
    Vector kept_y_, kept_w_;  // the hold-out's training rows' labels and weights
};

GbdtFit::GbdtFit(const GbdtParams& params, const Dataset& training, const Context& context)
    : p(params), data(training), ctx(context), loss(make_loss(params, training)), threads(context.resolved_threads()),
      store(quantized_rows_of(training)) {
    resolve_tree_params();
    check_training_data();
    old = continued_model(ctx, loss.kind, category_counts);
    start = old ? old->rounds() : 0;
    metrics = parse_eval_metrics(p.eval_metric, loss);
    check_eval_sets();
    hold_out();
    bin_rows();
    watch_sets();
    check_fit_memory();
}

void GbdtFit::resolve_tree_params() {
    tp.max_depth = static_cast<int>(p.max_depth);
    tp.max_leaves = static_cast<int>(p.max_leaves);
    tp.min_child_weight = p.min_child_weight;
    tp.lambda = p.lambda;
    tp.gamma = p.gamma;
    tp.learning_rate = learning_rate(p, loss);
    tp.max_delta_step = max_delta_step(p, loss.kind);
    tp.cat_smooth = p.cat_smooth;
    tp.min_data_per_group = static_cast<int>(p.min_data_per_group);
    tp.max_cat_threshold = static_cast<int>(p.max_cat_threshold);
    tp.max_cat_to_onehot = static_cast<int>(p.max_cat_to_onehot);
    tp.rows_sharded = ctx.rows_sharded;
    if (tp.max_leaves == 1)
        throw ParamError("parameter max_leaves=1 of model gbdt: a split needs 2 leaves (valid: 0 = depth-wise, >= 2)");
    if (tp.max_depth == 0 && tp.max_leaves == 0)
        throw ParamError("parameter max_depth=0 (unlimited) of model gbdt needs leaf-wise growth: set max_leaves >= 2");
    subsample = p.subsample;
    colsample = p.colsample;
    rounds = static_cast<Index>(p.n_estimators);
    patience = static_cast<Index>(p.early_stopping_rounds);
}

// The rows, labels and categorical features a fit can take, and the constraints named
// against the features.
void GbdtFit::check_training_data() {
    if (data.rows() > INT_MAX) throw DataError("gbdt: at most " + std::to_string(INT_MAX) + " training rows");
    require_no_infinity(data.X);
    loss.check_labels(data.y);
    if (std::any_of(data.category_counts.begin(), data.category_counts.end(), [](Index k) { return k > 0; })) {
        if (static_cast<Index>(data.category_counts.size()) != data.cols())
            throw DataError("gbdt: " + std::to_string(data.category_counts.size()) + " category counts for " +
                            std::to_string(data.cols()) + " features");
        for (std::size_t j = 0; j < data.category_counts.size(); ++j)
            if (data.category_counts[j] > Gbdt::kMaxCategories)
                throw DataError("gbdt: feature " + std::to_string(j + 1) + " has " +
                                std::to_string(data.category_counts[j]) + " categories (at most " +
                                std::to_string(Gbdt::kMaxCategories) + ")");
        category_counts = data.category_counts;
    }
    tp.monotone = resolve_monotone_constraints(parse_monotone_constraints(p.monotone_constraints),
                                               data.feature_names, data.cols(), category_counts);
    tp.interactions = resolve_interaction_constraints(parse_interaction_constraints(p.interaction_constraints),
                                                      data.feature_names, data.cols());
}

void GbdtFit::check_eval_sets() const {
    for (const EvalSet& e : ctx.eval_sets) {
        check_eval_set(e, data, data.task == Task::classification);
        try {
            loss.check_labels(e.data->y);
        } catch (const DataError& err) {
            throw DataError(std::string(err.what()) + " (in " + e.name + ")");
        }
    }
}

// Without eval sets, early stopping watches a seeded hold-out of the training rows.
void GbdtFit::hold_out() {
    if (patience > 0 && ctx.eval_sets.empty()) {
        if (is_ranking_loss(loss.kind) && data.has_queries())
            holdout_queries(data, p.validation_fraction, ctx.seed, train_rows, valid_rows);
        else
            holdout_split(data, p.validation_fraction, ctx.seed, train_rows, valid_rows);
    }
    y = &data.y;
    w = &data.weights;
    if (!train_rows.empty()) {
        kept_y_ = gather(data.y, train_rows);
        kept_w_ = gather(data.weights, train_rows);
        y = &kept_y_;
        w = &kept_w_;
    }
    queries = ranked_queries(loss, data.qid, train_rows, "the training data");
}

void GbdtFit::bin_rows() {
    if (store) {
        take_store();
    } else {
        // Rows spread over ranks: the whole data's sample cuts the bins (the same cuts).
        cuts = ctx.rows_sharded ? BinCuts::fit_over_ranks(data.X, rows_over_ranks(true, data.rows()),
                                                          static_cast<int>(p.max_bins), ctx.seed, category_counts)
                                : BinCuts::fit(data.X, train_rows, static_cast<int>(p.max_bins), ctx.seed, threads,
                                               category_counts);
        // A wide sparse file is small beside its codes (a byte for every cell, absent ones too):
        // say what they need rather than run out of memory.
        const Index binned_rows = train_rows.empty() ? data.rows() : static_cast<Index>(train_rows.size());
        check_memory(BinnedMatrix::code_bytes(cuts, binned_rows, data.cols()), 0,
                     "gbdt: the bin codes of " + std::to_string(binned_rows) + " rows x " +
                         std::to_string(data.cols()) + " features");
        own_bins = BinnedMatrix(cuts, data.X, train_rows, threads);
    }
    // Per categorical feature, the codes no training row has: prediction sends them the
    // missing way. One list serves every tree, so a continuation needs the same lists.
    if (!category_counts.empty()) {
        unseen.resize(category_counts.size());
        for (Index f = 0; f < data.cols(); ++f) {
            if (!cuts.is_categorical(f)) continue;
            const std::vector<int>& code_bins = cuts.code_bins(f);
            for (std::size_t c = 0; c < code_bins.size(); ++c)
                if (code_bins[c] < 0) unseen[static_cast<std::size_t>(f)].push_back(static_cast<int>(c));
        }
    }
    if (old && old->unseen_categories() != unseen)
        throw DataError("gbdt: the categories seen in the training data differ from those of the model to continue");
}

// Rows that came quantized: their cuts are the store's, fit on all the rows (with a hold-out,
// the doubles' path cuts the training part only: docs/large-data.md), and the training rows'
// codes are the store's own matrix, not a copy, unless a hold-out takes some away.
void GbdtFit::take_store() {
    if (ctx.rows_sharded) throw InternalError("gbdt: rows held quantized on rows spread over ranks");
    if (old)
        throw UsageError("gbdt: a model to continue needs the training rows' values (its thresholds fall inside the "
                         "bins of rows held quantized)");
    if (store->max_bins() != p.max_bins || store->seed() != ctx.seed)
        throw UsageError("gbdt: the rows were quantized with max_bins=" + std::to_string(store->max_bins()) +
                         " and seed " + std::to_string(store->seed()) + ", the fit asks max_bins=" +
                         std::to_string(p.max_bins) + " and seed " + std::to_string(ctx.seed));
    if (store->bins().rows() != data.rows() || store->bins().cols() != data.cols())
        throw InternalError("gbdt: the quantized rows do not have the Dataset's shape");
    if (!store->absent_is_missing())
        throw InternalError("gbdt: the rows were quantized with absent sparse entries as zeros, not missing");
    cuts = store->cuts();
    if (train_rows.empty())
        bins = &store->bins();
    else
        own_bins = store->bins().rows_subset(train_rows);
}

// The hold-out and the eval sets, binned by the training cuts. One column per (set,
// metric), XGBoost's "validation_0-logloss"; early stopping watches the last metric of the
// last set, as XGBoost does.
void GbdtFit::watch_sets() {
    if (!valid_rows.empty())
        watched.push_back({"holdout",
                           store ? store->bins().rows_subset(valid_rows) : BinnedMatrix(cuts, data.X, valid_rows, threads),
                           gather(data.y, valid_rows),
                           gather(data.weights, valid_rows), {}, ranked_queries(loss, data.qid, valid_rows, "holdout")});
    for (const EvalSet& e : ctx.eval_sets)
        watched.push_back({e.name, BinnedMatrix(cuts, e.data->X, {}, threads), e.data->y, e.data->weights, {},
                           ranked_queries(loss, e.data->qid, {}, e.name)});
    for (const Watched& s : watched)
        for (const EvalMetric& m : metrics) eval_columns.push_back(s.name + "-" + m.name);
    eval_history.resize(eval_columns.size());
}

void GbdtFit::check_fit_memory() {
    K = loss.n_outputs(data.n_classes());
    n = bins->rows();
    tp.min_data_in_leaf = min_data_in_leaf(p, rows_over_ranks(ctx.rows_sharded, n).total);
    Index nv = 0;
    for (const Watched& s : watched) nv += s.bins.rows();
    check_memory(fit_bytes(tp, n, nv, K, rounds, learner_count(K, threads, ctx.rows_sharded), subsample < 1), 0,
                 "gbdt with " + std::to_string(K) + " raw scores per row (one per class) over " + std::to_string(rounds) +
                     " rounds");
    if (old && old->n_outputs() != K) throw InternalError("gbdt: the model to continue has another number of raw scores");
}

void GbdtFit::start_scores() {
    base = old ? old->base_score() : initial_scores(p, loss, *y, *w, K, ctx.rows_sharded);
    F.resize(static_cast<std::size_t>(n * K));
    for (std::size_t i = 0; i < F.size(); ++i) F[i] = base[i % static_cast<std::size_t>(K)];
    for (Watched& s : watched) {
        s.F.resize(static_cast<std::size_t>(s.bins.rows() * K));
        for (std::size_t i = 0; i < s.F.size(); ++i) s.F[i] = base[i % static_cast<std::size_t>(K)];
    }
    best_rounds = start;
    if (!old) return;
    // The scores after the old rounds: its base score plus its trees, in order.
    const Matrix S = old->raw_scores(data.X);
    take_rows(S, train_rows, F);
    std::size_t next = 0;
    if (!valid_rows.empty()) take_rows(S, valid_rows, watched[next++].F);
    for (const EvalSet& e : ctx.eval_sets) take_rows(old->raw_scores(e.data->X), {}, watched[next++].F);
    // The old trees and histories: train_loss[i] is the loss after round i + 1, so the old
    // rounds' entries but the last (which this fit measures again at its first round, as a
    // fit of all the rounds would) are kept.
    trees = old->trees();
    cats = old->categorical_splits();
    train_loss = first_rounds(old->train_loss(), start - 1);
    // The validation histories go on when the old model watched the same columns; else
    // they cover this fit's rounds only (the trace aligns them with the last rounds).
    if (!watched.empty() && old->eval_columns() == eval_columns && !old->validation_loss().empty()) {
        valid_loss = first_rounds(old->validation_loss(), start);
        for (std::size_t c = 0; c < eval_history.size(); ++c) eval_history[c] = first_rounds(old->eval_history()[c], start);
    }
}

void GbdtFit::boost() {
    maximize_ = metrics.back().maximize;
    gh_.resize(static_cast<std::size_t>(n * K));
    local_wsum_ = w->size() ? w->sum() : static_cast<double>(n);
    wsum_ = local_wsum_;
    sum_over_ranks(ctx, std::span<double>(&wsum_, 1));
    per_tree_threads_ = learner_count(K, threads, ctx.rows_sharded) > 1;
    learners_.reserve(static_cast<std::size_t>(threads));
    for (int i = 0; i < (per_tree_threads_ ? threads : 1); ++i)
        learners_.emplace_back(*bins, cuts, tp, per_tree_threads_ ? 1 : threads);
    // The trees of a round past a multiple of the threads grow one at a time on all of them.
    if (per_tree_threads_ && K % threads != 0) learners_.emplace_back(*bins, cuts, tp, threads);
    round_trees_.resize(static_cast<std::size_t>(K));
    round_cats_.resize(static_cast<std::size_t>(K));
    std::vector<int> sample;
    if (subsample < 1) in_sample_.assign(static_cast<std::size_t>(n), 1);
    best_ = maximize_ ? -std::numeric_limits<double>::infinity() : std::numeric_limits<double>::infinity();
    for (Index t = start; t < start + rounds; ++t) {
        interruption_point();
        double loss_sum = loss.gradients(F.data(), *y, *w, K, gh_.data(), threads, queries);
        sum_over_ranks(ctx, std::span<double>(&loss_sum, 1));
        if (t > 0) train_loss.push_back(wsum_ > 0 ? loss_sum / wsum_ : 0.0);
        Rng rng(derive_seed(ctx.seed, static_cast<std::uint64_t>(t) + 1));
        if (subsample < 1) draw_rows(n, subsample, rng, sample, in_sample_);
        grow_round(sample, draw_features(data.cols(), colsample, rng));
        for (Tree& tr : round_trees_) trees.push_back(std::move(tr));
        if (cuts.any_categorical())
            for (auto& cs : round_cats_) cats.push_back(std::exchange(cs, {}));
        if (!watched.empty()) {
            if (watch_round(t)) break;
        } else {
            ctx.report("gbdt", static_cast<std::uint64_t>(t + 1 - start), static_cast<std::uint64_t>(rounds));
        }
    }
}

// One tree per raw score. With many scores (softmax) the trees of a round grow in
// parallel, one thread each, as many as fill every thread, and the rest (K mod threads) one
// at a time on all threads: 5 classes on 2 threads would otherwise leave a thread idle for a
// third of each round. Else one at a time, each on all threads. Either way a tree is
// computed the same, so the model does not depend on the thread count.
void GbdtFit::grow_round(std::span<const int> rows, const std::vector<int>& features) {
    if (per_tree_threads_) {
        const Index filled = K - K % threads;
#pragma omp parallel for schedule(dynamic) num_threads(threads)
        for (Index c = 0; c < filled; ++c)
            grow_tree(c, learners_[static_cast<std::size_t>(omp_get_thread_num())], 1, rows, features);
        for (Index c = filled; c < K; ++c) grow_tree(c, learners_.back(), threads, rows, features);
    } else {
        for (Index c = 0; c < K; ++c) grow_tree(c, learners_.front(), threads, rows, features);
    }
}

// Grows raw score c's tree of the round on `inner` threads and adds its values to the
// scores of the training rows (in the sample or not) and of the watched sets.
void GbdtFit::grow_tree(Index c, HistTreeLearner& learner, int inner, std::span<const int> rows,
                        const std::vector<int>& features) {
    GrownTree g = subsample < 1 ? learner.grow(rows, gh_.data() + c * n, features)
                                : learner.grow_all(gh_.data() + c * n, features);
    const std::span<const int> grouped = learner.rows();
    const auto n_leaves = static_cast<Index>(g.leaves.size());
    if (loss.renews_leaves())
        renew_leaf_values(loss, g, grouped, *y, *w, F.data() + c, K, tp.learning_rate,
                          inner > 1 && n >= kParallelRows ? inner : 1);
    add_leaf_values(g, grouped, F.data() + c, K, n, inner > 1 && n_leaves > 1 && n >= kParallelRows ? inner : 1);
    if (subsample < 1) {
#pragma omp parallel for schedule(static) num_threads(inner) if (inner > 1 && n >= kParallelRows)
        for (Index i = 0; i < n; ++i)
            if (!in_sample_[static_cast<std::size_t>(i)])
                F[static_cast<std::size_t>(i * K + c)] += g.tree.value(apply_binned(g, *bins, cuts, i))[0];
    }
    for (Watched& s : watched) {
        const Index ns = s.bins.rows();
#pragma omp parallel for schedule(static) num_threads(inner) if (inner > 1 && ns >= kParallelRows / 4)
        for (Index i = 0; i < ns; ++i)
            s.F[static_cast<std::size_t>(i * K + c)] += g.tree.value(apply_binned(g, s.bins, cuts, i))[0];
    }
    if (!g.left_bins.empty()) round_cats_[static_cast<std::size_t>(c)] = categorical_splits_of(g, cuts);
    round_trees_[static_cast<std::size_t>(c)] = std::move(g.tree);
}

// Round t's metrics on the watched sets, its progress line and early stopping's verdict:
// true when the last metric has not improved for `patience` rounds.
bool GbdtFit::watch_round(Index t) {
    std::size_t col = 0;
    double v = 0;
    for (const Watched& s : watched)
        for (const EvalMetric& m : metrics) {
            try {
                v = evaluate_metric(m, loss, s.F.data(), K, s.y, s.w, threads, s.queries);
            } catch (const DataError& e) {
                throw DataError("gbdt: eval_metric " + m.name + " on " + s.name + ": " + e.what());
            }
            eval_history[col++].push_back(v);
        }
    const Watched& last = watched.back();
    valid_loss.push_back(loss.mean(last.F.data(), last.y, last.w, K, threads, last.queries));
    if (ctx.progress)  // the label is text built per round: only for a terminal
        ctx.report("gbdt " + eval_columns.back() + " " + format_metric(v), static_cast<std::uint64_t>(t + 1 - start),
                   static_cast<std::uint64_t>(rounds));
    if (patience > 0) {
        if (maximize_ ? v > best_ : v < best_) {
            best_ = v;
            best_rounds = t + 1;
        } else if (t + 1 - best_rounds >= patience) {
            return true;
        }
    }
    return false;
}

void GbdtFit::finish() {
    double last_loss = loss.mean(F.data(), *y, *w, K, threads, queries);
    if (ctx.rows_sharded) {  // the mean over every rank's rows
        last_loss *= local_wsum_;
        sum_over_ranks(ctx, std::span<double>(&last_loss, 1));
        last_loss = wsum_ > 0 ? last_loss / wsum_ : 0.0;
    }
    train_loss.push_back(last_loss);
    if (patience > 0) {
        // A metric that never improved (NaN) keeps the first round.
        best_rounds = std::max<Index>(best_rounds, start + 1);
        trees.resize(static_cast<std::size_t>(best_rounds * K));
        if (!cats.empty()) cats.resize(trees.size());
    }
}

}  // namespace

std::uint64_t gbdt_fit_bytes(const GbdtParams& p, Index rows, Index classes, int threads) {
    const bool softmax = p.loss == "softmax" || (p.loss == "auto" && classes > 2);
    const Index K = softmax ? std::max<Index>(classes, 1) : 1;
    // A hold-out of early stopping (without eval sets): its rows are scored, not fitted.
    const Index valid =
        p.early_stopping_rounds > 0 ? static_cast<Index>(std::ceil(p.validation_fraction * static_cast<double>(rows))) : 0;
    HistTreeParams tp;
    tp.max_depth = static_cast<int>(p.max_depth);
    tp.max_leaves = static_cast<int>(p.max_leaves);
    return fit_bytes(tp, rows - std::min(valid, rows), std::min(valid, rows), K, static_cast<Index>(p.n_estimators),
                     learner_count(K, threads, false), p.subsample < 1);
}

void Gbdt::do_fit(const Dataset& data, const Context& ctx) {
    GbdtFit fit(p_, data, ctx);
    fit.start_scores();
    fit.boost();
    fit.finish();
    Vector gain = Vector::Zero(data.cols());
    for (const Tree& tr : fit.trees)
        for (int i = 0; i < tr.size(); ++i)
            if (!tr.node(i).is_leaf()) gain[tr.node(i).feature] += tr.node(i).impurity;
    loss_ = fit.loss.kind;
    xgboost_float32_ = false;  // kestrel's trees, kestrel's double sums (a continued XGBoost model too)
    base_score_ = fit.base;
    trees_ = std::move(fit.trees);
    importances_ = normalised(gain);
    train_loss_ = std::move(fit.train_loss);
    validation_loss_ = std::move(fit.valid_loss);
    eval_columns_ = std::move(fit.eval_columns);
    eval_history_ = std::move(fit.eval_history);
    best_iteration_ = fit.patience > 0 ? fit.best_rounds - 1 : -1;
    category_counts_ = std::move(fit.category_counts);
    unseen_ = std::move(fit.unseen);
    cat_splits_ = std::move(fit.cats);
    build_prediction_tables();
}

}  // namespace kestrel
