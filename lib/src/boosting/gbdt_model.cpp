// `gbdt` after the fit: prediction, reports, learned state and the parameter table.
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "kestrel/boosting/gbdt.hpp"
#include "kestrel/common/coef_json.hpp"
#include "kestrel/core/error.hpp"
#include "kestrel/core/number_text.hpp"

namespace kestrel {
namespace {

constexpr Index kPredictBlock = 256;

}  // namespace

LossKind resolve_loss(const std::string& loss, const Dataset& data) {
    const bool classification = data.task == Task::classification;
    if (loss == "auto")
        return !classification ? LossKind::squared : (data.n_classes() > 2 ? LossKind::softmax : LossKind::logistic);
    const LossKind k = loss_from_string(loss);
    if (classification && !is_classification_loss(k))
        throw ParamError("parameter loss=" + loss + " of model gbdt is a regression loss; the data has classes "
                         "(valid: auto, logistic, softmax)");
    if (!classification && is_classification_loss(k))
        throw ParamError("parameter loss=" + loss + " of model gbdt is a classification loss; the data is a regression "
                         "(valid: auto, squared, absolute, huber)");
    if (k == LossKind::logistic && data.n_classes() > 2)
        throw ParamError("parameter loss=logistic of model gbdt needs two classes, the data has " +
                         std::to_string(data.n_classes()) + " (valid: auto, softmax)");
    return k;
}

Matrix Gbdt::raw_scores(const Features& X) const {
    const Index n = X.rows(), d = X.cols(), K = n_outputs();
    std::vector<double> out(static_cast<std::size_t>(n * K));
    const Index blocks = (n + kPredictBlock - 1) / kPredictBlock;
    const bool sparse = X.is_sparse();
#pragma omp parallel num_threads(std::max(1, omp_get_max_threads())) if (blocks > 1)
    {
        // A sparse row is read as a dense one whose absent entries are missing (NaN).
        std::vector<double> row(sparse ? static_cast<std::size_t>(d) : 0, std::numeric_limits<double>::quiet_NaN());
#pragma omp for schedule(static)
        for (Index b = 0; b < blocks; ++b) {
            for (Index i = b * kPredictBlock; i < std::min(n, (b + 1) * kPredictBlock); ++i) {
                const double* x;
                if (sparse) {
                    for (SparseMatrix::InnerIterator it(X.sparse_ref(), i); it; ++it)
                        row[static_cast<std::size_t>(it.col())] = it.value();
                    x = row.data();
                } else {
                    x = X.dense_ref().row(i).data();
                }
                double* o = out.data() + i * K;
                for (Index c = 0; c < K; ++c) o[c] = base_score_[static_cast<std::size_t>(c)];
                for (std::size_t t = 0; t < trees_.size(); ++t)
                    o[static_cast<Index>(t) % K] += trees_[t].value(trees_[t].apply(x))[0];
                if (sparse)
                    for (SparseMatrix::InnerIterator it(X.sparse_ref(), i); it; ++it)
                        row[static_cast<std::size_t>(it.col())] = std::numeric_limits<double>::quiet_NaN();
            }
        }
    }
    Matrix m(n, K);
    for (Index i = 0; i < n; ++i)
        for (Index c = 0; c < K; ++c) m(i, c) = out[static_cast<std::size_t>(i * K + c)];
    return m;
}

Vector Gbdt::do_predict(const Features& X) const {
    if (task() == Task::classification) return scores_to_classes(do_predict_proba(X));
    return raw_scores(X).col(0);
}

Matrix Gbdt::do_decision_function(const Features& X) const {
    Matrix raw = raw_scores(X);
    // Two classes learned with softmax: one column, positive for classes[1].
    if (raw.cols() == 2) return raw.col(1) - raw.col(0);
    return raw;
}

Matrix Gbdt::do_predict_proba(const Features& X) const {
    return Loss{loss_, 1.0}.probabilities(raw_scores(X));
}

std::string Gbdt::do_report(const std::string& report_name, const ReportNames& names) const {
    const Index K = n_outputs();
    if (report_name == "tree") {
        std::string out;
        for (std::size_t t = 0; t < trees_.size(); ++t) {
            out += "round " + std::to_string(t / static_cast<std::size_t>(K) + 1);
            if (loss_ == LossKind::softmax) {
                const auto c = t % static_cast<std::size_t>(K);
                out += ", class " + (c < names.classes.size() ? names.classes[c] : std::to_string(c));
            }
            out += ":\n" + dump_tree(trees_[t], names.features, {});
        }
        return out;
    }
    std::string csv = validation_loss_.empty() ? "round,train_loss\n" : "round,train_loss,validation_loss\n";
    for (std::size_t t = 0; t < train_loss_.size(); ++t) {
        csv += std::to_string(t + 1) + "," + format_number(train_loss_[t]);
        if (!validation_loss_.empty()) csv += "," + format_number(validation_loss_[t]);
        csv += "\n";
    }
    return csv;
}

Json Gbdt::do_save_state() const {
    Json trees = Json::array();
    for (const Tree& t : trees_) trees.push_back(t.to_json());
    Json s = state_without_trees();
    s["trees"] = std::move(trees);
    return s;
}

Json Gbdt::do_save_state_for_file(JsonTextSlots& slots) const {
    std::optional<Json> trees = trees_text_slot(trees_, slots);
    if (!trees) return do_save_state();
    Json s = state_without_trees();
    s["trees"] = std::move(*trees);
    return s;
}

Json Gbdt::state_without_trees() const {
    Json base = Json::array(), tl = Json::array(), vl = Json::array();
    for (double b : base_score_) base.push_back(b);
    for (double x : train_loss_) tl.push_back(x);
    for (double x : validation_loss_) vl.push_back(x);
    return Json{{"loss", to_string(loss_)},
                {"base_score", base},
                {"feature_importances", vector_to_json(importances_)},
                {"train_loss", tl},
                {"validation_loss", vl}};
}

void Gbdt::do_load_state(const Json& state) {
    for (const char* key : {"loss", "base_score", "trees", "feature_importances", "train_loss", "validation_loss"})
        if (!state.contains(key)) throw std::runtime_error(std::string("gbdt state lacks \"") + key + "\"");
    const LossKind loss = loss_from_string(state.at("loss").get<std::string>());
    const bool classification = task() == Task::classification;
    if (classification != is_classification_loss(loss) || (loss == LossKind::logistic && n_classes() != 2))
        throw std::runtime_error("gbdt state: loss " + std::string(to_string(loss)) + " does not fit the model's task");
    const Index K = loss == LossKind::softmax ? n_classes() : 1;
    const Vector base = vector_from_json(state.at("base_score"), "gbdt base_score", K);
    const Json& ts = state.at("trees");
    if (!ts.is_array() || ts.empty() || ts.size() % static_cast<std::size_t>(K) != 0)
        throw std::runtime_error("gbdt state needs a positive multiple of " + std::to_string(K) + " trees");
    std::vector<Tree> trees;
    for (const Json& t : ts) trees.push_back(Tree::from_json(t, n_features(), 1));
    Vector imp = vector_from_json(state.at("feature_importances"), "gbdt feature_importances", n_features());
    const Vector tl = vector_from_json(state.at("train_loss"), "gbdt train_loss");
    const Vector vl = vector_from_json(state.at("validation_loss"), "gbdt validation_loss");
    if (vl.size() != 0 && vl.size() != tl.size())
        throw std::runtime_error("gbdt state: validation_loss and train_loss differ in length");
    loss_ = loss;
    base_score_.assign(base.data(), base.data() + base.size());
    trees_ = std::move(trees);
    importances_ = std::move(imp);
    train_loss_.assign(tl.data(), tl.data() + tl.size());
    validation_loss_.assign(vl.data(), vl.data() + vl.size());
}

const ParamBinding<GbdtParams>& gbdt_params() {
    using P = GbdtParams;
    static const ParamBinding<P> binding = [] {
        ParamDef base_score = real_param("base_score", 0.0,
                                         "initial raw score: auto = the best constant (mean, median, log-odds, log "
                                         "priors); a number: that value (a probability for logistic)")
                                  .also({"auto"})
                                  .like("XGBoost base_score");
        base_score.default_value = "auto";
        return ParamBinding<P>{
            bind(&P::loss, choice_param("loss", "auto", {"auto", "squared", "absolute", "huber", "logistic", "softmax"},
                                        "auto: squared (regression), logistic (2 classes), softmax (more)")
                               .like("XGBoost objective; scikit-learn HistGradientBoosting loss")),
            bind(&P::n_estimators,
                 int_param("n_estimators", 100, "boosting rounds (one tree per round, k with softmax)")
                     .range(1, std::nullopt)
                     .like("XGBoost num_boost_round; scikit-learn max_iter")),
            bind(&P::learning_rate, real_param("learning_rate", 0.1, "shrinkage of every tree's values")
                                        .range(0.0, std::nullopt)
                                        .open_below()
                                        .like("XGBoost eta (alias learning_rate); scikit-learn learning_rate")),
            bind(&P::max_depth, int_param("max_depth", 6, "depth limit of each tree (0 = none; needs max_leaves)")
                                    .range(0, 64)
                                    .like("XGBoost max_depth; scikit-learn max_depth")),
            bind(&P::max_leaves,
                 int_param("max_leaves", 0,
                           "> 0: leaf-wise growth, best gain first, up to this many leaves (0 = depth-wise)")
                     .range(0, std::nullopt)
                     .like("XGBoost max_leaves with grow_policy=lossguide; scikit-learn max_leaf_nodes")),
            bind(&P::min_child_weight,
                 real_param("min_child_weight", 1.0, "minimum Hessian sum in each child of a split")
                     .range(0.0, std::nullopt)
                     .like("XGBoost min_child_weight; scikit-learn min_hessian_to_split")),
            bind(&P::lambda, real_param("lambda", 1.0, "L2 penalty on leaf weights")
                                 .range(0.0, std::nullopt)
                                 .like("XGBoost lambda (reg_lambda); scikit-learn l2_regularization")),
            bind(&P::gamma, real_param("gamma", 0.0, "minimum gain of a split")
                                .range(0.0, std::nullopt)
                                .like("XGBoost gamma (min_split_loss)")),
            bind(&P::max_bins, int_param("max_bins", 255, "histogram bins per feature (plus one for missing values)")
                                   .range(2, 65535)
                                   .like("XGBoost max_bin; scikit-learn max_bins")),
            bind(&P::subsample,
                 real_param("subsample", 1.0, "fraction of rows drawn (seeded, without replacement) for each round")
                     .range(0.0, 1.0)
                     .open_below()
                     .like("XGBoost subsample")),
            bind(&P::colsample,
                 real_param("colsample", 1.0, "fraction of features drawn (seeded) for each round's trees")
                     .range(0.0, 1.0)
                     .open_below()
                     .like("XGBoost colsample_bytree")),
            bind(&P::early_stopping_rounds,
                 int_param("early_stopping_rounds", 0,
                           "> 0: stop when the validation loss has not improved for this many "
                           "rounds and keep the best round (0 = off)")
                     .range(0, std::nullopt)
                     .like("XGBoost early_stopping_rounds; scikit-learn n_iter_no_change")),
            bind(&P::validation_fraction,
                 real_param("validation_fraction", 0.1,
                            "fraction of rows held out (seeded, stratified) for early stopping")
                     .range(0.0, 1.0)
                     .open_below()
                     .open_above()
                     .like("scikit-learn validation_fraction")),
            bind(&P::huber_delta,
                 real_param("huber_delta", 1.0, "δ of the Huber loss: residuals beyond it count linearly")
                     .range(0.0, std::nullopt)
                     .open_below()
                     .like("XGBoost huber_slope (pseudo-Huber)")),
            bind(&P::base_score, base_score),
        };
    }();
    return binding;
}

ModelInfo gbdt_model_info() {
    ModelInfo info;
    info.name = "gbdt";
    info.summary = "histogram gradient boosting (XGBoost hist): squared/absolute/huber, logistic, softmax losses";
    info.spec = gbdt_params().spec();
    info.tasks = {Task::classification, Task::regression};
    info.multiclass = Multiclass::native;
    info.capabilities = {.decision_function = true,
                         .predict_proba = true,
                         .sparse_input = true,
                         .sample_weights = true,
                         .absent_is_missing = true,
                         .native_missing = true};
    info.reports = [](const Params&) { return std::vector<std::string>{"trace", "tree"}; };
    info.factory = [] { return std::make_unique<Gbdt>(); };
    return info;
}

}  // namespace kestrel
