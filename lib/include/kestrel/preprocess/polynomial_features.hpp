#pragma once
// The preprocessing step "poly": all monomials of the input features up to a degree,
// as scikit-learn's PolynomialFeatures(degree, interaction_only, include_bias=False):
// the same columns in the same order (by degree, then lexicographically by feature
// index), the same names ("a", "a^2", "a b"). Sparse rows expand their non-zeros only.
// In a model's pipeline it comes after imputation and column selection and before
// scaling (docs/preprocessing.md). Its spec text is
// "poly:degree=D[,interaction_only=1][,max_width=N]".
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "kestrel/preprocess/transformer.hpp"

namespace kestrel {

inline constexpr std::uint64_t kDefaultMaxPolyWidth = 1'000'000;

struct PolyOptions {
    int degree = 2;
    bool interaction_only = false;
    std::uint64_t max_width = kDefaultMaxPolyWidth;  // fit refuses a wider expansion (--max-poly-width)
};

// The number of output columns for d input features, exact; saturates at
// UINT64_MAX when it does not fit.
std::uint64_t poly_width(Index d, int degree, bool interaction_only);

// The expansion itself (no width limit; the step checks that before calling it).
Features polynomial_features(const Features& X, int degree, bool interaction_only);

// Output names for the input names `in` (scikit-learn's get_feature_names_out).
std::vector<std::string> poly_feature_names(const std::vector<std::string>& in, int degree, bool interaction_only);

std::string poly_step_spec(const PolyOptions& o);
bool is_poly_step(const std::string& spec);  // "poly" or "poly:..."
PolyOptions parse_poly_step(const std::string& spec);  // UsageError on a malformed spec

// The step for a spec text ("poly" alone is the empty step that from_json fills).
std::unique_ptr<Transformer> make_poly_step(const std::string& spec);

// Puts the poly step of `o` into a list of step specs at its place in the pipeline
// (after impute_mean and select_columns, before scaling), replacing any poly step
// there; degree 1 (the identity) removes it instead.
void set_poly_step(std::vector<std::string>& steps, const PolyOptions& o);

}  // namespace kestrel
