#pragma once
// Generic multiclass strategies around any binary classifier. The wrapper carries the
// wrapped model's name and parameters, so model files and grids look the same whether
// a model is wrapped or not; its state nests one state per member.
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "kestrel/core/estimator.hpp"

namespace kestrel {

using MemberFactory = std::function<std::unique_ptr<Estimator>()>;

class MulticlassWrapper : public Estimator {
public:
    explicit MulticlassWrapper(MemberFactory make_member);
    // With two classes, save and load the single member's state as it is (no nesting).
    void set_transparent(bool on) { transparent_ = on; }
    bool has_decision_function() const override { return prototype_->has_decision_function(); }
    bool has_predict_proba() const override { return prototype_->has_predict_proba(); }
    bool supports_sparse() const override { return prototype_->supports_sparse(); }
    bool fits_sharded_rows() const override { return prototype_->fits_sharded_rows(); }
    bool absent_is_missing() const override { return prototype_->absent_is_missing(); }
    bool has_contributions() const override { return false; }  // one model per class: no one sum
    bool native_missing() const override { return prototype_->native_missing(); }
    bool native_categories() const override { return prototype_->native_categories(); }
    bool supports_sample_weights() const override { return prototype_->supports_sample_weights(); }
    // With two classes the single member is the model, and its reports (e.g. linear_svm's
    // c_search) are the model's; k > 2 members have none in common.
    std::vector<std::string> report_names() const override;
    // With two classes the single member's weights are the model's; k > 2 members have none in common.
    Eigen::MatrixXd linear_weights() const override {
        return direct_ ? members_[0]->linear_weights() : Eigen::MatrixXd();
    }
    // With two classes, the one member that is the model (its coefficients); else null.
    const Estimator* direct_member() const { return direct_ ? members_[0].get() : nullptr; }
    // The fitted members in problems(k)'s order, and the strategy's name ("ovr", "ovo",
    // "ecoc"): what an exporter needs to rebuild member_scores and combine_decisions.
    const std::vector<std::unique_ptr<Estimator>>& fitted_members() const { return members_; }
    std::string strategy_name() const { return strategy(); }

protected:
    virtual const char* strategy() const = 0;
    // The binary problems for k classes: (negative classes, positive classes) per member.
    virtual std::vector<std::pair<std::vector<Index>, std::vector<Index>>> problems(Index k) const = 0;
    // How many members problems(k) has, without building them (a double: ovo over a
    // label column of ids has k(k-1)/2 of them).
    virtual double member_count(Index k) const = 0;
    // Combines member scores (n x members) into n x k class scores.
    virtual Matrix combine_decisions(const Matrix& member_scores) const = 0;
    virtual Matrix combine_probabilities(const std::vector<Matrix>& member_proba) const = 0;
    // With two classes, use one member on the data as it is (ovr, ovo) or still the strategy's problems (ecoc).
    virtual bool direct_for_two_classes() const { return true; }
    // Whether member_scores are decision values (else P(positive) - 1/2).
    bool members_give_decisions() const { return prototype_->has_decision_function(); }

    void do_fit(const Dataset& data, const Context& ctx) override;
    void do_fit_owned(Dataset&& data, const Context& ctx) override;
    Vector do_predict(const Features& X) const override;
    Matrix do_decision_function(const Features& X) const override;
    Matrix do_predict_proba(const Features& X) const override;
    Json do_save_state() const override;
    void do_load_state(const Json& state) override;
    std::string do_report(const std::string& report_name, const ReportNames& names) const override;

    Matrix member_scores(const Features& X) const;  // n x members: decision, or P(positive) - 1/2
    // Refuses (DataError, check_memory) k classes whose members cannot all be kept:
    // member_count(k) x (the member's fitted_bytes_lower_bound + its problem's record).
    void check_member_memory(const Dataset& data) const;

    Index k_ = 0;  // classes seen at fit
    bool direct_ = false;  // k == 2: a single member used as it is

private:

    MemberFactory make_member_;
    bool transparent_ = false;
    std::unique_ptr<Estimator> prototype_;
    std::vector<std::unique_ptr<Estimator>> members_;
};

class OneVsRest final : public MulticlassWrapper {
public:
    using MulticlassWrapper::MulticlassWrapper;

protected:
    const char* strategy() const override { return "ovr"; }
    std::vector<std::pair<std::vector<Index>, std::vector<Index>>> problems(Index k) const override;
    double member_count(Index k) const override { return static_cast<double>(k); }
    Matrix combine_decisions(const Matrix& member_scores) const override;
    Matrix combine_probabilities(const std::vector<Matrix>& member_proba) const override;
};

class OneVsOne final : public MulticlassWrapper {
public:
    using MulticlassWrapper::MulticlassWrapper;

protected:
    const char* strategy() const override { return "ovo"; }
    std::vector<std::pair<std::vector<Index>, std::vector<Index>>> problems(Index k) const override;
    double member_count(Index k) const override { return static_cast<double>(k) * static_cast<double>(k - 1) / 2; }
    // Votes (LIBSVM's rule: a positive score votes for the second class of the pair),
    // plus a bounded confidence term as scikit-learn's ovr-shaped decision function,
    // so ties in votes break by confidence and never flip a vote majority.
    Matrix combine_decisions(const Matrix& member_scores) const override;
    // Pairwise coupling (Wu, Lin & Weng 2004, method 2).
    Matrix combine_probabilities(const std::vector<Matrix>& member_proba) const override;
    Vector do_predict(const Features& X) const override;
};

// Pairwise coupling of r_ij = P(class i | i or j) into class probabilities (Wu, Lin &
// Weng 2004, method 2, as LIBSVM's multiclass_probability). `r` is k x k.
Vector pairwise_coupling(const Matrix& r);

// Builds the wrapper for a strategy name ("ovr", "ovo" or "ecoc").
// `transparent`: with two classes the state is the single member's own, as if the model
// were not wrapped (for models wrapped only because their parameters make them binary).
std::unique_ptr<Estimator> make_multiclass_wrapper(const std::string& strategy, MemberFactory make_member,
                                                   bool transparent = false);

// What the wrapper of `strategy` answers (has_predict_proba and the rest) around a member
// with capabilities `member`, so that a declaration can say it before any is made: the
// member's, except no contributions, eval sets, early stopping or continued training (one
// model per problem, none of them the whole), and for ecoc decision values (the decoding
// scores) without probabilities. UsageError for an unknown strategy.
Capabilities wrapped_capabilities(const std::string& strategy, Capabilities member);

}  // namespace kestrel
