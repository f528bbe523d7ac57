#pragma once
// `adaboost` (docs/models/adaboost.md): discrete AdaBoost exactly as Freund & Schapire
// for two classes, SAMME (Zhu, Zou, Rosset & Hastie 2009) for more, over any weak
// learner that accepts sample weights (default: a decision stump, tree(max_depth=1)).
#include <memory>
#include <vector>

#include "kestrel/core/estimator.hpp"
#include "kestrel/core/registry.hpp"

namespace kestrel {

// One boosting round, for --trace: weighted error of h_t under D_t, its weight α_t,
// and the training error of the ensemble after the round (sample-weighted).
struct BoostRound {
    double error = 0, alpha = 0, train_error = 0;
};

class AdaBoost : public Estimator {
public:
    bool has_decision_function() const override { return true; }
    bool supports_sample_weights() const override { return true; }
    // As its weak learner: a sparse matrix then reaches a tree base without densifying.
    bool supports_sparse() const override;
    bool absent_is_missing() const override;  // as its weak learner
    std::vector<std::string> report_names() const override { return {"trace", "tree"}; }

    const std::vector<BoostRound>& rounds() const { return rounds_; }
    const std::vector<std::unique_ptr<Estimator>>& learners() const { return learners_; }

protected:
    void do_fit(const Dataset& data, const Context& ctx) override;
    Matrix do_decision_function(const Features& X) const override;
    std::string do_report(const std::string& report_name, const ReportNames& names) const override;
    Json do_save_state() const override;
    void do_load_state(const Json& state) override;

private:
    bool base_has(bool (Estimator::*property)() const) const;

    std::vector<std::unique_ptr<Estimator>> learners_;
    std::vector<BoostRound> rounds_;
};

ModelInfo adaboost_model_info();

// The distribution update D_{t+1}(i) = D_t(i) · exp(α · m_i) / Z with m_i = +1 for a
// mistake of h_t and −1 otherwise (Freund & Schapire, binary), or m_i = 1 / 0 (SAMME,
// `samme`). Returns the normalised D_{t+1}.
Vector adaboost_update(const Vector& D, const std::vector<char>& mistake, double alpha, bool samme);

}  // namespace kestrel
