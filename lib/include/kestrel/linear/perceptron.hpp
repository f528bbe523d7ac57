#pragma once
// Rosenblatt's perceptron (docs/models/perceptron.md): w ← w + η c_i y_i x_i on each
// misclassified row, epochs over a seeded shuffle, optionally averaged. Binary; k > 2
// classes go through one-vs-rest.
#include "kestrel/core/estimator.hpp"
#include "kestrel/core/model_info.hpp"

namespace kestrel {

class Perceptron : public Estimator {
public:
    const Vector& coef() const { return coef_; }
    double intercept() const { return intercept_; }
    int epochs() const { return epochs_; }  // epochs run by the last fit; not saved

protected:
    void do_fit(const Dataset& data, const Context& ctx) override;
    Matrix do_decision_function(const Features& X) const override;
    Json do_save_state() const override;
    void do_load_state(const Json& state) override;

private:
    Vector coef_;
    double intercept_ = 0;
    int epochs_ = 0;
};

ModelInfo perceptron_model_info();

}  // namespace kestrel
