#pragma once
// What a kernel is, as the user writes it: "rbf", "poly(degree=2,coef0=1)",
// "0.7*rbf(gamma=0.5)+0.3*linear", "rbf*linear". A spec is a non-negative sum of
// terms, each a weight times a product of base kernels. Parameters left out are
// filled by resolve_kernel() from the model's defaults and the training data, so a
// fitted model always records plain numbers.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "kestrel/core/dataset.hpp"
#include "kestrel/core/params.hpp"

namespace kestrel {

enum class KernelKind {
    linear,       // x·z
    poly,         // (gamma x·z + coef0)^degree
    rbf,          // exp(-gamma ||x-z||²)
    laplacian,    // exp(-gamma ||x-z||₁)
    exponential,  // exp(-gamma ||x-z||₂); written exponential(nu=...) means gamma = 1/(2 nu)
    sigmoid,      // tanh(gamma x·z + coef0)
    min,          // Σ_j min(x_j, z_j)  (histogram intersection)
    anova,        // Σ_j exp(-gamma (x_j-z_j)²)^degree
    precomputed,  // x_{serial(z)}: the features are kernel values against the training rows
                  // (LIBSVM -t 4 without its 0:serial column); only alone, never combined
};
const char* to_string(KernelKind k);
KernelKind kernel_kind_from_string(const std::string& name);  // ParamError listing the valid names

// Which of gamma/degree/coef0 a kind reads.
bool kernel_uses_gamma(KernelKind k);
bool kernel_uses_degree(KernelKind k);
bool kernel_uses_coef0(KernelKind k);

enum class GammaRule {
    given,   // the number in `gamma`
    automatic,  // 1/num_features (LIBSVM's default)
    median,  // median heuristic on a seeded sample of the training rows
};

struct BaseKernel {
    KernelKind kind = KernelKind::rbf;
    // Unset values take the model-level defaults at resolution.
    std::optional<double> gamma;
    std::optional<GammaRule> gamma_rule;  // set when the spec says gamma=median / gamma=auto
    std::optional<int> degree;
    std::optional<double> coef0;

    bool resolved() const;  // every parameter the kind reads is a number
    bool operator==(const BaseKernel&) const = default;
};

struct KernelTerm {
    double weight = 1.0;  // >= 0
    std::vector<BaseKernel> factors;  // product; never empty
    bool operator==(const KernelTerm&) const = default;
};

struct KernelSpec {
    std::vector<KernelTerm> terms;  // sum; never empty

    // Parses the text form. Throws ParamError naming `param` ("kernel") on bad syntax,
    // unknown kernels or keys, negative weights or out-of-range values.
    static KernelSpec parse(const std::string& text, const std::string& param = "kernel");

    // Canonical text with every number written to round-trip exactly;
    // parse(to_string()) == *this.
    std::string to_string() const;
    // {"text": ..., "terms": [{"weight": w, "factors": [{"kernel": "rbf", "gamma": g}, ...]}]}
    Json to_json() const;
    static KernelSpec from_json(const Json& j);  // throws std::runtime_error-derived Error on bad input

    bool resolved() const;
    // The single base kernel when the spec is exactly one unweighted factor.
    const BaseKernel* single() const;
    bool operator==(const KernelSpec&) const = default;
};

// The model-level values used for parameters the spec leaves out (svc's gamma,
// degree, coef0 parameters, as LIBSVM's -g -d -r).
struct KernelDefaults {
    GammaRule gamma_rule = GammaRule::automatic;
    double gamma = 0.0;  // used when gamma_rule == given
    int degree = 3;
    double coef0 = 0.0;
};


// Fills every unset parameter: gamma from the rule (1/num_features, or the median
// heuristic on at most `median_sample` rows drawn with `seed`), degree and coef0
// from the defaults. The result is resolved().
KernelSpec resolve_kernel(const KernelSpec& spec, const KernelDefaults& defaults, const Features& X,
                          std::uint64_t seed, Index median_sample = 1000);

// Median of the pairwise distances between the rows of a seeded sample of X (all rows
// when X has at most `sample` rows). `l1` selects the L1 distance, else Euclidean.
double median_pairwise_distance(const Features& X, bool l1, std::uint64_t seed, Index sample = 1000);

}  // namespace kestrel
