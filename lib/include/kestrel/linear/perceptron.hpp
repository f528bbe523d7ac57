#pragma once
// Rosenblatt's perceptron (docs/models/perceptron.md): w ← w + η c_i y_i x_i on each
// misclassified row, epochs over a seeded shuffle, optionally averaged. Binary; k > 2
// classes go through one-vs-rest.
#include "kestrel/core/param_binding.hpp"
#include "kestrel/linear/linear_model.hpp"
#include "kestrel/core/model_info.hpp"

namespace kestrel {

struct PerceptronParams : InterceptParams, ClassWeightParams {
    double eta = 1;
    long long max_iter = 1000;
    RealOrWord tol;  // a number, or "none" (scikit-learn's tol=None)
    long long n_iter_no_change = 5;
    bool shuffle = true;
    bool averaged = false;
};
const ParamBinding<PerceptronParams>& perceptron_params();

class Perceptron : public LinearModel {
public:
    int epochs() const { return epochs_; }  // epochs run by the last fit; not saved

protected:
    void on_params(const Params& resolved) override;
    void do_fit(const Dataset& data, const Context& ctx) override;

private:
    PerceptronParams p_;
    int epochs_ = 0;
};

ModelInfo perceptron_model_info();

}  // namespace kestrel
