#pragma once
// `adaboost` (docs/models/adaboost.md): discrete AdaBoost exactly as Freund & Schapire
// for two classes, SAMME (Zhu, Zou, Rosset & Hastie 2009) for more, over any weak
// learner that accepts sample weights (default: a decision stump, tree(max_depth=1)).
#include <memory>
#include <vector>

#include "kestrel/core/param_binding.hpp"
#include "kestrel/core/estimator.hpp"
#include "kestrel/core/model_info.hpp"

namespace kestrel {

// One boosting round, for --trace: weighted error of h_t under D_t, its weight α_t,
// and the training error of the ensemble after the round (sample-weighted).
struct BoostRound {
    double error = 0, alpha = 0, train_error = 0;
};

struct AdaBoostParams : ClassWeightParams {
    long long n_estimators = 50;
    double learning_rate = 1;
    Json base;  // {"model": name, "params": {...}}
};
const ParamBinding<AdaBoostParams>& adaboost_params();

class AdaBoost : public Estimator {
public:
    // `learners` makes the weak learner named by `base` (the pipeline's registry).
    explicit AdaBoost(const EstimatorMaker& learners) : maker_(learners) {}

    const std::vector<BoostRound>& rounds() const { return rounds_; }
    const std::vector<std::unique_ptr<Estimator>>& learners() const { return learners_; }

protected:
    void on_params(const Params& resolved) override;
    void do_fit(const Dataset& data, const Context& ctx) override;
    Matrix do_decision_function(const Features& X) const override;
    std::string do_report(const std::string& report_name, const ReportNames& names) const override;
    std::string do_explain_row(const double* row, const ReportNames& names, const std::string& indent) const override;
    Json do_save_state() const override;
    void do_load_state(const Json& state) override;

private:
    AdaBoostParams p_;
    std::unique_ptr<Estimator> make_base(const Json& spec) const;

    const EstimatorMaker& maker_;
    std::vector<std::unique_ptr<Estimator>> learners_;
    std::vector<BoostRound> rounds_;
};

// The model, its weak learners made by `learners` (which must outlive every AdaBoost
// it makes).
ModelInfo adaboost_model_info(const EstimatorMaker& learners);

// The distribution update D_{t+1}(i) = D_t(i) · exp(α · m_i) / Z with m_i = +1 for a
// mistake of h_t and −1 otherwise (Freund & Schapire, binary), or m_i = 1 / 0 (SAMME,
// `samme`). Returns the normalised D_{t+1}.
Vector adaboost_update(const Vector& D, const std::vector<char>& mistake, double alpha, bool samme);

}  // namespace kestrel
