#pragma once
// k-nearest neighbours (docs/models/knn.md), classifier and regressor: the prediction
// for x comes from the k training rows nearest to x under the metric (euclidean,
// manhattan, cosine, or the distance a kestrel kernel induces), weighted uniformly or
// by 1/distance. The learned state is the training set itself, as scikit-learn's.
#include "kestrel/core/estimator.hpp"
#include "kestrel/core/model_info.hpp"
#include "kestrel/core/search_space.hpp"
#include "kestrel/kernels/kernel_params.hpp"
#include "kestrel/kernel_methods/knn_search.hpp"

namespace kestrel {

struct KnnParams : KernelParams {
    long long n_neighbors = 5;
    std::string weights, metric, algorithm;
    long long leaf_size = 30;
};
const ParamBinding<KnnParams>& knn_params();

class Knn final : public Estimator {
public:
    // The n_neighbors nearest training rows of each row of X (scikit-learn's kneighbors).
    Neighbors kneighbors(const Features& X) const;
    const KnnIndex& index() const { return index_; }
    // The training rows' class indices (classification) or targets, and the parameters read.
    const Vector& targets() const { return y_; }
    const KnnParams& settings() const { return p_; }
    // The resolved kernel of metric=kernel; nullopt for the other metrics.
    const std::optional<KernelSpec>& kernel() const { return kernel_; }

protected:
    void on_params(const Params& resolved) override { p_ = knn_params().read(resolved); }
    void do_fit(const Dataset& data, const Context& ctx) override;
    Vector do_predict(const Features& X) const override;
    Matrix do_predict_proba(const Features& X) const override;
    Json do_save_state() const override;
    Json do_save_state_for_file(JsonTextSlots& slots) const override;  // the rows as text slots
    void do_load_state(const Json& state) override;

private:
    KnnParams p_;
    Json state_json(JsonTextSlots* slots) const;
    // Builds index_ from the stored training rows and the parameters.
    void build_index(Features train, std::optional<KernelSpec> kernel, const Context* ctx);
    // Per-neighbour weights of query i: 1, or 1/distance where any zero distance
    // gives weight 1 to the zero-distance neighbours and 0 to the rest (scikit-learn).
    void weights_of(const Neighbors& nb, Index i, double* w) const;

    KnnIndex index_;
    Vector y_;                          // class index or target per training row
    std::optional<KernelSpec> kernel_;  // resolved, metric=kernel only
};

ModelInfo knn_model_info();
SearchSpace knn_search_space();  // kestrel-auto and kestrel-gridsearch without -g

}  // namespace kestrel
