#pragma once
// Lasso and elastic net (docs/models/lasso.md, docs/models/elastic_net.md): glmnet's
// objective solved by coordinate descent along a warm-started λ path
// (kestrel/optim/coordinate_descent.hpp). One class serves both registry names:
// `lasso` is the elastic net with l1_ratio fixed at 1.
#include "kestrel/core/estimator.hpp"
#include "kestrel/core/model_info.hpp"
#include "kestrel/optim/coordinate_descent.hpp"

namespace kestrel {

class ElasticNet : public Estimator {
public:
    const Vector& coef() const { return coef_; }
    double intercept() const { return intercept_; }
    double lambda() const { return lambda_; }
    // The λ path of the last fit in this process (for `--path`); not part of the saved state.
    const ElasticNetPath& path() const { return path_; }
    std::optional<RegularizationPath> regularization_path() const override {
        return RegularizationPath{path_.lambdas, path_.coef};
    }
    // "path": the λ path of the last fit as CSV (path_to_csv), for `kestrel-train --path`.
    std::vector<std::string> report_names() const override { return {"path"}; }

protected:
    void do_fit(const Dataset& data, const Context& ctx) override;
    Vector do_predict(const Features& X) const override;
    std::string do_report(const std::string& report_name, const ReportNames& names) const override;
    Json do_save_state() const override;
    void do_load_state(const Json& state) override;

private:
    Vector coef_;
    double intercept_ = 0;
    double lambda_ = 0;
    ElasticNetPath path_;
    std::vector<std::string> feature_names_;  // for the path's header
};

ModelInfo lasso_model_info();
ModelInfo elastic_net_model_info();

}  // namespace kestrel
