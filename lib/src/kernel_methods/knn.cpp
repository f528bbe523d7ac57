// k-nearest neighbours classifier and regressor.
#include "kestrel/kernel_methods/knn.hpp"

#include <cmath>
#include <stdexcept>

#include "kestrel/core/error.hpp"
#include "kestrel/io/features_json.hpp"
#include "kestrel/kernels/kernel_params.hpp"

namespace kestrel {

void Knn::build_index(Features train, std::optional<KernelSpec> kernel, const Context* ctx) {
    const KnnParams& p = p_;
    const KnnMetric metric = knn_metric_from_string(p.metric);
    const std::string& algorithm = p.algorithm;
    const auto k = p.n_neighbors;
    const Index n = train.rows(), d = train.cols();
    const bool tree_metric = metric == KnnMetric::euclidean || metric == KnnMetric::manhattan;
    bool tree = false;
    if (algorithm == "kd_tree") {
        if (!tree_metric)
            throw ParamError("algorithm: kd_tree needs metric=euclidean or manhattan (metric is " +
                             std::string(to_string(metric)) + "); use algorithm=brute or auto");
        if (train.is_sparse()) {
            // As scikit-learn: a tree over sparse rows is not built; brute force gives the same neighbours.
            if (ctx) ctx->warning(name() + ": algorithm=kd_tree on sparse data; using brute force");
        } else {
            tree = true;
        }
    } else if (algorithm == "auto") {
        // scikit-learn's rule: trees pay in few dimensions and for k well below n.
        tree = tree_metric && !train.is_sparse() && d <= 16 && k < n / 2;
    }
    index_ = KnnIndex(std::move(train), metric, metric == KnnMetric::kernel ? kernel : std::nullopt, tree,
                      p.leaf_size);
}

void Knn::do_fit(const Dataset& data, const Context& ctx) {
    const KnnParams& p = p_;
    const auto k = p.n_neighbors;
    if (k > data.rows())
        throw ParamError("n_neighbors: " + std::to_string(k) + " is more than the " + std::to_string(data.rows()) +
                         " training rows");
    kernel_.reset();
    if (knn_metric_from_string(p.metric) == KnnMetric::kernel) {
        const KernelSpec spec = KernelSpec::parse(p.kernel);
        for (const auto& term : spec.terms)
            for (const auto& f : term.factors)
                if (f.kind == KernelKind::precomputed)
                    throw ParamError("kernel: a precomputed kernel cannot induce a distance for knn");
        kernel_ = kernel_from_params(p, data.X, ctx);
    }
    y_ = data.y;
    build_index(data.X, kernel_, &ctx);
}

Neighbors Knn::kneighbors(const Features& X) const {
    if (!fitted()) throw InternalError("knn used before it was fitted");
    return index_.query(X, p_.n_neighbors);
}

void Knn::weights_of(const Neighbors& nb, Index i, double* w) const {
    const Index k = nb.k;
    const double* dist = nb.distance.data() + i * k;
    if (p_.weights == "uniform") {
        std::fill(w, w + k, 1.0);
        return;
    }
    bool any_inf = false;
    for (Index t = 0; t < k; ++t) {
        w[t] = 1.0 / dist[t];
        any_inf = any_inf || std::isinf(w[t]);
    }
    if (any_inf)
        for (Index t = 0; t < k; ++t) w[t] = std::isinf(w[t]) ? 1.0 : 0.0;
}

Vector Knn::do_predict(const Features& X) const {
    if (task() == Task::classification) return scores_to_classes(do_predict_proba(X));
    const Neighbors nb = kneighbors(X);
    const Index k = nb.k;
    const bool uniform = p_.weights == "uniform";
    Vector out(X.rows());
    std::vector<double> w(static_cast<std::size_t>(k));
    for (Index i = 0; i < X.rows(); ++i) {
        const Index* idx = nb.index.data() + i * k;
        weights_of(nb, i, w.data());
        double num = 0, den = 0;
        for (Index t = 0; t < k; ++t) {
            num += (uniform ? y_[idx[t]] : y_[idx[t]] * w[static_cast<std::size_t>(t)]);
            den += w[static_cast<std::size_t>(t)];
        }
        out[i] = uniform ? num / static_cast<double>(k) : num / den;
    }
    return out;
}

Matrix Knn::do_predict_proba(const Features& X) const {
    const Neighbors nb = kneighbors(X);
    const Index k = nb.k, nc = n_classes();
    Matrix out = Matrix::Zero(X.rows(), nc);
    std::vector<double> w(static_cast<std::size_t>(k));
    for (Index i = 0; i < X.rows(); ++i) {
        const Index* idx = nb.index.data() + i * k;
        weights_of(nb, i, w.data());
        for (Index t = 0; t < k; ++t) out(i, static_cast<Index>(y_[idx[t]])) += w[static_cast<std::size_t>(t)];
        double total = out.row(i).sum();
        if (total == 0) total = 1;  // scikit-learn's guard
        out.row(i) /= total;
    }
    return out;
}

Json Knn::do_save_state() const { return state_json(nullptr); }
Json Knn::do_save_state_for_file(JsonTextSlots& slots) const { return state_json(&slots); }

Json Knn::state_json(JsonTextSlots* slots) const {
    Json y = Json::array();
    for (Index i = 0; i < y_.size(); ++i) {
        if (task() == Task::classification)
            y.push_back(static_cast<long long>(y_[i]));
        else
            y.push_back(y_[i]);
    }
    const Features& rows = index_.train();
    Json s = {{"rows", slots ? features_to_json(rows, *slots) : features_to_json(rows)}, {"y", std::move(y)}};
    if (kernel_) s["kernel"] = kernel_->to_json();
    return s;
}

void Knn::do_load_state(const Json& state) {
    Features X = features_from_json(state.at("rows"), n_features());
    const Json& y = state.at("y");
    if (!y.is_array() || static_cast<Index>(y.size()) != X.rows())
        throw ModelStateError("knn: \"y\" must hold one value per training row");
    const auto k = p_.n_neighbors;
    if (X.rows() < k) throw ModelStateError("knn: fewer training rows than n_neighbors");
    Vector yy(X.rows());
    for (Index i = 0; i < X.rows(); ++i) {
        const Json& v = y[static_cast<std::size_t>(i)];
        if (!v.is_number()) throw ModelStateError("knn: \"y\" holds a non-number");
        yy[i] = v.get<double>();
        if (task() == Task::classification &&
            (!v.is_number_integer() || yy[i] < 0 || yy[i] >= static_cast<double>(n_classes())))
            throw ModelStateError("knn: class index out of range in \"y\"");
    }
    std::optional<KernelSpec> kernel;
    const bool kernel_metric = knn_metric_from_string(p_.metric) == KnnMetric::kernel;
    if (kernel_metric) {
        if (!state.contains("kernel")) throw ModelStateError("knn: metric=kernel but the state has no kernel");
        kernel = KernelSpec::from_json(state.at("kernel"));
        if (!kernel->resolved()) throw ModelStateError("knn: the stored kernel is not resolved");
    }
    y_ = std::move(yy);
    kernel_ = kernel;
    build_index(std::move(X), kernel_, nullptr);
}

const ParamBinding<KnnParams>& knn_params() {
    using P = KnnParams;
    static const ParamBinding<P> binding = [] {
        ParamBinding<P> b{
            bind(&P::n_neighbors, int_param("n_neighbors", 5, "number of neighbours k (at most the number of training rows)")
                                      .range(1.0, std::nullopt)
                                      .like("scikit-learn n_neighbors")),
            bind(&P::weights, choice_param("weights", "uniform", {"uniform", "distance"},
                                           "uniform: each neighbour counts 1; distance: 1/distance (zero-distance "
                                           "neighbours take all the weight)")
                                  .like("scikit-learn weights")),
            bind(&P::metric, choice_param("metric", "euclidean", {"euclidean", "manhattan", "cosine", "kernel"},
                                          "distance: euclidean, manhattan (L1), cosine (1 - cos), or kernel: "
                                          "sqrt(k(x,x) - 2k(x,z) + k(z,z)) for the `kernel` spec")
                                 .like("scikit-learn metric")),
            bind(&P::algorithm, choice_param("algorithm", "auto", {"auto", "brute", "kd_tree"},
                                             "exact search: brute (blocked matrix products), kd_tree "
                                             "(euclidean/manhattan, dense), auto = kd_tree when dense with d <= 16 "
                                             "and k < n/2, else brute; all give the same neighbours")
                                    .like("scikit-learn algorithm")),
            bind(&P::leaf_size, int_param("leaf_size", 30, "k-d tree leaf size (speed only)")
                                    .range(1.0, std::nullopt)
                                    .like("scikit-learn leaf_size")),
        };
        // kernel, gamma, degree, coef0: read only with metric=kernel.
        b.add(kernel_param_bindings("rbf"));
        return b;
    }();
    return binding;
}

ModelInfo knn_model_info() {
    ModelInfo info = model_info_of<Knn>(
        "knn", "k-nearest neighbours classifier/regressor (euclidean, manhattan, cosine or kernel-induced distance)",
        knn_params().spec(), {Task::classification, Task::regression}, {.predict_proba = true, .sparse_input = true});
    info.search_space = knn_search_space();
    return info;
}

SearchSpace knn_search_space() {
    // auto-sklearn's k-NN space (k 1..100 drawn log-uniformly there; 1..50 here), both
    // weightings and both Minkowski metrics. Every cv fold's prediction scans the
    // training rows, so large tables are left to the tree models.
    return {.axes = {"n_neighbors=randint(1,51)", "weights=choice(uniform,distance)",
                     "metric=choice(euclidean,manhattan)", "scale=standard"},
            // AutoGluon's two k-NN models, KNeighborsUnif (the defaults) and KNeighborsDist
            // (weights=distance); then a larger k for noisy labels.
            .portfolio = {"weights=distance", "n_neighbors=20 weights=distance"},
            .max_rows = 50000,
            .too_large = "k-NN predicts by scanning the training rows; more than 50000 rows",
            .cost = 2};
}

}  // namespace kestrel
