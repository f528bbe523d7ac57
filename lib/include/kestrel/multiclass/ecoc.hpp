#pragma once
// Error-correcting output codes (multiclass=ecoc) around any binary model
// (docs/models/multiclass.md). Class c has a codeword, row c of a k x L matrix of
// ±1; member m learns "classes with +1 in column m" against "classes with -1". A row
// is given the class whose codeword its L member outputs are closest to, by Hamming
// distance of the signs or by the summed loss of the margins (Allwein, Schapire &
// Singer 2000). L = floor(code_size · k), as scikit-learn's OutputCodeClassifier.
#include <cstdint>
#include <string>

#include "kestrel/multiclass/multiclass_wrapper.hpp"

namespace kestrel {

using CodeMatrix = Eigen::MatrixXi;  // k x L, entries -1 or +1

// A dense random code: L = max(1, floor(code_size · k)) columns of seeded random
// signs. Constant columns (no binary problem) are never drawn; a column equal to an
// earlier one or to its complement (the same problem) is redrawn while distinct
// problems remain (there are 2^(k-1) - 1); the matrix is redrawn when two classes
// share a codeword and L allows them all to differ.
CodeMatrix random_ecoc_code(Index k, double code_size, std::uint64_t seed);

// Decoding of n x L member outputs into n x k class scores (larger is closer).
// Hamming: -(Σ_m (1 - sign(s_m) M_cm) / 2), ties broken by the loss below scaled into
// [0, 1/3) so that it never overturns a Hamming difference.
Matrix ecoc_decode_hamming(const Matrix& margins, const CodeMatrix& code);
// Loss-based: -Σ_m log(1 + exp(-M_cm z_m)), z the member's margin (its decision value,
// or logit P(positive) for a member with probabilities only, so that the loss is the
// member's log loss on the codeword's side).
Matrix ecoc_decode_loss(const Matrix& margins, const CodeMatrix& code);

class Ecoc final : public MulticlassWrapper {
public:
    using MulticlassWrapper::MulticlassWrapper;
    // The decoding scores serve as the decision function; ECOC has no probabilities
    // (as scikit-learn's OutputCodeClassifier).
    bool has_decision_function() const override { return true; }
    bool has_predict_proba() const override { return false; }
    const CodeMatrix& code() const { return code_; }

protected:
    const char* strategy() const override { return "ecoc"; }
    bool direct_for_two_classes() const override { return false; }
    std::vector<std::pair<std::vector<Index>, std::vector<Index>>> problems(Index k) const override;
    double member_count(Index) const override { return static_cast<double>(code_.cols()); }
    Matrix combine_decisions(const Matrix& member_scores) const override;
    Matrix combine_probabilities(const std::vector<Matrix>& member_proba) const override;
    void do_fit(const Dataset& data, const Context& ctx) override;
    Json do_save_state() const override;
    void do_load_state(const Json& state) override;

private:
    CodeMatrix code_;
};

}  // namespace kestrel
