#include "kestrel/pipeline/model.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <unordered_set>
#include <utility>

#include "kestrel/common/row_shards.hpp"
#include "kestrel/core/error.hpp"
#include "kestrel/core/json_packed.hpp"
#include "kestrel/core/json_read.hpp"
#include "kestrel/core/json_text.hpp"
#include "kestrel/core/rng.hpp"
#include "kestrel/io/atomic_file.hpp"
#include "kestrel/pipeline/registry.hpp"
#include "kestrel/preprocess/column_selector.hpp"
#include "kestrel/preprocess/encoders.hpp"
#include "kestrel/preprocess/resample.hpp"
#include "kestrel/svm/libsvm_model.hpp"
#include "ensemble_estimator.hpp"

namespace kestrel {

const char* kestrel_version() {
    return KESTREL_VERSION;
}

Task choose_task(const ModelSpec& spec, const RawLabels& labels) {
    const ModelInfo& info = registry().info(spec.model);
    if (spec.task) {
        if (!info.supports(*spec.task))
            throw UsageError("model " + spec.model + " does not do " + to_string(*spec.task));
        return *spec.task;
    }
    if (info.tasks.size() == 1) return info.tasks.front();
    // Rows in query groups are documents to rank: their grades are a score's target.
    if (!labels.qid.empty() && info.supports(Task::regression)) return Task::regression;
    // Both tasks: numbers with a fractional part, or integers taking more than
    // kMaxIntegerClasses values (prices, counts, scores), are a regression target;
    // anything else (words, a few integer codes) is a class label. --task overrides.
    if (!labels.all_numeric()) return Task::classification;
    if (!labels.all_integer()) return Task::regression;
    std::unordered_set<double> values;
    for (const double v : labels.numeric)
        if (values.insert(v).second && values.size() > kMaxIntegerClasses) return Task::regression;
    return Task::classification;
}

Dataset make_dataset(Table table, Task task) {
    if (!table.labels) throw DataError(table.source + ": no label column to train on");
    Dataset d;
    d.task = task;
    d.source = table.source;
    d.feature_names = std::move(table.feature_names);
    if (!table.categories.empty()) {
        d.categories = std::move(table.categories);
        for (const auto& c : d.categories) d.category_counts.push_back(static_cast<Index>(c.size()));
    }
    if (task == Task::classification)
        encode_classes(*table.labels, d);
    else
        d.y = numeric_targets(*table.labels, table.source);
    const std::vector<double>& qid = table.labels->qid;
    if (!qid.empty()) d.qid = Eigen::Map<const Vector>(qid.data(), static_cast<Index>(qid.size()));
    d.X = std::move(table.X);
    return d;
}

LabelColumn label_column_of(const Table& table, const ReadOptions& read) {
    LabelColumn c;
    if (!table.labels || table.fields == 0) return c;  // LIBSVM: the label is each row's first token
    if (!table.label_name.empty()) {
        c.name = table.label_name;
    } else if (!read.header) {
        // Without a header the label is a field index (a name would have been an error).
        c.index = 0;
        if (!read.label_col.empty()) {
            Index j = 0;
            const auto r = std::from_chars(read.label_col.data(), read.label_col.data() + read.label_col.size(), j);
            if (r.ec != std::errc() || r.ptr != read.label_col.data() + read.label_col.size() || j < 0) return {};
            c.index = j;
        }
    } else {
        return c;  // a header whose label cell is empty: nothing to find it by
    }
    c.ignored = read.ignore_columns;
    return c;
}

namespace {

// Features near the double's limits train without an error in many models and yet
// silently badly (an RBF kernel of squared distances of 1e600 is 0 everywhere):
// say so once per fit, before the estimator sees them.
void warn_on_extreme_magnitudes(const Dataset& d, const Context& ctx) {
    constexpr double overflow_squared = 1e150;  // squares and products pass 1e300
    double peak = 0;
    if (d.X.is_sparse()) {
        const auto& m = d.X.sparse_ref();
        if (m.nonZeros() > 0) peak = Eigen::Map<const Vector>(m.valuePtr(), m.nonZeros()).cwiseAbs().maxCoeff();
    } else if (d.X.rows() > 0 && d.X.cols() > 0) {
        peak = d.X.dense_ref().cwiseAbs().maxCoeff();
    }
    const bool huge = peak > overflow_squared, tiny = peak > 0 && peak < 1 / overflow_squared;
    if (!huge && !tiny) return;
    // The same text for every fold and grid point, so that the executables print it once.
    ctx.warning((d.source.empty() ? std::string("training data") : d.source) +
                (huge ? ": features above 1e150 in magnitude, where squares overflow"
                      : ": every feature below 1e-150 in magnitude, where squares underflow") +
                "; most models need them scaled (--scale standard)");
}

}  // namespace

Model Model::train(const ModelSpec& spec, const Dataset& data, const Context& ctx) {
    Model m = untrained(spec, data);
    std::optional<Dataset> prepared = m.fit_steps(data, ctx.rows_sharded);
    if (prepared)
        m.fit_estimator(std::move(*prepared), ctx);  // the prepared rows are ours to give up
    else
        m.fit_estimator(data, ctx);
    if (!spec.calibrate.empty()) m.calibrate(data, ctx);
    return m;
}

Model Model::train(const ModelSpec& spec, Dataset&& data, const Context& ctx) {
    if (!spec.calibrate.empty()) return train(spec, std::as_const(data), ctx);  // its folds need the rows
    Model m = untrained(spec, data);
    std::optional<Dataset> prepared = m.fit_steps(data, ctx.rows_sharded);
    if (!prepared) {
        m.fit_estimator(std::move(data), ctx);
    } else {
        data = Dataset();  // the raw rows are not needed past the steps
        m.fit_estimator(std::move(*prepared), ctx);
    }
    return m;
}

// A step fitted on rows spread over ranks must fit from what the ranks exchange (the
// scalers, the imputers, one-hot, poly); the others would differ from rank to rank
// (docs/distributed.md). Every rank reaches the same step, so every rank refuses it.
namespace {
void refuse_on_shards(const Transformer& t, const std::string& step) {
    if (t.fits_on_shards()) return;
    throw UsageError("--shard: the preprocessing step " + step +
                     " cannot be fitted from sums over ranks (docs/distributed.md lists the steps that can)");
}
}  // namespace

Model Model::untrained(const ModelSpec& spec, const Dataset& data) {
    Model m;
    m.spec_ = spec;
    m.task_ = data.task;
    m.classes_ = data.task == Task::classification ? data.classes : std::vector<std::string>{};
    m.feature_names_ = data.feature_names;
    if (!data.category_counts.empty()) m.categories_ = data.categories;
    m.n_features_ = data.cols();
    const ModelInfo& info = registry().info(spec.model);
    if (!info.supports(data.task))
        throw UsageError("model " + spec.model + " does not do " + to_string(data.task) +
                         (data.task == Task::classification
                              ? " (the labels look like classes; --task regression forces a numeric target)"
                              : ""));
    m.estimator_ = registry().create(*resolved_params(spec));
    if (!spec.resample.empty()) {
        parse_resample(spec.resample);  // a bad spec fails before any work
        check_resample_applies(data, spec.resample);
    }
    if (!spec.calibrate.empty()) {
        Calibration::check_method(spec.calibrate);
        if (data.task != Task::classification)
            throw UsageError("--calibrate calibrates class probabilities; it does not apply to regression");
        if (spec.calibrate_folds < 2) throw UsageError("--calibrate-folds must be at least 2");
    }
    m.label_column_ = data.label_column;
    m.provenance_["kestrel_version"] = kestrel_version();
    m.provenance_["rows"] = data.rows();
    if (!data.source.empty()) m.provenance_["data_file"] = data.source;
    return m;
}

namespace {

// In any rank's rows, when they are spread over ranks: every rank then takes the same steps.
bool has_missing_cells(const Features& X, bool rows_sharded) {
    double missing = 0;
    if (X.is_sparse()) {
        const SparseMatrix& m = X.sparse_ref();
        missing = std::any_of(m.valuePtr(), m.valuePtr() + m.nonZeros(), [](double v) { return std::isnan(v); });
    } else {
        missing = X.dense_ref().hasNaN();
    }
    sum_over_ranks(rows_sharded, std::span<double>(&missing, 1));
    return missing > 0;
}

}  // namespace

std::vector<std::string> Model::table_steps(const Features& X, const std::vector<Index>& category_counts,
                                            bool rows_sharded) const {
    std::vector<std::string> steps;
    const std::string& missing = spec_.missing;
    const bool imputer = missing != "auto" && missing != "keep";
    const bool has_missing = has_missing_cells(X, rows_sharded);
    if (missing == "keep" && has_missing && !estimator_->native_missing())
        throw UsageError("model " + spec_.model +
                         " does not take missing values (--missing keep); use --missing auto or an imputer");
    if (imputer || (has_missing && !estimator_->native_missing())) {
        // An imputer the user chose is kept even without missing cells in training:
        // it then imputes those met at predict time.
        std::string step = "impute:" + (imputer ? missing : std::string("median"));
        if (spec_.missing_indicator) step += ",indicator";
        steps.push_back(step);
    }
    const bool categorical = std::any_of(category_counts.begin(), category_counts.end(), [](Index k) { return k > 0; });
    // auto: a model that splits categories natively gets them as they are, every other
    // model one-hot; an explicit onehot applies to every model.
    const bool onehot = spec_.encode == "onehot" || (spec_.encode == "auto" && !estimator_->native_categories());
    if (categorical && onehot) {
        std::string step = "onehot";
        std::string options;
        if (spec_.max_categories > 0) options += "max_categories=" + std::to_string(spec_.max_categories);
        if (spec_.min_frequency > 0) {
            char text[32];
            const auto r = std::to_chars(text, text + sizeof text, spec_.min_frequency);
            options += (options.empty() ? "" : ",") + std::string("min_frequency=") + std::string(text, r.ptr);
        }
        // A wide encoding is given as sparse rows to a model that takes them.
        if (estimator_->supports_sparse()) options += (options.empty() ? "" : ",") + std::string("sparse");
        if (!options.empty()) step += ":" + options;
        steps.push_back(step);
    }
    return steps;
}

std::optional<Dataset> Model::fit_steps(const Dataset& data, bool rows_sharded) {
    std::vector<Index> roles = data.category_counts;
    CategoryLists categories = categories_;  // follow the columns through the steps
    const Features* X = &data.X;
    Features current;
    // Fits a step on the current columns (a one-hot step names its columns after
    // `names`) and moves them through it.
    const auto apply = [&](const std::string& kind, const CategoryLists& names) {
        auto t = make_transformer(kind);
        if (rows_sharded) {
            refuse_on_shards(*t, kind);
            t->fit_on_shards(*X, roles);
        } else {
            t->fit(*X, roles);
        }
        if (!names.empty()) set_category_names(*t, names);
        current = t->transform(*X);
        roles = t->output_roles(roles, current.cols());
        X = &current;
        steps_.push_back(std::move(t));
    };
    // kestrel-select's column selection comes first, so that the table steps see the
    // columns it keeps; then imputation and encoding; then the steps the user asked for.
    auto user = spec_.preprocessing.begin();
    for (; user != spec_.preprocessing.end() && user->rfind("select_columns", 0) == 0; ++user) {
        apply(*user, {});
        if (categories.empty()) continue;
        CategoryLists picked;
        for (Index c : column_selector_columns(*user)) picked.push_back(categories.at(static_cast<std::size_t>(c)));
        categories = std::move(picked);
    }
    // A later step keeps the columns' identities when it preserves the width (or only
    // appends indicator columns); anything else (one-hot) ends them.
    const auto apply_following = [&](const std::string& kind) {
        const std::vector<Index> in_roles = roles;
        apply(kind, categories);
        if (categories.empty()) return;
        if (roles.size() >= in_roles.size() && std::equal(in_roles.begin(), in_roles.end(), roles.begin()))
            categories.resize(roles.size());
        else
            categories.clear();
    };
    const std::vector<std::string> table = table_steps(*X, roles, rows_sharded);
    // --encode ordinal gives the codes to the model as numbers, even one that splits
    // categories natively: its columns then arrive without their category counts.
    const bool as_codes = spec_.encode == "ordinal" && std::any_of(roles.begin(), roles.end(), [](Index r) { return r > 0; });
    if (steps_.empty() && table.empty() && user == spec_.preprocessing.end() && !as_codes) return std::nullopt;
    for (const auto& kind : table) apply_following(kind);
    for (; user != spec_.preprocessing.end(); ++user) apply_following(*user);

    Dataset d;
    d.y = data.y;
    d.weights = data.weights;
    d.qid = data.qid;
    d.feature_names = data.feature_names;
    d.classes = data.classes;
    d.task = data.task;
    d.source = data.source;
    d.X = X == &data.X ? data.X : std::move(current);
    // What stays categorical after the steps (a model with native categories).
    if (spec_.encode != "ordinal" && std::any_of(roles.begin(), roles.end(), [](Index r) { return r > 0; })) {
        for (std::size_t j = 0; j < roles.size(); ++j) {
            d.category_counts.push_back(std::max<Index>(roles[j], 0));
            d.categories.push_back(j < categories.size() && roles[j] > 0 ? categories[j] : std::vector<std::string>{});
        }
    }
    return d;
}

// Resampling is train-time only: the steps are fitted on the rows as given, the
// estimator on the rebalanced rows they produce; nothing of it is needed to predict.
Dataset Model::resampled(const Dataset& data, const Context& ctx) {
    Dataset r = resample(data, parse_resample(spec_.resample), derive_seed(ctx.seed, 0x5a3b1e));
    provenance_["resample"] = spec_.resample;
    provenance_["resampled_rows"] = r.rows();
    return r;
}

namespace {

// The mean of each column over the rows (a sparse row's absent entries count as 0).
// Over every rank's rows when they are spread over ranks (kestrel-train --shard).
Vector column_means(const Features& X, const Context& ctx) {
    if (ctx.rows_sharded) {
        Vector sums(X.cols() + 1);
        sums.head(X.cols()) = X.transpose_multiply(Vector::Ones(X.rows()));
        sums[X.cols()] = static_cast<double>(X.rows());
        sum_over_ranks(ctx, sums);
        return sums.head(X.cols()) / std::max(1.0, sums[X.cols()]);
    }
    if (!X.is_sparse()) return X.dense_ref().colwise().mean().transpose();
    Vector sum = Vector::Zero(X.cols());
    const SparseMatrix& S = X.sparse_ref();
    for (Index i = 0; i < S.outerSize(); ++i)
        for (SparseMatrix::InnerIterator it(S, i); it; ++it) sum[it.col()] += it.value();
    return sum / static_cast<double>(std::max<Index>(1, X.rows()));
}

// Whether the model's contributions may need the training mean: the linear ones, which
// the Model computes from linear_weights (w_j (x_j - mean_j)), and which are known only
// after the fit. Estimators that explain themselves (the trees, by their covers) skip
// it, so that a very wide sparse file reaches the tree's own memory check instead of
// allocating a mean per column here.
bool needs_feature_mean(const Estimator& e) { return !e.has_contributions(); }

}  // namespace

std::vector<Dataset> Model::prepared_eval_sets(const Context& ctx, Context& fit_ctx) const {
    std::vector<Dataset> sets;
    if (ctx.eval_sets.empty()) return sets;
    if (!estimator_->watches_eval_sets())
        throw UsageError("model " + spec_.model + " does not watch validation sets (--valid is for gbdt)");
    sets.reserve(ctx.eval_sets.size());
    for (const EvalSet& e : ctx.eval_sets) {
        Dataset d;
        d.X = prepare(e.data->X);
        d.y = e.data->y;
        d.weights = e.data->weights;
        d.qid = e.data->qid;
        d.classes = e.data->classes;
        d.task = e.data->task;
        d.source = e.data->source;
        sets.push_back(std::move(d));
    }
    fit_ctx.eval_sets.clear();
    for (std::size_t i = 0; i < sets.size(); ++i) fit_ctx.eval_sets.push_back({ctx.eval_sets[i].name, &sets[i]});
    return sets;
}

void Model::refuse_steps_on_continuation(const Context& ctx) const {
    // The old trees split the columns as they were: a step fitted anew would move them.
    if (ctx.init_model != nullptr && !steps_.empty())
        throw UsageError("--init-model: a continued model takes no preprocessing steps (here: " +
                         step_kinds().front() + ")");
}

void Model::fit_estimator(const Dataset& data, const Context& ctx) {
    warn_on_extreme_magnitudes(data, ctx);
    Context fit_ctx = ctx;
    refuse_steps_on_continuation(ctx);
    const std::vector<Dataset> eval_sets = prepared_eval_sets(ctx, fit_ctx);
    Vector mean = needs_feature_mean(*estimator_) ? column_means(data.X, ctx) : Vector();
    if (spec_.resample.empty()) estimator_->fit(data, fit_ctx);
    else estimator_->fit(resampled(data, ctx), fit_ctx);
    if (mean.size() > 0 && estimator_->linear_weights().size() > 0 && mean.allFinite())
        feature_mean_ = std::move(mean);
}

void Model::fit_estimator(Dataset&& data, const Context& ctx) {
    warn_on_extreme_magnitudes(data, ctx);
    Context fit_ctx = ctx;
    refuse_steps_on_continuation(ctx);
    const std::vector<Dataset> eval_sets = prepared_eval_sets(ctx, fit_ctx);
    Vector mean = needs_feature_mean(*estimator_) ? column_means(data.X, ctx) : Vector();
    if (spec_.resample.empty()) {
        estimator_->fit(std::move(data), fit_ctx);
    } else {
        Dataset rebalanced = resampled(data, ctx);
        data = Dataset();
        estimator_->fit(std::move(rebalanced), fit_ctx);
    }
    if (mean.size() > 0 && estimator_->linear_weights().size() > 0 && mean.allFinite())
        feature_mean_ = std::move(mean);
}

Features Model::prepare(const Features& X) const {
    Features out = X;
    if (X.cols() != n_features_) {
        // A sparse file may simply not mention the highest features.
        if (X.is_sparse() && X.cols() < n_features_)
            out = X.with_cols(n_features_);
        else
            throw DataError("data has " + std::to_string(X.cols()) + " features but the model was trained on " +
                            std::to_string(n_features_));
    }
    for (const auto& s : steps_) out = s->transform(out);
    return out;
}

Vector Model::predict(const Features& X) const {
    const FiniteScoresCheck check(from_file_);
    if (!threshold_ && !calibration_) return estimator_->predict(prepare(X));
    const Features P = prepare(X);
    if (!threshold_) {  // scikit-learn's CalibratedClassifierCV: the most probable class, the first on ties
        const Matrix p = probabilities(P);
        Vector classes(p.rows());
        for (Index i = 0; i < p.rows(); ++i) p.row(i).maxCoeff(&classes.coeffRef(i));
        return classes;
    }
    const Matrix s = threshold_->score == "proba" ? probabilities(P) : estimator_->decision_function(P);
    const Vector score = s.col(s.cols() - 1);  // P(classes[1]) or the single decision column
    return (score.array() > threshold_->value).cast<double>();
}

std::string Model::threshold_score() const {
    if (has_predict_proba()) return "proba";
    if (estimator_->has_decision_function()) return "decision";
    return "";
}

void Model::set_threshold(const DecisionThreshold& t) {
    if (task_ != Task::classification)
        throw UsageError("--threshold needs a binary classifier; model " + spec_.model + " was trained for regression");
    if (classes_.size() != 2)
        throw UsageError("--threshold needs a binary classifier; model " + spec_.model + " has " +
                         std::to_string(classes_.size()) + " classes");
    const std::string score = threshold_score();
    if (score.empty())
        throw UsageError("--threshold: model " + spec_.model + " gives neither probabilities nor decision values");
    if (t.score != score)
        throw InternalError("threshold on '" + t.score + "' for a model whose score is '" + score + "'");
    if (!std::isfinite(t.value)) throw UsageError("--threshold must be a finite number");
    threshold_ = t;
}
Matrix Model::decision_function(const Features& X) const {
    const FiniteScoresCheck check(from_file_);
    return estimator_->decision_function(prepare(X));
}
Matrix Model::predict_proba(const Features& X) const {
    const FiniteScoresCheck check(from_file_);
    return probabilities(prepare(X));
}

std::vector<Index> Model::contribution_sources() const {
    if (ensemble_members())
        throw UsageError("--contrib: an ensemble (kestrel-auto --ensemble) gives no feature contributions; explain its "
                         "members, or use permutation importance (kestrel-explain --importance), which works for every model");
    if (!estimator_->has_contributions()) {
        const bool linear = estimator_->linear_weights().size() > 0;
        if (!linear)
            throw UsageError("--contrib: model " + spec_.model + " gives no feature contributions (valid: tree, "
                             "forest, gbdt and the linear models; docs/explanations.md)");
        if (!feature_mean_)
            throw UsageError("--contrib: this " + spec_.model + " model file holds no training mean (written before "
                             "format version 4); retrain it to get contributions");
    }
    // The input column each column the estimator sees is made from.
    std::vector<Index> source(static_cast<std::size_t>(n_features_));
    for (Index j = 0; j < n_features_; ++j) source[static_cast<std::size_t>(j)] = j;
    for (const auto& s : steps_) {
        const auto from = s->output_sources(static_cast<Index>(source.size()));
        if (!from)
            throw UsageError("--contrib: preprocessing step '" + s->kind() +
                             "' mixes input columns; contributions per input column are not defined for it");
        std::vector<Index> next;
        for (Index j : *from) next.push_back(source.at(static_cast<std::size_t>(j)));
        source = std::move(next);
    }
    return source;
}

Matrix Model::contributions(const Features& X) const {
    const std::vector<Index> source = contribution_sources();
    const Features P = prepare(X);
    const Matrix c = estimator_->has_contributions() ? estimator_->contributions(P) : linear_contributions(P);
    const auto dp = static_cast<Index>(source.size()), d = n_features_;
    const Index outputs = c.cols() / (dp + 1);
    Matrix out = Matrix::Zero(c.rows(), outputs * (d + 1));
    for (Index o = 0; o < outputs; ++o) {
        // Column by column in the estimator's order: a row's sums do not depend on the rows beside it.
        for (Index j = 0; j < dp; ++j) out.col(o * (d + 1) + source[static_cast<std::size_t>(j)]) += c.col(o * (dp + 1) + j);
        out.col(o * (d + 1) + d) = c.col(o * (dp + 1) + dp);
    }
    return out;
}

Matrix Model::linear_contributions(const Features& P) const {
    const Matrix W = estimator_->linear_weights();
    const Vector& mean = *feature_mean_;
    const Index d = P.cols(), K = W.rows();
    if (W.cols() != d || mean.size() != d) throw InternalError("linear contributions: widths disagree");
    const auto refuse = [&] {
        return UsageError("--contrib: model " + spec_.model + " has " + std::to_string(K) +
                          " rows of weights for its outputs; no contributions");
    };
    // The bias: the model's output at the mean, w·mean + b, for every row the same.
    const Features centre(DenseMatrix(mean.transpose()));
    const Matrix at_mean = task_ == Task::classification ? estimator_->decision_function(centre)
                                                         : Matrix(estimator_->predict(centre));
    if (at_mean.cols() != K) throw refuse();
    Matrix out(P.rows(), K * (d + 1));
    const DenseMatrix* dense = P.is_sparse() ? nullptr : &P.dense_ref();
    for (Index i = 0; i < P.rows(); ++i) {
        Vector x = dense ? Vector(dense->row(i).transpose()) : Vector(Vector::Zero(d));
        if (!dense)
            for (SparseMatrix::InnerIterator it(P.sparse_ref(), i); it; ++it) x[it.col()] = it.value();
        for (Index o = 0; o < K; ++o) {
            for (Index j = 0; j < d; ++j) out(i, o * (d + 1) + j) = W(o, j) * (x[j] - mean[j]);
            out(i, o * (d + 1) + d) = at_mean(0, o);
        }
    }
    return out;
}

std::vector<std::string> Model::contribution_names(Index outputs) const {
    std::vector<std::string> features = input_names();
    features.emplace_back("bias");
    if (outputs == 1) return features;
    std::vector<std::string> out;
    for (Index o = 0; o < outputs; ++o)
        for (const auto& f : features)
            out.push_back((static_cast<std::size_t>(o) < classes_.size() ? classes_[static_cast<std::size_t>(o)]
                                                                         : std::to_string(o)) +
                          ":" + f);
    return out;
}

ReadOptions Model::align_options(ReadOptions base) const {
    if (base.label_col.empty()) {
        // The training file's label column, where the file can be read by it: a name needs
        // a header, a field index a file without one. (The ignored columns need nothing:
        // with a header the features are picked by name, and they are never the label.)
        if (!label_column_.name.empty() && base.header) base.label_col = label_column_.name;
        else if (label_column_.index >= 0 && !base.header) base.label_col = std::to_string(label_column_.index);
    }
    if (!feature_names_.empty() && base.header) base.feature_columns = feature_names_;
    base.expected_features = n_features_;
    base.labels_optional = true;
    base.densify = !estimator_->absent_is_missing();
    base.feature_categories = categories_;  // empty: every column numeric
    bool imputes = estimator_->native_missing();
    for (const auto& s : steps_) imputes |= s->kind() == "impute_mean" || s->kind() == "impute";
    // A model that cannot take a missing cell has it named by the reader (file:line:column).
    if (imputes && base.missing == MissingPolicy::error) base.missing = MissingPolicy::keep;
    if (!imputes && base.missing == MissingPolicy::keep) base.missing = MissingPolicy::error;
    return base;
}

std::vector<std::string> Model::input_names() const {
    std::vector<std::string> features = feature_names_;
    if (features.empty())
        for (Index j = 0; j < n_features_; ++j)
            features.push_back(std::string("x").append(std::to_string(j + 1)));  // LIBSVM's 1-based indices
    return features;
}

std::vector<std::string> Model::prepared_feature_names() const {
    std::vector<std::string> features = input_names();
    for (const auto& s : steps_) features = s->output_names(features);
    return features;
}

CategoryLists Model::prepared_categories() const {
    if (categories_.empty()) return {};
    // Follow each input column through the steps by its role (still k codes?) and its
    // source (which input it came from); a step that mixes columns names no categories.
    CategoryLists lists = categories_;
    std::vector<Index> roles;
    for (const auto& c : categories_) roles.push_back(static_cast<Index>(c.size()));
    for (const auto& s : steps_) {
        const auto from = s->output_sources(static_cast<Index>(lists.size()));
        if (!from) return {};
        const std::vector<Index> out_roles = s->output_roles(roles, static_cast<Index>(from->size()));
        CategoryLists next(from->size());
        for (std::size_t j = 0; j < from->size(); ++j)
            if (out_roles[j] > 0) next[j] = lists.at(static_cast<std::size_t>((*from)[j]));
        lists = std::move(next);
        roles = out_roles;
    }
    return lists;
}

std::string Model::report(const std::string& name) const {
    const CategoryLists categories = prepared_categories();
    return estimator_->report(name, Estimator::ReportNames{prepared_feature_names(), classes_, &categories});
}

Json Model::to_json() const {
    return to_json(nullptr);
}
Json Model::to_json(JsonTextSlots& slots) const {
    return to_json(&slots);
}

Json Model::to_json(JsonTextSlots* slots) const {
    Json j;
    j["format"] = kModelFormat;
    j["version"] = label_column_.known()              ? 6
                   : ensemble_members()               ? 5
                   : calibration_ || feature_mean_    ? 4
                   : !categories_.empty()             ? 3
                   : threshold_                       ? 2
                                                      : 1;
    j["kestrel_version"] = kestrel_version();
    j["model"] = spec_.model;
    j["task"] = to_string(task_);
    j["params"] = estimator_->params();
    j["features"] = {{"count", n_features_}, {"names", feature_names_}};
    if (!categories_.empty()) j["features"]["categories"] = categories_;
    j["classes"] = classes_;
    j["preprocessing"] = Json::array();
    for (const auto& s : steps_) j["preprocessing"].push_back(s->to_json());
    if (has_non_finite(j["preprocessing"]))
        throw DataError("model " + spec_.model + ": a preprocessing step has NaN or infinite values; not saving it");
    j["state"] = slots ? estimator_->save_state(*slots) : estimator_->save_state();
    if (calibration_) {
        j["calibration"] = calibration_->to_json();
        j["calibration"]["folds"] = spec_.calibrate_folds;
    }
    if (feature_mean_) j["feature_mean"] = std::vector<double>(feature_mean_->data(), feature_mean_->data() + feature_mean_->size());
    if (threshold_)
        j["threshold"] = {
            {"value", threshold_->value}, {"score", threshold_->score}, {"criterion", threshold_->criterion}};
    if (label_column_.known()) {
        Json& label = j["label"];
        if (!label_column_.name.empty()) label["name"] = label_column_.name;
        else label["index"] = label_column_.index;
        label["ignored"] = label_column_.ignored;
    }
    j["provenance"] = provenance_;
    return j;
}

namespace {

// The model file's "label" (version 6): {"name": ..., "ignored": [...]} or {"index": ...,
// "ignored": [...]}.
LabelColumn read_label_column(const Json& j, const std::string& source) {
    const auto fail = [&](const std::string& why) { return ModelFileError(source, "invalid label: " + why); };
    if (!j.is_object()) throw fail("expected an object");
    LabelColumn c;
    const bool named = j.contains("name"), indexed = j.contains("index");
    if (named == indexed) throw fail("expected a column name or an index (one of them)");
    if (named) {
        if (!j["name"].is_string() || j["name"].get<std::string>().empty()) throw fail("name must be a non-empty string");
        c.name = j["name"].get<std::string>();
    } else {
        if (!j["index"].is_number_integer()) throw fail("index must be an integer");
        c.index = json_integer<Index>(j["index"]);
        if (c.index < 0) throw fail("index must not be negative");
    }
    if (j.contains("ignored")) {
        if (!j["ignored"].is_array()) throw fail("ignored must be an array of column names");
        for (const auto& name : j["ignored"]) {
            if (!name.is_string()) throw fail("ignored must be an array of column names");
            c.ignored.push_back(name.get<std::string>());
        }
    }
    return c;
}

}  // namespace

namespace {

// The first name listed twice (a model file's classes or feature names), if any.
std::optional<std::string> first_repeated(const std::vector<std::string>& names) {
    std::unordered_set<std::string_view> seen;
    for (const auto& n : names)
        if (!seen.insert(n).second) return n;
    return std::nullopt;
}

}  // namespace

Model Model::from_json(const Json& j, const std::string& source) {
    auto fail = [&](const std::string& why) { return ModelFileError(source, why); };
    if (!j.is_object()) throw fail("not a kestrel model (expected a JSON object)");
    if (!j.contains("format") || j["format"] != kModelFormat)
        throw fail("not a kestrel model (format is not \"" + std::string(kModelFormat) + "\")");
    if (!j.contains("version") || !j["version"].is_number_integer()) throw fail("model file has no format version");
    // Any integer, however large (a fuzzed 21474836481 once escaped as a bare range
    // error): compared as 64-bit, named as written.
    const Json& v = j["version"];
    const bool huge =
        v.is_number_unsigned() && v.get<std::uint64_t>() > static_cast<std::uint64_t>(kModelFormatVersion);
    const std::int64_t version = huge ? std::int64_t{kModelFormatVersion} + 1 : v.get<std::int64_t>();
    if (version > kModelFormatVersion)
        throw fail("model file format version " + v.dump() + " is newer than this kestrel " + kestrel_version() +
                   " reads (" + std::to_string(kModelFormatVersion) + "); upgrade kestrel");
    if (version < 1) throw fail("invalid model file format version " + v.dump());
    Model m;
    try {
        m.spec_.model = j.at("model").get<std::string>();
        const bool ensemble = m.spec_.model == kEnsembleModel;
        if (!ensemble && !registry().contains(m.spec_.model))
            throw fail("unknown model '" + m.spec_.model + "' (this kestrel knows: " + [] {
                std::string s;
                for (const auto& n : registry().names()) s += (s.empty() ? "" : ", ") + n;
                return s;
            }() + ")");
        m.task_ = task_from_string(j.at("task").get<std::string>());
        m.n_features_ = json_integer<Index>(j.at("features").at("count"));
        m.feature_names_ = j.at("features").at("names").get<std::vector<std::string>>();
        m.classes_ = j.at("classes").get<std::vector<std::string>>();
        if (m.n_features_ < 1) throw fail("feature count must be positive");
        if (!m.feature_names_.empty() && static_cast<Index>(m.feature_names_.size()) != m.n_features_)
            throw fail("feature names and feature count disagree");
        if (j.at("features").contains("categories")) {
            m.categories_ = j["features"]["categories"].get<CategoryLists>();
            if (static_cast<Index>(m.categories_.size()) != m.n_features_)
                throw fail("feature categories and feature count disagree");
            for (const auto& list : m.categories_)
                for (std::size_t c = 1; c < list.size(); ++c)
                    if (!(list[c - 1] < list[c])) throw fail("feature categories must be sorted and distinct");
        }
        if (m.task_ == Task::classification && m.classes_.size() < 2)
            throw fail("a classifier needs two classes or more");
        if (const auto dup = first_repeated(m.classes_)) throw fail("classes: class \"" + *dup + "\" is listed twice");
        if (const auto dup = first_repeated(m.feature_names_))
            throw fail("features.names: feature \"" + *dup + "\" is listed twice");
        m.spec_.params = j.at("params");
        std::shared_ptr<Estimator> est;
        if (ensemble) {
            if (!m.spec_.params.is_object() || !m.spec_.params.empty())
                throw fail("invalid parameters: an ensemble has none (its members have theirs)");
            est = std::make_shared<detail::EnsembleEstimator>();
        } else {
            try {
                resolve_params(m.spec_);
                est = registry().create(*m.spec_.resolved);
            } catch (const Error& e) {
                throw fail(std::string("invalid parameters: ") + e.what());
            }
        }
        if (ensemble && !j.at("preprocessing").empty())
            throw fail("an ensemble has no preprocessing of its own (its members do)");
        for (const auto& s : j.at("preprocessing")) {
            m.steps_.push_back(transformer_from_json(s));
            m.spec_.preprocessing.push_back(s.at("type").get<std::string>());
        }
        // A fitted step must accept the model's width: try it on one zero row. Without
        // steps there is nothing to try, and no dense row to allocate: a sparse model
        // may declare 2^31 features.
        // The categories declared per column follow the columns through the steps (as
        // fit_steps gave them to the estimator): the state's category counts are checked
        // against them before anything is sized by them.
        // Nothing here is sized by the declared width alone (a sparse model may declare
        // 2^31 features): `declared` is empty when no column declares categories, the
        // first step's own width is compared before the probe row is made, and a probe
        // wider than 2^24 features is a sparse row.
        Index width = m.n_features_;
        std::vector<Index> declared;
        for (const auto& list : m.categories_) declared.push_back(static_cast<Index>(list.size()));
        if (!m.steps_.empty()) {
            const Json& first = j.at("preprocessing").front();
            Index expects = -1;
            if (first.contains("in_features")) {
                expects = json_integer<Index>(first.at("in_features"));
            } else {
                for (const char* key : {"fill", "mean", "shift"})
                    if (first.contains(key) && first.at(key).is_array()) {
                        expects = static_cast<Index>(first.at(key).size());
                        break;
                    }
            }
            if (expects >= 0 && expects != m.n_features_)
                throw fail("preprocessing step " + m.steps_.front()->kind() + " expects " + std::to_string(expects) +
                           " features, the model declares " + std::to_string(m.n_features_));
            constexpr Index kDenseProbeFeatures = Index{1} << 24;
            Features probe = m.n_features_ <= kDenseProbeFeatures
                                 ? Features(DenseMatrix(DenseMatrix::Zero(1, m.n_features_)))
                                 : Features(SparseMatrix(1, m.n_features_));
            for (const auto& s : m.steps_) {
                probe = s->transform(probe);
                if (!declared.empty()) declared = s->output_roles(declared, probe.cols());
            }
            width = probe.cols();
            for (Index& r : declared) r = std::max<Index>(r, 0);
        }
        // The state's class count sizes its loaders' tables (a tree's value rows, a
        // forest's leaves): compared with the classes listed before it is read.
        if (const Json& st = j.at("state"); m.task_ == Task::classification && st.is_object() &&
                                            st.contains("n_classes") &&
                                            json_integer<Index>(st.at("n_classes")) != static_cast<Index>(m.classes_.size()))
            throw fail("state class count disagrees with the model's classes");
        est->load_state(j.at("state"), ensemble ? nullptr : &declared);
        if (ensemble) static_cast<const detail::EnsembleEstimator&>(*est).check_members(m.classes_, m.feature_names_);
        if (est->n_features() != width) throw fail("state feature count disagrees with the model's features");
        if (est->task() != m.task_) throw fail("state task disagrees with the model's task");
        if (m.task_ == Task::classification && est->n_classes() != static_cast<Index>(m.classes_.size()))
            throw fail("state class count disagrees with the model's classes");
        m.estimator_ = std::move(est);
        if (j.contains("calibration")) m.load_calibration(j["calibration"], source);
        if (j.contains("feature_mean")) {
            const auto mean = j["feature_mean"].get<std::vector<double>>();
            if (static_cast<Index>(mean.size()) != width) throw fail("feature_mean disagrees with the model's width");
            for (double x : mean)
                if (!std::isfinite(x)) throw fail("feature_mean holds a non-finite number");
            m.feature_mean_ = Eigen::Map<const Vector>(mean.data(), width);
        }
        if (j.contains("threshold")) {
            const Json& t = j["threshold"];
            DecisionThreshold th{t.at("value").get<double>(), t.at("score").get<std::string>(),
                                 t.value("criterion", std::string())};
            if (th.score != m.threshold_score())
                throw fail("threshold applies to '" + th.score + "' but the model's score is '" + m.threshold_score() +
                           "'");
            try {
                m.set_threshold(th);
            } catch (const Error& e) {
                throw fail(std::string("invalid threshold: ") + e.what());
            }
        }
        if (j.contains("label")) m.label_column_ = read_label_column(j["label"], source);
        m.provenance_ = j.value("provenance", Json::object());
        m.from_file_ = true;
    } catch (const ModelFileError&) {
        throw;
    } catch (const std::exception& e) {
        throw fail(std::string("invalid model file: ") + e.what());
    }
    return m;
}

void Model::save(const std::string& path) const {
    JsonTextSlots slots;
    const Json j = to_json(slots);
    // Written as it is produced (a forest's text is never whole in memory), and synced
    // to disk before the rename: a model file is a training run.
    write_file_atomically_in_pieces(
        path,
        [&](const TextSink& sink) {
            slots.set_sink(sink);
            sink(model_json_text(j, &slots));
        },
        Durability::synced);
}

Json libsvm_model_to_json(std::string_view text, const std::string& source) {
    const LibsvmModelFile f = read_libsvm_model(text, source);
    const auto n_classes = static_cast<Index>(f.task == Task::classification ? f.classes.size() : 0);
    const int version = registry().create(f.model, f.params)->state_version();
    Json j;
    j["format"] = kModelFormat;
    j["version"] = kModelFormatVersion;
    j["kestrel_version"] = kestrel_version();
    j["model"] = f.model;
    j["task"] = to_string(f.task);
    j["params"] = f.params;
    j["features"] = {{"count", f.n_features}, {"names", Json::array()}};
    j["classes"] = f.classes;
    j["preprocessing"] = Json::array();
    j["state"] = Estimator::with_shape(f.svm.to_json(), version, f.task, f.n_features, n_classes);
    j["provenance"] = {{"converted_from", "LIBSVM model file"}, {"source", source}};
    return j;
}

Model Model::load(const std::string& path) {
    std::string text = read_whole_file(path);
    if (text.find_first_not_of(" \t\r\n") == std::string::npos) throw ModelFileError(path, "model file is empty");
    // A model file from LIBSVM's svm-train (users bring their existing models).
    if (looks_like_libsvm_model(text)) return from_json(libsvm_model_to_json(text, path), path);
    // Tree nodes packed, without nlohmann's DOM of them; anything unusual (an error
    // included) is read again by Json::parse, whose DOM and messages are the reference.
    if (std::optional<Json> packed = parse_model_json(text)) {
        std::string().swap(text);
        return from_json(*packed, path);
    }
    Json j;
    try {
        j = Json::parse(text);
    } catch (const Json::parse_error& e) {
        throw ModelFileError(path,
                             "model file is truncated or not valid JSON (at byte " + std::to_string(e.byte) + ")");
    } catch (const Json::exception& e) {
        // A number past double's range (1e400) is out_of_range, not a parse_error.
        throw ModelFileError(path, std::string("model file is not valid JSON: ") + e.what());
    }
    return from_json(j, path);
}

}  // namespace kestrel
