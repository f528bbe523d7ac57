#pragma once
// Lasso and elastic net (docs/models/lasso.md, docs/models/elastic_net.md): glmnet's
// objective solved by coordinate descent along a warm-started λ path
// (kestrel/optim/coordinate_descent.hpp). One class serves both registry names:
// `lasso` is the elastic net with l1_ratio fixed at 1.
#include "kestrel/core/param_binding.hpp"
#include "kestrel/linear/linear_model.hpp"
#include "kestrel/core/model_info.hpp"
#include "kestrel/optim/coordinate_descent.hpp"

namespace kestrel {

struct ElasticNetParams : InterceptParams, IterationParams {
    double l1_ratio = 1.0;          // 1 for lasso, whose spec does not have it
    RealOrWord lambda;              // a number, or "auto" (the path's end)
    long long n_lambda = 100;
    RealOrWord lambda_min_ratio;    // a number, or "auto"
    std::string updates;
    bool standardize = false;
};
const ParamBinding<ElasticNetParams>& lasso_params();
const ParamBinding<ElasticNetParams>& elastic_net_params();

class ElasticNet : public LinearModel {
public:
    double lambda() const { return lambda_; }
    // The λ path of the last fit in this process (for `--path`); not part of the saved state.
    const ElasticNetPath& path() const { return path_; }
    std::optional<RegularizationPath> regularization_path() const override {
        return RegularizationPath{path_.lambdas, path_.coef};
    }

protected:
    void on_params(const Params& resolved) override;
    void do_fit(const Dataset& data, const Context& ctx) override;
    std::string do_report(const std::string& report_name, const ReportNames& names) const override;
    Json do_save_state() const override;
    void do_load_state(const Json& state) override;

private:
    ElasticNetParams p_;
    double lambda_ = 0;
    ElasticNetPath path_;
    std::vector<std::string> feature_names_;  // for the path's header
};

ModelInfo lasso_model_info();
ModelInfo elastic_net_model_info();

}  // namespace kestrel
