// The Model's core: the task and dataset of a table, training (the steps, then the
// estimator), prediction. Its preprocessing policy: model_steps.cpp; contributions:
// model_contributions.cpp; the model file: model_file.cpp and model_libsvm.cpp.
#include "kestrel/pipeline/model.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <unordered_set>
#include <utility>

#include "kestrel/common/quantized_table.hpp"
#include "kestrel/common/row_blocks.hpp"
#include "kestrel/common/row_shards.hpp"
#include "kestrel/core/error.hpp"
#include "kestrel/core/rng.hpp"
#include "kestrel/pipeline/registry.hpp"
#include "kestrel/preprocess/resample.hpp"

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
    constexpr double kOverflowSquared = 1e150;  // squares and products pass 1e300
    double peak = 0;
    if (d.X.is_sparse()) {
        const auto& m = d.X.sparse_ref();
        if (m.nonZeros() > 0) peak = Eigen::Map<const Vector>(m.valuePtr(), m.nonZeros()).cwiseAbs().maxCoeff();
    } else if (d.X.rows() > 0 && d.X.cols() > 0) {
        peak = d.X.dense_ref().cwiseAbs().maxCoeff();
    }
    const bool huge = peak > kOverflowSquared, tiny = peak > 0 && peak < 1 / kOverflowSquared;
    if (!huge && !tiny) return;
    // The same text for every fold and grid point, so that the executables print it once.
    ctx.warning((d.source.empty() ? std::string("training data") : d.source) +
                (huge ? ": features above 1e150 in magnitude, where squares overflow"
                      : ": every feature below 1e-150 in magnitude, where squares underflow") +
                "; most models need them scaled (" + option_named("scale") + " standard)");
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
                              ? " (the labels look like classes; " + option_named("task") + " regression forces a numeric target)"
                              : ErrorText()));
    m.estimator_ = registry().create(*resolved_params(spec));
    if (!spec.resample.empty()) {
        parse_resample(spec.resample);  // a bad spec fails before any work
        check_resample_applies(data, spec.resample);
    }
    if (!spec.calibrate.empty()) {
        Calibration::check_method(spec.calibrate);
        if (data.task != Task::classification)
            throw UsageError(option_named("calibrate") + " calibrates class probabilities; it does not apply to regression");
        if (spec.calibrate_folds < 2) throw UsageError(option_named("calibrate_folds") + " must be at least 2");
    }
    m.label_column_ = data.label_column;
    m.provenance_["kestrel_version"] = kestrel_version();
    m.provenance_["rows"] = data.rows();
    if (!data.source.empty()) m.provenance_["data_file"] = data.source;
    return m;
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
// Over the rows of a stream, the means its first pass gathered.
Vector column_means(const Dataset& data, const Context& ctx) {
    if (const RowBlocks* blocks = streamed_rows_of(data)) return blocks->column_means();
    const Features& X = data.X;
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
        throw UsageError("model " + spec_.model + " does not watch validation sets (" + option_named("valid") + " is for gbdt)");
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
        throw UsageError(option_named("init_model") + ": a continued model takes no preprocessing steps (here: " +
                         step_kinds().front() + ")");
}

namespace {

// Rows held quantized (docs/large-data.md) have no values in X: only a model that reads their
// store (Capabilities::quantized_rows: gbdt, the histogram forest) fits on them, and only as
// they are (resampling, or a multiclass wrapper's members, would fit on rows or with seeds the
// store was not made for).
void refuse_misread_store(const ModelSpec& spec, const Dataset& data) {
    if (quantized_rows_of(data) == nullptr) return;
    const std::shared_ptr<const ResolvedParams> resolved = resolved_params(spec);
    const Params& p = resolved->values();
    if (!registry().capabilities(*resolved).quantized_rows || !spec.resample.empty() ||
        p.value("multiclass", std::string("auto")) != "auto")
        throw InternalError("model " + spec.model + " was given rows held quantized, which it does not read as they are");
}

// Rows read as a stream (docs/large-data.md) have no values in X either: only a model whose
// loss sums over parts of its rows reads them, as they are.
void refuse_misread_stream(const ModelSpec& spec, const Dataset& data) {
    if (streamed_rows_of(data) == nullptr) return;
    const Params& p = resolved_params(spec)->values();
    if (!registry().capabilities(*resolved_params(spec)).streamed_rows || !spec.resample.empty() ||
        p.value("multiclass", std::string("auto")) != "auto")
        throw InternalError("model " + spec.model + " was given rows read as a stream, which it cannot sum block by block");
    // A binary model's one-vs-rest members would fit relabelled copies, perhaps on other threads.
    if (data.task == Task::classification && data.n_classes() > 2 &&
        registry().info(spec.model).multiclass == Multiclass::binary_only)
        throw InternalError("model " + spec.model + " was given " + std::to_string(data.n_classes()) +
                            " classes read as a stream: its members cannot read the stream");
}

}  // namespace

void Model::fit_estimator(const Dataset& data, const Context& ctx) {
    refuse_misread_store(spec_, data);
    refuse_misread_stream(spec_, data);
    warn_on_extreme_magnitudes(data, ctx);
    Context fit_ctx = ctx;
    refuse_steps_on_continuation(ctx);
    const std::vector<Dataset> eval_sets = prepared_eval_sets(ctx, fit_ctx);
    Vector mean = needs_feature_mean(*estimator_) ? column_means(data, ctx) : Vector();
    if (spec_.resample.empty()) estimator_->fit(data, fit_ctx);
    else estimator_->fit(resampled(data, ctx), fit_ctx);
    if (mean.size() > 0 && estimator_->linear_weights().size() > 0 && mean.allFinite())
        feature_mean_ = std::move(mean);
}

void Model::fit_estimator(Dataset&& data, const Context& ctx) {
    refuse_misread_store(spec_, data);
    refuse_misread_stream(spec_, data);
    warn_on_extreme_magnitudes(data, ctx);
    Context fit_ctx = ctx;
    refuse_steps_on_continuation(ctx);
    const std::vector<Dataset> eval_sets = prepared_eval_sets(ctx, fit_ctx);
    Vector mean = needs_feature_mean(*estimator_) ? column_means(data, ctx) : Vector();
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
    Features out = X.view();  // no copy: the steps make new rows, and without steps the estimator reads X's
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
        throw UsageError(option_named("threshold") + " needs a binary classifier; model " + spec_.model +
                         " was trained for regression");
    if (classes_.size() != 2)
        throw UsageError(option_named("threshold") + " needs a binary classifier; model " + spec_.model + " has " +
                         std::to_string(classes_.size()) + " classes");
    const std::string score = threshold_score();
    if (score.empty())
        throw UsageError(option_named("threshold") + ": model " + spec_.model + " gives neither probabilities nor decision values");
    if (t.score != score)
        throw InternalError("threshold on '" + t.score + "' for a model whose score is '" + score + "'");
    if (!std::isfinite(t.value)) throw UsageError(option_named("threshold") + " must be a finite number");
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

}  // namespace kestrel
